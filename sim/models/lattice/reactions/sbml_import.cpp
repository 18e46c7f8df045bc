// SPDX-License-Identifier: GPL-3.0-or-later
// Mass-action reaction networks from SBML through libsbml (built only when libsbml is
// found; sbml_unavailable.cpp stands in otherwise). What is accepted: reaction_network.hpp.
#include <sbml/SBMLTypes.h>
#include <sbml/math/L3FormulaFormatter.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

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

// One product term of a kinetic law: constant factor times species (with multiplicity).
struct Term {
    double coefficient = 1.0;
    std::map<std::string, int> species;
};

class LawReader {
public:
    LawReader(const ::Model& model, const ::KineticLaw& law) : model_(model), law_(law) {}

    // Multiplies the factors of `n` into `t`; throws Unsupported naming the offending part.
    void product(const ::ASTNode* n, Term& t) const {
        const ::ASTNodeType_t type = n->getType();
        if (type == ::AST_TIMES) {
            for (unsigned k = 0; k < n->getNumChildren(); ++k)
                product(n->getChild(k), t);
            return;
        }
        if (n->isNumber()) {
            t.coefficient *= n->getValue();
            return;
        }
        if (type == ::AST_NAME) {
            name(n->getName(), 1, t);
            return;
        }
        if ((type == ::AST_POWER || type == ::AST_FUNCTION_POWER) && n->getNumChildren() == 2 &&
            n->getChild(0)->getType() == ::AST_NAME && n->getChild(1)->isNumber()) {
            const double e = n->getChild(1)->getValue();
            const char* base = n->getChild(0)->getName();
            if (model_.getSpecies(base) != nullptr && e >= 1.0 && e <= 4.0 && e == std::floor(e)) {
                name(base, static_cast<int>(e), t);
                return;
            }
        }
        std::string what = "'" + formula(n) + "'";
        if (type == ::AST_DIVIDE) what = "a division " + what;
        if (type == ::AST_PLUS || type == ::AST_MINUS) what = "a sum " + what;
        throw Unsupported{"its kinetic law is not mass action: it contains " + what};
    }

private:
    void name(const std::string& id, int power, Term& t) const {
        const ::Parameter* p = law_.getLocalParameter(id);
        if (p == nullptr) p = law_.getParameter(id);
        if (p == nullptr && model_.getSpecies(id) != nullptr) {
            t.species[id] += power;
            return;
        }
        if (p == nullptr) p = model_.getParameter(id);
        if (p != nullptr) {
            if (!p->isSetValue()) throw Unsupported{"parameter '" + id + "' has no value"};
            t.coefficient *= std::pow(p->getValue(), power);
            return;
        }
        // A compartment's size turns a concentration rate into an amount rate; the rate
        // constants are taken in M units, so it is dropped.
        if (model_.getCompartment(id) != nullptr) return;
        throw Unsupported{"its kinetic law uses '" + id +
                          "', which is no species, parameter or compartment"};
    }

    const ::Model& model_;
    const ::KineticLaw& law_;
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
        if (!(st >= 0.0) || st != std::floor(st) || st > 8.0)
            throw Unsupported{"species '" + id + "' has stoichiometry " + number(st) +
                              " (only small integers are supported)"};
        const ::Species* sp = model.getSpecies(id);
        if (sp == nullptr) throw Unsupported{"species '" + id + "' is not declared"};
        if (sp->getBoundaryCondition() || sp->getConstant())
            throw Unsupported{"species '" + id +
                              "' is a boundary or constant species (a fixed amount, which the "
                              "lattice cannot hold)"};
        if (st > 0.0) side[id] += static_cast<int>(st);
    }
    return side;
}

std::string sideText(const std::map<std::string, int>& side) {
    std::string s;
    for (const auto& [id, n] : side)
        for (int k = 0; k < n; ++k)
            s += (s.empty() ? "" : " * ") + id;
    return s.empty() ? "no species" : s;
}

int total(const std::map<std::string, int>& side) {
    int n = 0;
    for (const auto& entry : side)
        n += entry.second;
    return n;
}

}  // namespace

ReactionNetwork loadSbmlNetwork(const std::filesystem::path& file) {
    const std::string path = file.string();
    requireInputFile(file);
    ::SBMLReader reader;
    const std::unique_ptr<::SBMLDocument> doc(reader.readSBMLFromFile(path));
    if (!doc) throw InputFileError(path + ": libsbml could not read the file");
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
    const ::Model* model = doc->getModel();
    if (model == nullptr) throw InputFileError(path + ": the SBML document has no model");
    const auto refuse = [&](unsigned n, const char* what) {
        if (n > 0)
            throw InputFileError(path + ": the model has " + std::to_string(n) + " " + what +
                                 ", which the lattice cannot run (only mass-action reactions)");
    };
    refuse(model->getNumEvents(), "event(s)");
    refuse(model->getNumRules(), "rule(s)");
    refuse(model->getNumInitialAssignments(), "initial assignment(s)");

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
    for (unsigned k = 0; k < model->getNumReactions(); ++k) {
        const ::Reaction* rx = model->getReaction(k);
        const std::string rid = rx->getId();
        try {
            const std::map<std::string, int> left = sideOf(*model, rx->getListOfReactants());
            const std::map<std::string, int> right = sideOf(*model, rx->getListOfProducts());
            if (total(left) > kMaxReactants)
                throw Unsupported{std::to_string(total(left)) +
                                  " reactants: at most 2 (zeroth, first and second order)"};
            if (total(right) > kMaxProducts)
                throw Unsupported{std::to_string(total(right)) + " products: at most 4"};
            if (!rx->isSetKineticLaw() || rx->getKineticLaw()->getMath() == nullptr)
                throw Unsupported{"it has no kinetic law"};
            const ::KineticLaw& law = *rx->getKineticLaw();
            const ::ASTNode* math = law.getMath();
            const LawReader lawReader(*model, law);
            Term forward, backward;
            const bool reversible = math->getType() == ::AST_MINUS && math->getNumChildren() == 2;
            lawReader.product(reversible ? math->getChild(0) : math, forward);
            if (reversible) lawReader.product(math->getChild(1), backward);
            const std::string expect = "mass action needs k * " + sideText(left) +
                                       (reversible ? " - k' * " + sideText(right) : "");
            if (forward.species != left || (reversible && backward.species != right))
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
            r.rate = forward.coefficient;
            r.label = rid;
            net.reactions.push_back(r);
            if (reversible) {
                std::swap(r.reactants, r.products);
                r.rate = backward.coefficient;
                r.label = rid + "_reverse";
                net.reactions.push_back(r);
            }
        } catch (const Unsupported& u) {
            throw InputFileError(path + ": reaction '" + rid + "': " + u.what);
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
