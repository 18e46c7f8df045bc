// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The reaction phase of one site after the three diffusion sweeps, shared by the CPU
// reference and the CUDA kernel: decode, reactSite (reactions/reaction_site.hpp), write
// back what fits. Each site touches only itself, so the update is in place.
#include <cstdint>

#include "sim/core/host_device.hpp"
#include "sim/models/lattice/lattice_overflow.hpp"
#include "sim/models/lattice/lattice_sweep.hpp"
#include "sim/models/lattice/reactions/reaction_site.hpp"

namespace cf::lattice {

// A tracked particle consumed by a reaction keeps its id out of every site from then on;
// its displacement's x component takes this marker so the MSD skips it.
inline constexpr std::int32_t kRetiredDisplacement = INT32_MIN;

struct SiteReactionOutcome {
    int reaction;  // -1: none fired
    int overflowCount;
    Overflow overflow[kMaxProducts];  // what did not fit (order = its position in the list)
    // Copies of the reaction's last product beyond the list ("-> 100 X"): `excess` more
    // overflows of `excessSpecies`, untracked, numbered from `excessOrder`. Set only where a
    // reaction fired (most sites return before: nothing more to write for them).
    std::uint8_t excess, excessOrder;
    std::uint16_t excessSpecies;
};

// The k-th of the excess copies as an overflow record of site i (both backends append them
// after the listed ones, so the sorted re-insertion sees the same records).
CF_HD Overflow excessOverflow(const SiteReactionOutcome& r, std::uint32_t i, int k) {
    return Overflow{i, 0u, r.excessSpecies, static_cast<std::uint8_t>(r.excessOrder + k), 0};
}

CF_HD SiteReactionOutcome reactInSite(const Geometry& g, std::uint32_t* words,
                                      const std::uint8_t* types, std::uint32_t* ids,
                                      std::int32_t* displacement, std::uint64_t step,
                                      std::uint32_t i) {
    SiteReactionOutcome out;
    out.reaction = -1;
    out.overflowCount = 0;
    const std::uint8_t type = siteType(g, words, types, i);
    if ((g.reactions.anySiteMask & siteTypeBit(type)) == 0) return out;
    std::uint16_t sp[kMaxSlots + kMaxProducts];
    std::uint32_t id[kMaxSlots + kMaxProducts] = {};
    const int n = decodeSite(g, words, i, sp);
    if (ids)
        for (int k = 0; k < n; ++k)
            id[k] = ids[static_cast<std::size_t>(k) * g.sites + i];
    const SiteReaction r =
        reactSite(g.reactions, type, sp, ids ? id : nullptr, n, step, globalSiteOf(g, i), g.seed);
    if (r.reaction < 0) return out;
    out.reaction = r.reaction;
    // Copies of the last product beyond the list stay in the site while it has room (the
    // list has room for kMaxSlots + kMaxProducts entries, the site at most kMaxSlots).
    int count = r.count, excess = r.excess;
    const ReactionEntry& fired = g.reactions.reactions[r.reaction];
    const std::uint16_t last = excess > 0 ? fired.products[fired.productCount - 1] : 0;
    for (; excess > 0 && count < g.capacity; --excess, ++count) {
        sp[count] = last;
        id[count] = 0u;
    }
    const int keep = count < g.capacity ? count : g.capacity;
    encodeSite(g, words, i, type, sp, keep);
    if (ids) {
        for (int k = 0; k < keep; ++k)
            ids[static_cast<std::size_t>(k) * g.sites + i] = id[k];
        for (int k = keep; k < n; ++k)  // slots this site no longer uses
            ids[static_cast<std::size_t>(k) * g.sites + i] = 0u;
        for (std::uint32_t gone : r.consumedIds)
            if (gone != 0) displacement[3 * (gone - 1)] = kRetiredDisplacement;
    }
    for (int k = keep; k < count; ++k)
        out.overflow[out.overflowCount++] =
            Overflow{i, id[k], sp[k], static_cast<std::uint8_t>(k), 0};
    out.excess = static_cast<std::uint8_t>(excess);  // < kMaxProductCopies
    out.excessSpecies = last;
    out.excessOrder = static_cast<std::uint8_t>(count);
    return out;
}

}  // namespace cf::lattice
