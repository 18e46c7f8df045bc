// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/brownian/brownian_model.hpp"

#include <cmath>
#include <string>

#include "sim/core/bench.hpp"
#include "sim/core/rng.hpp"
#include "sim/grid/grid_bench.hpp"

namespace cf::brownian {

BrownianParams checkedParams(const ParamSet& params) {
    const BrownianParams p = params.toStruct<BrownianParams>();
    const double cutoff = 2.0 * p.radius;
    if (p.box < 3.0 * cutoff)
        throw ParameterError("system.box = " + formatValue(params.get("system.box")) +
                             " um must be at least 6 x system.radius (" +
                             std::to_string(3.0 * cutoff) +
                             " um) so the periodic cell list has 3 cells per axis");
    // Explicit Euler on the overdamped spring relaxes an overlap by a factor (1 - mu k dt)
    // per step: past 1 it overshoots and oscillates, past 2 it diverges.
    const double relax = static_cast<double>(p.mobility) * p.stiffness * p.dt;
    if (relax >= 1.0)
        throw ParameterError("interaction.mobility x interaction.stiffness x dynamics.dt = " +
                             std::to_string(relax) +
                             " must be below 1 (the explicit step overshoots); lower dt");
    return p;
}

void initialPositions(const BrownianParams& p, std::uint32_t seed, std::vector<float>& x,
                      std::vector<float>& y, std::vector<float>& z) {
    const auto n = static_cast<std::size_t>(p.count);
    x.resize(n);
    y.resize(n);
    z.resize(n);
    const rng::Philox gen(seed, kInitStream);
    for (std::size_t i = 0; i < n; ++i) {
        const rng::Word4 a = gen(0, static_cast<std::uint32_t>(i), 0);
        const rng::Word4 b = gen(0, static_cast<std::uint32_t>(i), 1);
        // uniformDouble is in (0, 1]; 1 - u is in [0, 1), so positions stay inside [0, L).
        x[i] = static_cast<float>((1.0 - rng::uniformDouble(a.x, a.y)) * p.box);
        y[i] = static_cast<float>((1.0 - rng::uniformDouble(a.z, a.w)) * p.box);
        z[i] = static_cast<float>((1.0 - rng::uniformDouble(b.x, b.y)) * p.box);
        if (x[i] >= p.box) x[i] = 0.0f;  // rounding to float can reach L
        if (y[i] >= p.box) y[i] = 0.0f;
        if (z[i] >= p.box) z[i] = 0.0f;
    }
}

namespace {
std::vector<float> interleave(const std::vector<float>& a, const std::vector<float>& b,
                              const std::vector<float>& c) {
    std::vector<float> out(3 * a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        out[3 * i] = a[i];
        out[3 * i + 1] = b[i];
        out[3 * i + 2] = c[i];
    }
    return out;
}
}  // namespace

Snapshot makeSnapshot(const BrownianParams& p, std::uint64_t step, double time,
                      const std::vector<float>& x, const std::vector<float>& y,
                      const std::vector<float>& z, const std::vector<float>& dx,
                      const std::vector<float>& dy, const std::vector<float>& dz,
                      const std::vector<std::int32_t>& neighbors) {
    Snapshot s;
    s.step = step;
    s.time = time;
    s.timeUnit = "s";
    for (int a = 0; a < 3; ++a) {
        s.boxLo[a] = 0.0;
        s.boxHi[a] = p.box;
    }
    const auto pos = interleave(x, y, z);
    const auto disp = interleave(dx, dy, dz);
    s.fields.push_back(Field::of<float>("position", "um", FieldRole::Positions, 3, pos));
    s.fields.push_back(Field::of<float>("displacement", "um", FieldRole::PerEntity, 3, disp));
    s.fields.push_back(
        Field::of<std::int32_t>("overlaps", "1", FieldRole::PerEntity, 1, neighbors));
    return s;
}

HostState readSnapshot(const BrownianParams& p, const Snapshot& s) {
    const auto n = static_cast<std::size_t>(p.count);
    auto take3 = [&](const char* name, std::vector<float>& a, std::vector<float>& b,
                     std::vector<float>& c) {
        const Field& f = s.at(name);
        const std::vector<float> v = f.as<float>();
        if (f.components != 3 || f.count != n)
            throw IoError("brownian: field '" + std::string(name) + "' has " +
                          std::to_string(f.count) + " x " + std::to_string(f.components) +
                          " values, expected " + std::to_string(n) + " x 3 (system.count)");
        a.resize(n);
        b.resize(n);
        c.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            a[i] = v[3 * i];
            b[i] = v[3 * i + 1];
            c[i] = v[3 * i + 2];
        }
    };
    HostState h;
    take3("position", h.x, h.y, h.z);
    take3("displacement", h.dx, h.dy, h.dz);
    h.step = s.step;
    h.time = s.time;
    return h;
}

