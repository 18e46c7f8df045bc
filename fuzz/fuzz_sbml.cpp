// SPDX-License-Identifier: GPL-3.0-or-later
// SBML import of reaction networks (libsbml), through a file as the model reads it.
#include "fuzz/fuzz_support.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path file = cf::fuzz::scratchFile(".xml");
    cf::fuzz::writeScratch(file, data, size);
    cf::fuzz::expectTypedErrorsOnly([&] { (void)cf::lattice::loadSbmlNetwork(file); });
    return 0;
}
