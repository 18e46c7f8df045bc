// SPDX-License-Identifier: GPL-3.0-or-later
// Mass-action reaction networks from SBML through libsbml (built only when libsbml is
// found; sbml_unavailable.cpp stands in otherwise). What is accepted: reaction_network.hpp.
#include <sbml/SBMLTransforms.h>
#include <sbml/SBMLTypes.h>
#include <sbml/math/L3FormulaFormatter.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/input_file.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

// Debian builds libsbml without its C++ namespace (classes such as Model and Reaction are
// global); other builds put them in `libsbml`. Either way `::Name` finds them below, which
// also keeps them apart from cf::lattice::Reaction.
LIBSBML_CPP_NAMESPACE_USE

namespace cf::lattice {

namespace {

// Something the lattice cannot run; the caller adds the file and the reaction.
struct Unsupported {
    std::string what;
};

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string formula(const ::ASTNode* math) {
    char* text = ::SBML_formulaToL3String(math);
    std::string s = text != nullptr ? text : "?";
    std::free(text);
    return s;
}

std::int64_t initialCount(const ::Model& model, const ::Species& sp);

// A linear form c + sum a_i X_i of species amounts: the count of a species the model
// eliminated by its conservation law (case 00034's 100 - 2 P2 counts the monomers P).
struct Linear {
    double c = 0.0;
    std::map<std::string, double> a;  // species id -> coefficient (none zero)
};

// One product term of a kinetic law: a constant factor times species factors and linear
// forms. Each species maps to the shifts of its factors: A * A is {0, 0}, A * (A - 1) is {0, 1}.
struct Term {
    double coefficient = 1.0;
    std::map<std::string, std::vector<int>> species;
    std::vector<Linear> linear;
    bool constant() const { return species.empty() && linear.empty(); }
};

void multiply(Term& into, const Term& by) {
    into.coefficient *= by.coefficient;
    for (const auto& [id, shifts] : by.species)
        into.species[id].insert(into.species[id].end(), shifts.begin(), shifts.end());
    into.linear.insert(into.linear.end(), by.linear.begin(), by.linear.end());
}

class LawReader {
public:
    // `counts`: the law is read as SBML's stochastic convention has it (species symbols are
    // amounts in molecules, or amounts over the compartment size where hasOnlySubstanceUnits
    // is false; a compartment symbol is its size; the value is the propensity in 1/s).
    // Otherwise compartment symbols are dropped and the constants taken in M and s units.
    LawReader(const ::Model& model, const ::KineticLaw& law, bool counts, double perUnit)
        : model_(model), law_(law), counts_(counts), perUnit_(perUnit) {}

    // The propensity's term: the law's value in substance units per second times the
    // molecules per unit (with counts).
    Term propensity(const ::ASTNode* n) const {
        Term t = term(n);
        if (counts_) t.coefficient *= perUnit_;
        return t;
    }

