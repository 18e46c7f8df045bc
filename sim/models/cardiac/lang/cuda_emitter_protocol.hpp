// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The device code of a generated cell kernel around its step (cuda_emitter.hpp): the functions
// that decide the stimulus, cf_pulse_on(t) and cf_in_region(n), cardiac_model.cpp's pulseOn and
// inStimulusRegion on the constant block `block` (a CfProtocol), in double with every operation
// rounded on its own; and the end of a step done in the kernel (CfStepEnd).
#include <string>
#include <vector>

namespace cf::cardiac {

// The lines of the two functions' source, reading the __constant__ CfProtocol named `block`.
std::vector<std::string> protocolFunctionLines(const std::string& block);

// The generated CfStepEnd struct (the members of cuda_emitter.hpp's CfStepEnd, `real` for Real).
std::vector<std::string> stepEndStructLines();
// The kernel's end of the step, given the potential before it (`before`) and after it (`after`,
// a real), when the host passes an activation map (a.end.activation): the activation time where
// the potential rose through the threshold, as tissue_stencil.hpp's activationAfter in double,
// written only where it changes; the probe's potential after the step.
std::vector<std::string> stepEndLines(const std::string& before, const std::string& after);

}  // namespace cf::cardiac
