// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CellML importer's model (cellml_import.hpp): components, variables, equations and
// connections read from the XML (Importer::read, here), and the model-language text written
// from them (Importer::emit, cellml_emit.cpp). Only the importer's .cpp files include this.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/cellml/cellml_internal.hpp"

namespace cf::cardiac::cellml {

// Names the model language reserves (keywords, functions, predefined inputs): a CellML name
// equal to one gets a trailing underscore.
inline bool reserved(const std::string& n) {
    static const std::set<std::string> words = {
        "model", "variant", "method",    "lookup",   "option",     "state", "param",
        "dot",   "use",     "bind",      "range",    "structural", "in",    "and",
        "or",    "not",     "potential", "stimulus", "time",       "dt",    "as",
        "fe",    "rl",      "grl1",      "be",       "gates",      "if",    "piecewise",
        "exp",   "expm1",   "log",       "log1p",    "log10",      "sqrt",  "abs",
        "floor", "ceil",    "sin",       "cos",      "tan",        "asin",  "acos",
        "atan",  "sinh",    "cosh",      "tanh",     "min",        "max",   "pow"};
    return words.count(n) > 0;
}

inline std::string identifier(const std::string& name) {
    std::string s;
    for (char c : name)
        s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
    return reserved(s) ? s + "_" : s;
}

inline std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

struct Var {
    std::string name, ident, units, cmetaId;
    const xmlNode* node = nullptr;
    bool hasInitial = false;
    double initial = 0;
    int equation = -1;  // index into Component::equations
    UnitInfo unit;
};

struct Equation {
    const xmlNode* node = nullptr;  // the <apply><eq/>
    const xmlNode* rhs = nullptr;
    int var = -1;  // local index of the left-hand side
    bool ode = false;
    std::string bvar;  // local name of the time variable of d/dt
};

struct Component {
    std::string name, ident;
    const xmlNode* node = nullptr;
    std::vector<Var> vars;
    std::map<std::string, int> byName;
    std::vector<Equation> equations;
};

enum class Role { Time, State, Param, Defined };

class Importer {
public:
    Importer(std::string file, CellmlImportOptions options)
        : file_(std::move(file)), options_(std::move(options)), units_(file_) {}

    void read(const xmlNode* root) {
        root_ = root;
        if (nameOf(root) != "model" || !isCellml(root)) {
            const std::string ns = namespaceOf(root);
            fail(file_, root,
                 "not a CellML model: the root element is <" + nameOf(root) + "> in namespace '" +
                     ns + "' (expected <model> in " + kCellml10 + ", " + kCellml11 + " or " +
                     kCellml20 + ")");
        }
        modelName_ = attribute(root, "name");
        std::vector<const xmlNode*> connections;
        for (const xmlNode* e : elementChildren(root)) {
            if (!isCellml(e)) continue;  // documentation, RDF metadata
            const std::string tag = nameOf(e);
            if (tag == "units") {
                units_.define("", e);
            } else if (tag == "component") {
                component(e);
            } else if (tag == "connection") {
                connections.push_back(e);
            } else if (tag != "group" && tag != "encapsulation") {  // structure only (1.x, 2.0)
                fail(file_, e, "unknown CellML element <" + tag + "> in <model>");
            }
        }
        for (Component& c : comps_)
            for (Var& v : c.vars)
                v.unit = v.units.empty() ? UnitInfo{} : units_.resolve(v.units, c.name, v.node);
        parent_.resize(globals_.size());
        std::iota(parent_.begin(), parent_.end(), 0);
        for (const xmlNode* c : connections)
            connection(c);
        sources();
        roles(root);
        namedRates();
    }

    std::string emit(bool withUnits) const;

