// SPDX-License-Identifier: GPL-3.0-or-later
// CellML import (sim/models/cardiac/cellml/cellml_import.hpp, docs/design/cardiac.md section 6).
// (a) tests/data/cardiac/beeler_reuter_1977.cellml, written from the equations of the bundled
//     assets/models/beeler_reuter_1977.cfm, imports to a model whose action potential equals
//     the hand-written model's: same integrator, dt and stimulus, 500 ms on the CPU interpreter.
// (b) malformed or unsupported CellML gives "FILE:LINE: error: ..." at the offending line.
// (c) the imported text parses, prints and parses again to the same model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/parser.hpp"
#include "sim/models/cardiac/lang/printer.hpp"
#include "tests/support/cellml_test.hpp"

namespace cf::cardiac {
namespace {

const std::string kBr77Cellml = CELLFORGE_TEST_DATA "/data/cardiac/beeler_reuter_1977.cellml";
const std::string kBr77Cfm = CELLFORGE_TEST_DATA "/../assets/models/beeler_reuter_1977.cfm";

// The non-gates by forward Euler, as the hand-written model integrates them, unless asked.
std::string importedBr77(
    CellmlImportOptions::NonGates nonGates = CellmlImportOptions::NonGates::ForwardEuler) {
    try {
        CellmlImportOptions o;
        o.nonGates = nonGates;
        return importCellml(test::readWholeFile(kBr77Cellml), "beeler_reuter_1977.cellml", o);
    } catch (const ModelError& e) {
        ADD_FAILURE() << e.what();
        return "";
    }
}

// Importing `text` must fail with a CellmlError whose message holds `fragment`.
void expectRefused(const std::string& text, const std::string& file, const std::string& fragment) {
    try {
        importCellml(text, file);
        ADD_FAILURE() << file << ": accepted, expected an error with '" << fragment << "'";
    } catch (const CellmlError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

// The rate of `state` ("component.name", or "" for the potential) at the initial states and
// t = 0; fails the test when there is no such state.
double initialRate(const CheckedModel& m, const std::string& state = "") {
    const int s = state.empty() ? m.stateOf(m.potential) : m.stateOf(m.find(state));
    EXPECT_GE(s, 0) << state;
    if (s < 0) return NAN;
    CellProgram p(m);
    std::vector<double> dydt;
    p.rates(p.initialStates(), 0.0, dydt);
    return dydt[static_cast<std::size_t>(s)];
}

struct Trace {
    std::vector<double> t, v;
    double apd90 = NAN;
};

// One cell from the initial state: stimulus `amplitude` for 1 ms from t = 10 ms, dt 0.005 ms,
// 500 ms (as test_cardiac_models). APD90: from the maximal dV/dt to the first crossing of
// V_rest + 0.1 (V_peak - V_rest) after the peak, interpolated.
Trace runCell(const CheckedModel& model, double amplitude) {
    CellProgram p(model);
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    const int iv = model.stateOf(model.potential);
    const double dt = 0.005;
    const long steps = std::lround(500.0 / dt), on = std::lround(10.0 / dt),
               off = std::lround(11.0 / dt);
    Trace tr;
    double vRest = NAN, dvdtMax = -INFINITY, tUp = NAN;
    for (long n = 0; n <= steps; ++n) {
        const double t = static_cast<double>(n) * dt;
        const double stim = n >= on && n < off ? amplitude : 0.0;
        tr.t.push_back(t);
        tr.v.push_back(y[static_cast<std::size_t>(iv)]);
        if (n < on) vRest = tr.v.back();
        if (n >= on) {
            const double dvdt = p.potentialRate(y.data(), t, &stim, w);
            if (dvdt > dvdtMax) {
                dvdtMax = dvdt;
                tUp = t;
            }
        }
        if (n < steps) p.step(y.data(), t, dt, &stim, w);
    }
    std::size_t peak = static_cast<std::size_t>(on);
    for (std::size_t i = peak; i < tr.v.size(); ++i)
        if (tr.v[i] > tr.v[peak]) peak = i;
    const double v90 = vRest + 0.1 * (tr.v[peak] - vRest);
    for (std::size_t i = peak + 1; i < tr.v.size(); ++i)
        if (tr.v[i] < v90) {
            const double a = (tr.v[i - 1] - v90) / (tr.v[i - 1] - tr.v[i]);
            tr.apd90 = tr.t[i - 1] + a * (tr.t[i] - tr.t[i - 1]) - tUp;
            break;
        }
    return tr;
}

std::string shortName(const std::string& qualified) {
    return qualified.substr(qualified.find('.') + 1);
}

// (a) The same equations give the same action potential. The CellML file writes every
// expression with the .cfm's constants and operand order, so both compile to the same terms
// and the interpreter does the same floating-point operations: the difference should be 0.
// 1e-9 mV leaves room for a reordering of one rounding (1e-16 relative, amplified at most
// ~1e5-fold through the upstroke) while catching any equation or unit slip, which shows as
// millivolts.
TEST(CardiacCellml, ImportedBeelerReuterEqualsHandWritten) {
    REQUIRE_CELLML();
    const std::string text = importedBr77();
    ASSERT_FALSE(text.empty());
    const CheckedModel imported = compileModel(text, "beeler_reuter_1977.cellml (imported)");
    const CheckedModel written =
        compileModel(test::readWholeFile(kBr77Cfm), "beeler_reuter_1977.cfm");
    for (const Diagnostic& w : imported.warnings)
        std::printf("  %s\n", w.format().c_str());
    ASSERT_EQ(imported.states.size(), written.states.size());
    ASSERT_GE(imported.stimulus, 0);

    // The stimulus of the test_cardiac_models case: -50 uA/cm^2 for 1 ms (negative depolarises).
    const Trace a = runCell(imported, -50.0), b = runCell(written, -50.0);
    ASSERT_EQ(a.v.size(), b.v.size());
    double maxDiff = 0;
    for (std::size_t i = 0; i < a.v.size(); ++i)
        maxDiff = std::max(maxDiff, std::fabs(a.v[i] - b.v[i]));
    double peak = -INFINITY;
    for (double v : a.v)
        peak = std::max(peak, v);
    std::printf(
        "BR77 imported vs hand-written over 500 ms: max |dV| = %.3g mV; peak %.2f mV; "
        "APD90 %.3f vs %.3f ms\n",
        maxDiff, peak, a.apd90, b.apd90);
    EXPECT_GT(peak, 10.0);  // it fired
    EXPECT_LT(maxDiff, 1e-9);
    ASSERT_TRUE(std::isfinite(a.apd90));
    EXPECT_NEAR(a.apd90, b.apd90, 1e-9);
}

// (c) Structure: states, gates, parameters, bindings; and parse -> print -> parse.
// By default the states that are not gates (here V and Ca_i) are integrated by GRL1, the
// gates by Rush-Larsen. Both GRL1 and forward Euler are first order in dt: at dt 0.005 ms the
// two action potentials differ by what that order allows. Tolerances: peak within 1 mV and
// APD90 within 1 ms (measured: 0.09 mV and 0.02 ms), far below what a wrong method or a unit slip
// changes (tens of mV, or an AP that does not fire).
TEST(CardiacCellml, NonGatesByGrl1AgreeWithForwardEuler) {
    REQUIRE_CELLML();
    const std::string text = importedBr77(CellmlImportOptions::NonGates::Linearised);
    ASSERT_NE(text.find("method grl1: *\nmethod rl: gates\n"), std::string::npos) << text;
    const CheckedModel grl1 = compileModel(text, "beeler_reuter_1977.cellml (GRL1)");
    const CheckedModel fe = compileModel(importedBr77(), "beeler_reuter_1977.cellml (fe)");
    for (const StateInfo& s : grl1.states)
        EXPECT_EQ(s.method, s.gate ? Method::RushLarsen : Method::GeneralizedRushLarsen)
            << grl1.vars[static_cast<std::size_t>(s.var)].name;
    const Trace a = runCell(grl1, -50.0), b = runCell(fe, -50.0);
    const double peakA = *std::max_element(a.v.begin(), a.v.end());
    const double peakB = *std::max_element(b.v.begin(), b.v.end());
    std::printf("BR77 GRL1 vs forward Euler: peak %.3f vs %.3f mV, APD90 %.3f vs %.3f ms\n", peakA,
                peakB, a.apd90, b.apd90);
    EXPECT_NEAR(peakA, peakB, 1.0);
    ASSERT_TRUE(std::isfinite(a.apd90));
    EXPECT_NEAR(a.apd90, b.apd90, 1.0);
}

TEST(CardiacCellml, ImportedTextRoundTrips) {
    REQUIRE_CELLML();
    const std::string text = importedBr77();
    ASSERT_FALSE(text.empty());
    std::printf("%s", text.substr(0, text.find("[sodium_current_m_gate]")).c_str());
    const CheckedModel m = compileModel(text, "imported.cfm");
    const CheckedModel hand = compileModel(test::readWholeFile(kBr77Cfm), "beeler_reuter_1977.cfm");
    auto gateNames = [](const CheckedModel& model) {
        std::set<std::string> g;
        for (const StateInfo& s : model.states)
            if (s.gate) g.insert(shortName(model.vars[static_cast<std::size_t>(s.var)].name));
        return g;
    };
    EXPECT_EQ(gateNames(m), gateNames(hand));  // m h j d f x1 by Rush-Larsen
    EXPECT_EQ(m.vars[static_cast<std::size_t>(m.potential)].name, "membrane.V");
    EXPECT_EQ(m.vars[static_cast<std::size_t>(m.potential)].initial, -84.624);
    // The file's stimulus is a current density (uA/cm^2): the protocol drives a variable in
    // A/F, and the file's reads it times the membrane capacitance the potential's equation
    // divides by.
    EXPECT_EQ(m.vars[static_cast<std::size_t>(m.stimulus)].name,
              "stimulus_protocol.i_Stim_A_per_F");
    EXPECT_NE(text.find("i_Stim = membrane.C * i_Stim_A_per_F in [uA/cm^2]"), std::string::npos);
    EXPECT_NEAR(stimulusEffect(CellProgram(m, false)), 1.0, 1e-12);
    // 7 model parameters plus the 4 of the file's stimulus protocol (now unused).
    EXPECT_EQ(m.params.size(), hand.params.size() + 4);
    EXPECT_NE(text.find("bind stimulus"), std::string::npos);
    EXPECT_NE(text.find("# Here the stimulus protocol drives it"), std::string::npos);
    EXPECT_NE(text.find("state V = -84.624 [mV] bind potential"), std::string::npos);
    EXPECT_NE(text.find("use membrane.V"), std::string::npos);

    const std::string printed = printModel(parseModel(text, "imported.cfm"));
    EXPECT_EQ(printModel(parseModel(printed, "printed.cfm")), printed);
    const CheckedModel again = compileModel(printed, "printed.cfm");
    EXPECT_EQ(again.states.size(), m.states.size());
    EXPECT_EQ(again.vars.size(), m.vars.size());
}

// A small valid CellML 1.0 document: `components` goes inside <model>.
std::string doc(const std::string& components,
                const std::string& ns = "http://www.cellml.org/cellml/1.0#") {
    return "<?xml version=\"1.0\"?>\n"
           "<model xmlns=\"" +
           ns +
           "\" xmlns:cellml=\"http://www.cellml.org/cellml/1.0#\" name=\"toy\">\n"
           "<units name=\"ms\"><unit prefix=\"milli\" units=\"second\"/></units>\n"
           "<units name=\"mV\"><unit prefix=\"milli\" units=\"volt\"/></units>\n"
           "<units name=\"per_ms\"><unit units=\"ms\" exponent=\"-1\"/></units>\n" +
           components + "</model>\n";
}

// dV/dt = k V with k in `kUnits` (per_ms: consistent units).
std::string membrane(const std::string& kUnits) {
    return "<component name=\"membrane\">\n"
           "<variable name=\"time\" units=\"ms\"/>\n"
           "<variable name=\"V\" units=\"mV\" initial_value=\"-80\" public_interface=\"out\"/>\n"
           "<variable name=\"k\" units=\"" +
           kUnits +
           "\" initial_value=\"0.1\"/>\n"
           "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
           "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>V</ci></apply>\n"
           "<apply><times/><ci>k</ci><ci>V</ci></apply></apply>\n"
           "</math>\n"
           "</component>\n";
}
const std::string kMembrane = membrane("per_ms");

int lineOf(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return 1 +
           static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

struct BadCase {
    const char* name;
    std::string xml;
    std::string lineMarker;  // text on the line the error must name
    std::string message;     // part of the message
};

// (b) Each malformed input: the message names the file and the line.
TEST(CardiacCellml, MalformedInputNamesFileAndLine) {
    REQUIRE_CELLML();
    const std::string mathOpen = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n";
    const std::vector<BadCase> cases = {
        {"not well-formed",
         doc(kMembrane + "<component name=\"x\">\n<variable name=oops units=\"mV\"/>\n"
                         "</component>\n"),
         "name=oops", "not well-formed XML"},
        {"other namespace", doc(kMembrane, "http://example.org/not-cellml"), "<model",
         "not a CellML model"},
        {"CellML 2.0 connection to a missing component",
         doc(kMembrane + "<connection component_1=\"membrane\" component_2=\"gone\">\n"
                         "<map_variables variable_1=\"V\" variable_2=\"V\"/>\n</connection>\n",
             "http://www.cellml.org/cellml/2.0#"),
         "component_2=\"gone\"", "connection to a missing component 'gone'"},
        {"unknown MathML",
         doc(kMembrane + "<component name=\"c\">\n" + "<variable name=\"y\" units=\"mV\"/>\n" +
             mathOpen +
             "<apply><eq/><ci>y</ci>\n<apply><frobnicate/><cn "
             "cellml:units=\"mV\">1</cn></apply></apply>\n</math>\n</component>\n"),
         "<frobnicate/>", "unknown MathML element <frobnicate> in <apply>"},
        {"no equation or initial value",
         doc(kMembrane + "<component name=\"c\">\n<variable name=\"lonely\" units=\"mV\"/>\n"
                         "</component>\n"),
         "lonely", "variable 'c.lonely' has no equation or initial value"},
        {"missing component",
         doc(kMembrane + "<connection>\n<map_components component_1=\"membrane\" "
                         "component_2=\"nowhere\"/>\n</connection>\n"),
         "nowhere", "connection to a missing component 'nowhere'"},
        {"missing variable",
         doc(kMembrane + "<component name=\"c\">\n<variable name=\"V\" units=\"mV\" "
                         "public_interface=\"in\"/>\n</component>\n<connection>\n"
                         "<map_components component_1=\"membrane\" component_2=\"c\"/>\n"
                         "<map_variables variable_1=\"Vm\" variable_2=\"V\"/>\n</connection>\n"),
         "variable_1=\"Vm\"", "connection to a missing variable 'Vm' of component 'membrane'"},
        {"two sources",
         doc(kMembrane + "<component name=\"c\">\n<variable name=\"V\" units=\"mV\" "
                         "initial_value=\"1\"/>\n</component>\n<connection>\n"
                         "<map_components component_1=\"membrane\" component_2=\"c\"/>\n"
                         "<map_variables variable_1=\"V\" variable_2=\"V\"/>\n</connection>\n"),
         "initial_value=\"1\"", "both have an equation or an initial value"},
        {"import (CellML 1.1)",
         doc(kMembrane + "<import xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
                         "xlink:href=\"other.cellml\"/>\n",
             "http://www.cellml.org/cellml/1.1#"),
         "<import", "other.cellml': no such file"},
        {"implicit equation",
         doc(kMembrane + "<component name=\"c\">\n<variable name=\"y\" units=\"mV\"/>\n" +
             mathOpen +
             "<apply><eq/><apply><plus/><ci>y</ci><ci>y</ci></apply><cn "
             "cellml:units=\"mV\">1</cn></apply>\n</math>\n</component>\n"),
         "<plus/>", "only equations 'x = ...' and 'd(x)/d(time) = ...' are supported"},
        {"unknown units",
         doc(kMembrane + "<component name=\"c\">\n<variable name=\"y\" units=\"furlong\" "
                         "initial_value=\"1\"/>\n</component>\n"),
         "furlong", "unknown units 'furlong'"},
        {"reaction", doc(kMembrane + "<component name=\"c\">\n<reaction/>\n</component>\n"),
         "<reaction", "CellML <reaction> is not supported"},
    };
    for (const BadCase& c : cases) {
        const int line = lineOf(c.xml, c.lineMarker);
        try {
            importCellml(c.xml, "bad.cellml");
            ADD_FAILURE() << c.name << ": no error";
        } catch (const CellmlError& e) {
            const std::string what = e.what();
            std::printf("%-30s %s\n", c.name, what.c_str());
            const std::string prefix = "bad.cellml:" + std::to_string(line) + ":";
            EXPECT_EQ(what.rfind(prefix, 0), 0u) << c.name << ": " << what;
            EXPECT_NE(what.find(c.message), std::string::npos) << c.name << ": " << what;
            ASSERT_EQ(e.diagnostics().size(), 1u);
            EXPECT_EQ(e.diagnostics()[0].pos.line, line) << c.name;
        }
    }
}

// Connected variables in units that differ by a factor: the reader gets the source times the
// factor (V in mV read as volts: 1e-3), and e-notation numbers read exactly.
TEST(CardiacCellml, UnitFactorsAndENotation) {
    REQUIRE_CELLML();
    const std::string xml =
        doc(kMembrane +
            "<units name=\"volt_\"><unit units=\"volt\"/></units>\n"
            "<component name=\"probe\">\n"
            "<variable name=\"V\" units=\"volt\" public_interface=\"in\"/>\n"
            "<variable name=\"w\" units=\"dimensionless\" initial_value=\"0\"/>\n"
            "<variable name=\"time\" units=\"ms\" public_interface=\"in\"/>\n"
            "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
            "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>w</ci></apply>\n"
            "<apply><times/><cn cellml:units=\"dimensionless\" type=\"e-notation\">2.5<sep/>-3</cn>"
            "<ci>V</ci></apply></apply>\n</math>\n</component>\n"
            "<connection><map_components component_1=\"membrane\" component_2=\"probe\"/>\n"
            "<map_variables variable_1=\"V\" variable_2=\"V\"/>\n"
            "<map_variables variable_1=\"time\" variable_2=\"time\"/></connection>\n");
    const std::string text = importCellml(xml, "toy.cellml");
    std::printf("%s", text.c_str());
    EXPECT_NE(text.find("dot(w) = 0.0025 * (0.001 * membrane.V)"), std::string::npos) << text;
    const CheckedModel m = compileModel(text, "toy.cfm");
    // dw/dt at V = -80 mV: 2.5e-3 * (-0.08 V) = -2e-4 per ms.
    EXPECT_NEAR(initialRate(m, "probe.w"), -2e-4, 1e-18);
    EXPECT_NE(text.find("state V = -80 [mV] bind potential"), std::string::npos);
    EXPECT_NE(text.find("param k = 0.1 [1/ms]"), std::string::npos);
}

// Units that do not check in the model language (dV/dt = k V with k dimensionless is in mV,
// not mV/ms): the model is imported without units rather than refused, and says so.
TEST(CardiacCellml, InconsistentUnitsAreOmitted) {
    REQUIRE_CELLML();
    const std::string text = importCellml(doc(membrane("dimensionless")), "toy.cellml");
    EXPECT_NE(text.find("# Units are omitted"), std::string::npos) << text;
    EXPECT_NE(text.find("state V = -80 bind potential"), std::string::npos) << text;
    EXPECT_EQ(compileModel(text, "toy.cfm").states.size(), 1u);
}

// A derivative inside an expression (Chaste's files write buffers as d(TnC)/dt in a flux)
// reads the state's rate by name: J = 2 * d(V)/dt = 2 k V, and d(V)/dt of a variable that is
// not a state is refused with its name.
TEST(CardiacCellml, DerivativeInsideAnExpression) {
    REQUIRE_CELLML();
    const std::string probe =
        "<component name=\"probe\">\n"
        "<variable name=\"V\" units=\"mV\" public_interface=\"in\"/>\n"
        "<variable name=\"time\" units=\"ms\" public_interface=\"in\"/>\n"
        "<variable name=\"J\" units=\"dimensionless\"/>\n"
        "<variable name=\"w\" units=\"dimensionless\" initial_value=\"0\"/>\n"
        "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
        "<apply><eq/><ci>J</ci><apply><times/><cn cellml:units=\"dimensionless\">2</cn>"
        "<apply><diff/><bvar><ci>time</ci></bvar><ci>V</ci></apply></apply></apply>\n"
        "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>w</ci></apply><ci>J</ci></apply>\n"
        "</math>\n</component>\n"
        "<connection><map_components component_1=\"membrane\" component_2=\"probe\"/>\n"
        "<map_variables variable_1=\"V\" variable_2=\"V\"/>\n"
        "<map_variables variable_1=\"time\" variable_2=\"time\"/></connection>\n";
    const std::string text = importCellml(doc(kMembrane + probe), "toy.cellml");
    EXPECT_NE(text.find("d_V_dt = k * V"), std::string::npos) << text;
    EXPECT_NE(text.find("dot(V) = d_V_dt"), std::string::npos) << text;
    EXPECT_NE(text.find("J = 2 * membrane.d_V_dt"), std::string::npos) << text;
    const CheckedModel m = compileModel(text, "toy.cfm");
    EXPECT_DOUBLE_EQ(initialRate(m, "probe.w"), 2 * 0.1 * -80);  // exact: one product

    std::string notState = probe;
    notState.replace(notState.find("<ci>V</ci></apply></apply></apply>"), 10, "<ci>J</ci>");
    expectRefused(doc(kMembrane + notState), "bad.cellml", "'probe.J' is not a state");
}

// MathML rem and quotient truncate toward zero (rem takes the dividend's sign), and a file
// that keeps time in seconds gets the model's time in ms: its time reads 0.001 * time and its
// rates are scaled to per ms.
TEST(CardiacCellml, RemQuotientAndTimeInSeconds) {
    REQUIRE_CELLML();
    const std::string cell =
        "<units name=\"per_s\"><unit units=\"second\" exponent=\"-1\"/></units>\n"
        "<component name=\"membrane\">\n"
        "<variable name=\"time\" units=\"second\"/>\n"
        "<variable name=\"V\" units=\"mV\" initial_value=\"-80\"/>\n"
        "<variable name=\"k\" units=\"per_s\" initial_value=\"100\"/>\n"
        "<variable name=\"r1\" units=\"dimensionless\"/>\n"
        "<variable name=\"r2\" units=\"dimensionless\"/>\n"
        "<variable name=\"q\" units=\"dimensionless\"/>\n"
        "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
        "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>V</ci></apply>\n"
        "<apply><times/><ci>k</ci><ci>V</ci></apply></apply>\n"
        "<apply><eq/><ci>r1</ci><apply><rem/><cn cellml:units=\"dimensionless\">7.5</cn>"
        "<cn cellml:units=\"dimensionless\">2</cn></apply></apply>\n"
        "<apply><eq/><ci>r2</ci><apply><rem/><cn cellml:units=\"dimensionless\">-7.5</cn>"
        "<cn cellml:units=\"dimensionless\">2</cn></apply></apply>\n"
        "<apply><eq/><ci>q</ci><apply><quotient/><cn cellml:units=\"dimensionless\">-7</cn>"
        "<cn cellml:units=\"dimensionless\">2</cn></apply></apply>\n"
        "</math>\n</component>\n";
    const std::string text = importCellml(doc(cell), "toy.cellml");
    EXPECT_NE(text.find("time [ms]"), std::string::npos) << text;
    EXPECT_NE(text.find("keeps time in 'second'"), std::string::npos) << text;
    const CheckedModel m = compileModel(text, "toy.cfm");
    // 100/s * -80 mV = -8000 mV/s = -8 mV/ms.
    EXPECT_NEAR(initialRate(m), -8.0, 1e-12);
    CellProgram p(m);
    CellProgram::Workspace w;
    p.potentialRate(p.initialStates().data(), 0.0, nullptr, w);  // fills w.values
    EXPECT_EQ(w.values[static_cast<std::size_t>(m.find("membrane.r1"))], 1.5);
    EXPECT_EQ(w.values[static_cast<std::size_t>(m.find("membrane.r2"))], -1.5);
    EXPECT_EQ(w.values[static_cast<std::size_t>(m.find("membrane.q"))], -3.0);
}

// Bernus 2002's f gate at V = -90 mV: beta_f = exp(-11 (V + 9.825)) overflows to inf, so
// the rate f and slope b are infinite and y + dt f phi1(b dt) is inf * 0. The step falls back
// to y_inf + (y - y_inf) exp(b dt) with y_inf = alpha / (alpha + beta) = 0: f closes at once.
// A state that still goes non-finite (here through log(-1)) is explained by the expression
// that first failed, named with its line.
TEST(CardiacCellml, RushLarsenWithAnOverflowingRate) {
    const std::string model =
        "model gate \"overflow\"\n"
        "time [ms]\n"
        "[cell]\n"
        "state V = -90 bind potential\n"
        "state f = 0.5\n"
        "param p = 1\n"
        "alpha = 0.02 * exp(0.01 * V)\n"
        "beta = exp(-11 * (V + 9.825))\n"
        "bad = log(p - 2)\n"
        "dot(V) = 0\n"
        "dot(f) = alpha * (1 - f) - beta * f\n";
    const CheckedModel m = compileModel(model, "gate.cfm");
    const int f = m.stateOf(m.find("cell.f"));
    ASSERT_GE(f, 0);
    ASSERT_EQ(m.states[static_cast<std::size_t>(f)].method, Method::RushLarsen);
    CellProgram p(m);
    std::vector<double> y = p.initialStates();
    p.step(y, 0.0, 0.01);
    EXPECT_EQ(y[static_cast<std::size_t>(f)], 0.0);  // y_inf = 0.02 e^-0.9 / inf, exactly 0

    // dot(V) reading a NaN: the explanation names the variable and its line (line 9).
    const std::string broken = model.substr(0, model.find("dot(V) = 0")) + "dot(V) = bad\n" +
                               "dot(f) = alpha * (1 - f) - beta * f\n";
    const CheckedModel mb = compileModel(broken, "broken.cfm");
    CellProgram pb(mb);
    CellProgram::Workspace w;
    std::vector<double> yb = pb.initialStates();
    pb.step(yb.data(), 0.0, 0.01, nullptr, w);
    const std::size_t v = static_cast<std::size_t>(mb.stateOf(mb.potential));
    ASSERT_TRUE(std::isnan(yb[v]));
    const std::string why = pb.explainNonFinite(v, 0.01, w);
    EXPECT_EQ(why.rfind("dot(cell.V) (line 10) reads cell.bad = ", 0), 0u) << why;
    EXPECT_NE(why.find("nan (line 9), the first value that is not finite"), std::string::npos)
        << why;
}

// A potential kept in volts becomes mV: the state's initial value and rate are scaled by
// 1000 and its readers read 0.001 * V in the file's volts. A potential in seconds is refused
// with its name.
TEST(CardiacCellml, PotentialInVoltsBecomesMillivolts) {
    REQUIRE_CELLML();
    const std::string cell =
        "<component name=\"membrane\">\n"
        "<variable name=\"time\" units=\"ms\"/>\n"
        "<variable name=\"V\" units=\"UNITS\" initial_value=\"-0.08\"/>\n"
        "<variable name=\"k\" units=\"per_ms\" initial_value=\"0.1\"/>\n"
        "<variable name=\"w\" units=\"dimensionless\" initial_value=\"0\"/>\n"
        "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
        "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>V</ci></apply>\n"
        "<apply><times/><ci>k</ci><ci>V</ci></apply></apply>\n"
        "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>w</ci></apply>\n"
        "<apply><times/><ci>k</ci><ci>V</ci></apply></apply>\n"
        "</math>\n</component>\n";
    auto withUnits = [&](const std::string& u) {
        std::string c = cell;
        c.replace(c.find("UNITS"), 5, u);
        return doc(c);
    };
    const std::string text = importCellml(withUnits("volt"), "toy.cellml");
    EXPECT_NE(text.find("keeps the potential in 'volt'"), std::string::npos) << text;
    EXPECT_NE(text.find("state V = -80"), std::string::npos) << text;
    const CheckedModel m = compileModel(text, "toy.cfm");
    // dV/dt = 0.1/ms * -0.08 V = -0.008 V/ms = -8 mV/ms; dw/dt = 0.1 * -0.08 = -0.008.
    EXPECT_NEAR(initialRate(m), -8.0, 1e-12);
    EXPECT_NEAR(initialRate(m, "membrane.w"), -0.008, 1e-15);
    expectRefused(withUnits("second"), "bad.cellml",
                  "'membrane.V' has units 'second', which are not a voltage");
}

// The potential found by the oxford-metadata annotation (Chaste's files), by the option, or
// not at all (an error that asks for it).
TEST(CardiacCellml, PotentialByAnnotationOrOption) {
    REQUIRE_CELLML();
    const std::string cell =
        "<component name=\"cell\">\n"
        "<variable name=\"t\" units=\"ms\"/>\n"
        "<variable name=\"Em\" units=\"mV\" initial_value=\"-80\" "
        "xmlns:cmeta=\"http://www.cellml.org/metadata/1.0#\" cmeta:id=\"em\"/>\n"
        "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
        "<apply><eq/><apply><diff/><bvar><ci>t</ci></bvar><ci>Em</ci></apply>\n"
        "<cn cellml:units=\"dimensionless\">0</cn></apply>\n</math>\n</component>\n";
    const std::string rdf =
        "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
        "xmlns:bqbiol=\"http://biomodels.net/biology-qualifiers/\">\n"
        "<rdf:Description rdf:about=\"#em\"><bqbiol:is rdf:resource=\"https://chaste.comlab."
        "ox.ac.uk/cellml/ns/oxford-metadata#membrane_voltage\"/></rdf:Description>\n"
        "</rdf:RDF>\n";
    const CheckedModel annotated = compileModel(importCellml(doc(cell + rdf), "a.cellml"), "a");
    EXPECT_EQ(annotated.vars[static_cast<std::size_t>(annotated.potential)].name, "cell.Em");
    CellmlImportOptions options;
    options.potential = "cell.Em";
    const CheckedModel named = compileModel(importCellml(doc(cell), "b.cellml", options), "b");
    EXPECT_EQ(named.vars[static_cast<std::size_t>(named.potential)].name, "cell.Em");
    expectRefused(doc(cell), "c.cellml", "no state looks like the membrane potential");
}

TEST(CardiacCellml, FileNames) {
    EXPECT_TRUE(isCellmlFileName("models/br.cellml"));
    EXPECT_TRUE(isCellmlFileName("BR.XML"));
    EXPECT_FALSE(isCellmlFileName("br.cfm"));
}

}  // namespace
}  // namespace cf::cardiac
