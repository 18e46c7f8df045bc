// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The `lattice` model on the test's backend (shared by the lattice test files).
#include "sim/models/lattice/lattice_model.hpp"
#include "tests/support/model_fixture.hpp"

namespace cf::test {

using LatticeFixture = ModelFixture<&lattice::descriptor>;

}  // namespace cf::test
