// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cuda/fluid_cuda.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/cuda/fluid_kernels.cuh"

namespace cf::gliding::cuda {

namespace {

std::span<const double> view(const std::vector<double>& v) {
    return {v.data(), v.size()};
}

}  // namespace

FluidCuda::FluidCuda(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream,
                     const CufftLibrary& cufft)
    : stream_(stream),
      n_(t.n),
      ntheta_(t.ntheta),
      dx_(t.dx),
      dtheta_(t.dtheta),
      zgrid_(buildZGrid(p)),
      table_(precomputeTransfer(zgrid_, p.eps, t.n)),
      params_(fluidParamsSymbol(), stream) {
    // The CPU builds M with the same function from the same table: the same bytes.
    const FluidResponse r = fluidResponse(table_, dx_);
    lagSymbolMax_ = r.lagSymbolMax;
    mxx_ = cf::cuda::DeviceBuffer<double>(view(r.mxx));
    mxy_ = cf::cuda::DeviceBuffer<double>(view(r.mxy));
    myy_ = cf::cuda::DeviceBuffer<double>(view(r.myy));
    cosT_ = cf::cuda::DeviceBuffer<double>(view(t.cosT));
    sinT_ = cf::cuda::DeviceBuffer<double>(view(t.sinT));
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    const std::size_t modes = static_cast<std::size_t>(n_) * (n_ / 2 + 1);
    for (cf::cuda::DeviceBuffer<double>* b :
         {&d11_, &d12_, &d22_, &s1111_, &s1112_, &s1122_, &s1222_, &s2222_, &t11_, &t12_, &t22_,
          &dudx_, &dudy_, &dvdx_, &dvdy_})
        b->resize(cells);
    forcing_.resize(2 * cells);
    forcing_.fillZero(stream_);  // downloadForcing before any solve: no forcing
    uv_.resize(2 * cells);
    spectrum_.resize(2 * 2 * modes);  // two components, interleaved complex
    // Basic layout (design 3.3): real batches n^2 apart, complex ones n (n/2 + 1) apart, as
    // FFTW's plan_many in FluidCpu.
    const int dims[2] = {n_, n_};
    forward_ = CufftPlan(cufft, 2, dims, CUFFT_D2Z, 2, stream_);
    backward_ = CufftPlan(cufft, 2, dims, CUFFT_Z2D, 2, stream_);
    // One work area for both plans: they run one after the other on the same stream.
    work_.resize(std::max<std::size_t>({forward_.workSize(), backward_.workSize(), 1}));
    forward_.setWorkArea(work_.data());
    backward_.setWorkArea(work_.data());
    upload(FlowField{});
}

FlowAtZ0 FluidCuda::deviceFlow() const {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    return {uv_.data(), uv_.data() + cells, dudx_.data(), dudy_.data(), dvdx_.data(), dvdy_.data()};
}

void FluidCuda::upload(const FlowField& f) {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    if (f.u.empty()) {  // the fluid at rest (design M15)
        for (cf::cuda::DeviceBuffer<double>* b : {&uv_, &dudx_, &dudy_, &dvdx_, &dvdy_})
            b->fillZero(stream_);
        return;
    }
    for (const std::vector<double>* v : {&f.u, &f.v, &f.dudx, &f.dudy, &f.dvdx, &f.dvdy})
        if (v->size() != cells)
            throw SimulationError("gliding CUDA: flow field of " + std::to_string(v->size()) +
                                  " values for a grid of " + std::to_string(cells) + " cells");
    std::vector<double> uv(f.u);
    uv.insert(uv.end(), f.v.begin(), f.v.end());
    uv_.copyFromHost(view(uv), stream_);
    dudx_.copyFromHost(view(f.dudx), stream_);
    dudy_.copyFromHost(view(f.dudy), stream_);
    dvdx_.copyFromHost(view(f.dvdx), stream_);
    dvdy_.copyFromHost(view(f.dvdy), stream_);
}

void FluidCuda::download(FlowField& f) const {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    const std::vector<double> uv = uv_.toHost(stream_);
    f.u.assign(uv.begin(), uv.begin() + static_cast<std::ptrdiff_t>(cells));
    f.v.assign(uv.begin() + static_cast<std::ptrdiff_t>(cells), uv.end());
    f.dudx = dudx_.toHost(stream_);
    f.dudy = dudy_.toHost(stream_);
    f.dvdx = dvdx_.toHost(stream_);
    f.dvdy = dvdy_.toHost(stream_);
}

void FluidCuda::downloadForcing(std::vector<double>& gx, std::vector<double>& gy) const {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    const std::vector<double> g = forcing_.toHost(stream_);
    gx.assign(g.begin(), g.begin() + static_cast<std::ptrdiff_t>(cells));
    gy.assign(g.begin() + static_cast<std::ptrdiff_t>(cells), g.end());
}

double FluidCuda::lagFactor(const GlidingParams& p, double cmax) const {
    return (3.0 * cmax / 8.0) * p.sigmaF * lagSymbolMax_;  // as FluidCpu::lagFactor
}

std::int32_t FluidCuda::iterations(const GlidingParams& p, double cmax) const {
    if (p.fluidIterations > 0) return p.fluidIterations;
    return lagFactor(p, cmax) > 0.5 ? 3 : 1;
}

void FluidCuda::solve(const GlidingParams& p, const double* psiDevice, const double* fxDevice,
                      const double* fyDevice, double maxDensity) {
    if ((fxDevice == nullptr) != (fyDevice == nullptr))
        throw SimulationError("gliding CUDA: fluid solve needs both motor force components");
    if (!p.fluidEnabled) {
        upload(FlowField{});
        lastIterations_ = 0;
        return;
    }
    params_.bind(p);  // sigma_f, sigma_t
    StressMomentsArgs ma{};
    ma.psi = psiDevice;
    ma.cosT = cosT_.data();
    ma.sinT = sinT_.data();
    ma.m = {d11_.data(),   d12_.data(),   d22_.data(),   s1111_.data(),
            s1112_.data(), s1122_.data(), s1222_.data(), s2222_.data()};
    ma.n = n_;
    ma.ntheta = ntheta_;
    ma.dtheta = dtheta_;
    launchStressMoments(ma, stream_);
    lastIterations_ = iterations(p, maxDensity);
    for (std::int32_t it = 0; it < lastIterations_; ++it)
        pass(fxDevice, fyDevice);
}

void FluidCuda::pass(const double* fx, const double* fy) {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    const double inv2 = 0.5 / dx_;
    StressArgs sa{};
    sa.m = {d11_.data(),   d12_.data(),   d22_.data(),   s1111_.data(),
            s1112_.data(), s1122_.data(), s1222_.data(), s2222_.data()};
    sa.dudx = dudx_.data();
    sa.dudy = dudy_.data();
    sa.dvdx = dvdx_.data();
    sa.dvdy = dvdy_.data();
    // The device flow always exists (at rest it is zeros), as the CPU's after its first solve.
    sa.hasFlow = true;
    sa.t11 = t11_.data();
    sa.t12 = t12_.data();
    sa.t22 = t22_.data();
    sa.n = n_;
    launchStress(sa, stream_);

    ForcingArgs fa{};
    fa.t11 = t11_.data();
    fa.t12 = t12_.data();
    fa.t22 = t22_.data();
    fa.fx = fx;
    fa.fy = fy;
    fa.gx = forcing_.data();
    fa.gy = forcing_.data() + cells;
    fa.inv2 = inv2;
    fa.n = n_;
    launchForcing(fa, stream_);

    auto* spectrum = reinterpret_cast<cufftDoubleComplex*>(spectrum_.data());
    forward_.execD2Z(forcing_.data(), spectrum);
    StokesArgs st{};
    st.spectrum = spectrum_.data();
    st.mxx = mxx_.data();
    st.mxy = mxy_.data();
    st.myy = myy_.data();
    st.norm = 1.0 / static_cast<double>(cells);
    st.modes = static_cast<std::int64_t>(n_) * (n_ / 2 + 1);
    launchStokesApply(st, stream_);
    // Z2D overwrites its input, which is scratch here.
    backward_.execZ2D(spectrum, uv_.data());

    GradientArgs ga{};
    ga.u = uv_.data();
    ga.v = uv_.data() + cells;
    ga.dudx = dudx_.data();
    ga.dudy = dudy_.data();
    ga.dvdx = dvdx_.data();
    ga.dvdy = dvdy_.data();
    ga.inv2 = inv2;
    ga.n = n_;
    launchVelocityGradient(ga, stream_);
}

}  // namespace cf::gliding::cuda
