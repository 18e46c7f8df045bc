// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CellML 1.0, 1.1 and 2.0 import (docs/design/cardiac.md section 6): a CellML model becomes text of
// the cardiac model language (.cfm), which then goes through the normal parser and checks, so an
// imported model is editable and its diagnostics point into readable text.
//
// Supported: components, variables (units, initial_value, interfaces), connections (each
// connected set of variables has exactly one source: the member with an equation or an
// initial value; members in units that differ by a factor read the source times that
// factor), units definitions (mapped to the language's unit names where the mapping is exact,
// else omitted), content MathML (eq, diff with bvar time, arithmetic, power, root, exp, ln,
// log, abs, floor, ceiling, min, max, rem, quotient, piecewise, comparisons, and/or/xor/not,
// trig and hyperbolic functions and their inverses, constants, and d(x)/d(time) of a state
// inside an expression, which reads the state's rate under a name `d_x_dt`). Not supported,
// with a message naming the element: reactions, 2.0 resets, algebraic
// (implicit) equations, initial values naming variables.
//
// CellML 1.1 imports are resolved from files beside the model (relative to `fileName`;
// never fetched), cellml_imports.cpp.
//
// Integration: the model text starts with `method grl1: *` and `method rl: gates`, so every
// state that is not a gate (the potential too) takes the GRL1 step and the gates Rush-Larsen
// (CellmlImportOptions::nonGates; a scenario's model.integrator still overrides both).
//
// Units: the model's time is in ms and its potential in mV whatever the file uses (a file in
// seconds or volts is converted, and says so in its header); a time variable that is not a
// time, or a potential that is neither a voltage nor dimensionless, is refused by name.
//
// Roles: time is the bvar of the derivatives; the membrane potential is the state given by
// ImportOptions::potential, else the one annotated oxford-metadata#membrane_voltage, else a
// state named V, Vm, V_m or membrane_potential (case-insensitive), preferring one in a
// component whose name contains "membrane"; the stimulus likewise (options, the
// membrane_stimulus_current annotation, or a name like i_stim, I_stim, Istim, i_st). A
// stimulus computed from a pulse expression is replaced by `0 bind stimulus` (the protocol
// drives it), with the original expression kept in a comment.
#include <string>

#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

// A CellML file that cannot be imported. Holds one diagnostic (code E300); what() reads
// "FILE:LINE: error: MESSAGE" (with ":COLUMN" after the line where the XML parser gives one).
class CellmlError : public ModelError {
public:
    CellmlError(const std::string& file, int line, const std::string& message, int column = 0);
    const char* what() const noexcept override { return text_.c_str(); }

private:
    std::string text_;
};

struct CellmlImportOptions {
    std::string potential;  // "component.variable" of the membrane potential; empty: found
    std::string stimulus;   // "component.variable" of the stimulus current; empty: found
    // "component.variable" of the membrane capacitance, read where the stimulus is a current
    // or a current density; empty: the one annotated oxford-metadata#membrane_capacitance,
    // else the one variable of a capacitance's dimensions the potential's equation reads.
    std::string capacitance;
    // Where the stimulus' units do not reconcile with the potential's equation (converted by
    // its units, 1 A/F would not change the potential's rate by 1 mV/ms: the file's units are
    // inconsistent), scale it so that it does, with a warning in the header; false: refuse.
    bool stimulusByEquation = false;
    // Keep the file's own pulse expression for the stimulus (still `bind stimulus`, so a
    // protocol can drive it); false: `0 bind stimulus`, the expression in a comment.
    bool ownStimulus = false;
    // > 0: the period of the file's own pulse in ms, written as the initial value of the
    // variable annotated oxford-metadata#membrane_stimulus_current_period (in its units).
    double stimulusPeriodMs = 0;
    // How the states that are not gates are integrated (gates always by Rush-Larsen):
    // Linearised writes `method grl1` for them, the potential included (GRL1: the exponential
    // step on each state's own linearised rate, stable where the community's models carry stiff
    // calcium, Markov or coupled states); ForwardEuler leaves the language's default, `fe`.
    enum class NonGates { Linearised, ForwardEuler };
    NonGates nonGates = NonGates::Linearised;
};

// The .cfm text of the CellML model in `xmlText`; `fileName` names it in messages and in the
// generated comments. Throws CellmlError (or, without libxml2 in the build, CellmlError
// saying that the import needs libxml2).
std::string importCellml(const std::string& xmlText, const std::string& fileName,
                         const CellmlImportOptions& options = {});

// True when `path` ends in .cellml or .xml (case-insensitive): a model file to import.
bool isCellmlFileName(const std::string& path);

}  // namespace cf::cardiac
