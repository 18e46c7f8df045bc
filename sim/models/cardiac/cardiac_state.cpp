// SPDX-License-Identifier: GPL-3.0-or-later
// What both `cardiac` backends share on the host: snapshots (cardiac_state.hpp), metrics,
// trace points and messages (declared in cardiac_model.hpp); the views are in cardiac_views.cpp.
#include "sim/models/cardiac/cardiac_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/models/cardiac/cardiac_model.hpp"

namespace cf::cardiac {

Snapshot makeTissueSnapshot(const CardiacParams& p, const CheckedModel& m, const TissueState& s) {
    Snapshot out;
    out.step = s.step;
    out.time = s.time;
    out.timeUnit = "ms";
    tissueBox(p, out.boxLo, out.boxHi);
    out.gridDims[0] = static_cast<std::size_t>(p.nx);
    out.gridDims[1] = static_cast<std::size_t>(p.ny);
    out.gridDims[2] = static_cast<std::size_t>(p.nz);
    for (std::size_t k = 0; k < m.states.size(); ++k) {
        const Variable& v = m.vars[static_cast<std::size_t>(m.states[k].var)];
        out.fields.push_back(Field::of<double>(v.name, v.unit.empty() ? "1" : v.unit,
                                               FieldRole::Grid, 1,
                                               std::span<const double>(s.columns[k])));
    }
    out.fields.push_back(Field::of<double>("activation_time", "ms", FieldRole::Grid, 1,
                                           std::span<const double>(s.activation)));
    if (!s.meter.empty())
        out.fields.push_back(Field::of<double>("beat_meter", "1", FieldRole::Internal, 1,
                                               std::span<const double>(s.meter)));
    return out;
}

TissueState readTissueSnapshot(const CardiacParams& p, const CheckedModel& m,
                               const Snapshot& snapshot) {
    const int n[3] = {p.nx, p.ny, p.nz};
    for (int a = 0; a < 3; ++a)
        if (snapshot.gridDims[a] != static_cast<std::size_t>(n[a]))
            throw IoError(
                "cardiac: the snapshot's grid is " + std::to_string(snapshot.gridDims[0]) + " x " +
                std::to_string(snapshot.gridDims[1]) + " x " +
                std::to_string(snapshot.gridDims[2]) + " nodes; the parameters give " +
                std::to_string(p.nx) + " x " + std::to_string(p.ny) + " x " + std::to_string(p.nz));
    const std::size_t nodes = static_cast<std::size_t>(p.nx) * p.ny * p.nz;
    TissueState s;
    for (const StateInfo& st : m.states) {
        const std::string& name = m.vars[static_cast<std::size_t>(st.var)].name;
        const Field* f = snapshot.find(name);
        if (f == nullptr)
            throw IoError("cardiac: the snapshot has no field for state '" + name + "'");
        if (f->count != nodes || f->components != 1)
            throw IoError("cardiac: field '" + name + "' has " + std::to_string(f->count) +
                          " values, expected " + std::to_string(nodes));
        s.columns.push_back(f->as<double>());
    }
    s.activation.assign(nodes, kNotActivated);
    if (const Field* f = snapshot.find("activation_time"); f != nullptr && f->count == nodes)
        s.activation = f->as<double>();
    if (const Field* f = snapshot.find("beat_meter"); f != nullptr) s.meter = f->as<double>();
    s.step = snapshot.step;
    s.time = snapshot.time;
    return s;
}

std::vector<TracePoint> tracePoints(const CardiacParams& p) {
    std::string text = p.tracePoints;
    std::replace(text.begin(), text.end(), ';', '\n');
    std::istringstream lines(text);
    std::vector<TracePoint> out;
    std::string line;
    int number = 0;
    const double hi[3] = {(p.nx - 1) * p.dx, (p.ny - 1) * p.dx, (p.nz - 1) * p.dx};
    while (std::getline(lines, line)) {
        ++number;
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        TracePoint t;
        if (!(words >> t.name)) continue;  // blank
        const std::string where = "trace.points, line " + std::to_string(number) + ": ";
        std::string rest;
        if (!(words >> t.x >> t.y >> t.z) || (words >> rest))
            throw ParameterError(where + "expected 'name x y z' (mm), found '" + line + "'");
        for (const TracePoint& o : out)
            if (o.name == t.name) throw ParameterError(where + "'" + t.name + "' named twice");
        const double x[3] = {t.x, t.y, t.z};
        for (int a = 0; a < 3; ++a)
            if (!(x[a] >= -1e-9 && x[a] <= hi[a] + 1e-9))
                throw ParameterError(where + "'" + t.name + "' lies outside the tissue [0, " +
                                     formatValue(ParamValue{hi[0]}) + "] x [0, " +
                                     formatValue(ParamValue{hi[1]}) + "] x [0, " +
                                     formatValue(ParamValue{hi[2]}) + "] mm");
        out.push_back(std::move(t));
    }
    return out;
}

double sampleNodes(const std::vector<double>& field, const int n[3], double dx, const double x[3],
                   bool negativeIsMissing, const unsigned char* tissue) {
    int base[3];
    double frac[3];
    for (int a = 0; a < 3; ++a) {
        const double u = std::clamp(x[a] / dx, 0.0, static_cast<double>(n[a] - 1));
        base[a] = std::min(static_cast<int>(std::floor(u)), std::max(0, n[a] - 2));
        frac[a] = n[a] > 1 ? u - base[a] : 0.0;
    }
    double sum = 0.0, weights = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        double weight = 1.0;
        std::size_t index = 0, stride = 1;
        for (int a = 0; a < 3; ++a) {
            const int up = (corner >> a) & 1;
            weight *= up ? frac[a] : 1.0 - frac[a];
            index += static_cast<std::size_t>(std::min(base[a] + up, n[a] - 1)) * stride;
            stride *= static_cast<std::size_t>(n[a]);
        }
        if (weight == 0.0 || (tissue != nullptr && tissue[index] == 0)) continue;
        const double v = field.at(index);
        if (negativeIsMissing && v < 0.0) return std::nan("");
        sum += weight * v;
        weights += weight;
    }
    // Nodes outside the tissue take no part: the others' weights are renormalised (exactly 1
    // without a mask); NaN when the point has no tissue node around it.
    return weights > 0.0 ? (tissue != nullptr ? sum / weights : sum) : std::nan("");
}