    // How the file's stimulus is computed from the protocol's amplitude, which is in A/F
    // (mV/ms) for every model: file value = sign * factor [* capacitance] * amplitude, from
    // the units definitions (cellml_stimulus.cpp). Throws, naming the stimulus, where its
    // units cannot be reconciled with A/F.
    struct StimulusScale {
        bool identity = true;  // the file's stimulus is in A/F already (and not reversed)
        double factor = 1;     // includes the sign
        int capacitance = -1;  // source of the membrane capacitance read; -1: none
        std::string note;      // header lines
    };
    StimulusScale stimulusScale() const;
    // Multiply the stimulus converted by its units by `by`, after importCellml measured how
    // the potential's equation reads it: -1 where the file's stimulus depolarises when
    // positive (so that a negative amplitude depolarises, as for every model); another factor
    // only where the file's units do not reconcile and the import was asked to follow the
    // equation (CellmlImportOptions::stimulusByEquation).
    void scaleStimulus(double by) { stimulusScale_ *= by; }
    bool hasStimulus() const { return stimulus_ >= 0; }
    std::string stimulusName() const {
        return qualified(stimulus_) + " [" + var(stimulus_).units + "]";
    }
    std::string potentialName() const { return qualified(potential_); }
    int stimulusLine() const { return lineOf(var(stimulus_).node); }
    bool potentialIsVoltage() const {
        return var(potential_).unit.known && var(potential_).unit.dims != std::array<double, 7>{};
    }

private:
    int capacitanceSource() const;  // cellml_stimulus.cpp
    // The statements of the stimulus `v` (global g) under scale `s` (stimulusScale): the
    // variable the protocol drives, in A/F, and the file's stimulus from it. `rhs`: the file's
    // own value (empty: 0 between pulses).
    std::string stimulusLines(const StimulusScale& s, const Var& v, int g, const std::string& rhs,
                              int line, const std::string& unit) const;

    void component(const xmlNode* e) {
        Component c;
        c.node = e;
        c.name = attribute(e, "name");
        if (c.name.empty()) fail(file_, e, "<component> without a name");
        if (compByName_.count(c.name))
            fail(file_, e, "component '" + c.name + "' is defined twice");
        c.ident = identifier(c.name);
        for (const Component& o : comps_)
            if (o.ident == c.ident)
                fail(file_, e,
                     "components '" + o.name + "' and '" + c.name +
                         "' have the same name in the model language");
        const int ci = static_cast<int>(comps_.size());
        for (const xmlNode* k : elementChildren(e)) {
            const std::string tag = nameOf(k);
            if (isCellml(k) && tag == "units") {
                units_.define(c.name, k);
            } else if (isCellml(k) && tag == "variable") {
                variable(c, ci, k);
            } else if (isCellml(k) && tag == "reaction") {
                fail(file_, k, "CellML <reaction> is not supported");
            } else if (isCellml(k) && tag == "reset") {
                fail(file_, k, "CellML 2.0 <reset> is not supported (a discontinuous change)");
            } else if (isMathml(k) && tag == "math") {
                for (const xmlNode* eq : elementChildren(k))
                    equation(c, eq);
            }
        }
        compByName_[c.name] = ci;
        comps_.push_back(std::move(c));
    }

    void variable(Component& c, int ci, const xmlNode* k) {
        Var v;
        v.node = k;
        v.name = attribute(k, "name");
        if (v.name.empty()) fail(file_, k, "<variable> without a name");
        if (c.byName.count(v.name))
            fail(file_, k,
                 "variable '" + v.name + "' is defined twice in component '" + c.name + "'");
        v.ident = identifier(v.name);
        for (const Var& o : c.vars)
            if (o.ident == v.ident)
                fail(file_, k,
                     "variables '" + o.name + "' and '" + v.name + "' of component '" + c.name +
                         "' have the same name in the model language");
        v.units = attribute(k, "units");
        if (v.units.empty()) fail(file_, k, "variable '" + v.name + "' has no units attribute");
        v.cmetaId = owned(
            xmlGetNsProp(k, reinterpret_cast<const xmlChar*>("id"),
                         reinterpret_cast<const xmlChar*>("http://www.cellml.org/metadata/1.0#")));
        if (v.cmetaId.empty() && namespaceOf(k) == kCellml20) v.cmetaId = attribute(k, "id");
        if (hasAttribute(k, "initial_value")) {
            const std::string s = trim(attribute(k, "initial_value"));
            char* end = nullptr;
            v.initial = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !std::isfinite(v.initial))
                fail(file_, k,
                     "initial_value \"" + s + "\" of '" + c.name + "." + v.name +
                         "' is not a number (initial values naming variables are not "
                         "supported)");
            v.hasInitial = true;
        }
        c.byName[v.name] = static_cast<int>(c.vars.size());
        globals_.emplace_back(ci, static_cast<int>(c.vars.size()));
        if (!cmetaIds_.emplace(v.cmetaId, static_cast<int>(globals_.size() - 1)).second &&
            !v.cmetaId.empty())
            fail(file_, k, "cmeta:id '" + v.cmetaId + "' is used twice");
        c.vars.push_back(std::move(v));
    }

