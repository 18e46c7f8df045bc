// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/gliding_model.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>

#include "sim/core/errors.hpp"
#include "sim/core/number_format.hpp"

namespace cf::gliding {

void initialMotorsAndFlow(const GlidingParams& p, RunState& s) {
    const std::size_t anchors = static_cast<std::size_t>(p.n) * p.n;
    s.boundPacked.clear();  // the backends keep the packed motors; snapshots fill it
    s.boundCoarse.assign(anchors, 0.0);
    s.free.assign(anchors, p.mtot);
    for (std::vector<double>* f : {&s.u, &s.v, &s.dudx, &s.dudy, &s.dvdx, &s.dvdy})
        f->assign(anchors, 0.0);
}

namespace {

Field gridField(const char* name, const char* unit, FieldRole role, int components,
                const std::vector<double>& values) {
    return Field::of<double>(name, unit, role, components, std::span<const double>(values));
}

std::vector<double> interleave(std::initializer_list<const std::vector<double>*> parts) {
    const std::size_t k = parts.size(), count = (*parts.begin())->size();
    std::vector<double> out(k * count);
    std::size_t c = 0;
    for (const std::vector<double>* part : parts) {
        for (std::size_t i = 0; i < count; ++i)
            out[k * i + c] = (*part)[i];
        ++c;
    }
    return out;
}

void deinterleave(const std::vector<double>& in,
                  std::initializer_list<std::vector<double>*> parts) {
    const std::size_t k = parts.size(), count = in.size() / k;
    std::size_t c = 0;
    for (std::vector<double>* part : parts) {
        part->resize(count);
        for (std::size_t i = 0; i < count; ++i)
            (*part)[i] = in[k * i + c];
        ++c;
    }
}

}  // namespace

std::vector<StateArray> stateArraysOf(const GlidingParams& p, const GlidingTables& t,
                                      const StatePointers& s, MemorySpace space) {
    const auto cells = static_cast<std::size_t>(p.n) * static_cast<std::size_t>(p.n);
    std::vector<StateArray> out;
    out.push_back(stateArray("psi", "n0",
                             "Filament density per cell and direction ([iy * n + ix], theta "
                             "fastest)",
                             s.psi, cells, space, t.ntheta)
                      .holds("psi"));
    const auto motors = [&](const char* name, const char* description, const void* data) {
        StateArray a = s.motorsDouble ? stateArray(name, "m0", description,
                                                   static_cast<const double*>(data), cells, space)
                                      : stateArray(name, "m0", description,
                                                   static_cast<const float*>(data), cells, space);
        out.push_back(a.holds(name));
    };
    motors("bound_motors", "Bound motors per anchor, summed over their tails", s.boundCoarse);
    motors("free_motors", "Free motors per anchor", s.free);
    if (s.u && s.v) {
        out.push_back(stateArray("flow.u", "V", "Flow at the filament plane, x", s.u, cells, space)
                          .holds("flow", 0));
        out.push_back(stateArray("flow.v", "V", "Flow at the filament plane, y", s.v, cells, space)
                          .holds("flow", 1));
    }
    return out;
}

Snapshot makeSnapshot(const GlidingParams& p, const GlidingTables& t, const RunState& s) {
    Snapshot snap;
    snap.step = s.step;
    snap.time = s.time;
    snap.timeUnit = kTimeUnit;
    for (int a = 0; a < 3; ++a)
        snap.boxLo[a] = 0.0;
    snap.boxHi[0] = snap.boxHi[1] = 1.0;
    snap.boxHi[2] = p.dx;
    snap.gridDims[0] = snap.gridDims[1] = static_cast<std::size_t>(p.n);
    snap.gridDims[2] = 1;
    // Psi per cell with Ntheta components (theta fastest), then the fields a user plots.
    snap.fields.push_back(gridField("psi", "n0", FieldRole::Grid, t.ntheta, s.filaments.psi));
    snap.fields.push_back(gridField("density", "n0", FieldRole::Grid, 1, density(s.filaments, t)));
    snap.fields.push_back(gridField("bound_motors", "m0", FieldRole::Grid, 1, s.boundCoarse));
    snap.fields.push_back(gridField("free_motors", "m0", FieldRole::Grid, 1, s.free));
    snap.fields.push_back(gridField("flow", "V", FieldRole::Grid, 2, interleave({&s.u, &s.v})));
    // What a restart needs besides: the AB2 history and the packed bound motors (hundreds
    // of MB at 128^2), in checkpoints only.
    snap.fields.push_back(
        gridField("ab2_history", "n0/T", FieldRole::RestartOnly, t.ntheta,
                  s.aPrev.empty() ? std::vector<double>(s.filaments.psi.size()) : s.aPrev));
    const std::vector<double> scalars = {s.dtPrev, static_cast<double>(s.ab2Steps)};
    snap.fields.push_back(gridField("ab2_step", "T", FieldRole::RestartOnly, 2, scalars));
    snap.fields.push_back(
        gridField("bound_packed", "m0", FieldRole::RestartOnly, 1, s.boundPacked));
    snap.fields.push_back(gridField("flow_gradient", "1/T", FieldRole::RestartOnly, 4,
                                    interleave({&s.dudx, &s.dudy, &s.dvdx, &s.dvdy})));
    return snap;
}

namespace {

std::vector<double> takeField(const Snapshot& snap, const char* name, std::size_t count,
                              int components) {
    const Field& f = snap.at(name);
    if (f.count != count || f.components != components)
        throw IoError("gliding: snapshot field '" + std::string(name) + "' has " +
                      std::to_string(f.count) + " x " + std::to_string(f.components) +
                      " values, this run needs " + std::to_string(count) + " x " +
                      std::to_string(components) + " (grid.n, grid.ninner or motors.rc differ)");
    return f.as<double>();
}

}  // namespace

RunState readSnapshot(const GlidingParams& p, const GlidingTables& t, const Snapshot& snap,
                      std::size_t packedAnchors) {
    const std::size_t cells = static_cast<std::size_t>(p.n) * p.n;
    if (packedAnchors == 0) packedAnchors = cells;
    RunState s;
    s.filaments.n = p.n;
    s.filaments.ntheta = t.ntheta;
    s.filaments.psi = takeField(snap, "psi", cells, t.ntheta);
    s.aPrev = takeField(snap, "ab2_history", cells, t.ntheta);
    const std::vector<double> scalars = takeField(snap, "ab2_step", 1, 2);
    s.dtPrev = scalars[0];
    s.ab2Steps = static_cast<std::int64_t>(scalars[1]);
    s.boundCoarse = takeField(snap, "bound_motors", cells, 1);
    s.free = takeField(snap, "free_motors", cells, 1);
    s.boundPacked =
        takeField(snap, "bound_packed", packedAnchors * static_cast<std::size_t>(t.sliceSize), 1);
    deinterleave(takeField(snap, "flow", cells, 2), {&s.u, &s.v});
    deinterleave(takeField(snap, "flow_gradient", cells, 4), {&s.dudx, &s.dudy, &s.dvdx, &s.dvdy});
    s.step = snap.step;
    s.time = snap.time;
    return s;
}

std::vector<Metric> stateMetrics(const GlidingParams& p, const GlidingTables& t,
                                 const RunState& s) {
    const std::vector<double> c = density(s.filaments, t);
    const auto [cmin, cmax] = std::minmax_element(c.begin(), c.end());
    const auto psiMin = std::min_element(s.filaments.psi.begin(), s.filaments.psi.end());
    double bound = 0, speed = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
        bound += s.boundCoarse[i];
        speed = std::max(speed, std::hypot(s.u[i], s.v[i]));
    }
    const double anchors = static_cast<double>(c.size());
    return {
        {"filament number", "n0 L^2", filamentNumber(s.filaments, t),
         "Filaments in the domain: the density integrated over the plane (conserved without "
         "the fluid)"},
        {"max density", "n0", *cmax, "Highest filament density of a grid cell"},
        {"min density", "n0", *cmin, "Lowest filament density of a grid cell"},
        {"min psi", "n0", *psiMin,
         "Lowest value of the orientation distribution Psi (negative: the scheme undershoots)"},
        {"bound fraction", "1", p.mtot > 0 ? bound / (anchors * p.mtot) : 0.0,
         "Share of the motors that are bound to a filament"},
        {"max flow speed", "V", speed, "Largest fluid speed in the filament plane"},
        {"dt", kTimeUnit, s.dtPrev, "Time step of the last step (adaptive)"},
    };
}