BeatMeter restoredMeter(const CardiacParams& p, const TissueState& s) {
    BeatMeter meter(p.start, p.cycleLength, p.beats);
    // Without one (an older snapshot) beats are measured afresh from the next step.
    if (!s.meter.empty()) meter.restore(s.meter);
    return meter;
}

std::size_t centreNode(const CardiacParams& p, const std::vector<unsigned char>& tissue) {
    const int c[3] = {p.nx / 2, p.ny / 2, p.nz / 2};
    const auto index = [&](int i, int j, int k) {
        return static_cast<std::size_t>(i) +
               static_cast<std::size_t>(p.nx) *
                   (static_cast<std::size_t>(j) + static_cast<std::size_t>(p.ny) * k);
    };
    const std::size_t centre = index(c[0], c[1], c[2]);
    if (tissue.empty() || tissue[centre] != 0) return centre;
    // A mesh that misses the grid's centre: the tissue node nearest to it (first in index
    // order among equals), so that v_centre and the beat metrics follow a cell of the tissue.
    std::size_t best = centre;
    long long bestDistance = -1;
    std::size_t m = 0;
    for (int k = 0; k < p.nz; ++k)
        for (int j = 0; j < p.ny; ++j)
            for (int i = 0; i < p.nx; ++i, ++m) {
                if (tissue[m] == 0) continue;
                const long long d = static_cast<long long>(i - c[0]) * (i - c[0]) +
                                    static_cast<long long>(j - c[1]) * (j - c[1]) +
                                    static_cast<long long>(k - c[2]) * (k - c[2]);
                if (bestDistance < 0 || d < bestDistance) {
                    bestDistance = d;
                    best = m;
                }
            }
    return best;
}

std::vector<Metric> tissueMetrics(const CardiacParams& p, const std::vector<double>& potential,
                                  const std::vector<double>& activation, const BeatMeter& meter,
                                  const std::vector<unsigned char>& tissue) {
    double sum = 0.0, latest = 0.0;
    std::size_t activated = 0, counted = 0;
    for (std::size_t k = 0; k < potential.size(); ++k) {
        if (!tissue.empty() && tissue[k] == 0) continue;
        ++counted;
        sum += potential[k];
        if (activation[k] >= 0.0) {
            ++activated;
            latest = std::max(latest, activation[k]);
        }
    }
    const double nodes = static_cast<double>(std::max<std::size_t>(counted, 1));
    std::vector<Metric> m = {
        {"v_mean", "mV", sum / nodes, "Mean membrane potential of the tissue"},
        {"v_centre", "mV", potential[centreNode(p, tissue)],
         "Membrane potential at the centre node"},
        {"activated", "1", static_cast<double>(activated) / nodes,
         "Share of the tissue activated at least once (0 to 1)"},
        {"last_activation", "ms", latest, "Latest first-activation time of any node"}};
    const std::vector<BeatRecord> beats = meter.beats();
    const double nan = std::nan("");
    const BeatRecord* last = beats.empty() ? nullptr : &beats.back();
    m.push_back({"beats", "1", static_cast<double>(beats.size()),
                 "Action potentials completed at the centre node since the start (cumulative)"});
    m.push_back({"v_rest", "mV", last ? last->vRest : nan,
                 "Resting potential before the last completed beat (none before the first)"});
    m.push_back({"v_peak", "mV", last ? last->vPeak : nan,
                 "Peak potential of the last completed beat (none before the first)"});
    m.push_back({"dvdt_max", "mV/ms", last ? last->dvdtMax : nan,
                 "Largest upstroke slope of the last completed beat (none before the first)"});
    m.push_back({"apd90", "ms", last ? last->apd90 : nan,
                 "Action potential duration at 90% repolarisation, last completed beat"});
    const int n[3] = {p.nx, p.ny, p.nz};
    for (const TracePoint& t : tracePoints(p)) {
        const double x[3] = {t.x, t.y, t.z};
        m.push_back(
            {"trace." + t.name + ".V", "mV",
             sampleNodes(potential, n, p.dx, x, false, tissue.empty() ? nullptr : tissue.data()),
             "Membrane potential at trace point " + t.name});
    }
    return m;
}

std::string nonFiniteMessage(const CardiacParams& p, const CheckedModel& m, std::size_t node,
                             std::size_t state, double value, std::uint64_t step, double time) {
    const std::size_t nx = static_cast<std::size_t>(p.nx), ny = static_cast<std::size_t>(p.ny);
    char when[64];
    std::snprintf(when, sizeof when, "%.6g", time);
    return "cardiac: state '" + m.vars[static_cast<std::size_t>(m.states[state].var)].name +
           "' of cell " + std::to_string(node) + " (i=" + std::to_string(node % nx) +
           ", j=" + std::to_string((node / nx) % ny) + ", k=" + std::to_string(node / (nx * ny)) +
           ") is " + (std::isnan(value) ? "NaN" : "infinite") + " at step " + std::to_string(step) +
           " (t = " + when + " ms)";
}

}  // namespace cf::cardiac
