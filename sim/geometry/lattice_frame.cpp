// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/lattice_frame.hpp"

#include <cmath>
#include <string>

#include "sim/core/errors.hpp"

namespace cf::geometry {

void validateFrame(const LatticeFrame& frame, const char* what) {
    for (int k = 0; k < 3; ++k)
        if (frame.n[k] < 1 || !std::isfinite(frame.origin[k]))
            throw GeometryError(std::string(what) + ": lattice frame needs n >= 1 and a finite " +
                                "origin on every axis (axis " + std::to_string(k) +
                                ": n = " + std::to_string(frame.n[k]) + ")");
    if (!(frame.spacing > 0.0f) || !std::isfinite(frame.spacing))
        throw GeometryError(std::string(what) +
                            ": lattice spacing must be positive and finite, got " +
                            std::to_string(frame.spacing));
}

}  // namespace cf::geometry