    // The term of `n`; throws Unsupported naming the offending part.
    Term term(const ::ASTNode* n) const {
        const ::ASTNodeType_t type = n->getType();
        Term t;
        if (type == ::AST_TIMES) {
            for (unsigned k = 0; k < n->getNumChildren(); ++k)
                multiply(t, term(n->getChild(k)));
            return t;
        }
        if (n->isNumber()) {
            t.coefficient = n->getValue();
            return t;
        }
        if (type == ::AST_NAME) {
            name(n->getName(), t);
            return t;
        }
        if (type == ::AST_DIVIDE && n->getNumChildren() == 2) {
            // Division by a constant (k * P * (P - 1) / 2, X / 2 / 0.5) is a factor.
            t = term(n->getChild(0));
            Term d;
            try {
                d = term(n->getChild(1));
            } catch (const Unsupported&) {
                d.species[""] = {0};  // not a constant: the division is what is refused
            }
            if (d.constant() && d.coefficient != 0.0) {
                t.coefficient /= d.coefficient;
                return t;
            }
        }
        if ((type == ::AST_MINUS || type == ::AST_PLUS) && n->getNumChildren() == 2) {
            // Constant arithmetic folds; "P - j" for a species P and integer j >= 1 is the
            // factor of a falling factorial (the propensity of 2 P is k P (P - 1) / 2).
            const Term a = term(n->getChild(0));
            const Term b = term(n->getChild(1));
            const double sign = type == ::AST_MINUS ? -1.0 : 1.0;
            if (a.constant() && b.constant()) {
                t.coefficient = a.coefficient + sign * b.coefficient;
                return t;
            }
            if (type == ::AST_MINUS && b.constant() && a.coefficient == 1.0 &&
                a.species.size() == 1 && a.linear.empty() &&
                a.species.begin()->second == std::vector<int>{0} && b.coefficient >= 1.0 &&
                b.coefficient <= 3.0 && b.coefficient == std::floor(b.coefficient) &&
                isAmount(a.species.begin()->first) && counts_ && perUnit_ == 1.0) {
                t.species[a.species.begin()->first] = {static_cast<int>(b.coefficient)};
                return t;
            }
            // Other sums of constants and amounts (in molecules) are linear forms.
            Linear la, lb;
            if (counts_ && perUnit_ == 1.0 && linearForm(a, la) && linearForm(b, lb)) {
                la.c += sign * lb.c;
                for (const auto& [id, x] : lb.a)
                    la.a[id] += sign * x;
                for (auto it = la.a.begin(); it != la.a.end();)
                    it = it->second == 0.0 ? la.a.erase(it) : std::next(it);
                if (la.a.empty()) {
                    t.coefficient = la.c;
                } else {
                    t.linear.push_back(la);
                }
                return t;
            }
        }
        if (type == ::AST_MINUS && n->getNumChildren() == 1) {
            t = term(n->getChild(0));
            if (t.constant()) {
                t.coefficient = -t.coefficient;
                return t;
            }
        }
        if ((type == ::AST_POWER || type == ::AST_FUNCTION_POWER) && n->getNumChildren() == 2) {
            const Term base = term(n->getChild(0));
            const Term e = term(n->getChild(1));
            const double x = e.coefficient;
            if (e.constant() && x >= 0.0 && x <= 4.0 && x == std::floor(x)) {
                for (int k = 0; k < static_cast<int>(x); ++k)
                    multiply(t, base);
                return t;
            }
        }
        std::string what = "'" + formula(n) + "'";
        if (type == ::AST_DIVIDE) what = "a division " + what;
        if (type == ::AST_PLUS || type == ::AST_MINUS) what = "a sum " + what;
        throw Unsupported{"its kinetic law is not mass action: it contains " + what};
    }

private:
    // `t` as a linear form: a constant, one amount species times a constant, or a form.
    bool linearForm(const Term& t, Linear& out) const {
        out = Linear{};
        if (t.constant()) {
            out.c = t.coefficient;
            return true;
        }
        if (t.species.empty() && t.linear.size() == 1 && t.coefficient == 1.0) {
            out = t.linear.front();
            return true;
        }
        if (t.linear.empty() && t.species.size() == 1 &&
            t.species.begin()->second == std::vector<int>{0} &&
            isAmount(t.species.begin()->first)) {
            out.a[t.species.begin()->first] = t.coefficient;
            return true;
        }
        return false;
    }

    bool isAmount(const std::string& id) const {
        const ::Species* sp = model_.getSpecies(id);
        return sp != nullptr && sp->getHasOnlySubstanceUnits();
    }

    double compartmentSize(const std::string& id) const {
        const ::Compartment* c = model_.getCompartment(id);
        if (c == nullptr || !c->isSetSize())
            throw Unsupported{"compartment '" + id + "' has no size"};
        return c->getSize();
    }

    void name(const std::string& id, Term& t) const {
        const ::Parameter* p = law_.getLocalParameter(id);
        if (p == nullptr) p = law_.getParameter(id);
        const ::Species* sp = p == nullptr ? model_.getSpecies(id) : nullptr;
        if (sp != nullptr && sp->getBoundaryCondition()) {
            // A boundary species keeps its initial amount: a constant factor.
            const double n =
                static_cast<double>(initialCount(model_, *sp)) / (counts_ ? perUnit_ : 1.0);
            t.coefficient *= counts_ && !sp->getHasOnlySubstanceUnits()
                                 ? n / compartmentSize(sp->getCompartment())
                                 : n;
            return;
        }
        if (sp != nullptr) {
            t.species[id].push_back(0);
            if (counts_) t.coefficient /= perUnit_;
            if (counts_ && !sp->getHasOnlySubstanceUnits())
                t.coefficient /= compartmentSize(sp->getCompartment());
            return;
        }
        if (p == nullptr) p = model_.getParameter(id);
        if (p != nullptr) {
            if (!p->isSetValue()) throw Unsupported{"parameter '" + id + "' has no value"};
            t.coefficient *= p->getValue();
            return;
        }
        // A compartment's size turns a concentration rate into an amount rate; with the
        // constants taken in M units it is dropped.
        if (model_.getCompartment(id) != nullptr) {
            if (counts_) t.coefficient *= compartmentSize(id);
            return;
        }
        throw Unsupported{"its kinetic law uses '" + id +
                          "', which is no species, parameter or compartment"};
    }

