// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/gliding_params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "sim/core/errors.hpp"
#include "sim/core/number_format.hpp"

namespace cf::gliding {

namespace {}  // namespace

// The table of docs/design/gliding.md section 4; every default is the spec's [ASSUMED]
// value with its G line.
const ParamTable& parameterTable() {
    static const ParamTable table = [] {
        using P = GlidingParams;
        constexpr Mutability S = Mutability::Structural;
        constexpr Mutability L = Mutability::Live;
        ParamTableBuilder<P> b;
        // grid (design M2, S1 ran 64^2..256^2 outer, 16^2 or 32^2 inner)
        b.integer("grid", "n", &P::n, 128, 16, 512, "1",
                  "Cells per side of the periodic square (x, y and motor tails r0)", S);
        b.integer("grid", "ninner", &P::ninner, 32, 8, 64, "1",
                  "Cells in filament angle theta and in arclength s (the same; a multiple of 4 "
                  "so that the grid keeps its square symmetry)",
                  S);
        b.real("grid", "lambda", &P::lambda, 0.03125, 1e-3, 0.25, "L",
               "Filament length over domain side", S);
        // fluid (design M2, M4; h_fine is design C8)
        b.real("fluid", "eps", &P::eps, 0.1, 1e-3, 1.0, "1", "Gap aspect ratio H/L", S);
        b.real("fluid", "z0", &P::z0, 5e-4, 1e-5, 0.9, "H", "Height of the filament plane", S);
        b.real("fluid", "h_fine", &P::hFine, 0.0, 0.0, 0.1, "H",
               "z spacing near the filament plane, in [0, min(4 z0, 1)]; 0: z0/8", S);
        b.real("fluid", "growth", &P::growth, 1.15, 1.0, 1.5, "1",
               "Growth ratio of the z spacing above the fine region", S);
        b.real("fluid", "delta_width", &P::deltaWidth, 2.0, 1.0, 8.0, "1",
               "Half-width of the smoothed delta in z, in units of h_fine", S);
        b.real("fluid", "P0", &P::p0, 1.0, 1e-6, 1e6, "1",
               "Pressure coefficient (a Lagrange multiplier; no effect on the velocity)", L);
        b.boolean("fluid", "enabled", &P::fluidEnabled, true,
                  "Solve the thin-gap Stokes flow (off: the dry limit)", L);
        b.integer("fluid", "iterations", &P::fluidIterations, 0, 0, 5, "1",
                  "Fixed-point iterations of the lagged constraint stress; 0: automatic", L);
        // filaments (design M2, M5, M12)
        b.real("filaments", "Vsp", &P::vsp, 0.03125, 0.0, 1.0, "V", "Gliding speed", L);
        b.real("filaments", "Dt", &P::diffT, 2e-4, 0.0, 1.0, "L^2/T",
               "Translational diffusivity along the filament", L);
        b.real("filaments", "Dr", &P::diffR, 0.02, 0.0, 10.0, "1/T", "Rotational diffusivity", L);
        b.real("filaments", "Ur", &P::ur, 0.4, 0.0, 100.0, "1/T",
               "Maier-Saupe alignment strength (rotational)", L);
        // design M2: lambda^2 Ur / 12 at the defaults.
        b.real("filaments", "Ut", &P::ut, 0.03125 * 0.03125 * 0.4 / 12.0, 0.0, 1.0, "L^2/T",
               "Maier-Saupe translational strength (default lambda^2 Ur / 12)", L);
        b.real("filaments", "sigma_f", &P::sigmaF, 0.5, 0.0, 100.0, "1",
               "Constraint (inextensibility) stress coefficient", L);
        b.real("filaments", "sigma_t", &P::sigmaT, 0.2, 0.0, 100.0, "1",
               "Steric stress coefficient", L);
        b.choice("filaments", "steric_reading", &P::stericReading, {"maier_saupe", "strain"},
                 "maier_saupe",
                 "What D in the steric terms is: the nematic moment (Maier-Saupe) or the rate "
                 "of strain at z0 (then sigma_t is taken as 0)",
                 S);
        b.integer("filaments", "advection_order", &P::advectionOrder, 1, 1, 2, "1",
                  "Order of the upwind reconstruction of the filament fluxes", L);
        // motors (design M2, M15)
        b.boolean("motors", "enabled", &P::motorsEnabled, true, "Simulate bound motors", L);
        b.real("motors", "rc", &P::rc, 0.0078125, 1e-4, 0.1, "L",
               "Capture radius (coarse-grained, about one cell)", S);
        b.real("motors", "koff", &P::koff, 2.0, 0.0, 1e3, "1/T", "Unbinding rate", L);
        b.real("motors", "Kon", &P::kon, 4.0, 0.0, 1e4, "1/T",
               "Binding rate of a free motor in a uniform isotropic layer of c = 1", L);
        b.choice("motors", "kon_area", &P::konArea, {"continuous", "discrete"}, "continuous",
                 "Capture area that turns Kon into the per-length rate: pi rc^2, or the area "
                 "the grid actually captures",
                 S);
        b.real("motors", "Mtot", &P::mtot, 1.0, 0.0, 1e3, "m0", "Motors per area at each tail", L);
        b.real("motors", "F", &P::force, -700.0, -1e6, 1e6, "1",
               "Force per bound motor on the fluid (negative: along the gliding direction)", L);
        b.real("motors", "cin", &P::courantIn, 0.5, 0.0, 0.5, "1",
               "Courant number of the motor sub-steps (Superbee is TVD up to 0.5)", L);
        b.choice("motors", "precision", &P::precision, {"float", "double"}, "float",
                 "Arithmetic of bound motors on CUDA (the CPU is double)", S);
        b.real("motors", "burn_in", &P::burnIn, 0.0, 0.0, 100.0, "T",
               "Time the motors run with the initial filaments frozen before t = 0", S);
        b.choice("motors", "placement", &P::motorPlacement, {"backend", "gpu"}, "backend",
                 "Where the bound motors and their force run: with the backend, or on the GPU "
                 "while the CPU backend keeps the filaments and the fluid (Cook & Shinar's hybrid "
                 "placement: Psi up and the force down every outer step; one rank)",
                 S);
        // The CUDA motor kernels' switches (Cook & Shinar ScalA'17 Table 3; docs/GLIDING.md
        // "Kernel switches"): each changes speed, none the model.
        b.boolean("motors", "fast_math", &P::motorFastMath, false,
                  "CUDA: the motor kernels built with --use_fast_math (fused multiply-adds, "
                  "flush to zero): results differ from the CPU by more than the round-off of "
                  "the default build",
                  S);
        b.boolean("motors", "launch_bounds", &P::motorLaunchBounds, false,
                  "CUDA: the sub-cycle kernel built for at most 512 threads and 2 blocks per SM "
                  "(__launch_bounds__), which caps its registers",
                  S);
        b.integer("motors", "block_threads", &P::motorBlockThreads, 0, 0, 1024, "1",
                  "CUDA: threads per block of the sub-cycle kernel, a power of two from 32 (0: "
                  "the size that keeps the most threads resident per SM, from the occupancy "
                  "calculator)",
                  S);
        b.choice("motors", "lane_mapping", &P::motorLaneMapping, {"segments", "strided", "runs"},
                 "runs",
                 "CUDA: adjacent threads on adjacent s-cells of one chord (neighbours by warp "
                 "shuffles), on adjacent chords (neighbours through shared memory), or on "
                 "adjacent stored configurations, no lane idle (the midpoints in shared memory)",
                 S);
        b.choice("motors", "storage", &P::motorStorage, {"chords", "lanes"}, "chords",
                 "CUDA: the order of a tail's bound motors in device memory: each chord's "
                 "s-cells in a row, or lane by lane across the chords (padded to the longest)",
                 S);
        b.choice("motors", "bound_gather", &P::motorBoundGather, {"lists", "staged"}, "lists",
                 "CUDA: the bound gather reads each motor it sums into W along its lane's "
                 "gather list, or first copies the chords a warp needs into shared memory, chord "
                 "by chord (contiguous loads); the same sums in the same order",
                 S);
        // time (design M11, C9)
        b.real("time", "cout", &P::courantOut, 0.4, 0.0, 0.5, "1",
               "Courant number of the outer (filament) step", L);
        b.choice("time", "dt_mode", &P::dtMode, {"cfl", "fixed"}, "cfl",
                 "Outer step from the CFL condition, or fixed at time.dt", L);
        b.real("time", "dt", &P::dt, 0.025, 1e-6, 1.0, "T", "Outer step in fixed mode", L);
        b.real("time", "growth_limit", &P::growthLimit, 1.2, 1.0, 2.0, "1",
               "Largest ratio of one CFL step to the previous", L);
        // initial condition (design M15)
        b.choice("init", "layout", &P::layout,
                 {"ring_lattice", "single_ring", "isotropic", "uniform"}, "ring_lattice",
                 "Initial filament distribution", S);
        b.integer("init", "rings_per_axis", &P::ringsPerAxis, 2, 1, 8, "1",
                  "Rings along each side (ring_lattice)", S);
        b.real("init", "ring_radius", &P::ringRadius, 0.3, 0.01, 0.5, "L", "Ring radius R", S);
        b.real("init", "ring_width", &P::ringWidth, 0.04, 1e-3, 0.2, "L", "Radial width w", S);
        b.real("init", "background", &P::background, 0.3, 0.0, 10.0, "n0",
               "Isotropic background density c_bg", S);
        b.real("init", "kappa", &P::kappa, 4.0, 0.0, 100.0, "1",
               "von Mises concentration of the orientation around the tangent", S);
        b.choice("init", "sense", &P::sense, {"ccw", "cw", "alternating"}, "ccw",
                 "Gliding direction around the rings", S);
        b.real("init", "mean_density", &P::meanDensity, 1.0, 1e-3, 10.0, "n0",
               "Mean filament density (sets the ring amplitude)", S);
        b.real("init", "perturbation", &P::perturbation, 1e-4, 0.0, 0.5, "1",
               "Amplitude of the random low modes (isotropic)", S);
        b.integer("init", "max_mode", &P::maxMode, 4, 1, 32, "1",
                  "Highest wavenumber of the random modes (isotropic)", S);
        b.boolean("output", "profiles", &P::profiles, false,
                  "Offer the vertical flow slice 'flow_profile' (u, v, w over the gap height)", S);
        b.real("output", "profile_y", &P::profileY, 0.5, 0.0, 1.0, "L",
               "Height y of the vertical flow slice (the cell row containing it)", L);
        return b.build();
    }();
    return table;
}

GlidingParams checkedParams(const ParamSet& params) {
    GlidingParams p = params.toStruct<GlidingParams>();
    const auto value = [&](const char* key) { return formatValue(params.get(key)); };
    p.dx = 1.0 / p.n;
    p.dtheta = 2.0 * std::numbers::pi / p.ninner;
    p.ds = 1.0 / p.ninner;
    p.lambdaCells = p.lambda / p.dx;
    p.rcCells = p.rc / p.dx;
    p.konTilde = p.kon / (std::numbers::pi * p.rc * p.rc);
    p.hA = p.hFine > 0.0 ? p.hFine : p.z0 / 8.0;
    p.hDelta = p.deltaWidth * p.hA;
    p.zA = std::min(4.0 * p.z0, 1.0);
    p.neighbourRadius = p.lambda / 2.0 + p.rc + p.dx / std::numbers::sqrt2;

    // Exact rotation tables and the square symmetry of the mask (design 2.1, design M17).
    if (p.ninner % 4 != 0)
        throw ParameterError("gliding: grid.ninner = " + value("grid.ninner") +
                             " must be a multiple of 4 (the orientation grid must map onto "
                             "itself under a quarter turn)");
    // Declared with the design's table but not built yet: refuse them rather than ignore them.
    if (p.advectionOrder != 1)
        throw ParameterError(
            "gliding: filaments.advection_order = " + value("filaments.advection_order") +
            " is not implemented yet; the fluxes are first-order upwind (1)");
    if (p.stericReading != static_cast<std::int32_t>(StericReading::MaierSaupe))
        throw ParameterError(
            "gliding: filaments.steric_reading = " + value("filaments.steric_reading") +
            " is not implemented yet; use maier_saupe");
    if (p.motorBlockThreads != 0 &&
        (p.motorBlockThreads < 32 || (p.motorBlockThreads & (p.motorBlockThreads - 1)) != 0))
        throw ParameterError("gliding: motors.block_threads = " + value("motors.block_threads") +
                             " must be 0 (automatic) or a power of two from 32 to 1024");
    if (p.motorLaunchBounds && p.motorBlockThreads > 512)
        throw ParameterError("gliding: motors.block_threads = " + value("motors.block_threads") +
                             " needs motors.launch_bounds = false: the bounded kernel is built "
                             "for at most 512 threads per block");
    // Range (0, 0.5]: the table's bounds are inclusive.
    if (p.courantIn <= 0.0)
        throw ParameterError("gliding: motors.cin = " + value("motors.cin") +
                             " must lie in (0, 0.5]");
    if (p.courantOut <= 0.0)
        throw ParameterError("gliding: time.cout = " + value("time.cout") +
                             " must lie in (0, 0.5]");
    // A filament whose head reaches a tail's own periodic image would be captured twice.
    if (p.neighbourRadius >= 0.5)
        throw ParameterError(
            "gliding: grid.lambda/2 + motors.rc + dx/sqrt(2) = " +
            formatShort(p.neighbourRadius, 2) + " (grid.lambda = " + value("grid.lambda") +
            ", motors.rc = " + value("motors.rc") + ", grid.n = " + value("grid.n") +
            ") reaches 1/2: filaments would see their own periodic image");
    if (p.hFine > 0.0 && p.hFine > p.zA)
        throw ParameterError("gliding: fluid.h_fine = " + value("fluid.h_fine") +
                             " exceeds the fine region [0, min(4 fluid.z0, 1)] = [0, " +
                             formatShort(p.zA, 2) + "]");
    // The smoothed delta must lie inside the gap and must not reach the bottom wall.
    if (p.z0 + p.hDelta >= 1.0 || p.hDelta > p.z0)
        throw ParameterError("gliding: fluid.delta_width x h_fine = " + formatShort(p.hDelta, 2) +
                             " around fluid.z0 = " + value("fluid.z0") +
                             ": the delta band must lie inside the gap (0, 1)");
    return p;
}

void checkWellPosed(const GlidingParams& p, double cmax) {
    if (p.stericReading != static_cast<std::int32_t>(StericReading::MaierSaupe)) return;
    const double grow = p.ut * cmax;
    if (p.diffT > grow) return;
    throw ParameterError("gliding: filaments.Dt = " + formatShort(p.diffT, 2) +
                         " must exceed filaments.Ut x max c = " + formatShort(p.ut, 2) + " x " +
                         formatShort(cmax, 2) + " = " + formatShort(grow, 2) +
                         ": the Maier-Saupe translational term is anti-diffusive and density "
                         "modes would grow like (Ut c - Dt) k^2; raise filaments.Dt or lower "
                         "filaments.Ut");
}

}  // namespace cf::gliding
