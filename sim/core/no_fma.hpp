// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Products and sums that the CUDA compiler may not fuse into FMAs. ptxas fuses a product with
// the sum that uses it where it sees fit, and differently in different kernels; where the
// device must reproduce the host (the grid's "within cutoff" test) or two kernels must agree
// bit for bit (the spheres force kernels), every product and sum is rounded on its own, as
// the host build (x86-64 baseline, no FMA instructions) computes them.
#include "sim/core/host_device.hpp"

namespace cf {

CF_HD float mulNoFma(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
CF_HD double mulNoFma(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
CF_HD float addNoFma(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
CF_HD double addNoFma(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

}  // namespace cf
