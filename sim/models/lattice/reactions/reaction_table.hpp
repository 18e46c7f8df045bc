// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The compiled reaction network of `lattice`: plain data sized for CUDA constant memory
// (16 reactions: 16 x 32 bytes + 16), read by the per-site reaction step
// (reaction_site.hpp) on both backends. Built on the host by compileReactions
// (reaction_network.hpp) from rates in deterministic units.
#include <cstdint>

#include "sim/core/host_device.hpp"

namespace cf::lattice {

inline constexpr int kMaxReactions = 16;
inline constexpr int kMaxReactants = 2;
inline constexpr int kMaxProducts = 4;  // product slots of a reaction
// The last slot's species may be made more than once ("-> 100 X"): up to this many copies.
// Beyond the first kMaxProducts products, the copies go straight to the overflow list
// (lattice_react.hpp), whose records number a site's particles in 8 bits.
inline constexpr int kMaxProductCopies = 128;

// One reaction. Its propensity per step in a site holding n_s particles of species s is
//   order 0: perStep,  order 1: perStep n_a,  order 2 (a != b): perStep n_a n_b,
//   order 2 (a == b, the self reaction 2A): perStep n_a (n_a - 1)
// with perStep = k_stoch tau (see compileReactions for k_stoch).
struct ReactionEntry {
    double perStep;
    std::int32_t order;                    // 0, 1 or 2
    std::uint16_t a, b;                    // reactant species ids, 0 where the order has none
    std::uint32_t siteMask;                // bit t set: allowed in sites of type t (siteTypeBit)
    std::int16_t productCount;             // product slots in use, 0..kMaxProducts
    std::uint16_t lastCopies;              // copies of the last slot's species made (>= 1)
    std::uint16_t products[kMaxProducts];  // species ids of the products
};

// How many particles one firing makes: each slot once, the last lastCopies times.
CF_HD int productsMade(const ReactionEntry& e) {
    return e.productCount == 0 ? 0 : e.productCount - 1 + e.lastCopies;
}
// The species of the k-th particle made (0 <= k < productsMade(e)).
CF_HD std::uint16_t productAt(const ReactionEntry& e, int k) {
    return e.products[k < e.productCount ? k : e.productCount - 1];
}

struct ReactionTable {
    std::int32_t count;         // reactions in use
    std::int32_t speciesCount;  // species ids 1..speciesCount take part; larger ids (tracers)
                                // appear in no reaction, so they never react
    std::uint32_t anySiteMask;  // union of the masks: sites of other types skip all work
    std::uint32_t pad;
    ReactionEntry reactions[kMaxReactions];
};

}  // namespace cf::lattice
