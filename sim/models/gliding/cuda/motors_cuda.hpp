// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bound motors of `gliding` on one CUDA device (docs/design/gliding.md 2.6, 2.7, 3.5):
// owns the device state (packed Mb, Mb,coarse, Mf in the motor real, W, F2) and the uploaded
// tables, and runs motorSubcycle and the two gathers on one stream. Psi stays with the caller
// (the filament backend) and is passed as a device pointer. The kernels read the live parameters
// from the __constant__ block of motor_kernels.cu, which this object owns while it launches
// (params_block.hpp): advance and force bind the GlidingParams they are given. Include only in
// CUDA-enabled code.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cpu/motors_cpu.hpp"
#include "sim/models/gliding/cuda/motor_kernels.cuh"
#include "sim/models/gliding/cuda/params_block.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/motor_memory.hpp"

namespace cf::gliding {

class MotorsCuda {
public:
    // Checks the device memory first (checkMotorMemory with cudaMemGetInfo's free size and the
    // device name; throws SimulationError before allocating), then allocates and uploads the
    // tables. The state starts as initMotors leaves it: Mb = 0, Mb,coarse = 0, Mf = M.
    // motors.precision (structural) picks the motor real for the lifetime of the object.
    MotorsCuda(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream);
    // Only the tails of `rows` (a rank's band, anchor_rows.hpp): the motor arrays and the
    // MotorStates of upload/download hold those; W and F2 cover the whole grid, computed on the
    // rows those tails reach (F2 is this rank's part of the force, to be summed over ranks).
    MotorsCuda(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream,
               const AnchorRows& rows);
    const AnchorRows& rows() const { return rows_; }

    // The whole motor state (Mb, Mb,coarse, Mf, clampCount) to and from the host, for snapshots
    // and tests; converted from/to double for float motors. download waits for the stream, fills
    // the metrics (substepsMax, substepsMean, clampCount) and the orbit tables, and throws
    // SimulationError (the CPU's message) if a tail got a non-positive substep.
    void upload(const MotorState& m);
    void download(MotorState& m);
    // As download without the packed Mb (m.mb is left as it is): what metrics, views and the
    // finiteness check need, without copying gigabytes at 256^2 x 32^2.
    void downloadSummary(MotorState& m);

    // The parameters in the kernels' __constant__ block (params_block.hpp): upload copies p
    // there now, ordered on the stream (reset, live edits); bind does when another instance has
    // used the block since or p differs from the last upload (advance and force bind theirs);
    // deviceParams reads the block back after the queued work.
    void uploadParams(const GlidingParams& p) { params_.upload(p); }
    void bindParams(const GlidingParams& p) { params_.bind(p); }
    GlidingParams deviceParams() const { return params_.download(); }

    // Sub-cycles every tail from t to t + dt with Psi (device, [cell * ntheta + j]) frozen
    // (advanceMotors of the CPU). Asynchronous on the stream.
    void advance(const GlidingParams& p, const double* psiDevice, double dt);
    // W by boundGather, then F2 by forceGather (F = p.force), on the device. Asynchronous.
    void force(const GlidingParams& p, const double* psiDevice);

    // Device F2, [iy * n + ix]: fx, then fy, in one array of 2 n^2. With a band of rows,
    // force() writes this rank's part to partForce() (zero outside the rows it reaches, never
    // written there) and the caller puts the sum over the ranks into sumForce(); on every row
    // it is one array.
    double* fx() { return force_.data(); }
    double* fy() { return force_.data() + force_.size() / 2; }
    double* sumForce() { return force_.data(); }
    const double* partForce() const { return rows_.whole() ? force_.data() : part_.data(); }
    std::size_t forceCount() const { return force_.size(); }

    // Host copies for tests: W (converted to double) and F2. Wait for the stream.
    std::vector<double> downloadW() const;
    void downloadForce(std::vector<double>& fx, std::vector<double>& fy) const;

