// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Index arithmetic of the periodic n x n cell grid of `gliding` (x fastest), shared by the CPU
// loops and the CUDA kernels.
#include "sim/core/host_device.hpp"

namespace cf::gliding {

// Periodic neighbour index for -n <= i < 2n.
CF_HD int wrapIndex(int i, int n) {
    return i < 0 ? i + n : (i >= n ? i - n : i);
}

// The four periodic x/y neighbours of a cell.
struct Neighbours {
    long long xm, xp, ym, yp;
};

CF_HD Neighbours neighboursOf(long long cell, int n) {
    const int ix = static_cast<int>(cell % n), iy = static_cast<int>(cell / n);
    const long long row = static_cast<long long>(iy) * n;
    return {row + wrapIndex(ix - 1, n), row + wrapIndex(ix + 1, n),
            static_cast<long long>(wrapIndex(iy - 1, n)) * n + ix,
            static_cast<long long>(wrapIndex(iy + 1, n)) * n + ix};
}

}  // namespace cf::gliding
