// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The job's ranks in a test started by mpirun (tests/support/rank_test_main.cpp).
#include "sim/dist/communicator.hpp"

namespace cf::test {

dist::Communicator& ranks();

}  // namespace cf::test