    // Device Mb,coarse and Mf per anchor [iy * n + ix] in the motor real (double when
    // doublePrecision(), else float): the views read them without a host copy.
    const void* coarseDevice() const {
        return double_ ? static_cast<const void*>(d_.coarse.data()) : f_.coarse.data();
    }
    const void* freeDevice() const {
        return double_ ? static_cast<const void*>(d_.free.data()) : f_.free.data();
    }
    bool doublePrecision() const { return double_; }
    // Whether the slice is sub-cycled in shared memory (else in global memory, the fallback
    // when S x MReal does not fit the device's opt-in shared memory per block).
    bool sliceInShared() const { return launch_.sliceInShared; }
    // Tests: force the global-memory path (false) or back to shared memory if it fits.
    void setSliceInSharedForTests(bool shared) { launch_.sliceInShared = shared && sharedFits_; }
    // The sub-cycle kernel's launch (motors.block_threads, launch_bounds, lane_mapping).
    const cuda::MotorLaunch& launch() const { return launch_; }

private:
    void downloadCounters(MotorState& m);
    template <typename MReal>
    void downloadSums(MotorState& m);
    template <typename MReal>
    struct Arrays {
        cf::cuda::DeviceBuffer<MReal> mb, coarse, free, w;
    };
    template <typename MReal>
    Arrays<MReal>& arrays();
    template <typename MReal>
    void uploadAs(const MotorState& m);
    template <typename MReal>
    std::vector<MReal> toStored(const std::vector<double>& mb) const;
    template <typename MReal>
    std::vector<double> fromStored(const std::vector<MReal>& stored) const;
    template <typename MReal>
    void downloadAs(MotorState& m);
    template <typename MReal>
    cuda::MotorArrays<MReal> deviceArrays();
    void checkPrecision(const GlidingParams& p) const;
    // motors.block_threads = 0 (motors_cuda.cpp says how it chooses).
    int autoThreads(int maxThreads, std::size_t realBytes, std::size_t staticBytes,
                    int optin) const;

    cudaStream_t stream_;
    const cuda::MotorKernelBuild& kernels_;  // motors.fast_math picks the build
    AnchorRows rows_;
    bool double_;
    bool sharedFits_ = false;
    cuda::MotorLaunch launch_{};
    std::int32_t n_, ntheta_, sliceSize_, ns_;
    double dx_, dtheta_, ds_;
    MotorOrbits orbits_;
    cf::cuda::DeviceBuffer<Chord> chords_;
    cf::cuda::DeviceBuffer<std::int32_t> orbit_, gatherStart_;
    cf::cuda::DeviceBuffer<GatherEntry> gather_;
    // motors.bound_gather = staged (staged_gather.hpp); empty otherwise.
    cf::cuda::DeviceBuffer<std::int32_t> stagedStart_, stagedIndex_;
    cf::cuda::DeviceBuffer<GatherEntry> staged_;
    std::int32_t stagedMax_ = 0;
    cf::cuda::DeviceBuffer<PeskinStencil> peskin_;
    cf::cuda::DeviceBuffer<double> cosT_, sinT_;
    cf::cuda::DeviceBuffer<std::int32_t> laneInfo_;
    std::size_t stride_ = 0;                // stored values per tail (motors.storage)
    std::vector<std::int32_t> storedSlot_;  // lanes storage: [slot] -> stored index; else empty
    cf::cuda::DeviceBuffer<std::int32_t> storedSlotDevice_;
    cuda::MotorTables tables_{};
    Arrays<float> f_;
    Arrays<double> d_;
    cf::cuda::DeviceBuffer<double> force_, part_;
    cf::cuda::DeviceBuffer<std::int32_t> substeps_, clamps_, failedTail_;
    cuda::ParamsBlock params_;
    std::int64_t clampBase_ = 0;  // clampCount at the last upload
};

}  // namespace cf::gliding
