// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A closed axis-aligned box as a Wavefront OBJ file (outward faces), for tests that shape a
// tissue or a lattice with a mesh.
#include <fstream>
#include <string>

namespace cf::test {

inline void writeBoxObj(const std::string& path, const double lo[3], const double hi[3]) {
    std::ofstream out(path);
    for (int c = 0; c < 8; ++c)
        out << "v " << (c & 1 ? hi[0] : lo[0]) << ' ' << (c & 2 ? hi[1] : lo[1]) << ' '
            << (c & 4 ? hi[2] : lo[2]) << '\n';
    // Outward faces of the cube with vertices numbered by bits (x, y, z) + 1.
    out << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
}

}  // namespace cf::test
