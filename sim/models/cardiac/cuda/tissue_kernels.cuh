// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model-independent kernels of the cardiac tissue (nvcc-compiled; the cell step itself
// is generated and compiled by NVRTC): the potential's explicit diffusion with mirrored
// boundaries, activation times, failure stamping and view packing. State s of node i lives
// at y[s * pitch + i]. Instantiated for float and double.
//
// The live values these kernels read (TissueLive) are in one __constant__ struct of this file,
// one per process: a model uploads its own with uploadTissueLive after an edit and binds it
// with bindTissueLive before each launch group (sim/cuda/constant_owner.hpp), so instances
// used in turn keep their values.
#include <cstddef>
#include <cuda_runtime_api.h>
#include <type_traits>

namespace cf::cardiac::cuda {

// The live parameters of the tissue as the fixed kernels use them (derived from
// CardiacParams: tissue.diffusion_long/_trans, tissue.fibre_axis, time.dt,
// activation.threshold).
struct TissueLive {
    double coeff[3];   // D_a / dx^2 [1/ms] along x, y, z; 0 for an axis of one node
    double h;          // diffusion sub-step [ms]: dt / diffusionSubsteps
    double dt;         // time step [ms]
    double threshold;  // activation threshold [mV]
};
static_assert(std::is_trivially_copyable_v<TissueLive>);

// `owner` is the model instance: uploadTissueLive makes it the holder and writes `live`
// (ordered on `stream`: kernels queued before keep the old values); bindTissueLive writes
// only when another instance's struct is there; releaseTissueLive when the instance goes.
void uploadTissueLive(const TissueLive& live, const void* owner, cudaStream_t stream);
void bindTissueLive(const TissueLive& live, const void* owner, cudaStream_t stream);
void releaseTissueLive(const void* owner);
// The struct as the device holds it after the work queued on `stream` (waits).
TissueLive downloadTissueLive(cudaStream_t stream);

struct TissueShape {
    int n[3];                               // nodes per axis
    const unsigned char* tissue = nullptr;  // device; 0 outside the tissue (null: all tissue)
};

// out = in + h * sum_a coeff_a (in[+a] + in[-a] - 2 in), ghosts mirrored; coeff and h from
// TissueLive.
template <typename Real>
void launchDiffuse(const Real* in, Real* out, const TissueShape& shape, cudaStream_t stream);

// The end of a step from t, one launch: activation times (tissue_stencil.hpp activationAfter,
// dt and threshold from TissueLive) of every node; the probe's potential into *trace (when not
// null); and, if *fail holds a cell (< n) and *failStep is unset (-1), step into *failStep.
struct StepEnd {
    const int* fail;
    long long* failStep;
    long long step;
    std::size_t probe;
};
template <typename Real>
void launchEndOfStep(const Real* before, const Real* after, double* activation, std::size_t n,
                     double t, const StepEnd& end, Real* trace, cudaStream_t stream);

// Views: a float copy of one state column (views.states).
template <typename Real>
void launchToFloat(const Real* in, float* out, std::size_t n, cudaStream_t stream);

// Views: float copies of the potential and the activation map.
template <typename Real>
void launchPackViews(const Real* potential, const double* activation, float* v, float* act,
                     std::size_t n, cudaStream_t stream);

// One rank's slab of the grid (tissue_slab.hpp): the owned box and the extended box (owned
// plus a halo plane below and above along `axis` where a neighbouring rank is). x fastest.
struct SlabShape {
    int owned[3];
    int extended[3];
    int axis;
    int haloBelow;  // 0 or 1: the extended box's first owned plane
};

// Copies between an owned row (one state's column) and the extended layout.
template <typename Real>
void launchToExtended(const Real* owned, Real* extended, const SlabShape& s, cudaStream_t stream);
template <typename Real>
void launchFromExtended(const Real* extended, Real* owned, const SlabShape& s, cudaStream_t stream);
// launchDiffuse on the owned planes [planeLo, planeHi) (owned coordinates along s.axis) of an
// extended field; `tissue`: the extended tissue mask (null: all tissue).
template <typename Real>
void launchDiffusePlanes(const Real* in, Real* out, const SlabShape& s, const unsigned char* tissue,
                         int planeLo, int planeHi, cudaStream_t stream);
// Plane `plane` (extended coordinate along s.axis) of an extended field to and from a
// contiguous buffer.
template <typename Real>
void launchPackPlane(const Real* extended, Real* buffer, const SlabShape& s, int plane,
                     cudaStream_t stream);
template <typename Real>
void launchUnpackPlane(const Real* buffer, Real* extended, const SlabShape& s, int plane,
                       cudaStream_t stream);

}  // namespace cf::cardiac::cuda
