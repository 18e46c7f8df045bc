// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `lattice` draws (lattice_views.cpp; the metrics it defines are declared in
// lattice_model.hpp).
#include <cstdint>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/lattice/lattice_model.hpp"

namespace cf::lattice {

// Cloud "particles": one point per particle at its site centre, offset by slot on a small
// circle so stacked particles show, radius lambda / 4, category "species" (labels: the
// species names). Species and site types have distinct declared colours.
// Metrics name species by their names: count_<name>, count_<name>_<region>, msd_<name>.
// Volume "lattice": scalar channels "occupancy" (all species) and "occupancy <name>" per
// species, each with a colour range from 0 to a top that fits its declared particles over
// the `freeSites` cytoplasm sites, and category "site type" (kSiteTypeNames), when the
// lattice has at most kMaxVolumeSites sites (beyond that the float channels would take
// more memory than the lattice itself).
struct ViewBuffers {
    std::vector<float> xyzr;
    std::vector<std::uint8_t> species;
    std::vector<float> occupancy;  // (speciesCount + 1) planes of `sites` values
    std::vector<std::uint8_t> siteTypes;
};
inline constexpr std::uint32_t kMaxVolumeSites = 1u << 24;
bool volumeShown(const Geometry& g);
// The volume's layout (names, box, ranges, colours) with null data pointers.
VolumeView volumeLayout(const LatticeParams& p, const Geometry& g, std::size_t freeSites);
ModelViews hostViews(const LatticeParams& p, const Geometry& g, const HostState& s,
                     ViewBuffers& buffers);

}  // namespace cf::lattice
