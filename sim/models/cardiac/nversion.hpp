// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Niederer et al. 2011 N-version benchmark (Phil Trans R Soc A 369:4331,
// docs/design/cardiac.md section 10): a 20 x 7 x 3 mm slab of ten Tusscher 2006 epicardial
// cells, fibres along x, monodomain conductivities 0.1334177 / 0.0176062 S/m (the harmonic
// means of the intra- and extracellular ones), chi = 140 /mm, Cm = 0.01 uF/mm^2, a 50 uA/mm^3
// stimulus for 2 ms in the 1.5 mm corner cube, activation at the first 0 mV crossing. Runs at
// any dx and dt on either backend and reports activation times at the points P1..P9 and
// along the P1-P8 diagonal.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/core/backend.hpp"

namespace cf::cardiac {

// The problem's constants (mm, ms, mV, A/F).
struct NversionProblem {
    static constexpr double lengthX = 20.0, lengthY = 7.0, lengthZ = 3.0;  // mm
    static constexpr double chi = 140.0;                                   // 1/mm
    static constexpr double capacitance = 0.01;                            // uF/mm^2
    static constexpr double sigmaLong = 0.1334177215;                      // S/m
    static constexpr double sigmaTrans = 0.0176061776;                     // S/m
    static constexpr double stimulusCurrent = 50.0;                        // uA/mm^3
    static constexpr double stimulusDuration = 2.0;                        // ms
    static constexpr double stimulusCube = 1.5;                            // mm
    static constexpr double simulatedTime = 150.0;                         // ms
    // D = sigma / (chi Cm): S/m = mS/mm, so mS/mm / (1/mm uF/mm^2) = mm^2/ms.
    static constexpr double diffusionLong() { return sigmaLong / (chi * capacitance); }
    static constexpr double diffusionTrans() { return sigmaTrans / (chi * capacitance); }
    // The stimulus per unit capacitance, negative (depolarising) as the model expects it.
    static constexpr double stimulusAmplitude() { return -stimulusCurrent / (chi * capacitance); }
};

struct NversionOptions {
    double dx = 0.5;                      // mm
    double dt = 0.05;                     // ms
    std::string precision = "float";      // of the CUDA kernel; the CPU is double
    std::string integrator = "declared";  // model.integrator: gates Rush-Larsen, others FE
    double endTime = NversionProblem::simulatedTime;  // ms
    // Stop as soon as every node has activated (tests); the benchmark runs to endTime.
    bool stopWhenActivated = false;
    // Called about every ms of simulated time with (time, activated fraction: NaN unless
    // stopWhenActivated, which reads the map back); return false to stop (the result then
    // reports the time reached).
    std::function<bool(double, double)> progress;
};

struct NversionResult {
    double dx = 0, dt = 0;
    int nx = 0, ny = 0, nz = 0;
    Backend backend = Backend::Cpu;
    std::string precision, integrator;
    double simulatedTime = 0;  // ms reached
    double wallSeconds = 0;    // from after reset to the end (the model compiled already)
    double resetSeconds = 0;   // reset, which includes the kernel's compilation on CUDA
    std::uint64_t steps = 0;
    // P1..P9 (fenicsx-beat numbering: P1 (0,0,0), P2 (0,7,0), P3 (20,0,0), P4 (20,7,0),
    // P5 (0,0,3), P6 (0,7,3), P7 (20,0,3), P8 (20,7,3), P9 (10,3.5,1.5)), ms; NaN where
    // the tissue around the point has not activated.
    std::array<double, 9> points{};
    // Activation along the P1-P8 diagonal at `diagonalSamples` equally spaced points.
    std::vector<double> diagonal;
};

inline constexpr int kDiagonalSamples = 201;

// The point P(k+1) in mm.
std::array<double, 3> nversionPoint(int k);
// Nodes along each axis of the vertex-centred grid at spacing dx (L / dx + 1).
std::array<int, 3> nversionGrid(double dx);
// The parameter assignments ("group.name=value") that set up the problem.
std::vector<std::string> nversionOverrides(const NversionOptions& options);
// Trilinear interpolation of a node field (x fastest) at a point in mm; NaN when any of
// the eight surrounding nodes is negative (not activated).
double sampleActivation(const std::vector<double>& field, const std::array<int, 3>& n, double dx,
                        const std::array<double, 3>& point);

// Runs the benchmark; throws Error (bad options, a non-finite state, no such backend).
NversionResult runNversion(Backend backend, const NversionOptions& options);

// nversion_points.csv (dx, dt, point, x, y, z, activation), nversion_diagonal.csv
// (dx, dt, s, distance, activation) and nversion.json (everything, with the wall times) in
// `dir`, created if missing. Throws IoError naming the file.
void writeNversionResults(const std::string& dir, const std::vector<NversionResult>& results);

}  // namespace cf::cardiac