    void equation(Component& c, const xmlNode* eq) {
        const auto kids = elementChildren(eq);
        if (nameOf(eq) != "apply" || kids.size() != 3 || nameOf(kids[0]) != "eq")
            fail(file_, eq,
                 "expected an equation <apply><eq/>...</apply> in <math>, found <" + nameOf(eq) +
                     ">");
        Equation e;
        e.node = eq;
        e.rhs = kids[2];
        const xmlNode* lhs = kids[1];
        std::string target;
        if (nameOf(lhs) == "ci") {
            target = trimmedText(lhs);
        } else if (nameOf(lhs) == "apply") {
            const auto d = elementChildren(lhs);
            const bool diff = d.size() == 3 && nameOf(d[0]) == "diff" && nameOf(d[1]) == "bvar" &&
                              nameOf(d[2]) == "ci";
            if (!diff)
                fail(file_, lhs,
                     "only equations 'x = ...' and 'd(x)/d(time) = ...' are supported "
                     "(algebraic or implicit equations are not)");
            const auto b = elementChildren(d[1]);
            if (b.size() != 1 || nameOf(b[0]) != "ci")
                fail(file_, d[1],
                     "<bvar> must hold one <ci> (higher derivatives are not supported)");
            e.bvar = trimmedText(b[0]);
            if (!c.byName.count(e.bvar))
                fail(file_, b[0],
                     "'" + e.bvar + "' is not a variable of component '" + c.name + "'");
            target = trimmedText(d[2]);
            e.ode = true;
        } else {
            fail(file_, lhs, "only equations 'x = ...' and 'd(x)/d(time) = ...' are supported");
        }
        const auto it = c.byName.find(target);
        if (it == c.byName.end())
            fail(file_, lhs,
                 "equation for '" + target + "', which is not a variable of component '" + c.name +
                     "'");
        e.var = it->second;
        Var& v = c.vars[static_cast<std::size_t>(e.var)];
        if (v.equation >= 0)
            fail(
                file_, eq,
                "second equation for '" + c.name + "." + target + "' (the first is at line " +
                    std::to_string(lineOf(c.equations[static_cast<std::size_t>(v.equation)].node)) +
                    ")");
        v.equation = static_cast<int>(c.equations.size());
        c.equations.push_back(e);
    }

    int global(int comp, int var) const {
        for (std::size_t g = 0; g < globals_.size(); ++g)
            if (globals_[g] == std::make_pair(comp, var)) return static_cast<int>(g);
        return -1;
    }
    int find(int g) const {
        while (parent_[static_cast<std::size_t>(g)] != g)
            g = parent_[static_cast<std::size_t>(g)];
        return g;
    }
    const Var& var(int g) const {
        const auto [c, v] = globals_[static_cast<std::size_t>(g)];
        return comps_[static_cast<std::size_t>(c)].vars[static_cast<std::size_t>(v)];
    }
    const Component& compOf(int g) const {
        return comps_[static_cast<std::size_t>(globals_[static_cast<std::size_t>(g)].first)];
    }
    std::string qualified(int g) const { return compOf(g).name + "." + var(g).name; }

    void connection(const xmlNode* e) {
        int c1 = -1, c2 = -1;
        if (namespaceOf(e) == kCellml20) {  // 2.0: the components are the connection's attributes
            c1 = componentNamed(attribute(e, "component_1"), e);
            c2 = componentNamed(attribute(e, "component_2"), e);
        }
        for (const xmlNode* k : elementChildren(e)) {
            if (!isCellml(k)) continue;
            if (nameOf(k) == "map_components") {
                c1 = componentNamed(attribute(k, "component_1"), k);
                c2 = componentNamed(attribute(k, "component_2"), k);
            } else if (nameOf(k) == "map_variables") {
                if (c1 < 0) fail(file_, k, "<map_variables> before <map_components>");
                const int a = variableNamed(c1, attribute(k, "variable_1"), k);
                const int b = variableNamed(c2, attribute(k, "variable_2"), k);
                parent_[static_cast<std::size_t>(find(a))] = find(b);
            }
        }
        if (c1 < 0) fail(file_, e, "<connection> without <map_components>");
    }
    int componentNamed(const std::string& name, const xmlNode* at) const {
        const auto it = compByName_.find(name);
        if (it == compByName_.end())
            fail(file_, at, "connection to a missing component '" + name + "'");
        return it->second;
    }
    int variableNamed(int comp, const std::string& name, const xmlNode* at) const {
        const Component& c = comps_[static_cast<std::size_t>(comp)];
        const auto it = c.byName.find(name);
        if (it == c.byName.end())
            fail(file_, at,
                 "connection to a missing variable '" + name + "' of component '" + c.name + "'");
        return global(comp, it->second);
    }