void appendStageTimes(std::vector<Metric>& out, const StageSeconds& seconds, std::uint64_t steps) {
    static constexpr const char* kNames[] = {"time filaments", "time motors", "time force",
                                             "time fluid"};
    for (int i = 0; i < static_cast<int>(Stage::Count); ++i)
        out.push_back({kNames[i], "ms/step",
                       steps > 0 ? 1e3 * seconds[i] / static_cast<double>(steps) : 0.0,
                       "Wall time per step of this stage over the last batch (performance)"});
}

std::string checkLag(const GlidingParams& p, double g) {
    if (!p.fluidEnabled || !(g > 0.5)) return {};
    if (g >= 1.0)
        throw ParameterError(
            "gliding: the lagged constraint stress grows by g = " + formatShort(g, 3) +
            " per fluid pass (filaments.sigma_f = " + formatShort(p.sigmaF, 3) +
            ", fluid.eps = " + formatShort(p.eps, 3) + ", fluid.z0 = " + formatShort(p.z0, 3) +
            ", grid.n = " + std::to_string(p.n) +
            "); it must stay below 1: lower filaments.sigma_f or init.mean_density, or use a "
            "coarser grid.n");
    return "gliding: the lagged constraint stress shrinks only by g = " + formatShort(g, 3) +
           " per fluid pass; " +
           (p.fluidIterations == 0 ? std::string("3 passes per step (fluid.iterations = auto)")
                                   : std::to_string(p.fluidIterations) + " passes per step");
}

