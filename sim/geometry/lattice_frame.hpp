// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a cubic lattice lies in space: site (x, y, z) has its centre at
//   origin + (x + 0.5, y + 0.5, z + 0.5) * spacing
// and index x + y * nx + z * nx * ny (the lattice model's order).
#include <array>
#include <cstddef>
#include <cstdint>

namespace cf::geometry {

struct LatticeFrame {
    std::array<int, 3> n{0, 0, 0};  // sites per axis
    float spacing = 1.0f;           // site edge length (the scenario's length unit, nm)
    std::array<float, 3> origin{0.0f, 0.0f, 0.0f};  // corner of site (0, 0, 0)

    std::size_t siteCount() const {
        return static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) *
               static_cast<std::size_t>(n[2]);
    }
    std::size_t index(int x, int y, int z) const {
        return static_cast<std::size_t>(x) +
               static_cast<std::size_t>(n[0]) *
                   (static_cast<std::size_t>(y) +
                    static_cast<std::size_t>(n[1]) * static_cast<std::size_t>(z));
    }
    // Centre of site i along `axis`, in double so that every caller rounds alike.
    double centre(int axis, int i) const {
        return static_cast<double>(origin[static_cast<std::size_t>(axis)]) +
               (i + 0.5) * static_cast<double>(spacing);
    }
};

// Throws GeometryError unless every n >= 1 and spacing and origin are finite with
// spacing > 0; `what` names the caller in the message.
void validateFrame(const LatticeFrame& frame, const char* what);

}  // namespace cf::geometry
