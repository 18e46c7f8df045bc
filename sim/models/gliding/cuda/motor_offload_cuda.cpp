// SPDX-License-Identifier: GPL-3.0-or-later
// MotorOffload on one CUDA device (motor_offload.hpp): MotorsCuda on a stream of its own, with a
// device copy of Psi that the CPU backend refreshes after each filament step.
#include <cuda_runtime_api.h>
#include <memory>

#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cuda/motors_cuda.hpp"
#include "sim/models/gliding/motor_offload.hpp"

namespace cf::gliding {

std::unique_ptr<MotorOffload> makeCudaMotorOffload(const GlidingParams& p, const GlidingTables& t);

namespace {

cudaStream_t newStream() {
    cudaStream_t stream = nullptr;
    CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    return stream;
}

class CudaMotorOffload final : public MotorOffload {
public:
    CudaMotorOffload(const GlidingParams& p, const GlidingTables& t) : stream_(newStream()) {
        try {
            motors_ = std::make_unique<MotorsCuda>(p, t, stream_);
            psi_.resize(static_cast<std::size_t>(t.n) * t.n * t.ntheta);
        } catch (...) {
            motors_.reset();
            cudaStreamDestroy(stream_);
            throw;
        }
    }
    ~CudaMotorOffload() override {
        motors_.reset();  // its buffers and parameter block before their stream
        psi_ = {};
        cudaStreamDestroy(stream_);
    }
    CudaMotorOffload(const CudaMotorOffload&) = delete;
    CudaMotorOffload& operator=(const CudaMotorOffload&) = delete;

    void uploadPsi(const HostState& s) override { psi_.copyFromHost(s.psi, stream_); }

    void advance(const GlidingParams& p, double dt) override {
        motors_->advance(p, psi_.data(), dt);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    void force(const GlidingParams& p, std::vector<double>& fx, std::vector<double>& fy) override {
        motors_->force(p, psi_.data());
        motors_->downloadForce(fx, fy);  // waits for the stream
    }

    void download(MotorState& m, bool full) override {
        if (full)
            motors_->download(m);
        else
            motors_->downloadSummary(m);
    }

    void upload(const MotorState& m) override { motors_->upload(m); }

private:
    cudaStream_t stream_;
    std::unique_ptr<MotorsCuda> motors_;
    cf::cuda::DeviceBuffer<double> psi_;
};

}  // namespace

std::unique_ptr<MotorOffload> makeCudaMotorOffload(const GlidingParams& p, const GlidingTables& t) {
    return std::make_unique<CudaMotorOffload>(p, t);
}

}  // namespace cf::gliding
