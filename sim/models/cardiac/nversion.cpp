// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/nversion.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/core/model.hpp"
#include "sim/core/params.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"

namespace cf::cardiac {

namespace {

using Clock = std::chrono::steady_clock;

std::string number(double v) {
    std::ostringstream s;
    s.precision(10);
    s << v;
    return s.str();
}

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

std::vector<double> activationField(const Snapshot& s) {
    const Field& f = s.at("activation_time");
    if (f.type == ScalarType::F64) return f.as<double>();
    const std::vector<float> single = f.as<float>();
    return {single.begin(), single.end()};
}

double metric(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& m : metrics)
        if (m.name == name) return m.value;
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

std::array<double, 3> nversionPoint(int k) {
    using P = NversionProblem;
    static const std::array<std::array<double, 3>, 9> points = {
        {{0, 0, 0},
         {0, P::lengthY, 0},
         {P::lengthX, 0, 0},
         {P::lengthX, P::lengthY, 0},
         {0, 0, P::lengthZ},
         {0, P::lengthY, P::lengthZ},
         {P::lengthX, 0, P::lengthZ},
         {P::lengthX, P::lengthY, P::lengthZ},
         {0.5 * P::lengthX, 0.5 * P::lengthY, 0.5 * P::lengthZ}}};
    return points.at(static_cast<std::size_t>(k));
}

std::array<int, 3> nversionGrid(double dx) {
    using P = NversionProblem;
    if (!(dx > 0.0) || !std::isfinite(dx))
        throw ParameterError("N-version benchmark: dx must be positive (dx = " + number(dx) +
                             " mm)");
    const double lengths[3] = {P::lengthX, P::lengthY, P::lengthZ};
    std::array<int, 3> n{};
    for (int a = 0; a < 3; ++a) {
        const double cells = lengths[a] / dx;
        // The slab must be a whole number of cells: 20, 7 and 3 mm at 0.5, 0.2, 0.1 mm are.
        if (std::fabs(cells - std::round(cells)) > 1e-6 * cells)
            throw ParameterError("N-version benchmark: dx = " + number(dx) +
                                 " mm does not divide the 20 x 7 x 3 mm slab into whole cells");
        n[static_cast<std::size_t>(a)] = static_cast<int>(std::lround(cells)) + 1;
    }
    return n;
}

std::vector<std::string> nversionOverrides(const NversionOptions& o) {
    using P = NversionProblem;
    if (!(o.dx > 0.0) || !(o.dt > 0.0))
        throw ParameterError("N-version benchmark: dx and dt must be positive (dx = " +
                             number(o.dx) + " mm, dt = " + number(o.dt) + " ms)");
    const std::array<int, 3> n = nversionGrid(o.dx);
    return {"model.bundled=tentusscher_2006",
            "model.precision=" + o.precision,
            "model.integrator=" + o.integrator,
            "time.dt=" + number(o.dt),
            "tissue.nx=" + std::to_string(n[0]),
            "tissue.ny=" + std::to_string(n[1]),
            "tissue.nz=" + std::to_string(n[2]),
            "tissue.dx=" + number(o.dx),
            "tissue.diffusion_long=" + number(P::diffusionLong()),
            "tissue.diffusion_trans=" + number(P::diffusionTrans()),
            "tissue.fibre_axis=x",
            "protocol.start=0",
            "protocol.cycle_length=0",
            "protocol.duration=" + number(P::stimulusDuration),
            "protocol.amplitude=" + number(P::stimulusAmplitude()),
            "protocol.beats=1",
            "protocol.region=corner",
            "protocol.region_size=" + number(P::stimulusCube),
            "activation.threshold=0"};
}

double sampleActivation(const std::vector<double>& field, const std::array<int, 3>& n, double dx,
                        const std::array<double, 3>& point) {
    return sampleNodes(field, n.data(), dx, point.data(), true);
}

NversionResult runNversion(Backend backend, const NversionOptions& o) {
    NversionResult r;
    r.dx = o.dx;
    r.dt = o.dt;
    r.backend = backend;
    r.precision = backend == Backend::Cpu ? "double" : o.precision;
    r.integrator = o.integrator;
    const std::array<int, 3> n = nversionGrid(o.dx);
    r.nx = n[0];
    r.ny = n[1];
    r.nz = n[2];

    const ModelDescriptor d = descriptor();
    ParamSet params(d.parameters());
    for (const std::string& assignment : nversionOverrides(o))
        params.setFromAssignment(assignment);
    std::unique_ptr<Model> model = d.create(backend);
    auto t0 = Clock::now();
    model->reset(params, 1u);
    model->synchronize();
    r.resetSeconds = seconds(t0);

    const auto totalSteps = static_cast<std::uint64_t>(std::llround(o.endTime / o.dt));
    // Batches of about 1 ms of simulated time between progress reports and activation checks
    // (a check reads the activation map back: only when asked to stop once all activated).
    const std::uint64_t batch = std::max<std::uint64_t>(1, std::llround(1.0 / o.dt));
    const bool check = o.stopWhenActivated || static_cast<bool>(o.progress);
    t0 = Clock::now();
    std::uint64_t done = 0;
    while (done < totalSteps) {
        const std::uint64_t k = check ? std::min(batch, totalSteps - done) : totalSteps - done;
        model->advance(k);
        done += k;
        if (!check) continue;
        const double activated = o.stopWhenActivated ? metric(model->metrics(), "activated")
                                                     : std::numeric_limits<double>::quiet_NaN();
        if (o.progress && !o.progress(model->time(), activated)) break;
        if (o.stopWhenActivated && activated >= 1.0) break;
    }
    model->synchronize();
    r.wallSeconds = seconds(t0);
    model->checkFinite();
    r.steps = done;
    r.simulatedTime = model->time();

    const std::vector<double> field = activationField(model->snapshot());
    for (int k = 0; k < 9; ++k)
        r.points[static_cast<std::size_t>(k)] = sampleActivation(field, n, o.dx, nversionPoint(k));
    const std::array<double, 3> far = nversionPoint(7);
    r.diagonal.resize(kDiagonalSamples);
    for (int s = 0; s < kDiagonalSamples; ++s) {
        const double f = static_cast<double>(s) / (kDiagonalSamples - 1);
        r.diagonal[static_cast<std::size_t>(s)] =
            sampleActivation(field, n, o.dx, {f * far[0], f * far[1], f * far[2]});
    }
    return r;
}

void writeNversionResults(const std::string& dir, const std::vector<NversionResult>& results) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw IoError("cannot create '" + dir + "': " + ec.message());
    const auto open = [&](const std::string& name) {
        const std::string path = (std::filesystem::path(dir) / name).string();
        std::ofstream out(path);
        if (!out) throw IoError("cannot write '" + path + "'");
        out.precision(8);
        return std::make_pair(std::move(out), path);
    };
    const auto finish = [](std::ofstream& out, const std::string& path) {
        out.close();
        if (!out) throw IoError("error while writing '" + path + "'");
    };
    const std::array<double, 3> far = nversionPoint(7);
    const double diagonalLength = std::sqrt(far[0] * far[0] + far[1] * far[1] + far[2] * far[2]);
    const auto csvValue = [](double v) { return std::isfinite(v) ? number(v) : std::string(""); };

