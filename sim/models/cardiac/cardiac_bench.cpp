// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench cardiac`: cell-steps per second of the bundled model at 10^6
// uncoupled cells in float and double (docs/design/cardiac.md section 11), and a coupled
// 512 x 512 sheet, and the Niederer et al. 2011 N-version benchmark at its nine resolutions
// (wall time of 150 ms simulated, after the reset that compiles the kernel).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/bench.hpp"
#include "sim/core/number_format.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/nversion.hpp"

namespace cf::cardiac {

namespace {

// How a `cells` case differs from the model's defaults; `suffix` ends the case's name.
struct CellsVariant {
    std::string suffix;
    std::string description;        // what the variant changes, for the case's description
    std::vector<std::string> sets;  // its parameter assignments
    bool byDefault = false;         // in the default set (the model's own case always is)
};

// 10^6 uncoupled cells of a bundled model (`model`, `states` of them) in `precision`, with
// the variant's settings. Most variants compare the generator's options and methods
// (docs/CARDIAC.md) and are not in the default set.
BenchCase cells(const std::string& model, int states, const char* precision,
                const CellsVariant& variant = {}) {
    BenchCase c;
    std::string shortName = model;
    std::replace(shortName.begin(), shortName.end(), '_', '-');
    c.name = "cells-" + shortName + "-" + (std::string(precision) == "float" ? "f32" : "f64") +
             variant.suffix;
    c.description = "10^6 (CPU: 10^4) uncoupled " + model + " cells (" + std::to_string(states) +
                    " states), " + precision +
                    ", dt 0.01 ms, every cell stimulated; one repeat = 100 steps";
    if (!variant.description.empty()) c.description += ", " + variant.description;
    c.runByDefault = variant.suffix.empty() || variant.byDefault;
    c.run = [model, states, precision, variant](Backend b, const BenchOptions& o) {
        // 10^6 cells on the GPU; 10^4 on the CPU, whose interpreter takes 1e5-1e6 cell-steps
        // per second (10^6 cells would take hours there).
        const double full = b == Backend::Cpu ? 100.0 : 1000.0;
        const int side = std::max(10, static_cast<int>(std::lround(full * std::sqrt(o.scale))));
        std::vector<std::string> overrides = {"tissue.nx=" + std::to_string(side),
                                              "tissue.ny=" + std::to_string(side),
                                              "tissue.diffusion_long=0",
                                              "tissue.diffusion_trans=0",
                                              "time.dt=0.01",
                                              "protocol.region=all",
                                              std::string("model.precision=") + precision,
                                              "model.bundled=" + model,
                                              "protocol.amplitude=-52"};
        overrides.insert(overrides.end(), variant.sets.begin(), variant.sets.end());
        const auto n = static_cast<std::uint64_t>(side) * static_cast<std::uint64_t>(side);
        BenchResult r = benchModelSteps(descriptor(), b, overrides, n, 10, 100, o);
        r.note = "entity_steps_per_s = cell-steps per second; " + std::to_string(states) +
                 " states read and written per cell-step";
        r.bytesPerStep =
            2.0 * states * (std::string(precision) == "float" ? 4.0 : 8.0) * static_cast<double>(n);
        return r;
    };
    return c;
}

// The variants of ten Tusscher 2006 that the generator's tables compare (docs/CARDIAC.md):
// fast math, lookup tables, each arithmetic rewrite alone, the integrators, shared memory.
std::vector<CellsVariant> tenTusscherVariants() {
    std::vector<CellsVariant> out = {
        {"-fastmath", "--use_fast_math", {"model.fast_math=true"}, true},
        {"-lut", "lookup tables over V (model.lookup)", {"model.lookup=true"}, true},
    };
    for (const char* a : {"as_written", "hoist", "division", "phi1", "rewritten"}) {
        std::string suffix = std::string("-") + a;
        suffix.erase(std::remove(suffix.begin(), suffix.end(), '_'), suffix.end());
        out.push_back(
            {suffix, std::string("model.arithmetic=") + a, {std::string("model.arithmetic=") + a}});
    }
    out.push_back({"-grl1", "every state by grl1", {"model.integrator=grl1"}});
    out.push_back({"-be", "every state by backward_euler", {"model.integrator=backward_euler"}});
    out.push_back({"-shared", "states in shared memory", {"model.state_storage=shared"}});
    return out;
}

BenchCase sheet() {
    BenchCase c;
    c.name = "sheet-512-f32";
    c.description = "512 x 512 Aliev-Panfilov sheet, float, plane wave; one repeat = 100 steps";
    c.run = [](Backend b, const BenchOptions& o) {
        const int side = std::max(16, static_cast<int>(std::lround(512.0 * std::sqrt(o.scale))));
        const std::vector<std::string> overrides = {"tissue.nx=" + std::to_string(side),
                                                    "tissue.ny=" + std::to_string(side),
                                                    "model.precision=float"};
        const auto n = static_cast<std::uint64_t>(side) * static_cast<std::uint64_t>(side);
        BenchResult r = benchModelSteps(descriptor(), b, overrides, n, 10, 100, o);
        r.note = "cell step, one diffusion sub-step, activation check per step";
        return r;
    };
    return c;
}

// One repeat is the whole run from t = 0 to 150 ms; the median of at most 3 repeats (each
// takes seconds at dx 0.1 mm) after one warm-up run.
BenchCase nversion(double dx, double dt) {
    BenchCase c;
    c.name = "nversion-dx" + formatShort(dx) + "-dt" + formatShort(dt);
    c.description = "Niederer 2011 N-version benchmark, dx " + formatShort(dx) + " mm, dt " +
                    formatShort(dt) +
                    " ms, 150 ms simulated, ten Tusscher 2006 epi, gates Rush-Larsen, " +
                    "float on CUDA (double on the CPU); one repeat = the whole run";
    c.runByDefault = dx >= 0.5;
    c.run = [dx, dt](Backend b, const BenchOptions& o) {
        NversionOptions options;
        options.dx = dx;
        options.dt = dt;
        options.endTime = NversionProblem::simulatedTime * std::min(1.0, o.scale);
        BenchResult r;
        r.backend = b;
        NversionResult last;
        std::vector<double> walls;  // the run alone, without the reset
        timeRepeats(r, std::min(o.repeats, 3), [&] {
            last = runNversion(b, options);
            walls.push_back(last.wallSeconds);
        });
        walls.erase(walls.begin());  // the warm-up run
        std::sort(walls.begin(), walls.end());
        const std::size_t n = walls.size();
        r.minSeconds = walls.front();
        r.maxSeconds = walls.back();
        r.medianSeconds = n % 2 ? walls[n / 2] : 0.5 * (walls[n / 2 - 1] + walls[n / 2]);
        r.entities = static_cast<std::uint64_t>(last.nx) * last.ny * last.nz;
        r.stepsPerRepeat = last.steps;
        char note[256];
        std::snprintf(note, sizeof note,
                      "activation P1 %.3f, P8 %.3f, P9 %.3f ms; reset (compiles the kernel) "
                      "%.2f s",
                      last.points[0], last.points[7], last.points[8], last.resetSeconds);
        r.note = note;
        return r;
    };
    return c;
}

}  // namespace

std::vector<BenchCase> benchCases() {
    // Every bundled model in float and double (the table), TP06 with fast math, the
    // coupled sheet, then the N-version runs.
    std::vector<BenchCase> out;
    for (const std::string& name : bundledModelNames()) {
        const int states =
            static_cast<int>(compileModel(bundledModelSource(name), name + ".cfm").states.size());
        out.push_back(cells(name, states, "float"));
        out.push_back(cells(name, states, "double"));
        if (name == "tentusscher_2006")
            for (const CellsVariant& v : tenTusscherVariants())
                for (const char* precision : {"float", "double"})
                    if ((v.suffix != "-fastmath" && v.suffix != "-division") ||
                        std::string(precision) == "float")
                        out.push_back(cells(name, states, precision, v));
    }
    out.push_back(sheet());
    for (double dx : {0.5, 0.2, 0.1})
        for (double dt : {0.05, 0.01, 0.005})
            out.push_back(nversion(dx, dt));
    return out;
}

}  // namespace cf::cardiac
