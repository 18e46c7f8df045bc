// SPDX-License-Identifier: GPL-3.0-or-later
// Stands in for sbml_import.cpp in builds without libsbml (Debian's libsbml5-dev).
#include "sim/core/errors.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

namespace cf::lattice {

ReactionNetwork loadSbmlNetwork(const std::filesystem::path& file, SbmlLaws) {
    throw InputFileError(
        file.string() +
        ": this build of Cellforge has no SBML support (libsbml was not found when it "
        "was configured; install libsbml5-dev and rebuild)");
}

}  // namespace cf::lattice