ModelViews hostViews(const BrownianParams& p, const Snapshot& s, ViewBuffers& b) {
    const std::vector<float> pos = s.at("position").as<float>();
    const std::vector<float> disp = s.at("displacement").as<float>();
    const std::size_t n = pos.size() / 3;
    b.xyzr.resize(4 * n);
    b.displacement.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a)
            b.xyzr[4 * i + a] = pos[3 * i + a];
        b.xyzr[4 * i + 3] = p.radius;
        b.displacement[i] =
            std::sqrt(disp[3 * i] * disp[3 * i] + disp[3 * i + 1] * disp[3 * i + 1] +
                      disp[3 * i + 2] * disp[3 * i + 2]);
    }
    ModelViews v = viewLayout(p);
    PointCloudView& cloud = v.clouds.front();
    cloud.space = MemorySpace::Host;
    cloud.positions = b.xyzr.data();
    cloud.count = n;
    cloud.scalars.front().data = b.displacement.data();
    return v;
}

ModelViews viewLayout(const BrownianParams& p) {
    ModelViews v;
    for (int a = 0; a < 3; ++a) {
        v.boxLo[a] = 0.0;
        v.boxHi[a] = p.box;
        v.focusLo[a] = 0.0;
        v.focusHi[a] = p.box;
    }
    PointCloudView cloud;
    cloud.name = "particles";
    cloud.scalars.push_back({"displacement", "um", nullptr});
    v.clouds.push_back(std::move(cloud));
    return v;
}

namespace {

BenchCase stepCase(const char* name, std::int64_t baseCount) {
    BenchCase c;
    c.name = name;
    c.description =
        "Brownian particles with repulsion at volume fraction ~0.3: one step = "
        "grid build + force gather + integrate";
    c.run = [baseCount](Backend b, const BenchOptions& o) {
        const auto count = std::max<std::int64_t>(
            1000, static_cast<std::int64_t>(static_cast<double>(baseCount) * o.scale));
        // Number density 0.57 / um^3 with radius 0.5 um gives volume fraction 0.3.
        const double box = std::max(3.1, std::cbrt(static_cast<double>(count) / 0.57));
        const std::vector<std::string> overrides = {"system.count=" + std::to_string(count),
                                                    "system.box=" + std::to_string(box),
                                                    "system.radius=0.5"};
        const std::uint64_t steps = b == Backend::Cuda ? 100 : 5;
        BenchResult r = benchModelSteps(descriptor(), b, overrides,
                                        static_cast<std::uint64_t>(count), 2, steps, o);
        // Per particle and step: positions read ~3x (keys, sort, gather), indices and keys
        // sorted (radix passes), neighbor gathers mostly from L2; a lower bound of ~100 B.
        r.bytesPerStep = 100.0 * static_cast<double>(count);
        r.note = "force gather over 27 cells; bound by L2/gather latency, not DRAM";
        return r;
    };
    return c;
}

}  // namespace

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "brownian";
    d.description = "Brownian particles with soft repulsion in a periodic box (core test model)";
    d.timeUnit = "s";
    d.parameters = &parameterTable;
    d.validate = [](const ParamSet& params) { (void)checkedParams(params); };
    d.create = [](Backend b) {
        return createOnBackend("brownian", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    d.benchCases = {stepCase("step-100k", 100'000), stepCase("step-1M", 1'000'000),
                    grid::gridBuildBenchCase()};
    return d;
}

}  // namespace cf::brownian
