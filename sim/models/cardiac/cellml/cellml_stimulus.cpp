// SPDX-License-Identifier: GPL-3.0-or-later
// The imported stimulus in the protocol's units (cellml_importer.hpp, Importer::stimulusScale):
// the protocol's amplitude is a current per capacitance in A/F (= mV/ms) for every model, so a
// file whose stimulus is a current (nA, pA) or a current density (uA/cm^2) reads it as
// amplitude times the membrane capacitance, converted by the units definitions of both.
#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <string>

#include "sim/models/cardiac/cellml/cellml_importer.hpp"

namespace cf::cardiac::cellml {

namespace {

using Dims = std::array<double, 7>;  // m, kg, s, A, K, mol, cd

constexpr Dims kAmperePerFarad{2, 1, -4, -1, 0, 0, 0};  // = V/s

Dims minus(const Dims& a, const Dims& b) {
    Dims d{};
    for (std::size_t i = 0; i < d.size(); ++i)
        d[i] = a[i] - b[i];
    return d;
}

// F times a power of length (F, F/m^2): the dimensions of a capacitance or a specific one.
bool isCapacitance(const Dims& d) {
    return d[1] == -1 && d[2] == 4 && d[3] == 2 && d[4] == 0 && d[5] == 0 && d[6] == 0;
}

}  // namespace

std::vector<int> Importer::sourcesRead(int g) const {
    std::vector<int> out;
    const Var& v = var(g);
    if (v.equation < 0) return out;
    const Component& c = compOf(g);
    const int ci = globals_[static_cast<std::size_t>(g)].first;
    std::vector<const xmlNode*> stack{c.equations[static_cast<std::size_t>(v.equation)].rhs};
    while (!stack.empty()) {
        const xmlNode* n = stack.back();
        stack.pop_back();
        for (const xmlNode* k : elementChildren(n))
            stack.push_back(k);
        if (nameOf(n) != "ci") continue;
        const auto it = c.byName.find(trimmedText(n));
        if (it == c.byName.end()) continue;
        const int src = sourceOf(global(ci, it->second));
        if (src != timeSet_) out.push_back(src);
    }
    return out;
}

int Importer::capacitanceSource() const {
    if (!options_.capacitance.empty()) return named(options_.capacitance, "capacitance");
    return annotated(root_, "membrane_capacitance");
}

Importer::StimulusScale Importer::stimulusScale() const {
    StimulusScale s;
    if (stimulus_ < 0) return s;
    const Var& stim = var(stimulus_);
    const std::string who = "the stimulus '" + qualified(stimulus_) + "' [" + stim.units + "]";
    if (!stim.unit.known)
        fail(file_, stim.node,
             who +
                 " has units that do not reduce to SI (a user-defined base unit), so the "
                 "protocol's amplitude in A/F cannot be converted to them");
    const Dims zero{};
    if (stim.unit.dims == zero) {
        // A phenomenological model's dimensionless stimulus: the amplitude is in its units.
        s.factor = stimulusScale_;
        s.identity = stimulusScale_ == 1;
        s.note = "# The stimulus '" + qualified(stimulus_) +
                 "' is dimensionless: the protocol's amplitude is in the model's own units.\n";
        return s;
    }
    const Dims needed = minus(stim.unit.dims, kAmperePerFarad);
    double factor = 1.0 / stim.unit.factor;  // A/F in the stimulus' units
    std::ostringstream note;
    if (needed != zero) {
        if (!isCapacitance(needed))
            fail(file_, stim.node,
                 who +
                     " is neither a current per capacitance (A/F), a current nor a current "
                     "density, so the protocol's amplitude in A/F cannot be converted to it");
        int cap = capacitanceSource();
        const char* how = cap >= 0 ? (options_.capacitance.empty() ? "annotated" : "named")
                                   : "read by the potential's equation";
        if (cap < 0) {
            // The one variable of the needed dimensions that the potential's equation reads.
            std::set<int> found;
            for (const int src : sourcesRead(potential_))
                if (var(src).unit.known && var(src).unit.dims == needed) found.insert(src);
            if (found.size() != 1)
                fail(file_, stim.node,
                     who + " is a current" +
                         (needed[0] != 0 ? std::string(" density") : std::string()) +
                         ", so the protocol's amplitude (A/F) must be multiplied by the "
                         "membrane capacitance, and " +
                         (found.empty() ? "no variable" : "more than one variable") +
                         " of the capacitance's dimensions is read by the equation of '" +
                         qualified(potential_) +
                         "': name it with the capacitance option (component.variable) or "
                         "annotate it oxford-metadata#membrane_capacitance");
            cap = *found.begin();
        }
        const Var& c = var(cap);
        if (!c.unit.known || c.unit.dims != needed)
            fail(file_, c.node,
                 "the membrane capacitance '" + qualified(cap) + "' [" + c.units +
                     "] does not have the dimensions that make " + who +
                     " from a current per capacitance (A/F)");
        factor *= c.unit.factor;
        s.capacitance = cap;
        note << "# The stimulus '" << qualified(stimulus_) << "' is in '" << stim.units
             << "'; the protocol's amplitude is in A/F,\n# so the stimulus is the amplitude "
             << "times the membrane capacitance '" << qualified(cap) << "' [" << c.units << "]\n# ("
             << how << ").\n";
    } else if (std::fabs(factor - 1.0) > 1e-12) {
        note << "# The stimulus '" << qualified(stimulus_) << "' is in '" << stim.units
             << "'; the protocol's amplitude is in A/F,\n# and 1 A/F is "
             << formatSignificant(factor, 15) << " " << stim.units << ".\n";
    }
    if (stimulusScale_ < 0)
        note << "# The file's stimulus depolarises when positive; here, as for every model, "
                "a negative\n# amplitude depolarises.\n";
    if (std::fabs(std::fabs(stimulusScale_) - 1.0) > 1e-12)
        note << "# WARNING: the file's units do not reconcile: converted by its units, 1 A/F "
                "would change\n# the rate of '"
             << qualified(potential_) << "' by "
             << formatSignificant(1.0 / std::fabs(stimulusScale_), 15)
             << " mV/ms. As asked (stimulusByEquation), the stimulus is\n# scaled by "
             << formatSignificant(std::fabs(stimulusScale_), 15) << " so that 1 A/F is 1 mV/ms.\n";
    factor *= stimulusScale_;
    // Products of powers of ten leave rounding in the last bits (1000.0000000000002).
    factor = std::stod(formatSignificant(factor, 15));
    s.factor = factor;
    s.identity = s.factor == 1.0 && s.capacitance < 0;
    s.note = note.str();
    return s;
}

std::string Importer::stimulusLines(const StimulusScale& s, const Var& v, int g,
                                    const std::string& rhs, int line,
                                    const std::string& unit) const {
    const std::string at = "  # line " + std::to_string(line) + "\n";
    const std::string bracket = unit.empty() ? "" : " [" + unit + "]";
    const bool own = !rhs.empty();
    if (s.identity)
        return v.ident + " = " + (own ? rhs : "0") +
               (unit.empty() ? ""
                : own        ? " in [" + unit + "]"
                             : bracket) +
               " bind stimulus" + at;
    // The protocol drives a variable in A/F; the file's stimulus is computed from it.
    const Component& c = compOf(g);
    // A name no variable of the component has (identifiers are what the text reads).
    const auto taken = [&](const std::string& name) {
        return std::any_of(c.vars.begin(), c.vars.end(),
                           [&](const Var& o) { return o.ident == name; });
    };
    std::string bound = v.ident + "_A_per_F";
    for (int k = 2; taken(bound); ++k)
        bound = v.ident + "_A_per_F_" + std::to_string(k);
    std::string scale = formatNumber(s.factor);
    if (s.capacitance >= 0) {
        const Var& cap = var(s.capacitance);
        const std::string ref = &compOf(s.capacitance) == &c
                                    ? cap.ident
                                    : compOf(s.capacitance).ident + "." + cap.ident;
        scale = s.factor == 1.0 ? ref : s.factor == -1.0 ? "-" + ref : scale + " * " + ref;
    }
    const bool units = !unit.empty();
    std::string out;
    if (own)
        out += bound + " = (" + rhs + ") / (" + scale + ")" + (units ? " in [A/F]" : "") +
               " bind stimulus" + at;
    else
        out += bound + " = 0" + (units ? " [A/F]" : "") + " bind stimulus" + at;
    out += v.ident + " = " + scale + " * " + bound + (units ? " in [" + unit + "]" : "") + at;
    return out;
}

}  // namespace cf::cardiac::cellml
