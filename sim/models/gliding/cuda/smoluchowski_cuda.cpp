// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cuda/smoluchowski_cuda.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "sim/core/errors.hpp"

namespace cf::gliding::cuda {

namespace {

std::span<const double> view(const std::vector<double>& v) {
    return {v.data(), v.size()};
}

}  // namespace

SmoluchowskiCuda::SmoluchowskiCuda(const GlidingTables& t, cudaStream_t stream,
                                   const CufftLibrary& cufft)
    : stream_(stream),
      n_(t.n),
      ntheta_(t.ntheta),
      nh_(t.ntheta / 2 + 1),
      dx_(t.dx),
      dtheta_(t.dtheta),
      cosT_(view(t.cosT)),
      sinT_(view(t.sinT)),
      faceCos_(view(t.faceCos)),
      faceSin_(view(t.faceSin)),
      sigmaX_(view(t.sigmaX)),
      sigmaTheta_(view(t.sigmaTheta)),
      params_(smoluchowskiParamsSymbol(), stream) {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    const std::size_t total = cells * ntheta_;
    for (cf::cuda::DeviceBuffer<double>* b : {&psi_, &a_, &aPrev_, &r_})
        b->resize(total);
    spectrum_.resize(2 * cells * nh_);  // interleaved complex
    for (cf::cuda::DeviceBuffer<double>* b : {&c_, &px_, &py_, &d11_, &d12_, &d22_})
        b->resize(cells);
    blockMax_.resize(static_cast<std::size_t>(fluxBlocks(static_cast<std::int64_t>(total))));
    scalars_.resize(1);
    scalars_.fillZero(stream_);
    // Row-major (y, x, theta) like Psi's layout; theta, the last dimension, is halved.
    const int dims[3] = {n_, n_, ntheta_};
    forward_ = CufftPlan(cufft, 3, dims, CUFFT_D2Z, 1, stream_);
    backward_ = CufftPlan(cufft, 3, dims, CUFFT_Z2D, 1, stream_);
    // One work area for both plans: they run one after the other on the same stream.
    work_.resize(std::max<std::size_t>({forward_.workSize(), backward_.workSize(), 1}));
    forward_.setWorkArea(work_.data());
    backward_.setWorkArea(work_.data());
}

void SmoluchowskiCuda::upload(const HostState& s) {
    if (s.n != n_ || s.ntheta != ntheta_)
        throw SimulationError("gliding CUDA: state of " + std::to_string(s.n) + "^2 x " +
                              std::to_string(s.ntheta) + " does not match the tables (" +
                              std::to_string(n_) + "^2 x " + std::to_string(ntheta_) + ")");
    psi_.copyFromHost(view(s.psi), stream_);
    restart();
}

void SmoluchowskiCuda::download(HostState& s) const {
    s.n = n_;
    s.ntheta = ntheta_;
    s.psi.resize(psi_.size());
    psi_.copyToHost(s.psi, stream_);
}

StepScalars SmoluchowskiCuda::scalars() const {
    return scalars_.toHost(stream_)[0];
}

DeviceMoments SmoluchowskiCuda::deviceMoments() {
    return {c_.data(), px_.data(), py_.data(), d11_.data(), d12_.data(), d22_.data()};
}

void SmoluchowskiCuda::step(const GlidingParams& p, const FlowAtZ0* deviceFlow) {
    run(p, true, 0.0, deviceFlow);
}

void SmoluchowskiCuda::step(const GlidingParams& p, double dt, const FlowAtZ0* deviceFlow) {
    run(p, false, dt, deviceFlow);
}

DeviceTables SmoluchowskiCuda::tables() const {
    return DeviceTables{cosT_.data(),
                        sinT_.data(),
                        faceCos_.data(),
                        faceSin_.data(),
                        sigmaX_.data(),
                        sigmaTheta_.data(),
                        n_,
                        ntheta_,
                        dx_,
                        dtheta_};
}

// Binds p, then the moments of the current Psi and the flux kernel's arguments (A^n into a_,
// CFL block maxima): every launch group of this class starts here.
FluxArgs SmoluchowskiCuda::fluxArgs(const GlidingParams& p, const FlowAtZ0* flow) {
    params_.bind(p);
    const DeviceTables t = tables();
    const DeviceMoments m = deviceMoments();
    launchMoments(psi_.data(), t, m, stream_);
    FluxArgs flux{};
    flux.psi = psi_.data();
    flux.m = m;
    flux.t = t;
    flux.invDx = 1.0 / dx_;
    flux.invDth = 1.0 / dtheta_;
    flux.hasFlow = flow != nullptr;
    if (flow != nullptr) flux.flow = *flow;
    flux.a = a_.data();
    flux.blockMax = blockMax_.data();
    return flux;
}

double SmoluchowskiCuda::cflRate(const GlidingParams& p, const FlowAtZ0* flow) {
    launchSmolFlux(fluxArgs(p, flow), stream_);
    const std::vector<double> partial = blockMax_.toHost(stream_);
    return *std::max_element(partial.begin(), partial.end());
}

void SmoluchowskiCuda::downloadHistory(std::vector<double>& aPrev, double& dtPrev) const {
    aPrev.resize(aPrev_.size());
    aPrev_.copyToHost(aPrev, stream_);
    dtPrev = steps_ > 0 ? scalars().dt : 0.0;
}

void SmoluchowskiCuda::setHistory(const std::vector<double>& aPrev, double dtPrev,
                                  std::int64_t steps) {
    if (aPrev.size() != aPrev_.size())
        throw SimulationError("gliding CUDA: AB2 history of " + std::to_string(aPrev.size()) +
                              " values, the grid has " + std::to_string(aPrev_.size()));
    aPrev_.copyFromHost(view(aPrev), stream_);
    // cflFinish takes the previous step from the scalars' dt (the step last taken).
    const StepScalars s{dtPrev, 0.0, 0.0};
    scalars_.copyFromHost(std::span<const StepScalars>(&s, 1), stream_);
    steps_ = steps;
}

void SmoluchowskiCuda::run(const GlidingParams& p, bool useCfl, double dt, const FlowAtZ0* flow) {
    const FluxArgs flux = fluxArgs(p, flow);
    const bool history = steps_ > 0;
    launchSmolFlux(flux, stream_);

    CflArgs cfl{};
    cfl.blockMax = blockMax_.data();
    cfl.blocks = static_cast<std::int32_t>(blockMax_.size());
    cfl.scalars = scalars_.data();
    cfl.useCfl = useCfl;
    cfl.fixedDt = dt;
    cfl.history = history;
    launchCflFinish(cfl, stream_);

    RhsArgs rhs{};
    rhs.psi = psi_.data();
    rhs.a = a_.data();
    rhs.aPrev = aPrev_.data();
    rhs.r = r_.data();
    rhs.scalars = scalars_.data();
    rhs.dx = dx_;
    rhs.dtheta = dtheta_;
    rhs.n = n_;
    rhs.ntheta = ntheta_;
    rhs.history = history;
    launchCnRhs(rhs, stream_);

    auto* spectrum = reinterpret_cast<cufftDoubleComplex*>(spectrum_.data());
    forward_.execD2Z(r_.data(), spectrum);
    DivideArgs div{};
    div.spectrum = spectrum_.data();
    div.sigmaX = sigmaX_.data();
    div.sigmaTheta = sigmaTheta_.data();
    div.scalars = scalars_.data();
    div.norm = 1.0 / (static_cast<double>(n_) * n_ * ntheta_);
    div.n = n_;
    div.nh = nh_;
    launchCnDivide(div, stream_);
    // Z2D overwrites its input, which is scratch here.
    backward_.execZ2D(spectrum, psi_.data());
    std::swap(a_, aPrev_);
    ++steps_;
}

}  // namespace cf::gliding::cuda