    // Each connected set has one source (the member with an equation or an initial value),
    // except the time set, which has none.
    void sources() {
        std::set<int> timeSets;
        for (std::size_t ci = 0; ci < comps_.size(); ++ci)
            for (const Equation& e : comps_[ci].equations)
                if (e.ode)
                    timeSets.insert(
                        find(global(static_cast<int>(ci), comps_[ci].byName.at(e.bvar))));
        if (timeSets.size() > 1)
            fail(file_, root_, "the derivatives use more than one independent variable (time)");
        timeSet_ = timeSets.empty() ? -1 : *timeSets.begin();
        source_.assign(globals_.size(), -1);
        for (int g = 0; g < static_cast<int>(globals_.size()); ++g) {
            const Var& v = var(g);
            if (v.equation < 0 && !v.hasInitial) continue;
            const int set = find(g);
            if (set == timeSet_)
                fail(file_, v.node, "'" + qualified(g) + "' is the time variable but has a value");
            int& s = source_[static_cast<std::size_t>(set)];
            if (s >= 0)
                fail(file_, v.node,
                     "'" + qualified(g) + "' and '" + qualified(s) +
                         "' are connected and both have an equation or an initial "
                         "value; only one of them may");
            s = g;
        }
        for (int g = 0; g < static_cast<int>(globals_.size()); ++g) {
            const int set = find(g);
            if (set != timeSet_ && source_[static_cast<std::size_t>(set)] < 0)
                fail(file_, var(g).node,
                     "variable '" + qualified(g) +
                         "' has no equation or initial value (nor has any "
                         "variable connected to it)");
        }
    }

    Role roleOf(int g) const {
        if (g == timeSet_) return Role::Time;
        const Var& v = var(g);
        if (v.equation < 0) return Role::Param;
        return compOf(g).equations[static_cast<std::size_t>(v.equation)].ode ? Role::State
                                                                             : Role::Defined;
    }
    int sourceOf(int g) const {
        const int set = find(g);
        return set == timeSet_ ? timeSet_ : source_[static_cast<std::size_t>(set)];
    }

    // The source annotated with oxford-metadata#<term> (Chaste's annotated files), or -1.
    int annotated(const xmlNode* root, const std::string& term) const {
        int found = -1;
        std::vector<const xmlNode*> stack{root};
        while (!stack.empty()) {
            const xmlNode* n = stack.back();
            stack.pop_back();
            for (const xmlNode* k : elementChildren(n))
                stack.push_back(k);
            const std::string r = owned(xmlGetNsProp(
                n, reinterpret_cast<const xmlChar*>("resource"),
                reinterpret_cast<const xmlChar*>("http://www.w3.org/1999/02/22-rdf-syntax-ns#")));
            if (r.size() < term.size() + 1 ||
                r.compare(r.size() - term.size() - 1, std::string::npos, "#" + term) != 0 ||
                !n->parent)
                continue;
            const std::string about = owned(xmlGetNsProp(
                n->parent, reinterpret_cast<const xmlChar*>("about"),
                reinterpret_cast<const xmlChar*>("http://www.w3.org/1999/02/22-rdf-syntax-ns#")));
            if (about.size() > 1 && about[0] == '#')
                if (const auto it = cmetaIds_.find(about.substr(1)); it != cmetaIds_.end())
                    found = sourceOf(it->second);
        }
        return found;
    }

