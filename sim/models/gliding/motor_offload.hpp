// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bound motors of the CPU backend on a GPU (motors.placement = gpu): Cook & Shinar's hybrid
// placement (ScalA'17 section 3.1), where the filaments and the fluid stay on the host and only
// the high-dimensional motor state lives on the device. Each outer step uploads Psi, sub-cycles
// the motors and gathers their force there, and downloads F2 (2 n^2 doubles) for the host's
// Stokes solve. Host-compiled code includes this; the CUDA implementation is
// cuda/motor_offload_cuda.cpp. Every call waits for the device, so the host's stage timings
// include the transfers.
#include <memory>
#include <vector>

#include "sim/models/gliding/cpu/motors_cpu.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

class MotorOffload {
public:
    virtual ~MotorOffload() = default;
    // Psi of `s` to the device, for the advance and the force that follow.
    virtual void uploadPsi(const HostState& s) = 0;
    // Every tail sub-cycled from t to t + dt with the uploaded Psi frozen (advanceMotors).
    virtual void advance(const GlidingParams& p, double dt) = 0;
    // W and F2 of the uploaded Psi on the device (boundGather, forceGather), F2 down into fx, fy.
    virtual void force(const GlidingParams& p, std::vector<double>& fx,
                       std::vector<double>& fy) = 0;
    // The motor sums and counters into m; with `full` the packed Mb too (snapshots).
    virtual void download(MotorState& m, bool full) = 0;
    // The whole motor state (Mb, Mb,coarse, Mf) to the device (restore).
    virtual void upload(const MotorState& m) = 0;
};

// The motors of (p, t) on the current CUDA device, starting as initMotors leaves them. Throws
// ParameterError naming motors.placement when this build has no CUDA or the machine no GPU, and
// SimulationError when the motors do not fit the device's memory.
std::unique_ptr<MotorOffload> makeMotorOffload(const GlidingParams& p, const GlidingTables& t);

}  // namespace cf::gliding