std::string antiDiffusionNote(const GlidingParams& p, std::uint64_t step, double cmax) {
    if (p.stericReading != static_cast<std::int32_t>(StericReading::MaierSaupe) || p.ut <= 0)
        return {};
    return "gliding: step " + std::to_string(step) + ": max c = " + formatShort(cmax, 3) +
           " exceeds filaments.Dt / filaments.Ut = " + formatShort(p.diffT / p.ut, 3) +
           "; the density equation is ill-posed here (docs/design/gliding.md, §M5)";
}

void GlidingModelBase::requireReset() const {
    if (!params_) throw SimulationError("gliding: the model has not been reset");
}

void GlidingModelBase::checkFixedStep(double limit) const {
    if (limit >= p_.dt) return;
    throw SimulationError("gliding: step " + std::to_string(s_.step) +
                          ": time.dt = " + formatShort(p_.dt, 3) + " exceeds the advective limit " +
                          formatShort(limit, 3) +
                          " (time.cout / CFL rate); lower time.dt or use time.dt_mode = cfl");
}

void GlidingModelBase::checkSummaryFinite() const {
    const auto check = [&](const std::vector<double>& values, const char* name, int per) {
        for (std::size_t i = 0; i < values.size(); ++i)
            if (!std::isfinite(values[i])) {
                const std::size_t cell = i / static_cast<std::size_t>(per);
                throw SimulationError(
                    "gliding: step " + std::to_string(s_.step) + ": " + name + " is " +
                    formatShort(values[i], 3) + " at cell (" +
                    std::to_string(cell % static_cast<std::size_t>(p_.n)) + ", " +
                    std::to_string(cell / static_cast<std::size_t>(p_.n)) + ")" +
                    (per > 1 ? ", theta index " + std::to_string(i % per) : std::string()));
            }
    };
    check(s_.filaments.psi, "psi", t_.ntheta);
    check(s_.boundCoarse, "bound_motors", 1);
    check(s_.free, "free_motors", 1);
    check(s_.u, "flow u", 1);
    check(s_.v, "flow v", 1);
}

void GlidingModelBase::checkStepSize(double dt) const {
    if (dt >= 1e-8) return;
    throw SimulationError("gliding: step " + std::to_string(s_.step) +
                          ": the outer step collapsed to " + formatShort(dt, 3) +
                          " T: the state is blowing up");
}

void GlidingModelBase::setLiveParameters(const ParamSet& params) {
    requireReset();
    ParamSet merged = withLiveValues(*params_, params);
    GlidingParams p = checkedParams(merged);
    (void)applyTables(p, t_);  // kon~ for kon_area = discrete; the note came at reset
    uploadLiveParameters(p);   // may throw: nothing is committed yet
    // The commit cannot throw, so a failed edit changes nothing.
    static_assert(std::is_nothrow_move_assignable_v<ParamSet>);
    *params_ = std::move(merged);
    p_ = p;
}

void GlidingModelBase::advance(std::uint64_t steps) {
    requireReset();
    stageSeconds_ = {};
    stageSteps_ = 0;
    for (std::uint64_t i = 0; i < steps; ++i)
        outerStep();
}

std::vector<Metric> GlidingModelBase::metricsOf(std::int32_t substepsMax,
                                                std::int64_t clampCount) const {
    std::vector<Metric> m = stateMetrics(p_, t_, s_);
    m.push_back({"motor substeps (max)", "1", static_cast<double>(substepsMax),
                 "Most motor sub-steps one anchor took in the last step"});
    m.push_back({"motor clamps", "1", static_cast<double>(clampCount),
                 "Motor states clamped to stay non-negative, since the start (cumulative)"});
    appendStageTimes(m, stageSeconds_, stageSteps_);
    return m;
}

std::vector<Metric> GlidingModelBase::metricsOverRanks(dist::Communicator& comm,
                                                       std::int32_t substepsMax,
                                                       std::int64_t clampCount) {
    std::vector<double> most = {static_cast<double>(substepsMax)};
    most.insert(most.end(), stageSeconds_.begin(), stageSeconds_.end());
    comm.allreduce(std::span<double>(most), dist::ReduceOp::Max);
    std::uint64_t clamps = static_cast<std::uint64_t>(clampCount);
    comm.allreduce(std::span<std::uint64_t>(&clamps, 1), dist::ReduceOp::Sum);
    const StageSeconds mine = stageSeconds_;
    std::copy(most.begin() + 1, most.end(), stageSeconds_.begin());
    std::vector<Metric> out =
        metricsOf(static_cast<std::int32_t>(most[0]), static_cast<std::int64_t>(clamps));
    stageSeconds_ = mine;
    return out;
}

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "gliding";
    d.description =
        "Micro-macro gliding motility assay: filament density Psi(x, theta) with motors bound "
        "per anchor and the thin-gap Stokes flow they drive (Cook & Shinar, ScalA'17)";
    d.timeUnit = kTimeUnit;
    d.parameters = &parameterTable;
    d.backends = {Backend::Cpu, Backend::Cuda};
    d.benchCases = benchCases();
    d.create = [](Backend b) {
        return createOnBackend("gliding", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    d.validate = [](const ParamSet& params) {
        GlidingParams p = checkedParams(params);
        (void)buildTables(p);
    };
    return d;
}

}  // namespace cf::gliding
