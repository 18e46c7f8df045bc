// SPDX-License-Identifier: GPL-3.0-or-later
// Importer::emit (cellml_importer.hpp): the imported model as model-language text.
#include <sstream>

#include "sim/models/cardiac/cellml/cellml_importer.hpp"

namespace cf::cardiac::cellml {

std::string Importer::emit(bool withUnits) const {
    auto unitOf = [&](const UnitInfo& u) {
        return withUnits && u.known && u.exact && !u.text.empty() ? u.text : std::string();
    };
    // The model's time is in ms, as the simulator steps it: a file that keeps time in other
    // units (seconds, in about a fifth of Chaste's collection) reads `(0.001 * time)` where
    // it reads its time, and each derivative is scaled to d/d(ms) (dot(x) = 0.001 * ...).
    UnitInfo timeUnit;
    timeUnit.known = true;
    timeUnit.dims = {0, 0, 1, 0, 0, 0, 0};
    timeUnit.factor = 1e-3;
    timeUnit.text = "ms";
    std::string timeNote;
    if (timeSet_ >= 0) {
        const UnitInfo& t = var(timeSet_).unit;
        if (t.known && t.dims != timeUnit.dims)
            fail(file_, var(timeSet_).node,
                 "the time variable '" + qualified(timeSet_) + "' has units '" +
                     var(timeSet_).units + "', which are not a time");
        if (!t.known) {
            timeUnit.known = false;
            timeNote = "# The time variable's units have no name here; ms is assumed.\n";
        } else if (std::fabs(t.factor / timeUnit.factor - 1.0) > 1e-12) {
            timeNote = "# The file keeps time in '" + var(timeSet_).units +
                       "'; here it is in ms, and rates are per ms.\n";
        }
    }

    // The potential in mV, as the simulator's thresholds and protocols read it: a file that
    // keeps it in volts (Paci 2013) gets the state in mV, `dot(V) = 1000 * (...)`, and every
    // reader of V reads `(0.001 * V)` in the file's units. Neither a voltage nor dimensionless
    // (a phenomenological model's potential): refused.
    UnitInfo mV;
    mV.known = true;
    mV.dims = {2, 1, -3, -1, 0, 0, 0};  // m^2 kg s^-3 A^-1
    mV.factor = 1e-3;
    mV.text = "mV";
    mV.terms = {{"mV", 1}};
    double toMv = 1.0;  // value in mV = toMv * value in the file's units
    std::string potentialNote;
    if (const UnitInfo& pu = var(potential_).unit; pu.known && pu.dims != std::array<double, 7>{}) {
        if (pu.dims != mV.dims)
            fail(file_, var(potential_).node,
                 "the membrane potential '" + qualified(potential_) + "' has units '" +
                     var(potential_).units + "', which are not a voltage");
        if (std::fabs(pu.factor / mV.factor - 1.0) > 1e-12) {
            toMv = pu.factor / mV.factor;
            potentialNote = "# The file keeps the potential in '" + var(potential_).units +
                            "'; here it is in mV.\n";
        }
    }
    // The units a source is written in here (the file's, but mV for a converted potential).
    auto emitted = [&](int src) -> const UnitInfo& {
        return src == potential_ && toMv != 1.0 ? mV : var(src).unit;
    };

    const StimulusScale stimulus = stimulusScale();

    std::ostringstream body;
    for (std::size_t ci = 0; ci < comps_.size(); ++ci) {
        const Component& c = comps_[ci];
        std::vector<std::pair<std::string, std::string>> uses;  // (source, alias)
        MathContext math;
        math.file = file_;
        math.reference = [&](const std::string& name, const xmlNode* node) {
            const auto it = c.byName.find(name);
            if (it == c.byName.end())
                fail(file_, node, "'" + name + "' is not a variable of component '" + c.name + "'");
            const int g = global(static_cast<int>(ci), it->second);
            const int src = sourceOf(g);
            if (src == timeSet_) {
                const double f = conversion(timeUnit, var(g).unit, g, timeSet_);
                return f == 1.0 ? std::string("time") : "(" + formatNumber(f) + " * time)";
            }
            if (globals_[static_cast<std::size_t>(src)].first == static_cast<int>(ci)) {
                if (src != potential_ || toMv == 1.0) return var(src).ident;
                return "(" + formatNumber(1.0 / toMv) + " * " + var(src).ident + ")";
            }
            const std::string target = compOf(src).ident + "." + var(src).ident;
            const double f = conversion(emitted(src), var(g).unit, g, src);
            if (f != 1.0) return "(" + formatNumber(f) + " * " + target + ")";
            const auto use = std::make_pair(target, var(g).ident);
            if (std::find(uses.begin(), uses.end(), use) == uses.end()) uses.push_back(use);
            return var(g).ident;
        };
        math.derivative = [&](const std::string& name, const std::string& bvar,
                              const xmlNode* node) { return derivativeText(ci, name, bvar, node); };
        std::ostringstream items;
        auto line = [&](const xmlNode* n) { return "  # line " + std::to_string(lineOf(n)); };
        for (std::size_t li = 0; li < c.vars.size(); ++li) {
            const int g = global(static_cast<int>(ci), static_cast<int>(li));
            const Var& v = c.vars[li];
            if (sourceOf(g) != g || g == timeSet_) continue;
            const std::string u = unitOf(emitted(g)), bracket = u.empty() ? "" : " [" + u + "]";
            const Role role = roleOf(g);
            if (role == Role::State) {
                if (!v.hasInitial)
                    fail(file_, v.node, "state '" + qualified(g) + "' has no initial_value");
                const double initial = g == potential_ ? v.initial * toMv : v.initial;
                items << "state " << v.ident << " = " << formatNumber(initial) << bracket
                      << (g == potential_ ? " bind potential" : "") << line(v.node) << "\n";
            } else if (role == Role::Param && g == stimulus_ && stimulus.identity) {
                items << v.ident << " = " << formatNumber(v.initial) << bracket << " bind stimulus"
                      << line(v.node) << "\n";
            } else if (role == Role::Param && g == stimulus_) {
                items << stimulusLines(stimulus, v, g,
                                       v.initial == 0 ? "" : formatNumber(v.initial),
                                       lineOf(v.node), u);
            } else if (role == Role::Param && g == period_) {
                // The period asked for, in the variable's units (ms where they are unknown).
                const UnitInfo& pu = v.unit;
                const bool time = pu.known && pu.dims == std::array<double, 7>{0, 0, 1, 0, 0, 0, 0};
                if (pu.known && !time)
                    fail(file_, v.node,
                         "the stimulus period '" + qualified(g) + "' [" + v.units +
                             "] is not a time");
                const double value = options_.stimulusPeriodMs * (time ? 1e-3 / pu.factor : 1.0);
                items << "param " << v.ident << " = " << formatNumber(value) << bracket
                      << "  # line " << lineOf(v.node) << ": " << formatNumber(v.initial)
                      << " in the file; " << formatNumber(options_.stimulusPeriodMs)
                      << " ms asked for\n";
            } else if (role == Role::Param) {
                items << "param " << v.ident << " = " << formatNumber(v.initial) << bracket
                      << line(v.node) << "\n";
            }
        }
        for (const Equation& e : c.equations) {
            const Var& v = c.vars[static_cast<std::size_t>(e.var)];
            const int g = global(static_cast<int>(ci), e.var);
            std::vector<std::string> notes;
            math.notes = &notes;
            Printed printed = translateMath(e.rhs, math);
            std::string rhs = printed.text;
            // d/d(local time) to d/d(ms): the local time variable reads f * time.
            // A converted potential's rate also goes from the file's units to mV.
            const double perMs =
                e.ode ? conversion(timeUnit,
                                   var(global(static_cast<int>(ci), c.byName.at(e.bvar))).unit,
                                   global(static_cast<int>(ci), c.byName.at(e.bvar)), timeSet_) *
                            (g == potential_ ? toMv : 1.0)
                      : 1.0;
            auto scaled = [&](const std::string& r) {
                return perMs == 1.0 ? r : formatNumber(perMs) + " * " + r;
            };
            if (perMs != 1.0 && !rateName_.count(g))
                rhs = scaled(printed.level >= kProduct + 1 ? rhs : "(" + rhs + ")");
            for (const std::string& n : notes)
                items << "# " << n << "\n";
            if (e.ode && rateName_.count(g)) {
                const std::string& r = rateName_.at(g);
                items << "# d(" << v.name << ")/d(" << e.bvar
                      << ") is read inside other expressions, so it has a name.\n"
                      << r << " = " << rhs << line(e.node) << "\n"
                      << "dot(" << v.ident << ") = " << scaled(r) << line(e.node) << "\n";
            } else if (e.ode) {
                items << "dot(" << v.ident << ") = " << rhs << line(e.node) << "\n";
            } else if (g == stimulus_ && options_.ownStimulus) {
                items << "# The file's own pulse; a stimulus protocol replaces it when it runs.\n"
                      << stimulusLines(stimulus, v, g, rhs, lineOf(e.node), unitOf(v.unit));
            } else if (g == stimulus_) {
                items << "# The CellML file computes " << v.name << " from its own pulse (line "
                      << lineOf(e.node) << "):\n#   " << v.ident << " = " << rhs
                      << "\n# Here the stimulus protocol drives it; 0 is its value between "
                         "pulses.\n"
                      << stimulusLines(stimulus, v, g, "", lineOf(e.node), unitOf(v.unit));
            } else {
                const std::string u = unitOf(v.unit);
                items << v.ident << " = " << rhs << (u.empty() ? "" : " in [" + u + "]")
                      << line(e.node) << "\n";
            }
        }
        const std::string text = items.str();
        if (text.empty()) continue;  // e.g. an environment component holding only time
        body << "\n[" << c.ident << "]  # component " << c.name << ", line " << lineOf(c.node)
             << "\n";
        for (const auto& [target, alias] : uses) {
            const std::string shortName = target.substr(target.find('.') + 1);
            body << "use " << target << (alias == shortName ? "" : " as " + alias) << "\n";
        }
        body << text;
    }

    std::string title = modelName_;
    std::replace(title.begin(), title.end(), '"', '\'');
    std::ostringstream out;
    out << "# Imported from " << file_ << " (CellML "
        << (namespaceOf(root_) == kCellml20   ? "2.0"
            : namespaceOf(root_) == kCellml11 ? "1.1"
                                              : "1.0")
        << ") by Cellforge's CellML importer; '# line N' gives the line in that file.\n"
        << "# Membrane potential: " << qualified(potential_) << "; stimulus: "
        << (stimulus_ >= 0 ? qualified(stimulus_)
                           : "none found (the stimulus protocol cannot drive this model)")
        << ".\n";
    if (!withUnits)
        out << "# Units are omitted: the file's units do not check in the model language\n"
               "# (they differ by factors CellML tools convert silently).\n";
    out << timeNote << potentialNote << stimulus.note << "model "
        << identifier(modelName_.empty() ? "imported" : modelName_) << " \"" << title << "\"\n"
        << "time [ms]\n";
    if (options_.nonGates == CellmlImportOptions::NonGates::Linearised)
        out << "# States that are not gates (the potential too) by GRL1, stable on the stiff "
               "calcium,\n"
               "# Markov and coupled states that models like this carry; gates by Rush-Larsen.\n"
               "method grl1: *\nmethod rl: gates\n";
    out << body.str();
    return out.str();
}

}  // namespace cf::cardiac::cellml
