// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The compiled reaction network of `lattice`: plain data sized for CUDA constant memory
// (16 reactions: 16 x 32 bytes + 16), read by the per-site reaction step
// (reaction_site.hpp) on both backends. Built on the host by compileReactions
// (reaction_network.hpp) from rates in deterministic units.
#include <cstdint>

namespace cf::lattice {

inline constexpr int kMaxReactions = 16;
inline constexpr int kMaxReactants = 2;
inline constexpr int kMaxProducts = 4;

// One reaction. Its propensity per step in a site holding n_s particles of species s is
//   order 0: perStep,  order 1: perStep n_a,  order 2 (a != b): perStep n_a n_b,
//   order 2 (a == b, the self reaction 2A): perStep n_a (n_a - 1)
// with perStep = k_stoch tau (see compileReactions for k_stoch).
struct ReactionEntry {
    double perStep;
    std::int32_t order;      // 0, 1 or 2
    std::uint16_t a, b;      // reactant species ids, 0 where the order has none
    std::uint32_t siteMask;  // bit t set: allowed in sites of type t (siteTypeBit)
    std::int32_t productCount;
    std::uint16_t products[kMaxProducts];  // species ids of the products
};

struct ReactionTable {
    std::int32_t count;         // reactions in use
    std::int32_t speciesCount;  // species ids 1..speciesCount take part; larger ids (tracers)
                                // appear in no reaction, so they never react
    std::uint32_t anySiteMask;  // union of the masks: sites of other types skip all work
    std::uint32_t pad;
    ReactionEntry reactions[kMaxReactions];
};

}  // namespace cf::lattice
