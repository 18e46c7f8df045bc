// SPDX-License-Identifier: GPL-3.0-or-later
// Reaction networks of `lattice` on the host: the text parser (what it accepts, and each
// error naming the parameter key, the reaction number, the column and what was expected),
// SBML import with libsbml, and the conversion of deterministic rates into propensities per
// lattice step (checked against numbers worked out by hand). The per-site step and the CME
// comparison: test_lattice_reaction_site.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

namespace cf::lattice {
namespace {

const std::vector<std::string> kAbc = {"A", "B", "C"};
const std::string kKey = "reactions.network";

ReactionNetwork parse(std::string_view text, const std::vector<std::string>& names = kAbc) {
    return parseReactionNetwork(text, names, kKey);
}

// The ParameterError message of parsing `text` (fails the test when nothing is thrown).
std::string parseError(std::string_view text) {
    try {
        parse(text);
    } catch (const ParameterError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no ParameterError for: " << text;
    return {};
}

void expectContains(const std::string& message, const std::vector<std::string>& parts) {
    for (const std::string& p : parts)
        EXPECT_NE(message.find(p), std::string::npos)
            << "message \"" << message << "\" lacks \"" << p << "\"";
}

TEST(LatticeReactionParser, ReadsTheExampleNetwork) {
    const ReactionNetwork net =
        parse("A + B -> C @ 1.07e5; C -> A + B @ 0.351; 0 -> A @ 1e-6 in membrane");
    ASSERT_EQ(net.species, kAbc);
    ASSERT_EQ(net.reactions.size(), 3u);
    const Reaction& bind = net.reactions[0];
    EXPECT_EQ(bind.reactants, (std::vector<int>{1, 2}));
    EXPECT_EQ(bind.products, (std::vector<int>{3}));
    EXPECT_EQ(bind.rate, 1.07e5);
    EXPECT_EQ(bind.order(), 2);
    EXPECT_EQ(bind.siteMask, kDefaultReactionSites);
    EXPECT_EQ(bind.label, "A + B -> C");
    EXPECT_EQ(net.reactions[1].reactants, (std::vector<int>{3}));
    EXPECT_EQ(net.reactions[1].products, (std::vector<int>{1, 2}));
    EXPECT_EQ(net.reactions[1].rate, 0.351);
    const Reaction& birth = net.reactions[2];
    EXPECT_TRUE(birth.reactants.empty());
    EXPECT_EQ(birth.products, (std::vector<int>{1}));
    EXPECT_EQ(birth.rate, 1e-6);
    EXPECT_EQ(birth.siteMask, siteTypeBit(kSiteMembrane));
    EXPECT_EQ(birth.label, "0 -> A");
}

TEST(LatticeReactionParser, AcceptsCoefficientsEmptySidesLabelsCommentsAndSiteLists) {
    const ReactionNetwork net = parse(
        "# dimerisation and decay\n"
        "dimer: 2 A -> B @ 3   # a comment; not a reaction\n"
        "A + A -> B @ 3\n"
        "\n"
        "2A -> 0 @ 0 ;; C -> @ 1e-3 in cytoplasm, outside\n"
        " -> 3 C @ 2.5e-7 in membrane outside\n");
    ASSERT_EQ(net.reactions.size(), 5u);
    EXPECT_EQ(net.reactions[0].label, "dimer");
    EXPECT_EQ(net.reactions[0].reactants, (std::vector<int>{1, 1}));
    EXPECT_EQ(net.reactions[1].reactants, (std::vector<int>{1, 1}));
    EXPECT_EQ(net.reactions[1].label, "A + A -> B");
    EXPECT_EQ(net.reactions[2].rate, 0.0);  // allowed: a reaction switched off
    EXPECT_TRUE(net.reactions[2].products.empty());
    EXPECT_TRUE(net.reactions[3].products.empty());
    EXPECT_EQ(net.reactions[3].siteMask, siteTypeBit(kSiteCytoplasm) | siteTypeBit(kSiteOutside));
    EXPECT_EQ(net.reactions[4].products, (std::vector<int>{3, 3, 3}));
    EXPECT_EQ(net.reactions[4].siteMask, siteTypeBit(kSiteMembrane) | siteTypeBit(kSiteOutside));
    EXPECT_TRUE(parse("").reactions.empty());
    EXPECT_TRUE(parse(" ; \n # nothing\n").reactions.empty());
}

// A whole name wins over a coefficient reading: "A2" is the species, "2A2" is 2 x A2.
TEST(LatticeReactionParser, SpeciesNamesAreMatchedWhole) {
    const ReactionNetwork net = parse("Ab + A -> A2 @ 1; 2A2 -> Ab @ 1", {"A", "Ab", "A2"});
    ASSERT_EQ(net.reactions.size(), 2u);
    EXPECT_EQ(net.reactions[0].reactants, (std::vector<int>{2, 1}));
    EXPECT_EQ(net.reactions[0].products, (std::vector<int>{3}));
    EXPECT_EQ(net.reactions[1].reactants, (std::vector<int>{3, 3}));
}

TEST(LatticeReactionParser, SiteTypeNamesAndCodes) {
    EXPECT_EQ(siteTypeByName("cytoplasm"), 0);
    EXPECT_EQ(siteTypeByName("obstacle"), 1);
    EXPECT_EQ(siteTypeByName("membrane"), 2);
    EXPECT_EQ(siteTypeByName("outside"), 3);
    EXPECT_EQ(siteTypeByName("nucleus"), -1);
    EXPECT_EQ(kDefaultReactionSites, 0b1101u);
}

// Each message names the key, the reaction (counted from 1 over non-empty statements), the
// column (1-based, of the offending token) and what was expected.
TEST(LatticeReactionParser, ErrorsNameKeyReactionColumnAndExpectation) {
    expectContains(parseError("A + D -> C @ 1"), {kKey + ": ", "reaction 1 (column 5)",
                                                  "unknown species 'D'", "known species: A, B, C"});
    expectContains(parseError("A -> B @ 1; A + B + C -> 0 @ 1"),
                   {"reaction 2 (column 13)", "order 3 is not supported", "at most 2 reactants"});
    expectContains(parseError("3 A -> B @ 1"), {"reaction 1 (column 1)", "order 3"});
    // Five products of which one species twice: 3 others beside 2 copies, which the table
    // holds (ReactionEntry::lastCopies); six of three species twice each: refused.
    expectContains(parseError("A -> B + B + C + C + A + A @ 1"),
                   {"reaction 1 (column 6)",
                    "6 products: a reaction of the lattice makes at most 4, or up to 128 of one "
                    "species beside at most 3 others"});
    expectContains(parseError("A -> 129 B @ 1"),
                   {"129 copies of one product: a reaction of the lattice makes at most 128"});
    expectContains(parseError("A -> B"), {"reaction 1 (column 7)", "missing rate", "'@ <rate>'"});
    expectContains(parseError("A -> B @ "), {"reaction 1 (column 8)", "missing rate"});
    expectContains(parseError("A -> B @ fast"),
                   {"reaction 1 (column 10)", "expected a rate (a number) after '@'", "'fast'"});
    expectContains(parseError("C -> A @ 1; A -> B @ -0.5"),
                   {"reaction 2 (column 22)", "negative rate -0.5", "rates are >= 0"});
    expectContains(parseError("A -> B @ inf"), {"the rate must be finite"});
    expectContains(parseError("A + B @ 1"), {"reaction 1 (column 1)", "expected '->'"});
    expectContains(parseError("A <-> B @ 1"), {"column 3", "'<->' is not supported"});
    expectContains(parseError("A -> B -> C @ 1"), {"column 8", "more than one '->'"});
    expectContains(parseError("A + -> B @ 1"), {"column 4", "expected a species after '+'"});
    expectContains(parseError("+ A -> B @ 1"), {"column 1", "expected a species before '+'"});
    expectContains(parseError("0 A -> B @ 1"), {"coefficient 0"});
    expectContains(parseError("A -> B @ 1 in nucleus"),
                   {"column 15", "unknown site type 'nucleus'", "cytoplasm, membrane, outside"});
    expectContains(parseError("A -> B @ 1 in obstacle"), {"column 15", "obstacle sites"});
    expectContains(parseError("A -> B @ 1 in"), {"expected site types after 'in'"});
    expectContains(parseError("A -> B @ 1 2"), {"column 12", "unexpected '2' after the rate"});
    expectContains(parseError(": A -> B @ 1"), {"expected a label before ':'"});
    expectContains(parseError("A -> B @ 1\n  B -> Q @ 2"),
                   {"reaction 2 (line 2, column 8)", "unknown species 'Q'"});
    std::string many;
    for (int k = 0; k < 17; ++k)
        many += "A -> B @ 1; ";
    expectContains(parseError(many), {"reaction 17 (column 193)", "more than 16 reactions"});
    // No species declared at all.
    try {
        parseReactionNetwork("A -> 0 @ 1", {}, kKey);
        ADD_FAILURE() << "no error without species";
    } catch (const ParameterError& e) {
        expectContains(e.what(), {"no species are declared"});
    }
}

TEST(LatticeReactionParser, FormattedNetworkReadsBackToTheSameReactions) {
    const ReactionNetwork net = parse(
        "bind: A + B -> C @ 107000.00000000001; C -> A + B @ 0.351; 0 -> A @ 1e-6 in membrane; "
        "2 B -> 0 @ 3.3333333333333335 in cytoplasm, outside");
    const std::string text = formatReactionNetwork(net);
    const ReactionNetwork back = parse(text);
    ASSERT_EQ(back.reactions.size(), net.reactions.size()) << text;
    for (std::size_t k = 0; k < net.reactions.size(); ++k) {
        EXPECT_EQ(back.reactions[k].reactants, net.reactions[k].reactants);
        EXPECT_EQ(back.reactions[k].products, net.reactions[k].products);
        EXPECT_EQ(back.reactions[k].rate, net.reactions[k].rate);  // bit for bit
        EXPECT_EQ(back.reactions[k].siteMask, net.reactions[k].siteMask);
        EXPECT_EQ(back.reactions[k].label, net.reactions[k].label);
    }
    std::printf("formatted network:\n%s", text.c_str());
}

// ---- rate conversion -------------------------------------------------------------------

// lambda = 1000 nm makes V_site = 1e9 nm^3 = 1e-15 L, the volume of Lattice Microbes'
// bimolecular example; tau = 1e9 ns = 1 s makes perStep = k_stoch in 1/s.
TEST(LatticeReactionRates, ConvertDeterministicRatesAsLatticeMicrobes) {
    const ReactionNetwork net =
        parse("A + B -> C @ 1.07e5; C -> A + B @ 0.351; 0 -> A @ 1e-6; 2 A -> B @ 1.07e5");
    const ReactionTable t = compileReactions(net, 1000.0, 1.0e9, nullptr);
    ASSERT_EQ(t.count, 4);
    EXPECT_EQ(t.speciesCount, 3);
    // kf / (N_A V) = 1.07e5 / (6.02214076e23 * 1e-15) = 1.776777e-4 /s per A-B pair, the
    // 1.777e-4 that lattice.md quotes (to its 4 digits).
    EXPECT_NEAR(t.reactions[0].perStep, 1.07e5 / 6.02214076e8, 1e-12 * 1.8e-4);
    EXPECT_NEAR(t.reactions[0].perStep, 1.777e-4, 0.0005e-4);
    EXPECT_EQ(t.reactions[0].order, 2);
    EXPECT_EQ(t.reactions[0].a, 1);
    EXPECT_EQ(t.reactions[0].b, 2);
    EXPECT_EQ(t.reactions[0].productCount, 1);
    EXPECT_EQ(t.reactions[0].products[0], 3);
    EXPECT_DOUBLE_EQ(t.reactions[1].perStep, 0.351);  // first order: unchanged
    EXPECT_EQ(t.reactions[1].productCount, 2);
    // Zeroth order: k N_A V = 1e-6 M/s * 6.02214076e8 /M = 602.214076 /s per site.
    EXPECT_NEAR(t.reactions[2].perStep, 602.214076, 1e-9);
    EXPECT_EQ(t.reactions[3].a, 1);
    EXPECT_EQ(t.reactions[3].b, 1);
    EXPECT_EQ(t.anySiteMask, kDefaultReactionSites);
    printf("per-pair rate kf/(N_A V) = %.6e /s (V = 1e-15 L)\n", t.reactions[0].perStep);

    // tau = 1 ms: first order 0.351 /s -> 3.51e-4 per step.
    EXPECT_NEAR(compileReactions(net, 1000.0, 1.0e6, nullptr).reactions[1].perStep, 3.51e-4, 1e-16);
    // lambda = 10 nm (V = 1e-21 L), tau = 1 s: zeroth order 1e-6 M/s -> 6.02214076e-4 /site.
    EXPECT_NEAR(compileReactions(net, 10.0, 1.0e9, nullptr).reactions[2].perStep, 6.02214076e-4,
                1e-16);
    // Lattice Microbes' uniform test: lambda = 32 nm (V = 3.2768e-20 L), tau = 50 us:
    // kf tau / (N_A V) = 1.07e5 * 5e-5 / (6.02214076e23 * 3.2768e-20) = 2.711153e-4.
    const ReactionTable lm = compileReactions(net, 32.0, 5.0e4, nullptr);
    EXPECT_NEAR(lm.reactions[0].perStep, 2.711153e-4, 1e-9);
    EXPECT_NEAR(lm.reactions[1].perStep, 0.351 * 5e-5, 1e-18);

    const double scale[4] = {2.0, 0.0, 1.0, 1.0};
    const ReactionTable scaled = compileReactions(net, 1000.0, 1.0e9, scale);
    EXPECT_DOUBLE_EQ(scaled.reactions[0].perStep, 2.0 * t.reactions[0].perStep);
    EXPECT_EQ(scaled.reactions[1].perStep, 0.0);
}

TEST(LatticeReactionRates, CompileRejectsWhatTheTableCannotHold) {
    const ReactionNetwork net = parse("A -> B @ 1");
    EXPECT_THROW(compileReactions(net, 0.0, 10.0, nullptr), ParameterError);
    EXPECT_THROW(compileReactions(net, 2.0, -1.0, nullptr), ParameterError);
    const double negative = -1.0;
    EXPECT_THROW(compileReactions(net, 2.0, 10.0, &negative), ParameterError);
    ReactionNetwork bad = net;
    bad.reactions[0].products = {4};  // only 3 species
    try {
        compileReactions(bad, 2.0, 10.0, nullptr);
        ADD_FAILURE() << "species 4 accepted";
    } catch (const ParameterError& e) {
        expectContains(e.what(), {"reaction 1 (A -> B)", "species id 4", "1..3"});
    }
    ReactionNetwork many = net;
    many.reactions.assign(17, net.reactions[0]);
    EXPECT_THROW(compileReactions(many, 2.0, 10.0, nullptr), ParameterError);
}

// Per site type, each reaction at its own worst content of 16 particles: order 1 16 perStep,
// A + B 8 * 8 perStep, 2A 16 * 15 perStep.
TEST(LatticeReactionRates, PropensityBoundPerSiteType) {
    const ReactionNetwork net = parse(
        "A -> B @ 1; A + B -> C @ 1; 2 C -> A @ 1; 0 -> A @ 1 in membrane; "
        "B -> A @ 1 in outside");
    ReactionTable t = compileReactions(net, 1000.0, 1.0e9, nullptr);
    const double p[5] = {0.01, 0.001, 0.002, 0.5, 0.03};
    for (int r = 0; r < 5; ++r)
        t.reactions[r].perStep = p[r];
    const double cytoplasm = 0.01 * 16 + 0.001 * 64 + 0.002 * 240;  // 0.704
    const double membrane = cytoplasm + 0.5;
    EXPECT_NEAR(reactionPropensityBound(t, 16), membrane, 1e-15);
    t.reactions[3].siteMask = 0;  // the zeroth-order one off: outside's 0.704 + 0.48 wins
    t.anySiteMask = kDefaultReactionSites;
    EXPECT_NEAR(reactionPropensityBound(t, 16), cytoplasm + 0.03 * 16, 1e-15);
    EXPECT_NEAR(reactionPropensityBound(t, 1), 0.01 + 0.03, 1e-15);  // one particle: no pairs
}

// ---- SBML ------------------------------------------------------------------------------

#if CELLFORGE_HAVE_SBML
const std::filesystem::path kData = CELLFORGE_TEST_DATA "/sim/models/data";

std::string sbmlError(const std::filesystem::path& file, SbmlLaws laws = SbmlLaws::Molar) {
    try {
        loadSbmlNetwork(file, laws);
    } catch (const InputFileError& e) {  // a refused file is bad input (exit 2)
        return e.what();
    }
    ADD_FAILURE() << "no InputFileError for " << file;
    return {};
}

std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The test model `model` (in kData) with `from` replaced by `to`, written to a temporary file.
std::filesystem::path variantOf(const char* model, const std::string& name, const std::string& from,
                                const std::string& to) {
    std::string text = readText(kData / model);
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    const std::filesystem::path out = std::filesystem::temp_directory_path() / name;
    std::ofstream(out) << text;
    return out;
}

// The valid bimolecular test model with `from` replaced by `to`.
std::filesystem::path variant(const std::string& name, const std::string& from,
                              const std::string& to) {
    return variantOf("sbml_bimolecular.xml", name, from, to);
}

void expectBimolecular(const ReactionNetwork& net) {
    EXPECT_EQ(net.species, kAbc);
    EXPECT_EQ(net.initialCounts, (std::vector<std::int64_t>{1000, 1000, 0}));
    EXPECT_DOUBLE_EQ(net.volumeLitres, 1e-15);
    ASSERT_EQ(net.reactions.size(), 2u);
    EXPECT_EQ(net.reactions[0].label, "binding");
    EXPECT_EQ(net.reactions[0].reactants, (std::vector<int>{1, 2}));
    EXPECT_EQ(net.reactions[0].products, (std::vector<int>{3}));
    EXPECT_DOUBLE_EQ(net.reactions[0].rate, 1.07e5);
    EXPECT_EQ(net.reactions[0].siteMask, kDefaultReactionSites);
    EXPECT_EQ(net.reactions[1].label, "binding_reverse");
    EXPECT_EQ(net.reactions[1].reactants, (std::vector<int>{3}));
    EXPECT_EQ(net.reactions[1].products, (std::vector<int>{1, 2}));
    EXPECT_DOUBLE_EQ(net.reactions[1].rate, 0.351);
}

TEST(LatticeReactionSbml, ReadsTheReversibleBimolecularModel) {
    const ReactionNetwork net = loadSbmlNetwork(kData / "sbml_bimolecular.xml");
    expectBimolecular(net);  // kf global, kr local
    EXPECT_EQ(net.speciesTitles, (std::vector<std::string>{"ligand", "receptor", "complex"}));
    // The network compiles to the per-pair rate of lattice.md C.3 at V_site = 1e-15 L.
    EXPECT_NEAR(compileReactions(net, 1000.0, 1e9, nullptr).reactions[0].perStep, 1.7768e-4,
                0.0001e-4);
}

TEST(LatticeReactionSbml, BundledExampleWithCompartmentFactorsReadsTheSame) {
    expectBimolecular(loadSbmlNetwork(CELLFORGE_SOURCE_DIR "/assets/sbml/bimolecular.xml"));
}

// The bundled example keeps its units consistent (substance in moles), so SBML's own reading
// of the law, the default of reactions.sbml_laws, gives the same deterministic constants in
// its 1e-15 L: propensity c = kf / (N_A V) per pair, back to kf = 1.07e5 /(M s).
TEST(LatticeReactionSbml, BundledExampleReadsTheSameAsSbmlDefinesIt) {
    ReactionNetwork net =
        loadSbmlNetwork(CELLFORGE_SOURCE_DIR "/assets/sbml/bimolecular.xml", SbmlLaws::Sbml);
    EXPECT_EQ(net.initialCounts, (std::vector<std::int64_t>{1000, 1000, 0}));
    ASSERT_EQ(net.reactions.size(), 2u);
    resolveCountRates(net, net.volumeLitres);
    EXPECT_NEAR(net.reactions[0].rate, 1.07e5, 1e-9 * 1.07e5);  // rounding of N_A V only
    EXPECT_NEAR(net.reactions[1].rate, 0.351, 1e-12);
}

TEST(LatticeReactionSbml, InitialAmountsInMolesAreConvertedToCounts) {
    // 1e-21 mol = 602.214076 molecules -> 602.
    const ReactionNetwork net = loadSbmlNetwork(
        variant("cf_sbml_moles.xml", R"(initialAmount="1000" substanceUnits="item")",
                R"(initialAmount="1e-21" substanceUnits="mole")"));
    EXPECT_EQ(net.initialCounts, (std::vector<std::int64_t>{602, 1000, 0}));
}

TEST(LatticeReactionSbml, MalformedXmlNamesFileAndLine) {
    const std::string m = sbmlError(kData / "sbml_malformed.xml");
    expectContains(m, {"sbml_malformed.xml:12:", "malformed SBML"});
    std::printf("malformed: %s\n", m.c_str());
}

TEST(LatticeReactionSbml, NonMassActionLawNamesFileAndReaction) {
    const std::string m = sbmlError(kData / "sbml_michaelis_menten.xml");
    expectContains(
        m, {"sbml_michaelis_menten.xml", "reaction 'conversion'", "not mass action", "division"});
    std::printf("non-mass-action: %s\n", m.c_str());
}

TEST(LatticeReactionSbml, UnsupportedContentIsRefusedWithTheReason) {
    expectContains(sbmlError(variant("cf_sbml_half.xml", R"(species="A" stoichiometry="1")",
                                     R"(species="A" stoichiometry="0.5")")),
                   {"cf_sbml_half.xml", "reaction 'binding'", "stoichiometry 0.5"});
    expectContains(sbmlError(variant("cf_sbml_three.xml", "</listOfReactants>",
                                     R"(<speciesReference species="C" stoichiometry="1" )"
                                     R"(constant="true"/></listOfReactants>)")),
                   {"reaction 'binding'", "3 reactants: at most 2"});
    expectContains(
        sbmlError(
            variant("cf_sbml_law.xml", "<ci>kf</ci><ci>A</ci><ci>B</ci>", "<ci>kf</ci><ci>A</ci>")),
        {"reaction 'binding'", "not mass action for its stoichiometry", "k * A * B - k' * C"});
    expectContains(sbmlError(variant("cf_sbml_event.xml", "</listOfReactions>",
                                     "</listOfReactions><listOfEvents><event useValuesFromTrigger"
                                     "Time=\"true\"><trigger initialValue=\"true\" persistent="
                                     "\"true\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\">"
                                     "<true/></math></trigger></event></listOfEvents>")),
                   {"cf_sbml_event.xml", "1 event(s)"});
    expectContains(sbmlError(variant("cf_sbml_rule.xml", "</listOfReactions>",
                                     "</listOfReactions><listOfRules><assignmentRule variable="
                                     "\"kf\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\">"
                                     "<cn>1</cn></math></assignmentRule></listOfRules>")),
                   {"1 rule(s)"});
    expectContains(sbmlError(kData / "no_such_model.xml"), {"no_such_model.xml", "no such file"});
}

// sbml_dimerisation.xml with `from` replaced by `to`, written to a temporary file.
std::filesystem::path dimerVariant(const std::string& name, const std::string& from,
                                   const std::string& to) {
    return variantOf("sbml_dimerisation.xml", name, from, to);
}

TEST(LatticeReactionSbml, StochasticConventionDimerisationFunctionsAndBoundarySpecies) {
    ReactionNetwork net = loadSbmlNetwork(kData / "sbml_dimerisation.xml", SbmlLaws::Sbml);
    EXPECT_EQ(net.species, (std::vector<std::string>{"P", "P2", "Src"}));
    EXPECT_EQ(net.initialCounts, (std::vector<std::int64_t>{100, 0, 5}));
    ASSERT_EQ(net.reactions.size(), 3u);
    // k1 P (P - 1) / 2: c n (n - 1) with c = k1 / 2.
    EXPECT_EQ(net.reactions[0].reactants, (std::vector<int>{1, 1}));
    EXPECT_EQ(net.reactions[0].products, (std::vector<int>{2}));
    EXPECT_DOUBLE_EQ(net.reactions[0].countRate, 0.001);
    // multiply(k2, P2), the function definition expanded.
    EXPECT_EQ(net.reactions[1].reactants, (std::vector<int>{2}));
    EXPECT_EQ(net.reactions[1].products, (std::vector<int>{1, 1}));
    EXPECT_DOUBLE_EQ(net.reactions[1].countRate, 0.1);
    // Cell kp Src: the boundary species Src stays out of the reaction (held at 5), the
    // compartment symbol is its size 2: order 0 at 2 x 0.3 x 5 per second.
    EXPECT_TRUE(net.reactions[2].reactants.empty());
    EXPECT_EQ(net.reactions[2].products, (std::vector<int>{1}));
    EXPECT_DOUBLE_EQ(net.reactions[2].countRate, 3.0);
    // In 1e-15 L: k = c (N_A V)^(order - 1).
    resolveCountRates(net, 1e-15);
    EXPECT_DOUBLE_EQ(net.reactions[0].rate, 0.001 * kAvogadro * 1e-15);
    EXPECT_DOUBLE_EQ(net.reactions[1].rate, 0.1);
    EXPECT_DOUBLE_EQ(net.reactions[2].rate, 3.0 / (kAvogadro * 1e-15));
    EXPECT_THROW(resolveCountRates(net, 0.0), ParameterError);
}

TEST(LatticeReactionSbml, StochasticConventionRefusalsNameTheFeature) {
    // k1 P P is no propensity of 2 P in counts.
    expectContains(
        sbmlError(dimerVariant("cf_sbml_square.xml",
                               "<apply><minus/><ci>P</ci><cn type=\"integer\">1</cn></apply>",
                               "<ci>P</ci>"),
                  SbmlLaws::Sbml),
        {"reaction 'dimerisation'", "not mass action for its stoichiometry", "P * (P - 1)"});
    expectContains(sbmlError(dimerVariant("cf_sbml_many.xml",
                                          R"(species="P" stoichiometry="2" constant="true"/>
        </listOfProducts>)",
                                          R"(species="P" stoichiometry="200" constant="true"/>
        </listOfProducts>)"),
                             SbmlLaws::Sbml),
                   {"reaction 'dissociation'", "stoichiometry 200",
                    "at most 2 reactants and makes at most 128 of one species"});
    expectContains(
        sbmlError(
            dimerVariant(
                "cf_sbml_distrib.xml", R"(level="3" version="1">)",
                R"(xmlns:distrib="http://www.sbml.org/sbml/level3/version1/distrib/version1" )"
                R"(distrib:required="true" level="3" version="1">)"),
            SbmlLaws::Sbml),
        {"cf_sbml_distrib.xml", "package 'distrib'"});
    expectContains(
        sbmlError(dimerVariant("cf_sbml_divide.xml", "<cn type=\"integer\">2</cn></apply>",
                               "<ci>P2</ci></apply>"),
                  SbmlLaws::Sbml),
        {"reaction 'dimerisation'", "a division"});
}

// A species eliminated by a conservation law (P = 100 - 2 P2, with 3 P2 at the start) comes
// back as a species of its own, E = 94 molecules, that the law reads as mass action (2 E ->
// P2) and every reaction keeps equal to the form (P2 -> 2 E).
TEST(LatticeReactionSbml, SpeciesEliminatedByConservationComeBack) {
    const ReactionNetwork net =
        loadSbmlNetwork(kData / "sbml_eliminated_monomer.xml", SbmlLaws::Sbml);
    EXPECT_EQ(net.species, (std::vector<std::string>{"P2", "eliminated_1"}));
    EXPECT_EQ(net.speciesTitles[1], "100 - 2 P2 (eliminated by conservation)");
    EXPECT_EQ(net.initialCounts, (std::vector<std::int64_t>{3, 94}));
    ASSERT_EQ(net.reactions.size(), 2u);
    EXPECT_EQ(net.reactions[0].reactants, (std::vector<int>{2, 2}));
    EXPECT_EQ(net.reactions[0].products, (std::vector<int>{1}));
    EXPECT_DOUBLE_EQ(net.reactions[0].countRate, 0.001);  // k1 / 2 per ordered pair
    EXPECT_EQ(net.reactions[1].reactants, (std::vector<int>{1}));
    EXPECT_EQ(net.reactions[1].products, (std::vector<int>{2, 2}));
    EXPECT_DOUBLE_EQ(net.reactions[1].countRate, 0.1);
    // A form that is no count (a constant of 100.5) is refused, naming it.
    expectContains(sbmlError(variantOf("sbml_eliminated_monomer.xml", "cf_sbml_half_form.xml",
                                       "<cn type=\"integer\">100</cn>\n", "<cn>100.5</cn>\n"),
                             SbmlLaws::Sbml),
                   {"reaction 'dimerisation'", "linear form", "100.5", "integers"});
}

// One law reading two forms, (100 - P2) and (20 - Q) for -> P2 + Q: two eliminated species,
// each starting at its own form's value (97 and 15 with 3 P2 and 5 Q at the start).
TEST(LatticeReactionSbml, TwoEliminatedSpeciesInOneLaw) {
    std::string text = readText(kData / "sbml_eliminated_monomer.xml");
    const auto swap = [&](const std::string& from, const std::string& to) {
        const std::size_t at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
    };
    swap("    </listOfSpecies>",
         "      <species id=\"Q\" compartment=\"Cell\" initialAmount=\"5\" "
         "hasOnlySubstanceUnits=\"true\" boundaryCondition=\"false\" constant=\"false\"/>\n"
         "    </listOfSpecies>");
    swap(
        "<speciesReference species=\"P2\" stoichiometry=\"1\" constant=\"true\"/>\n        "
        "</listOfProducts>",
        "<speciesReference species=\"P2\" stoichiometry=\"1\" constant=\"true\"/>\n"
        "<speciesReference species=\"Q\" stoichiometry=\"1\" constant=\"true\"/>\n"
        "        </listOfProducts>");
    const std::size_t law = text.find("<apply><divide/>");
    const std::size_t end = text.find("</math>", law);
    ASSERT_NE(law, std::string::npos);
    text.replace(law, end - law,
                 "<apply><times/><ci>k1</ci>"
                 "<apply><minus/><cn type=\"integer\">100</cn><ci>P2</ci></apply>"
                 "<apply><minus/><cn type=\"integer\">20</cn><ci>Q</ci></apply></apply>\n");
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / "cf_sbml_two_forms.xml";
    std::ofstream(file) << text;
    const ReactionNetwork net = loadSbmlNetwork(file, SbmlLaws::Sbml);
    EXPECT_EQ(net.species, (std::vector<std::string>{"P2", "Q", "eliminated_1", "eliminated_2"}));
    EXPECT_EQ(net.initialCounts, (std::vector<std::int64_t>{3, 5, 97, 15}));
    ASSERT_EQ(net.reactions.size(), 2u);
    EXPECT_EQ(net.reactions[0].reactants, (std::vector<int>{3, 4}));
    EXPECT_EQ(net.reactions[0].products, (std::vector<int>{1, 2}));
}

TEST(LatticeReactionSbml, InitialCountsFromTheFileUnlessTheScenarioOverrides) {
    ParamSet ps(parameterTable());
    ps.set("reactions.sbml", std::string((kData / "sbml_dimerisation.xml").string()));
    ps.set("species.count", std::int64_t{3});
    ps.set("species.n1", std::int64_t{7});
    ps.set("species.n2", std::int64_t{0});
    ps.set("species.n3", std::int64_t{0});
    for (const char* axis : {"lattice.nx", "lattice.ny", "lattice.nz"})
        ps.set(axis, std::int64_t{8});
    const LatticeParams fromFile = checkedParams(ps);
    EXPECT_EQ(fromFile.initialCount(1), 100);
    EXPECT_EQ(fromFile.initialCount(3), 5);
    ps.set("reactions.sbml_counts", false);
    const LatticeParams fromScenario = checkedParams(ps);
    EXPECT_EQ(fromScenario.initialCount(1), 7);
}
#else
TEST(LatticeReactionSbml, BuildWithoutLibsbmlSaysSo) {
    try {
        loadSbmlNetwork("model.xml");
        ADD_FAILURE() << "no error";
    } catch (const InputFileError& e) {
        expectContains(e.what(), {"model.xml", "no SBML support"});
    }
}
#endif

}  // namespace
}  // namespace cf::lattice
