// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Site types of the `lattice` model: fixed codes shared by the geometry, the diffusion
// sweep and the reaction step (code 0 is the default everywhere, so a lattice without
// geometry is all cytoplasm). Reactions are allowed per site type through a bit mask
// (bit t = type t). Safe to include from CUDA sources: the name table and the parser are
// host-only constexpr, the codes and masks are plain constants.
#include <cstdint>
#include <string_view>

#include "sim/core/host_device.hpp"

namespace cf::lattice {

inline constexpr std::uint8_t kSiteCytoplasm = 0;  // free space
inline constexpr std::uint8_t kSiteObstacle = 1;   // reflective, holds no particles
inline constexpr std::uint8_t kSiteMembrane = 2;
inline constexpr std::uint8_t kSiteOutside = 3;  // extracellular space
inline constexpr int kSiteTypeCount = 4;

inline constexpr std::string_view kSiteTypeNames[kSiteTypeCount] = {"cytoplasm", "obstacle",
                                                                    "membrane", "outside"};

// Bit of site type t in a reaction's site mask; types >= 32 are in no mask (they never react).
CF_HD constexpr std::uint32_t siteTypeBit(std::uint32_t type) {
    return type < 32u ? (1u << type) : 0u;
}

// Where a reaction may happen unless the network says otherwise: everywhere particles live.
inline constexpr std::uint32_t kDefaultReactionSites =
    (1u << kSiteCytoplasm) | (1u << kSiteMembrane) | (1u << kSiteOutside);

// The code of a site type name ("cytoplasm" -> 0), or -1 when the name is unknown.
constexpr int siteTypeByName(std::string_view name) {
    for (int t = 0; t < kSiteTypeCount; ++t)
        if (kSiteTypeNames[t] == name) return t;
    return -1;
}

}  // namespace cf::lattice