    // The sources the equation of `g` reads directly (none for a parameter), in reading
    // order, the time set excluded (cellml_stimulus.cpp).
    std::vector<int> sourcesRead(int g) const;
    // Whether the equation of `g` reads a state directly (an ionic current, not a pulse).
    bool readsState(int g) const {
        for (const int src : sourcesRead(g))
            if (roleOf(src) == Role::State) return true;
        return false;
    }

    int named(const std::string& qname, const char* what) const {
        const auto dot = qname.find('.');
        const auto c = compByName_.find(qname.substr(0, dot));
        if (dot != std::string::npos && c != compByName_.end()) {
            const Component& comp = comps_[static_cast<std::size_t>(c->second)];
            if (const auto v = comp.byName.find(qname.substr(dot + 1)); v != comp.byName.end())
                return sourceOf(global(c->second, v->second));
        }
        fail(file_, root_,
             std::string("the ") + what + " '" + qname +
                 "' is not a variable of the model (write component.variable)");
    }

    void roles(const xmlNode* root) {
        potential_ = !options_.potential.empty() ? named(options_.potential, "potential")
                                                 : annotated(root, "membrane_voltage");
        if (potential_ < 0) {
            static const std::set<std::string> names = {"v", "vm", "v_m", "membrane_potential",
                                                        "membrane_voltage"};
            std::vector<int> inMembrane, anywhere;
            for (int g = 0; g < static_cast<int>(globals_.size()); ++g) {
                if (sourceOf(g) != g || roleOf(g) != Role::State) continue;
                if (!names.count(lower(var(g).name))) continue;
                anywhere.push_back(g);
                if (lower(compOf(g).name).find("membrane") != std::string::npos)
                    inMembrane.push_back(g);
            }
            const std::vector<int>& pick = inMembrane.empty() ? anywhere : inMembrane;
            if (pick.size() != 1)
                fail(file_, root,
                     std::string(pick.empty() ? "no state looks like the membrane potential"
                                              : "more than one state looks like the membrane "
                                                "potential") +
                         " (a state named V, Vm, V_m or membrane_potential, preferably in a "
                         "component named membrane): name it with the potential option "
                         "(component.variable)");
            potential_ = pick[0];
        }
        if (roleOf(potential_) != Role::State)
            fail(file_, var(potential_).node,
                 "the membrane potential '" + qualified(potential_) + "' is not a state");
        stimulus_ = !options_.stimulus.empty() ? named(options_.stimulus, "stimulus")
                                               : annotated(root, "membrane_stimulus_current");
        // By name only in files without annotations: Chaste's annotate their stimulus, and
        // their sino-atrial models' i_st is the sustained inward current, not a stimulus.
        if (stimulus_ < 0 && options_.potential.empty() &&
            annotated(root, "membrane_voltage") < 0) {
            static const std::set<std::string> names = {"istim", "ist", "istimulus", "stimcurrent",
                                                        "stimuluscurrent"};
            for (int g = 0; g < static_cast<int>(globals_.size()) && stimulus_ < 0; ++g) {
                std::string n = lower(var(g).name);
                n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
                if (sourceOf(g) == g && names.count(n) && !readsState(g)) stimulus_ = g;
            }
        }
        if (options_.stimulusPeriodMs > 0) {
            period_ = annotated(root, "membrane_stimulus_current_period");
            if (period_ < 0 || roleOf(period_) != Role::Param)
                fail(file_, root,
                     "a stimulus period was asked for, but no parameter is annotated "
                     "oxford-metadata#membrane_stimulus_current_period");
        }
        if (stimulus_ >= 0 && roleOf(stimulus_) == Role::State)
            fail(file_, var(stimulus_).node,
                 "the stimulus current '" + qualified(stimulus_) + "' is a state");
    }

