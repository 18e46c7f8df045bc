// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// NCCL under the Communicator's StreamExchange: halo planes go GPU to GPU (NVLink, or the
// network between hosts) in the order of the CUDA stream, with no host synchronisation.
// NCCL is not a Debian package: the library is opened at run time (libnccl.so.2), so the
// program starts, and runs through MPI, where it is absent. Built where nccl.h is found
// (CELLFORGE_HAVE_NCCL); CELLFORGE_NCCL=0 in the environment turns it off at run time.
#include <memory>
#include <string>

#include "sim/dist/communicator.hpp"

namespace cf::dist {

// A StreamExchange over `comm`'s ranks on the current CUDA device, or null with `why` set
// (no library, no device, or the environment said no). Collective.
std::unique_ptr<StreamExchange> makeNcclExchange(Communicator& comm, std::string& why);

// "NCCL 2.28.9" when the library opens here, else why not (for `backends`).
std::string ncclDescription();

}  // namespace cf::dist
