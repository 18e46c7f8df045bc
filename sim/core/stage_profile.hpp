// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A backend that can time its step stage by stage on the device: the benchmark's per-kernel
// profile (the epidermis paper's Table 4). A capability beside Model (dynamic_cast), so
// models without it need nothing.
#include <string>
#include <utility>
#include <vector>

namespace cf {

class StageProfiling {
public:
    virtual ~StageProfiling() = default;
    // From the next step on, time every stage of a step (events on the device; steps run
    // one by one, without graph replay, while profiling).
    virtual void startStageProfile() = 0;
    // Mean device seconds per step of each stage since startStageProfile(), in the order
    // the stages run; profiling stops.
    virtual std::vector<std::pair<std::string, double>> stopStageProfile() = 0;
};

}  // namespace cf
