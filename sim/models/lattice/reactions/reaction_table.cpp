// SPDX-License-Identifier: GPL-3.0-or-later
// Rates in deterministic units -> propensity constants per lattice step (compileReactions),
// and the bound of a_tot that says whether one reaction per site and step is accurate.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

namespace cf::lattice {

namespace {

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

ProductSlots productSlots(const std::vector<int>& products) {
    ProductSlots out;
    if (products.size() <= static_cast<std::size_t>(kMaxProducts)) {
        out.slots = products;
        return out;
    }
    // The species made most often (the first of equals) takes the last slot.
    int most = products.front();
    std::size_t mostCount = 0;
    for (const int id : products) {
        const auto n = static_cast<std::size_t>(std::count(products.begin(), products.end(), id));
        if (n > mostCount) {
            most = id;
            mostCount = n;
        }
    }
    for (const int id : products)
        if (id != most) out.slots.push_back(id);
    out.slots.push_back(most);
    out.lastCopies = static_cast<int>(mostCount);
    if (out.slots.size() > static_cast<std::size_t>(kMaxProducts))
        out.problem = std::to_string(products.size()) +
                      " products: a reaction of the lattice makes at most " +
                      std::to_string(kMaxProducts) + ", or up to " +
                      std::to_string(kMaxProductCopies) + " of one species beside at most " +
                      std::to_string(kMaxProducts - 1) + " others";
    else if (mostCount > static_cast<std::size_t>(kMaxProductCopies))
        out.problem = std::to_string(mostCount) +
                      " copies of one product: a reaction of the lattice makes at most " +
                      std::to_string(kMaxProductCopies) + " of one species";
    return out;
}

void resolveCountRates(ReactionNetwork& net, double volumeLitres) {
    if (!(volumeLitres > 0.0))
        throw ParameterError("reaction rates in counts need a positive volume, not " +
                             std::to_string(volumeLitres) + " L");
    for (Reaction& r : net.reactions)
        if (r.countRate >= 0.0)
            r.rate = r.countRate * std::pow(kAvogadro * volumeLitres, r.order() - 1);
}

ReactionTable compileReactions(const ReactionNetwork& net, double lambdaNm, double tauNs,
                               const double* rateScale) {
    const std::string where = "lattice reactions: ";
    if (!(lambdaNm > 0.0) || !std::isfinite(lambdaNm))
        throw ParameterError(where + "the site spacing lambda must be > 0 nm, got " +
                             number(lambdaNm));
    if (!(tauNs > 0.0) || !std::isfinite(tauNs))
        throw ParameterError(where + "the time step tau must be > 0 ns, got " + number(tauNs));
    if (net.reactions.size() > static_cast<std::size_t>(kMaxReactions))
        throw ParameterError(where + std::to_string(net.reactions.size()) +
                             " reactions: the lattice model runs at most " +
                             std::to_string(kMaxReactions));
    const std::size_t maxId = net.species.size() < 65535 ? net.species.size() : 65535;

    // V_site = lambda^3 [nm^3] * 1e-24 [L / nm^3]; N_A V_site converts M to particles/site.
    const double siteLitres = lambdaNm * lambdaNm * lambdaNm * 1.0e-24;
    const double perSiteMolar = kAvogadro * siteLitres;
    const double tauSeconds = tauNs * 1.0e-9;

    ReactionTable t{};
    t.count = static_cast<std::int32_t>(net.reactions.size());
    t.speciesCount = static_cast<std::int32_t>(net.species.size());
    for (std::size_t i = 0; i < net.reactions.size(); ++i) {
        const Reaction& r = net.reactions[i];
        const std::string who = where + "reaction " + std::to_string(i + 1) + " (" + r.label + ")";
        const int order = r.order();
        if (order > kMaxReactants) throw ParameterError(who + ": at most 2 reactants");
        const ProductSlots made = productSlots(r.products);
        if (!made.problem.empty()) throw ParameterError(who + ": " + made.problem);
        for (const std::vector<int>* side : {&r.reactants, &r.products})
            for (const int id : *side)
                if (id < 1 || static_cast<std::size_t>(id) > maxId)
                    throw ParameterError(who + ": species id " + std::to_string(id) +
                                         " is not one of 1.." + std::to_string(maxId));
        const double scale = rateScale != nullptr ? rateScale[i] : 1.0;
        if (!(scale >= 0.0) || !std::isfinite(scale))
            throw ParameterError(who + ": rate scale must be finite and >= 0, got " +
                                 number(scale));
        const double k = r.rate * scale;
        // k_stoch = k_det (N_A V_site)^(1 - order)
        const double kStoch = order == 0 ? k * perSiteMolar : (order == 1 ? k : k / perSiteMolar);
        const double perStep = kStoch * tauSeconds;
        if (!(perStep >= 0.0) || !std::isfinite(perStep))
            throw ParameterError(who + ": rate " + number(k) +
                                 " gives a propensity per step that is negative or not finite");
        ReactionEntry& e = t.reactions[i];
        e.perStep = perStep;
        e.order = order;
        e.a = order >= 1 ? static_cast<std::uint16_t>(r.reactants[0]) : 0;
        e.b = order == 2 ? static_cast<std::uint16_t>(r.reactants[1]) : 0;
        e.siteMask = r.siteMask;
        e.productCount = static_cast<std::int16_t>(made.slots.size());
        e.lastCopies = static_cast<std::uint16_t>(made.lastCopies);
        for (std::size_t p = 0; p < made.slots.size(); ++p)
            e.products[p] = static_cast<std::uint16_t>(made.slots[p]);
        t.anySiteMask |= r.siteMask;
    }
    return t;
}

double reactionPropensityBound(const ReactionTable& table, int capacity) {
    const double c = capacity > 0 ? capacity : 0;
    double worst = 0.0;
    for (std::uint32_t type = 0; type < 32; ++type) {
        if ((table.anySiteMask & siteTypeBit(type)) == 0u) continue;
        double sum = 0.0;
        for (int r = 0; r < table.count; ++r) {
            const ReactionEntry& e = table.reactions[r];
            if ((e.siteMask & siteTypeBit(type)) == 0u) continue;
            double h = 1.0;
            if (e.order == 1)
                h = c;
            else if (e.order == 2)
                h = e.a == e.b ? c * (c - 1.0) : std::floor(c / 2.0) * std::ceil(c / 2.0);
            sum += e.perStep * h;
        }
        worst = sum > worst ? sum : worst;
    }
    return worst;
}

}  // namespace cf::lattice