    const ::Model& model_;
    const ::KineticLaw& law_;
    bool counts_;
    double perUnit_;
};

// Molecules per unit of initialAmount for the units `unitsId` (see loadSbmlNetwork).
double moleculesPerUnit(const ::Model& model, const std::string& unitsId) {
    if (unitsId.empty() || unitsId == "item" || unitsId == "dimensionless") return 1.0;
    if (unitsId == "mole") return kAvogadro;
    const ::UnitDefinition* ud = model.getUnitDefinition(unitsId);
    if (ud == nullptr && unitsId == "substance") return kAvogadro;  // Level 2's default
    if (ud != nullptr && ud->getNumUnits() == 1) {
        const ::Unit* u = ud->getUnit(0);
        const double factor = u->getMultiplier() * std::pow(10.0, u->getScale());
        if (u->getExponentAsDouble() == 1.0 && u->isItem()) return factor;
        if (u->getExponentAsDouble() == 1.0 && u->isMole()) return factor * kAvogadro;
    }
    throw Unsupported{"substance units '" + unitsId + "' are neither items nor moles"};
}

std::int64_t initialCount(const ::Model& model, const ::Species& sp) {
    if (sp.isSetInitialAmount()) {
        std::string units = sp.getSubstanceUnits();
        if (!sp.isSetSubstanceUnits())
            units = model.getLevel() >= 3 ? model.getSubstanceUnits() : std::string("substance");
        return std::llround(sp.getInitialAmount() * moleculesPerUnit(model, units));
    }
    if (sp.isSetInitialConcentration()) {
        const ::Compartment* c = model.getCompartment(sp.getCompartment());
        if (c == nullptr || !c->isSetSize())
            throw Unsupported{"species '" + sp.getId() +
                              "' has an initial concentration but its compartment no size"};
        return std::llround(sp.getInitialConcentration() * c->getSize() * kAvogadro);
    }
    return 0;
}

// Species of one side: id -> stoichiometry (integer).
std::map<std::string, int> sideOf(const ::Model& model, const ::ListOf* refs) {
    std::map<std::string, int> side;
    for (unsigned k = 0; k < refs->size(); ++k) {
        const auto* ref = static_cast<const ::SpeciesReference*>(refs->get(k));
        const std::string& id = ref->getSpecies();
        if (ref->getLevel() == 2 && ref->isSetStoichiometryMath())
            throw Unsupported{"species '" + id + "' has a stoichiometryMath"};
        if (ref->getLevel() >= 3 && !ref->isSetStoichiometry())
            throw Unsupported{"species '" + id + "' has no stoichiometry"};
        const double st = ref->getStoichiometry();
        if (!(st >= 0.0) || st != std::floor(st))
            throw Unsupported{"species '" + id + "' has stoichiometry " + number(st) +
                              " (only integers are supported)"};
        if (st > kMaxProductCopies)
            throw Unsupported{"species '" + id + "' has stoichiometry " + number(st) +
                              ": a reaction of the lattice has at most " +
                              std::to_string(kMaxReactants) + " reactants and makes at most " +
                              std::to_string(kMaxProductCopies) + " of one species"};
        const ::Species* sp = model.getSpecies(id);
        if (sp == nullptr) throw Unsupported{"species '" + id + "' is not declared"};
        // A boundary species is held constant: the reaction leaves it out.
        if (sp->getBoundaryCondition()) continue;
        if (sp->getConstant())
            throw Unsupported{"species '" + id +
                              "' is constant but no boundary species (SBML forbids it in a "
                              "reaction)"};
        if (st > 0.0) side[id] += static_cast<int>(st);
    }
    return side;
}

// The law mass action expects for a side: the propensity form with counts, e.g.
// "P * (P - 1)" for 2 P (the 1/2 of unordered pairs goes into k), else "P * P".
std::string sideText(const std::map<std::string, int>& side, bool counts) {
    std::string s;
    for (const auto& [id, n] : side)
        for (int k = 0; k < n; ++k)
            s += (s.empty() ? "" : " * ") +
                 (counts && k > 0 ? "(" + id + " - " + std::to_string(k) + ")" : id);
    return s.empty() ? "no species" : s;
}

// Whether `t` is the mass-action law of `side`. With counts (SBML's stochastic convention)
// 2 P needs P * (P - 1); otherwise (concentrations) P * P.
bool massAction(const Term& t, const std::map<std::string, int>& side, bool counts) {
    if (t.species.size() != side.size()) return false;
    for (const auto& [id, n] : side) {
        const auto it = t.species.find(id);
        if (it == t.species.end()) return false;
        std::vector<int> shifts = it->second;
        std::sort(shifts.begin(), shifts.end());
        if (static_cast<int>(shifts.size()) != n) return false;
        for (int k = 0; k < n; ++k)
            if (shifts[static_cast<std::size_t>(k)] != (counts ? k : 0)) return false;
    }
    return true;
}

int total(const std::map<std::string, int>& side) {
    int n = 0;
    for (const auto& entry : side)
        n += entry.second;
    return n;
}

bool isInteger(double x) {
    return std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 1e9;
}

// A species the model eliminated through a conservation law, counted by c0 + sum a_i X_i.
// The kinetic laws that read it become mass action on it; every reaction changes it by
// sum a_i dX_i, so that it keeps counting what the form counts.
struct EliminatedSpecies {
    std::string id;  // "eliminated_<n>"
    double c0 = 0.0;
    std::map<std::string, double> a;
};

std::string formText(const EliminatedSpecies& e) {
    std::string s = number(e.c0);
    for (const auto& [id, x] : e.a)
        s += (x < 0 ? " - " : " + ") + (std::fabs(x) == 1.0 ? "" : number(std::fabs(x)) + " ") + id;
    return s;
}

// Replaces the linear forms of `t` by factors of eliminated species (found in, or added to,
// `eliminated`), so that massAction can judge it: (100 - 2 P2) (99 - 2 P2) is E (E - 1) with
// E = 100 - 2 P2. Returns the reactants the forms add: E with multiplicity 2 there.
std::map<std::string, int> eliminate(Term& t, std::vector<EliminatedSpecies>& eliminated) {
    std::map<std::string, int> added;
    for (const Linear& l : t.linear) {
        if (!isInteger(l.c))
            throw Unsupported{"its kinetic law has a linear form with constant " + number(l.c) +
                              " (a count needs integers)"};
        for (const auto& [id, x] : l.a)
            if (!isInteger(x))
                throw Unsupported{"its kinetic law has a linear form with coefficient " +
                                  number(x) + " for '" + id + "' (a count needs integers)"};
        auto it = std::find_if(eliminated.begin(), eliminated.end(),
                               [&](const EliminatedSpecies& e) { return e.a == l.a; });
        if (it == eliminated.end()) {
            // The form's largest constant among this law's factors of it is the count itself.
            double c0 = l.c;
            for (const Linear& m : t.linear)
                if (m.a == l.a) c0 = std::max(c0, m.c);
            eliminated.push_back({"eliminated_" + std::to_string(eliminated.size() + 1), c0, l.a});
            it = std::prev(eliminated.end());
        }
        const double shift = it->c0 - l.c;
        if (shift < 0.0 || shift > 3.0)
            throw Unsupported{"its kinetic law reads " + formText(*it) + " shifted by " +
                              number(-shift) + ", which is no falling factorial of it"};
        t.species[it->id].push_back(static_cast<int>(shift));
        ++added[it->id];
    }
    t.linear.clear();
    return added;
}

}  // namespace

ReactionNetwork loadSbmlNetwork(const std::filesystem::path& file, SbmlLaws laws) {
    const std::string path = file.string();
    requireInputFile(file);
    ::SBMLReader reader;
    const std::unique_ptr<::SBMLDocument> doc(reader.readSBMLFromFile(path));
    if (!doc) throw InputFileError(path + ": libsbml could not read the file");
    // SBML packages (distrib draws parameters from distributions, etc.) come before the
    // errors: libsbml reports a required package it lacks as an error.
    if (const ::XMLNamespaces* ns = doc->getNamespaces(); ns != nullptr)
        for (int k = 0; k < ns->getNumNamespaces(); ++k) {
            const std::string uri = ns->getURI(k);
            const std::string prefix = ns->getPrefix(k);
            if (uri.find("/level3/version1/core") != std::string::npos ||
                uri.find("/level3/version2/core") != std::string::npos ||
                uri.find("/level2") != std::string::npos || prefix.empty())
                continue;
            if (uri.find("sbml.org/sbml/level3") != std::string::npos)
                throw InputFileError(path + ": the model needs the SBML package '" + prefix +
                                     "' (" + uri + "), which the lattice cannot run");
        }
    for (unsigned k = 0; k < doc->getNumErrors(); ++k) {
        const ::SBMLError* e = doc->getError(k);
        if (!e->isFatal() && !e->isError()) continue;  // warnings (units and the like) pass
        std::string message = e->getMessage();
        for (char& c : message)
            if (c == '\n' || c == '\r') c = ' ';
        while (!message.empty() && message.back() == ' ')
            message.pop_back();
        throw InputFileError(path + ":" + std::to_string(e->getLine()) + ":" +
                             std::to_string(e->getColumn()) + ": malformed SBML: " + message);
    }
    if (doc->getModel() == nullptr) throw InputFileError(path + ": the SBML document has no model");
    const auto refuse = [&](unsigned n, const char* what) {
        if (n > 0)
            throw InputFileError(path + ": the model has " + std::to_string(n) + " " + what +
                                 ", which the lattice cannot run (only mass-action reactions)");
    };
    refuse(doc->getModel()->getNumEvents(), "event(s)");
    refuse(doc->getModel()->getNumRules(), "rule(s)");
    // Initial assignments are evaluated by libsbml (those it cannot evaluate remain and
    // are refused below); function definitions are expanded in each kinetic law.
    ::SBMLTransforms::expandInitialAssignments(doc->getModel());
    const ::Model* model = doc->getModel();
    refuse(model->getNumInitialAssignments(), "initial assignment(s)");
    const bool counts = laws == SbmlLaws::Sbml;
    double perUnit = 1.0;  // molecules per substance unit of the laws
    if (counts) try {
            perUnit = moleculesPerUnit(*model, model->getLevel() >= 3 ? model->getSubstanceUnits()
                                                                      : std::string("substance"));
        } catch (const Unsupported& u) {
            throw InputFileError(path + ": " + u.what);
        }

    ReactionNetwork net;
    std::map<std::string, int> speciesIds;
    for (unsigned k = 0; k < model->getNumSpecies(); ++k) {
        const ::Species* sp = model->getSpecies(k);
        net.species.push_back(sp->getId());
        net.speciesTitles.push_back(sp->getName());
        try {
            net.initialCounts.push_back(initialCount(*model, *sp));
        } catch (const Unsupported& u) {
            throw InputFileError(path + ": " + u.what);
        }
        speciesIds[sp->getId()] = static_cast<int>(k) + 1;
    }
    if (model->getNumCompartments() == 1 && model->getCompartment(0u)->isSetSize())
        net.volumeLitres = model->getCompartment(0u)->getSize();

    const auto ids = [&](const std::map<std::string, int>& side) {
        std::vector<int> out;
        for (const auto& [id, n] : side)
            for (int c = 0; c < n; ++c)
                out.push_back(speciesIds.at(id));
        return out;
    };
    std::vector<EliminatedSpecies> eliminated;
    for (unsigned k = 0; k < model->getNumReactions(); ++k) {
        const ::Reaction* rx = model->getReaction(k);
        const std::string rid = rx->getId();
        try {
            std::map<std::string, int> left = sideOf(*model, rx->getListOfReactants());
            const std::map<std::string, int> right = sideOf(*model, rx->getListOfProducts());
            if (total(left) > kMaxReactants)
                throw Unsupported{std::to_string(total(left)) +
                                  " reactants: at most 2 (zeroth, first and second order)"};
            {
                std::vector<int> made;  // only the multiplicities matter here
                int distinct = 0;
                for (const auto& side : right)
                    made.insert(made.end(), static_cast<std::size_t>(side.second), ++distinct);
                if (const std::string problem = productSlots(made).problem; !problem.empty())
                    throw Unsupported{problem};
            }
            if (!rx->isSetKineticLaw() || rx->getKineticLaw()->getMath() == nullptr)
                throw Unsupported{"it has no kinetic law"};
            const ::KineticLaw& law = *rx->getKineticLaw();
            // multiply(k1, S1) becomes k1 * S1.
            const std::unique_ptr<::ASTNode> expanded(law.getMath()->deepCopy());
            ::SBMLTransforms::replaceFD(expanded.get(), model->getListOfFunctionDefinitions());
            const ::ASTNode* math = expanded.get();
            const LawReader lawReader(*model, law, counts, perUnit);
            const bool reversible = math->getType() == ::AST_MINUS && math->getNumChildren() == 2;
            Term forward = lawReader.propensity(reversible ? math->getChild(0) : math);
            const Term backward = reversible ? lawReader.propensity(math->getChild(1)) : Term{};
            if (!backward.linear.empty())
                throw Unsupported{
                    "its reverse law reads a linear form of species (a species "
                    "eliminated by conservation): only forward laws may"};
            for (const auto& [id, n] : eliminate(forward, eliminated)) {
                left[id] += n;
                if (speciesIds.count(id) == 0) {
                    // By id: one law may bring in two forms.
                    const EliminatedSpecies& e =
                        *std::find_if(eliminated.begin(), eliminated.end(),
                                      [&](const EliminatedSpecies& c) { return c.id == id; });
                    double count = e.c0;
                    for (const auto& [x, ax] : e.a)
                        count +=
                            ax *
                            static_cast<double>(
                                net.initialCounts[static_cast<std::size_t>(speciesIds.at(x) - 1)]);
                    if (count < 0.0)
                        throw Unsupported{"the eliminated species " + formText(e) + " starts at " +
                                          number(count) + " molecules"};
                    net.species.push_back(id);
                    net.speciesTitles.push_back(formText(e) + " (eliminated by conservation)");
                    net.initialCounts.push_back(std::llround(count));
                    speciesIds[id] = static_cast<int>(net.species.size());
                }
            }
            if (total(left) > kMaxReactants)
                throw Unsupported{std::to_string(total(left)) +
                                  " reactants with the eliminated species its law reads: at "
                                  "most 2"};
            const std::string expect = "mass action needs k * " + sideText(left, counts) +
                                       (reversible ? " - k' * " + sideText(right, counts) : "");
            if (!massAction(forward, left, counts) ||
                (reversible && !massAction(backward, right, counts)))
                throw Unsupported{"its kinetic law '" + formula(math) +
                                  "' is not mass action for its stoichiometry (" + expect + ")"};
            if (reversible && total(right) > kMaxReactants)
                throw Unsupported{"its reverse direction has " + std::to_string(total(right)) +
                                  " reactants: at most 2"};
            if (forward.coefficient < 0.0 || backward.coefficient < 0.0)
                throw Unsupported{"its kinetic law has a negative rate constant"};
            Reaction r;
            r.reactants = ids(left);
            r.products = ids(right);
            r.rate = counts ? 0.0 : forward.coefficient;
            r.countRate = counts ? forward.coefficient : -1.0;
            r.label = rid;
            net.reactions.push_back(r);
            if (reversible) {
                std::swap(r.reactants, r.products);
                r.rate = counts ? 0.0 : backward.coefficient;
                r.countRate = counts ? backward.coefficient : -1.0;
                r.label = rid + "_reverse";
                net.reactions.push_back(r);
            }
        } catch (const Unsupported& u) {
            throw InputFileError(path + ": reaction '" + rid + "': " + u.what);
        }
    }
    // Every reaction changes an eliminated species by sum a_i dX_i: its law's reactants of it
    // stay, the rest of the change is products (a negative rest cannot be run).
    for (const EliminatedSpecies& e : eliminated) {
        const int eid = speciesIds.at(e.id);
        for (Reaction& r : net.reactions) {
            std::erase(r.products, eid);
            double change = 0.0;
            for (const auto& [x, ax] : e.a) {
                const int xid = speciesIds.at(x);
                change += ax * static_cast<double>(
                                   std::count(r.products.begin(), r.products.end(), xid) -
                                   std::count(r.reactants.begin(), r.reactants.end(), xid));
            }
            const double made = change + static_cast<double>(std::count(r.reactants.begin(),
                                                                        r.reactants.end(), eid));
            if (made < 0.0)
                throw InputFileError(path + ": reaction '" + r.label + "': it takes " +
                                     number(-change) + " of the eliminated species " + formText(e) +
                                     " without its law reading it");
            r.products.insert(r.products.end(), static_cast<std::size_t>(made), eid);
            if (const std::string problem = productSlots(r.products).problem; !problem.empty())
                throw InputFileError(path + ": reaction '" + r.label +
                                     "': with the eliminated "
                                     "species " +
                                     formText(e) + ", " + problem);
        }
    }
    if (net.reactions.size() > static_cast<std::size_t>(kMaxReactions))
        throw InputFileError(
            path + ": " + std::to_string(net.reactions.size()) +
            " reactions (reversible ones count twice): the lattice model runs at most " +
            std::to_string(kMaxReactions));
    return net;
}

}  // namespace cf::lattice