    // States whose derivative an expression reads (d(x)/d(time) inside a right-hand side):
    // their rate becomes a defined variable `d_x_dt = ...` with `dot(x) = d_x_dt`, so the
    // expression reads the state's defining equation by name.
    void namedRates() {
        for (std::size_t ci = 0; ci < comps_.size(); ++ci) {
            const Component& c = comps_[ci];
            for (const Equation& e : c.equations) {
                std::vector<const xmlNode*> stack{e.rhs};
                while (!stack.empty()) {
                    const xmlNode* n = stack.back();
                    stack.pop_back();
                    const auto kids = elementChildren(n);
                    for (const xmlNode* k : kids)
                        stack.push_back(k);
                    if (nameOf(n) != "apply" || kids.empty() || nameOf(kids[0]) != "diff") continue;
                    const xmlNode* x = kids.back();
                    const auto it = c.byName.find(trimmedText(x));
                    if (nameOf(x) != "ci" || it == c.byName.end()) continue;  // named later
                    const int src = sourceOf(global(static_cast<int>(ci), it->second));
                    if (src == timeSet_ || roleOf(src) != Role::State || rateName_.count(src))
                        continue;
                    const Component& owner = compOf(src);
                    std::string name = "d_" + var(src).ident + "_dt";
                    auto taken = [&](const std::string& candidate) {
                        for (const Var& v : owner.vars)
                            if (v.ident == candidate) return true;
                        for (const auto& [g, r] : rateName_)
                            if (&compOf(g) == &owner && r == candidate) return true;
                        return false;
                    };
                    while (taken(name))
                        name += "_";
                    rateName_[src] = name;
                }
            }
        }
    }

    // The local variable `name` of component `ci` (throws at `at` when there is none).
    int localGlobal(std::size_t ci, const std::string& name, const xmlNode* at) const {
        const Component& c = comps_[ci];
        const auto it = c.byName.find(name);
        if (it == c.byName.end())
            fail(file_, at, "'" + name + "' is not a variable of component '" + c.name + "'");
        return global(static_cast<int>(ci), it->second);
    }

    // The text reading d(name)/d(bvar) in component `ci`, scaled where the local variables'
    // units differ from those of the state and of the time its equation uses.
    std::string derivativeText(std::size_t ci, const std::string& name, const std::string& bvar,
                               const xmlNode* at) const {
        const int g = localGlobal(ci, name, at), t = localGlobal(ci, bvar, at);
        if (sourceOf(t) != timeSet_)
            fail(file_, at,
                 "d(" + name + ")/d(" + bvar + "): '" + bvar +
                     "' is not the time variable of the model's derivatives");
        const int src = sourceOf(g);
        const auto rate = rateName_.find(src);
        if (src == timeSet_ || roleOf(src) != Role::State || rate == rateName_.end())
            fail(file_, at,
                 "d(" + name + ")/d(" + bvar + ") inside an expression: '" + qualified(g) +
                     "' is not a state (only derivatives of states have a defining equation)");
        const Component& owner = compOf(src);
        const Equation& e = owner.equations[static_cast<std::size_t>(var(src).equation)];
        const int srcTime =
            global(globals_[static_cast<std::size_t>(src)].first, owner.byName.at(e.bvar));
        const double f = conversion(var(src).unit, var(g).unit, g, src) /
                         conversion(var(srcTime).unit, var(t).unit, t, srcTime);
        const std::string target =
            globals_[static_cast<std::size_t>(src)].first == static_cast<int>(ci)
                ? rate->second
                : owner.ident + "." + rate->second;
        return std::fabs(f - 1.0) < 1e-12 ? target : "(" + formatNumber(f) + " * " + target + ")";
    }

    // value in `to` units = value in `from` units * factor (1 when either is unknown).
    double conversion(const UnitInfo& from, const UnitInfo& to, int g, int src) const {
        if (!from.known || !to.known) return 1.0;
        if (from.dims != to.dims)
            fail(file_, var(g).node,
                 "'" + qualified(g) + "' [" + var(g).units + "] and '" + qualified(src) + "' [" +
                     var(src).units + "] are connected but have different dimensions");
        const double f = from.factor / to.factor;
        return std::fabs(f - 1.0) < 1e-12 ? 1.0 : f;
    }

    std::string file_;
    CellmlImportOptions options_;
    UnitTable units_;
    const xmlNode* root_ = nullptr;
    std::string modelName_;
    std::vector<Component> comps_;
    std::map<std::string, int> compByName_;
    std::vector<std::pair<int, int>> globals_;  // (component, variable)
    std::map<std::string, int> cmetaIds_;
    std::vector<int> parent_, source_;
    int timeSet_ = -1, potential_ = -1, stimulus_ = -1, period_ = -1;
    double stimulusScale_ = 1;             // scaleStimulus
    std::map<int, std::string> rateName_;  // state (source) -> its named rate (namedRates)
};

}  // namespace cf::cardiac::cellml
