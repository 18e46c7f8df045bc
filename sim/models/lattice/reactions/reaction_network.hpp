// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reaction networks of `lattice` on the host: what the scenario text or an SBML file says
// (species, stoichiometry, rates in deterministic units, where each reaction may happen),
// and its compilation into the per-step ReactionTable that both backends run.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sim/models/lattice/reactions/reaction_table.hpp"
#include "sim/models/lattice/site_types.hpp"

namespace cf::lattice {

inline constexpr double kAvogadro = 6.02214076e23;  // [1/mol], exact since SI 2019

struct Reaction {
    std::vector<int> reactants;  // species ids (1-based), 0..2 of them; 2 A gives {A, A}
    std::vector<int> products;   // species ids (repeated: "5 X"); see productSlots
    // Deterministic rate constant: order 0 in M/s, order 1 in 1/s, order 2 in 1/(M s). For
    // 2A -> ... the reaction's rate is k [A]^2 (so d[A]/dt = -2 k [A]^2).
    double rate = 0.0;
    // From SBML files in counts (see loadSbmlNetwork), -1 otherwise: the propensity per
    // ordered tuple of reactant molecules in the whole volume [1/s] (order 2: a = c n_a n_b,
    // or c n (n - 1) for 2A). resolveCountRates turns it into `rate` for a volume.
    double countRate = -1.0;
    std::uint32_t siteMask = kDefaultReactionSites;  // bit t: allowed in site type t
    std::string label;                               // "A + B -> C" unless named
    int order() const { return static_cast<int>(reactants.size()); }
};

// The table's product slots for `products` (species ids, repeats allowed), in their order
// except that where more than kMaxProducts particles are made, the species made most often
// comes last and its copies collapse into that slot (ReactionEntry::lastCopies). Empty
// `problem` when the lattice can make them: at most kMaxProducts particles, or up to
// kMaxProductCopies of one species beside at most kMaxProducts - 1 others.
struct ProductSlots {
    std::vector<int> slots;
    int lastCopies = 1;
    std::string problem;
};
ProductSlots productSlots(const std::vector<int>& products);

struct ReactionNetwork {
    std::vector<std::string> species;  // species id s is species[s - 1]
    std::vector<Reaction> reactions;
    // From SBML only (empty or 0 otherwise): the species' SBML names (may be empty), their
    // initial molecule counts (see loadSbmlNetwork), the model's compartment volume [L].
    std::vector<std::string> speciesTitles;
    std::vector<std::int64_t> initialCounts;
    double volumeLitres = 0.0;
};

// Parses a network over the species `speciesNames` (ids 1..N in that order). Reactions are
// separated by ';' or newlines; '#' comments out the rest of a line. Each reaction is
//   [label:] reactants -> products @ rate [in type, type...]
// where a side is "0" or empty for none, or species joined by '+', each optionally with an
// integer coefficient ("2 A" or "A + A"); at most 2 reactants, 4 products, 16 reactions;
// rate >= 0 in deterministic units (see Reaction::rate); "in" restricts the site types
// (cytoplasm, membrane, outside; default all three). Throws ParameterError
//   "<source>: reaction <n> (column <c>): <what was expected>"
// (with "line <l>, " when the text has several lines), `source` being e.g. the parameter key.
ReactionNetwork parseReactionNetwork(std::string_view text,
                                     const std::vector<std::string>& speciesNames,
                                     const std::string& source);

// The network as text that parseReactionNetwork reads back to the same reactions (rates
// printed to round-trip exactly), one reaction per line.
std::string formatReactionNetwork(const ReactionNetwork& net);

// "A + B -> C" (for labels and messages); "0" for an empty side.
std::string reactionText(const ReactionNetwork& net, const Reaction& r);

// Mass-action reactions from an SBML file (Level 2 or 3, read with libsbml). Species are
// named by their SBML ids. Supported: integer stoichiometry; kinetic laws that are a product
// of numbers, parameters (local or global) and the reactants (a species to an integer
// power counts that many times), or such a product for the reactants minus one for the
// products (a reversible reaction: it becomes two reactions, "<id>" and "<id>_reverse").
// A factor naming a compartment is dropped (the volume that turns concentration rates into
// amount rates). Rate constants are taken to be in M and s units whatever the file declares.
// Kinetic laws with SbmlLaws::Sbml (SBML's meaning, which the Test Suite's stochastic
// cases use): a law is the propensity (times N_A for moles); a compartment symbol is its size, a
// species with hasOnlySubstanceUnits = false is its count over the compartment size, and 2 P needs
// the form k * P * (P - 1) (any constant factor, e.g. / 2). Such reactions carry countRate, not
// rate. Function definitions are expanded and initial assignments evaluated (libsbml's converters);
// boundary species are held constant (left out of the reactions, their initial amount a
// constant factor of a law). Constant arithmetic (X / 2 / 0.5) folds. A species the model
// eliminated through a conservation law, read in a law as an integer linear form of amounts
// (100 - 2 P2, and 100 - 2 P2 - 1 for its falling factorial), comes back as a species of its
// own, "eliminated_<n>", titled with the form: its initial count is the form's value, the law is
// mass action on it, and every reaction changes it as the form changes (P2 -> makes 2 of it).
// Initial counts: an initialAmount in items (declared "item") is a count; in moles
// (declared, or Level 2's default "substance") it is multiplied by N_A; with no units
// declared (Level 3) it is taken as a count; an initialConcentration is taken in M and
// multiplied by N_A and the compartment's size in litres. All rounded to integers.
// Throws InputFileError naming the file (and libsbml's line for malformed XML, the reaction id
// and what is unsupported for anything else: other kinetic laws, non-integer
// stoichiometry, SBML packages (distrib, ...), events, rules, more than 2 reactants or 4
// products, constant non-boundary species in reactions, more than 16 reactions). In a build without
// libsbml (CELLFORGE_HAVE_SBML = 0) it throws InputFileError saying so. How kinetic laws are read:
// Sbml as SBML defines them (the law is the rate in the model's substance units per second: with
// items, or none declared, the propensity; with moles, N_A times it), Molar as before (rate
// constants in M and s whatever the file declares, compartment factors dropped).
enum class SbmlLaws { Molar, Sbml };
ReactionNetwork loadSbmlNetwork(const std::filesystem::path& file, SbmlLaws laws = SbmlLaws::Molar);

// Sets `rate` of every reaction with a countRate c for the volume V [L] it runs in:
// k = c (N_A V)^(order - 1), so that the lattice's propensity summed over a well-mixed
// volume V is the file's. Throws ParameterError for V <= 0.
void resolveCountRates(ReactionNetwork& net, double volumeLitres);

// Compiles the network for lattice spacing lambda [nm] and time step tau [ns]: each
// reaction's propensity constant per step is
//   perStep = k_stoch tau,  k_stoch = k_det (N_A V_site)^(1 - order),
// V_site = lambda^3 in litres (1 nm^3 = 1e-24 L), as Lattice Microbes / jLM convert
// (lattice.md C.2). rateScale (per reaction, may be null) multiplies the rates, e.g. for
// live edits. Throws ParameterError for more than kMaxReactions reactions, species ids
// outside 1..min(N, 65535), a non-positive lambda or tau, or a negative or non-finite result.
ReactionTable compileReactions(const ReactionNetwork& net, double lambdaNm, double tauNs,
                               const double* rateScale);

// An upper bound of a_tot over every site type and every content of at most `capacity`
// particles: per site type, the sum over its reactions of each one's largest propensity
// (order 0: perStep; 1: perStep c; A + B: perStep floor(c/2) ceil(c/2); 2A: perStep c (c-1)).
// When it is not small, P = 1 - exp(-a_tot) is not small either and the rule of one
// reaction per site and step slows the fastest reactions down (relative error about
// a_tot / 2): worth a warning.
double reactionPropensityBound(const ReactionTable& table, int capacity);

}  // namespace cf::lattice
