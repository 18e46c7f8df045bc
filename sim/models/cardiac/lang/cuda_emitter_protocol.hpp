// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The device functions of a generated cell kernel that decide the stimulus (cuda_emitter.hpp):
// cf_pulse_on(t) and cf_in_region(n), cardiac_model.cpp's pulseOn and inStimulusRegion on the
// constant block `block` (a CfProtocol), in double with every operation rounded on its own.
#include <string>
#include <vector>

namespace cf::cardiac {

// The lines of the two functions' source, reading the __constant__ CfProtocol named `block`.
std::vector<std::string> protocolFunctionLines(const std::string& block);

}  // namespace cf::cardiac
