// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Times the stages of a step on one stream with CUDA events (StageProfiling of
// sim/core/stage_profile.hpp). Each step records an event before its first stage and after
// each stage, then waits for them, so a stage's time is its span on the device timeline:
// its kernels plus any launch gap inside it, not the host's time between steps.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <string>
#include <utility>
#include <vector>

namespace cf::cuda {

class StageTimer {
public:
    StageTimer() = default;
    ~StageTimer();
    StageTimer(const StageTimer&) = delete;
    StageTimer& operator=(const StageTimer&) = delete;

    bool active() const { return active_; }
    void start();                                        // clears the totals
    void beginStep(cudaStream_t stream);                 // before the step's first stage
    void mark(const char* stage, cudaStream_t stream);   // after `stage`
    void endStep();                                      // waits and adds the step's stages
    std::vector<std::pair<std::string, double>> stop();  // mean seconds per step

private:
    cudaEvent_t event(std::size_t i);

    bool active_ = false;
    std::vector<cudaEvent_t> events_;
    std::vector<const char*> marks_;  // stage of events_[i + 1]
    std::vector<std::pair<std::string, double>> totals_;
    std::uint64_t steps_ = 0;
};

}  // namespace cf::cuda
