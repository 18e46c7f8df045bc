// SPDX-License-Identifier: GPL-3.0-or-later
// The imported stimulus in the protocol's units (issue 30: "the current/capacitance
// conventions"): the protocol's amplitude is in A/F (mV/ms) for every imported model, whatever
// the file's stimulus is in. Each case is a one-component cell whose potential obeys
// dV/dt = -(i_stim) / Cm (or + i_stim, or inconsistent units) and asserts what 1 A/F of
// depolarising amplitude does to dV/dt at the initial state: +1 mV/ms, to rounding (bound
// 1e-12: the conversion is factors of ten and one product with the capacitance).
#include <gtest/gtest.h>

#include <string>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "tests/support/cellml_test.hpp"

namespace cf::cardiac {
namespace {

struct Cell {
    std::string time = "ms";         // units of time
    std::string stimulus = "nA";     // units of i_stim
    std::string capacitance = "uF";  // units of Cm
    // dV/dt = -i_stim / Cm ("minus"), +i_stim / Cm ("plus"), -i_stim ("bare") or
    // -i_stim * r, r in 1/uF ("rate": no capacitance read)
    std::string sign = "minus";
    std::string stimulusName = "i_stim";
    bool readsV = false;  // i_stim = 0.01 * V (an ionic current, not a pulse)
};

std::string unitsDefinitions() {
    auto u = [](const char* name, const char* body) {
        return std::string("<units name=\"") + name + "\">" + body + "</units>\n";
    };
    return u("ms", "<unit prefix=\"milli\" units=\"second\"/>") +
           u("mV", "<unit prefix=\"milli\" units=\"volt\"/>") +
           u("nA", "<unit prefix=\"nano\" units=\"ampere\"/>") +
           u("uF", "<unit prefix=\"micro\" units=\"farad\"/>") +
           u("pF", "<unit prefix=\"pico\" units=\"farad\"/>") +
           u("pA_per_pF",
             "<unit prefix=\"pico\" units=\"ampere\"/><unit prefix=\"pico\" units=\"farad\" "
             "exponent=\"-1\"/>") +
           u("uA_per_cm2",
             "<unit prefix=\"micro\" units=\"ampere\"/><unit prefix=\"centi\" units=\"metre\" "
             "exponent=\"-2\"/>") +
           u("uF_per_cm2",
             "<unit prefix=\"micro\" units=\"farad\"/><unit prefix=\"centi\" units=\"metre\" "
             "exponent=\"-2\"/>") +
           u("per_uF", "<unit prefix=\"micro\" units=\"farad\" exponent=\"-1\"/>");
}

std::string cellml(const Cell& c) {
    const std::string stim =
        c.readsV ? "<apply><eq/><ci>" + c.stimulusName +
                       "</ci><apply><times/><cn cellml:units=\"dimensionless\">0.01</cn>"
                       "<ci>V</ci></apply></apply>\n"
                 : "";
    const std::string rate =
        c.sign == "minus" ? "<apply><divide/><apply><minus/><ci>" + c.stimulusName +
                                "</ci></apply><ci>Cm</ci></apply>"
        : c.sign == "plus" ? "<apply><divide/><ci>" + c.stimulusName + "</ci><ci>Cm</ci></apply>"
        : c.sign == "bare" ? "<apply><minus/><ci>" + c.stimulusName + "</ci></apply>"
                           : "<apply><times/><apply><minus/><ci>" + c.stimulusName +
                                 "</ci></apply><ci>r</ci></apply>";  // "rate": no Cm read
    return "<?xml version=\"1.0\"?>\n"
           "<model xmlns=\"http://www.cellml.org/cellml/1.0#\" "
           "xmlns:cellml=\"http://www.cellml.org/cellml/1.0#\" name=\"toy\">\n" +
           unitsDefinitions() +
           "<component name=\"membrane\">\n"
           "<variable name=\"time\" units=\"" +
           c.time +
           "\"/>\n"
           "<variable name=\"V\" units=\"mV\" initial_value=\"-80\"/>\n"
           "<variable name=\"Cm\" units=\"" +
           c.capacitance +
           "\" initial_value=\"2\"/>\n"
           "<variable name=\"r\" units=\"per_uF\" initial_value=\"0.5\"/>\n"
           "<variable name=\"" +
           c.stimulusName + "\" units=\"" + c.stimulus + "\"" +
           (c.readsV ? "" : " initial_value=\"0\"") +
           "/>\n"
           "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">\n"
           "<apply><eq/><apply><diff/><bvar><ci>time</ci></bvar><ci>V</ci></apply>" +
           rate + "</apply>\n" + stim + "</math>\n</component>\n</model>\n";
}

// The import of `c`, which must move dV/dt by 1 mV/ms per A/F of depolarising amplitude
// (bound 1e-12: factors of ten and one product with the capacitance).
std::string importedAtOneMvPerMsPerAmperePerFarad(const Cell& c,
                                                  const CellmlImportOptions& o = {}) {
    const std::string text = importCellml(cellml(c), "toy.cellml", o);
    EXPECT_NEAR(stimulusEffect(CellProgram(compileModel(text, "toy.cfm"), false)), 1.0, 1e-12)
        << text;
    return text;
}

std::string refusal(const std::string& xml, const CellmlImportOptions& o = {}) {
    try {
        importCellml(xml, "toy.cellml", o);
    } catch (const CellmlError& e) {
        return e.what();
    }
    return "";
}

// A current (nA) over a capacitance (uF), time in seconds (nA/uF = mV/s): the file's
// stimulus is the amplitude times Cm, times 1000 (1 A/F times 1 uF is 1e-6 A = 1000 nA).
TEST(CardiacCellmlStimulus, CurrentIsAmplitudeTimesCapacitance) {
    REQUIRE_CELLML();
    const std::string text = importedAtOneMvPerMsPerAmperePerFarad(Cell{.time = "second"});
    EXPECT_NE(text.find("i_stim_A_per_F = 0 [A/F] bind stimulus"), std::string::npos) << text;
    EXPECT_NE(text.find("i_stim = 1000 * Cm * i_stim_A_per_F in [nA]"), std::string::npos);
    EXPECT_NE(text.find("times the membrane capacitance 'membrane.Cm' [uF]"), std::string::npos);
}

// A current density over a specific capacitance, and a file whose stimulus depolarises when
// positive (dV/dt = +i_stim / Cm): reversed, so that a negative amplitude depolarises.
TEST(CardiacCellmlStimulus, PositiveDepolarisingStimulusIsReversed) {
    REQUIRE_CELLML();
    const std::string text = importedAtOneMvPerMsPerAmperePerFarad(
        Cell{.stimulus = "uA_per_cm2", .capacitance = "uF_per_cm2", .sign = "plus"});
    EXPECT_NE(text.find("depolarises when positive"), std::string::npos) << text;
    EXPECT_NE(text.find("i_stim = -Cm * i_stim_A_per_F"), std::string::npos) << text;
}

// Already in A/F with the usual sign (dV/dt = -i_stim, pA/pF being mV/ms): the file's
// variable is the one the protocol drives, as written.
TEST(CardiacCellmlStimulus, AmperesPerFaradIsDrivenAsWritten) {
    REQUIRE_CELLML();
    const std::string text =
        importedAtOneMvPerMsPerAmperePerFarad(Cell{.stimulus = "pA_per_pF", .sign = "bare"});
    EXPECT_NE(text.find("i_stim = 0 [pA/pF] bind stimulus"), std::string::npos) << text;
    EXPECT_EQ(text.find("_A_per_F"), std::string::npos);
}

// Units that disagree with the potential's equation (pA/pF divided by Cm in pF again, as
// Ramirez 2000 writes it) are refused, naming the stimulus and its line; with
// stimulusByEquation the stimulus follows the equation, with a warning in the header.
TEST(CardiacCellmlStimulus, InconsistentUnitsAreRefusedOrFollowTheEquation) {
    REQUIRE_CELLML();
    const Cell c{.stimulus = "pA_per_pF", .capacitance = "pF"};
    const std::string why = refusal(cellml(c));
    EXPECT_NE(why.find("toy.cellml:"), std::string::npos) << why;
    EXPECT_NE(why.find("the units of the stimulus 'membrane.i_stim [pA_per_pF]' do not reconcile "
                       "with the equation of 'membrane.V'"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("changes that rate by 0.5 mV/ms, not 1"), std::string::npos) << why;
    CellmlImportOptions o;
    o.stimulusByEquation = true;
    EXPECT_NE(importedAtOneMvPerMsPerAmperePerFarad(c, o).find(
                  "WARNING: the file's units do not reconcile"),
              std::string::npos);
}

// A stimulus that is not a current, and a current with no capacitance to multiply it by.
TEST(CardiacCellmlStimulus, UnconvertibleStimulusIsRefusedByName) {
    REQUIRE_CELLML();
    EXPECT_NE(refusal(cellml(Cell{.stimulus = "mV"}))
                  .find("the stimulus 'membrane.i_stim' [mV] is neither a current per capacitance "
                        "(A/F), a current nor a current density"),
              std::string::npos);
    const Cell noCm{.sign = "rate"};
    const std::string why = refusal(cellml(noCm));
    EXPECT_NE(why.find("no variable of the capacitance's dimensions is read by the equation of "
                       "'membrane.V': name it with the capacitance option"),
              std::string::npos)
        << why;
    CellmlImportOptions o;
    o.capacitance = "membrane.Cm";  // named, but not what the equation divides by
    EXPECT_NE(refusal(cellml(noCm), o).find("do not reconcile"), std::string::npos);
}

// Found by name only where it is a pulse: an i_st that reads the potential is an ionic current
// (the sustained inward current of sino-atrial models), never replaced by the protocol.
TEST(CardiacCellmlStimulus, AnIonicCurrentNamedLikeAStimulusIsNotOne) {
    REQUIRE_CELLML();
    const std::string text =
        importCellml(cellml(Cell{.stimulusName = "i_st", .readsV = true}), "toy.cellml");
    EXPECT_NE(text.find("stimulus: none found"), std::string::npos) << text;
    EXPECT_EQ(text.find("bind stimulus"), std::string::npos);
}

}  // namespace
}  // namespace cf::cardiac