    auto [points, pointsPath] = open("nversion_points.csv");
    points << "dx_mm,dt_ms,point,x_mm,y_mm,z_mm,activation_ms\n";
    auto [diag, diagPath] = open("nversion_diagonal.csv");
    diag << "dx_mm,dt_ms,s,distance_mm,activation_ms\n";
    nlohmann::json runs = nlohmann::json::array();
    for (const NversionResult& r : results) {
        nlohmann::json pj = nlohmann::json::object();
        for (int k = 0; k < 9; ++k) {
            const std::array<double, 3> p = nversionPoint(k);
            const double t = r.points[static_cast<std::size_t>(k)];
            points << number(r.dx) << ',' << number(r.dt) << ",P" << k + 1 << ',' << p[0] << ','
                   << p[1] << ',' << p[2] << ',' << csvValue(t) << '\n';
            pj["P" + std::to_string(k + 1)] = std::isfinite(t) ? nlohmann::json(t) : nullptr;
        }
        nlohmann::json dj = nlohmann::json::array();
        for (std::size_t s = 0; s < r.diagonal.size(); ++s) {
            const double f = static_cast<double>(s) / static_cast<double>(r.diagonal.size() - 1);
            diag << number(r.dx) << ',' << number(r.dt) << ',' << f << ',' << f * diagonalLength
                 << ',' << csvValue(r.diagonal[s]) << '\n';
            dj.push_back(std::isfinite(r.diagonal[s]) ? nlohmann::json(r.diagonal[s]) : nullptr);
        }
        runs.push_back({{"dx_mm", r.dx},
                        {"dt_ms", r.dt},
                        {"grid", {r.nx, r.ny, r.nz}},
                        {"backend", std::string(toString(r.backend))},
                        {"precision", r.precision},
                        {"integrator", r.integrator},
                        {"steps", r.steps},
                        {"simulated_ms", r.simulatedTime},
                        {"wall_s", r.wallSeconds},
                        {"reset_s", r.resetSeconds},
                        {"activation_ms", pj},
                        {"diagonal_ms", dj}});
    }
    finish(points, pointsPath);
    finish(diag, diagPath);
    auto [json, jsonPath] = open("nversion.json");
    json << nlohmann::json{{"benchmark",
                            "Niederer et al. 2011 N-version (Phil Trans R Soc A "
                            "369:4331)"},
                           {"points",
                            "P1 (0,0,0) P2 (0,7,0) P3 (20,0,0) P4 (20,7,0) P5 (0,0,3) "
                            "P6 (0,7,3) P7 (20,0,3) P8 (20,7,3) P9 (10,3.5,1.5) mm"},
                           {"runs", runs}}
                .dump(2)
         << '\n';
    finish(json, jsonPath);
}

}  // namespace cf::cardiac
