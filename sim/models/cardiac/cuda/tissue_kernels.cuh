// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model-independent kernels of the cardiac tissue (nvcc-compiled; the cell step itself
// is generated and compiled by NVRTC): the potential's explicit diffusion with mirrored
// boundaries, activation times, failure stamping and view packing. State s of node i lives
// at y[s * pitch + i]. Instantiated for float and double.
#include <cstddef>
#include <cuda_runtime_api.h>

namespace cf::cardiac::cuda {

struct TissueShape {
    int n[3];                               // nodes per axis
    double coeff[3];                        // D_a / dx^2 [1/ms], 0 for an axis of one node
    const unsigned char* tissue = nullptr;  // device; 0 outside the tissue (null: all tissue)
};

// out = in + h * sum_a coeff_a (in[+a] + in[-a] - 2 in), ghosts mirrored.
template <typename Real>
void launchDiffuse(const Real* in, Real* out, const TissueShape& shape, double h,
                   cudaStream_t stream);

// The end of a step, one launch: activation times (tissue_stencil.hpp activationAfter) of
// every node; the probe's potential into *trace (when not null); and, if *fail holds a cell
// (< n) and *failStep is unset (-1), step into *failStep.
struct StepEnd {
    const int* fail;
    long long* failStep;
    long long step;
    std::size_t probe;
};
template <typename Real>
void launchEndOfStep(const Real* before, const Real* after, double* activation, std::size_t n,
                     double t, double dt, double theta, const StepEnd& end, Real* trace,
                     cudaStream_t stream);

// Views: a float copy of one state column (views.states).
template <typename Real>
void launchToFloat(const Real* in, float* out, std::size_t n, cudaStream_t stream);

// Views: float copies of the potential and the activation map.
template <typename Real>
void launchPackViews(const Real* potential, const double* activation, float* v, float* act,
                     std::size_t n, cudaStream_t stream);

}  // namespace cf::cardiac::cuda
