// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the `gliding` tests: checked parameters from assignments, field norms,
// random fields and the quarter turn of the square symmetry (design M17).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/models/gliding/gliding_params.hpp"

namespace cf::gliding::test {

// The defaults with `assignments` ("group.name=value") applied, checked.
inline GlidingParams params(std::initializer_list<std::string> assignments) {
    ParamSet set(parameterTable());
    for (const std::string& a : assignments)
        set.setFromAssignment(a);
    return checkedParams(set);
}

inline double maxAbs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v)
        m = std::max(m, std::fabs(x));
    return m;
}

inline double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
    double m = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        m = std::max(m, std::fabs(a[i] - b[i]));
    return m;
}

// Uniform in [-1, 1].
inline std::vector<double> randomField(std::size_t n, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> v(n);
    for (double& x : v)
        x = d(rng);
    return v;
}

// The quarter turn about the domain centre: (x, y, theta) -> (-y, x, theta + pi/2), i.e.
// cell (ix, iy, j) -> (n-1-iy, ix, j + nt/4); nt = 1 for fields per cell.
inline std::vector<double> quarterTurn(const std::vector<double>& f, int n, int nt) {
    std::vector<double> g(f.size());
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix)
            for (int j = 0; j < nt; ++j)
                g[(static_cast<std::size_t>(ix) * n + (n - 1 - iy)) * nt + (j + nt / 4) % nt] =
                    f[(static_cast<std::size_t>(iy) * n + ix) * nt + j];
    return g;
}

}  // namespace cf::gliding::test
