// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim nversion`: the Niederer et al. 2011 N-version benchmark of the cardiac model
// at the chosen resolutions; prints activation times at P1, P8 and P9 per run and writes
// nversion_points.csv, nversion_diagonal.csv and nversion.json.
#include <cmath>
#include <cstdio>

#include "sim/cli/commands.hpp"
#include "sim/cli/terminal.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/models/cardiac/nversion.hpp"

namespace cf::cli {

int runNversionCommand(const NversionOptionsCli& options) {
    std::vector<double> dxs = options.dx, dts = options.dt;
    if (options.all) {
        if (!dxs.empty() || !dts.empty())
            throw ParameterError("nversion: give --all or --dx/--dt, not both");
        dxs = {0.5, 0.2, 0.1};
        dts = {0.05, 0.01, 0.005};
    }
    if (dxs.empty()) dxs = {0.5};
    if (dts.empty()) dts = {0.05};
    // Every resolution is checked before the first run, so a bad one costs no finished run.
    for (double dx : dxs)
        for (double dt : dts) {
            cardiac::NversionOptions o;
            o.dx = dx;
            o.dt = dt;
            cardiac::nversionOverrides(o);  // throws ParameterError naming dx or dt
        }
    const Backend backend = resolveBackend(options.backend, std::nullopt);
    installInterruptHandler();

    std::vector<cardiac::NversionResult> results;
    std::printf("%-7s %-7s %-13s %-6s %9s %9s %9s %9s %9s\n", "dx_mm", "dt_ms", "grid", "real",
                "P1_ms", "P8_ms", "P9_ms", "wall_s", "reset_s");
    int status = kExitOk;
    for (double dx : dxs)
        for (double dt : dts) {
            cardiac::NversionOptions o;
            o.dx = dx;
            o.dt = dt;
            o.precision = options.precision;
            o.integrator = options.integrator;
            o.endTime = options.endTime;
            o.stopWhenActivated = options.untilActivated;
            const bool terminal = stderrIsTerminal();
            o.progress = [&](double t, double /*activated: NaN here*/) {
                if (terminal) std::fprintf(stderr, "\r  dx %.3g dt %.3g: t = %.1f ms ", dx, dt, t);
                return !interruptRequested();
            };
            cardiac::NversionResult r;
            try {
                r = cardiac::runNversion(backend, o);
            } catch (const Error& e) {
                // The other resolutions still run; the exit status reports the failure.
                if (terminal) std::fputs("\n", stderr);
                std::fprintf(stderr, "cellforge-sim: nversion dx %g dt %g: %s\n", dx, dt, e.what());
                if (isBadInput(e)) return kExitBadInput;
                status = kExitRunFailed;
                continue;
            }
            if (terminal) std::fputs("\r\033[K", stderr);
            const auto ms = [](double v) { return std::isfinite(v) ? v : -1.0; };
            char grid[32];
            std::snprintf(grid, sizeof grid, "%dx%dx%d", r.nx, r.ny, r.nz);
            std::printf("%-7g %-7g %-13s %-6s %9.3f %9.3f %9.3f %9.3f %9.3f\n", dx, dt, grid,
                        r.precision == "float" ? "f32" : "f64", ms(r.points[0]), ms(r.points[7]),
                        ms(r.points[8]), r.wallSeconds, r.resetSeconds);
            std::fflush(stdout);
            results.push_back(std::move(r));
            if (interruptRequested()) {
                status = kExitInterrupted;
                break;
            }
        }
    cardiac::writeNversionResults(options.outDir, results);
    std::printf(
        "(-1: not activated) wrote %s/nversion_points.csv, nversion_diagonal.csv, "
        "nversion.json\n",
        options.outDir.c_str());
    return status;
}

}  // namespace cf::cli
