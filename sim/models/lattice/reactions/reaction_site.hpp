// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The reaction step of one lattice site (Lattice Microbes' MPD-RDME reaction kernel), as
// host/device inline functions: the CPU reference and the CUDA backend run this same code
// and, for the same lattice, seed and step, produce the same site contents bit for bit.
//
// Per site and step: a_tot = sum of the allowed reactions' propensities (reaction_table.hpp)
// from the site's counts; at most one reaction fires, with probability P = 1 - exp(-a_tot)
// (double precision); which one is a linear search on u2 a_tot over the cumulative
// propensities. u1 and u2 are 53-bit doubles in (0, 1] from the four words of
//   Philox(seed, kReactionStream)(step, site, 0):  u1 from (x, y), u2 from (z, w).
// The step fires when u1 < P. Accurate while a_tot is small (the rule allows one reaction
// per site and step: reactionPropensityBound in reaction_network.hpp says how small).
//
// Why the bits agree across backends: counts and combinatorial factors are integers; the
// few double operations are single IEEE multiplies/adds/divides that nvcc may not fuse into
// FMAs (__dmul_rn / __dadd_rn / __ddiv_rn; the host side of cellforge_sim is compiled with
// -ffp-contract=off, see sim/CMakeLists.txt); 1 - exp(-a) is computed here from those
// operations instead of libm/libdevice, whose last bits may differ.
#include <cmath>  // ldexp; rng.hpp uses log/sqrt without including it
#include <cstdint>

#include "sim/core/host_device.hpp"
#include "sim/core/no_fma.hpp"
#include "sim/core/rng.hpp"
#include "sim/models/lattice/reactions/reaction_table.hpp"
#include "sim/models/lattice/site_types.hpp"

