// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `spheres`: the model is spheres_cuda_model.hpp (one rank) and
// spheres_cuda_ranks.cpp (its step over ranks), in float or double mechanics. The registry's
// factory knows no parameters, so the model it gets is a front that builds the backend of the
// precision mechanics.precision (structural) names at each reset and forwards every call.
#include <memory>
#include <new>
#include <string>
#include <utility>

#include "sim/models/spheres/cuda/spheres_cuda_model.hpp"

namespace cf::spheres {

namespace {

using cudamodel::CudaSpheresBackend;

class CudaSpheresFront final : public Model,
                               public dist::Distributable,
                               public RankBalance,
                               public StateArrayProvider {
public:
    CudaSpheresFront() : impl_(std::make_unique<cudamodel::CudaSpheres<float>>()) {}

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        const bool wantDouble = checkedParams(params).precision ==
                                static_cast<std::int32_t>(MechanicsPrecision::Double);
        if (wantDouble != double_) {
            // The backend of the other precision replaces this one; the old one's device memory
            // is freed first, so a large run does not need both at once.
            relayNotes();
            impl_.reset();
            if (wantDouble)
                impl_ = std::make_unique<cudamodel::CudaSpheres<double>>();
            else
                impl_ = std::make_unique<cudamodel::CudaSpheres<float>>();
            double_ = wantDouble;
            if (comm_ != nullptr) impl_->distribute(*comm_);
        }
        Relay relay{*this};
        impl_->reset(params, seed);
    }

    void setLiveParameters(const ParamSet& params) override {
        Relay relay{*this};
        impl_->setLiveParameters(params);
    }
    void advance(std::uint64_t steps) override {
        Relay relay{*this};
        impl_->advance(steps);
    }
    std::uint64_t step() const override { return impl_->step(); }
    double time() const override { return impl_->time(); }
    std::vector<Metric> metrics() override { return impl_->metrics(); }
    Snapshot snapshot() override { return impl_->snapshot(); }
    void restore(const Snapshot& snapshot) override {
        Relay relay{*this};
        impl_->restore(snapshot);
    }
    void checkFinite() override { impl_->checkFinite(); }
    void synchronize() override { impl_->synchronize(); }
    void applyPendingEdits() override { impl_->applyPendingEdits(); }
    ModelViews views() override { return impl_->views(); }
    std::vector<std::uint8_t> deviceParameterBlock() override {
        return impl_->deviceParameterBlock();
    }

    // StateArrayProvider
    std::vector<StateArray> stateArrays() override { return impl_->stateArrays(); }

    // dist::Distributable
    void distribute(dist::Communicator& comm) override {
        comm_ = &comm;
        impl_->distribute(comm);
    }
    dist::GridPiece piece() const override { return impl_->piece(); }
    double haloSeconds() const override { return impl_->haloSeconds(); }
    std::string haloTransport() const override { return impl_->haloTransport(); }
    std::uint64_t entities() override { return impl_->entities(); }

    // RankBalance
    std::uint64_t rebalances() const override { return impl_->rebalances(); }
    std::vector<std::uint64_t> shares() override { return impl_->shares(); }

private:
    // The backend's notes (a capacity that grew) become this model's, where the Runner takes
    // them; also when the call throws (a note may precede the error). A note that cannot be
    // stored for want of memory is dropped rather than thrown from a destructor.
    struct Relay {
        CudaSpheresFront& front;
        ~Relay() {
            try {
                front.relayNotes();
            } catch (const std::bad_alloc&) {
            }
        }
    };
    void relayNotes() {
        for (std::string& text : impl_->takeNotes())
            note(std::move(text));
    }

    std::unique_ptr<CudaSpheresBackend> impl_;
    bool double_ = false;
    dist::Communicator* comm_ = nullptr;
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<CudaSpheresFront>();
}

}  // namespace cf::spheres