namespace cf::lattice {

inline constexpr std::uint32_t kReactionStream = 3;  // Philox stream of the reaction step

namespace reaction_detail {

// Correctly rounded IEEE operations that are never contracted into an FMA on the device
// (products and sums: mulNoFma and addNoFma, sim/core/no_fma.hpp).
CF_HD double divRn(double x, double y) {
#if defined(__CUDA_ARCH__)
    return __ddiv_rn(x, y);
#else
    return x / y;
#endif
}

}  // namespace reaction_detail

// 1 - e^{-a} for a >= 0 (0 for a <= 0 or NaN), from correctly rounded operations only, so
// host and device agree bit for bit. Relative error below 1e-15 (tested against
// std::expm1): e^{-a} = 2^{-k} e^{-r} with a = k ln2 + r, |r| <= ln2 / 2 (Cody-Waite split
// of ln 2 from fdlibm, k ln2_hi exact), e^{-r} - 1 by a 17-term Horner series (truncation
// |r|^17 / 17! < 1e-22 relative).
CF_HD double oneMinusExpNeg(double a) {
    using namespace reaction_detail;
    if (!(a > 0.0)) return 0.0;
    if (a > 40.0) return 1.0;                          // e^-40 = 4e-18: 1 - e^-a rounds to 1
    const double kLn2Hi = 6.93147180369123816490e-01;  // 0x3fe62e42 fee00000
    const double kLn2Lo = 1.90821492927058770002e-10;  // ln 2 - kLn2Hi
    const double kInvLn2 = 1.44269504088896338700e+00;
    const int k = static_cast<int>(addNoFma(mulNoFma(a, kInvLn2), 0.5));  // nearest, a >= 0
    const double kd = static_cast<double>(k);
    const double x = addNoFma(mulNoFma(kd, kLn2Lo), addNoFma(mulNoFma(kd, kLn2Hi), -a));  // -r
    double s = 1.0;  // e^x - 1 = x s
    for (int n = 17; n >= 2; --n)
        s = addNoFma(1.0, mulNoFma(divRn(x, static_cast<double>(n)), s));
    const double em1 = mulNoFma(x, s);
    if (k == 0) return -em1;
    return addNoFma(1.0, -ldexp(addNoFma(1.0, em1), -k));  // ldexp is exact on both backends
}

// Particles of species s among species[0..count).
CF_HD int countInSite(const std::uint16_t* species, int count, std::uint16_t s) {
    int n = 0;
    for (int k = 0; k < count; ++k)
        n += species[k] == s ? 1 : 0;
    return n;
}

// Propensity per step of one reaction in a site with this content (site type not checked).
// The combinatorial factor is an integer (exact), then one multiply.
CF_HD double reactionPropensity(const ReactionEntry& r, const std::uint16_t* species, int count) {
    std::int64_t h = 1;
    if (r.order >= 1) {
        const std::int64_t na = countInSite(species, count, r.a);
        if (r.order == 1)
            h = na;
        else if (r.a == r.b)
            h = na * (na - 1);  // 2A: ordered pairs, Lattice Microbes' default path
        else
            h = na * countInSite(species, count, r.b);
    }
    return mulNoFma(r.perStep, static_cast<double>(h));
}

CF_HD bool reactionAllowed(const ReactionEntry& r, std::uint32_t siteType) {
    return (r.siteMask & siteTypeBit(siteType)) != 0u;
}

// a_tot of a site: the sum of its allowed reactions' propensities, in table order.
CF_HD double sitePropensity(const ReactionTable& t, std::uint32_t siteType,
                            const std::uint16_t* species, int count) {
    double a = 0.0;
    if ((t.anySiteMask & siteTypeBit(siteType)) == 0u) return a;
    for (int r = 0; r < t.count; ++r)
        if (reactionAllowed(t.reactions[r], siteType))
            a = addNoFma(a, reactionPropensity(t.reactions[r], species, count));
    return a;
}

// Applies reaction r to the list: removes one particle per reactant, the LAST occurrence of
// its species (for 2A the last two). Particles of one species in a site are
// indistinguishable in the RDME, so which copy goes does not change the dynamics; a fixed
// rule keeps the backends identical, and the last copy needs the shortest compaction and
// leaves the slots of all earlier particles as they were. The list is compacted in order,
// then the products are appended with identity 0 (untracked). `ids` (parallel to species)
// may be null; consumedIds[0..order) receive the removed particles' identities (0 when
// untracked or ids is null). Both arrays need room for count + kMaxProducts entries: the
// first kMaxProducts products are appended, and `excess` receives the number of further
// copies of the last product (a reaction like "-> 100 X"), which the caller places
// elsewhere. Returns the new count, which may exceed the site's capacity.
CF_HD int applyReaction(const ReactionEntry& r, std::uint16_t* species, std::uint32_t* ids,
                        int count, std::uint32_t* consumedIds, int& excess) {
    const std::uint16_t reactant[kMaxReactants] = {r.a, r.b};
    int removed = 0;
    for (int q = 0; q < r.order && q < kMaxReactants; ++q) {
        consumedIds[q] = 0u;
        for (int k = count - 1; k >= 0; --k)
            if (species[k] == reactant[q]) {
                species[k] = 0;  // 0 never occurs in a list: marks the hole
                if (ids != nullptr) consumedIds[q] = ids[k];
                ++removed;
                break;
            }
    }
    if (removed > 0) {
        int w = 0;
        for (int k = 0; k < count; ++k)
            if (species[k] != 0) {
                species[w] = species[k];
                if (ids != nullptr) ids[w] = ids[k];
                ++w;
            }
        count = w;
    }
    const int made = productsMade(r);
    const int listed = made < kMaxProducts ? made : kMaxProducts;
    for (int p = 0; p < listed; ++p) {
        species[count] = productAt(r, p);
        if (ids != nullptr) ids[count] = 0u;
        ++count;
    }
    excess = made - listed;
    return count;
}

struct SiteReaction {
    int count;                                 // particles in the list now (may exceed capacity)
    int reaction;                              // index of the reaction that fired, -1: none
    std::uint32_t consumedIds[kMaxReactants];  // identities of the removed reactants (0: none)
    int excess;  // further copies of the reaction's last product, not in the list
};

// The reaction step of site `site` (type siteType) at `step`: see the top of this file.
// species[0..count) is the site's particle list (ids parallel to it, or null); both need
// room for count + kMaxProducts entries. Sites where nothing can happen (a_tot = 0) draw no
// random numbers.
CF_HD SiteReaction reactSite(const ReactionTable& t, std::uint32_t siteType, std::uint16_t* species,
                             std::uint32_t* ids, int count, std::uint64_t step, std::uint32_t site,
                             std::uint32_t seed) {
    using namespace reaction_detail;
    SiteReaction out{count, -1, {0u, 0u}, 0};
    const double aTot = sitePropensity(t, siteType, species, count);
    if (!(aTot > 0.0)) return out;
    const rng::Word4 w = rng::Philox(seed, kReactionStream)(step, site, 0u);
    if (!(rng::uniformDouble(w.x, w.y) < oneMinusExpNeg(aTot))) return out;
    // Second pass with the same operations in the same order as sitePropensity, so the last
    // cumulative value equals aTot exactly; keeps no per-reaction array (registers on the GPU).
    const double target = mulNoFma(rng::uniformDouble(w.z, w.w), aTot);  // in (0, aTot]
    double cum = 0.0;
    int chosen = -1;
    for (int r = 0; r < t.count; ++r) {
        if (!reactionAllowed(t.reactions[r], siteType)) continue;
        const double ar = reactionPropensity(t.reactions[r], species, count);
        cum = addNoFma(cum, ar);
        if (ar > 0.0) {
            chosen = r;  // the last reaction with a_r > 0 also catches target > cum by rounding
            if (target <= cum) break;
        }
    }
    out.reaction = chosen;
    out.count =
        applyReaction(t.reactions[chosen], species, ids, count, out.consumedIds, out.excess);
    return out;
}

}  // namespace cf::lattice
