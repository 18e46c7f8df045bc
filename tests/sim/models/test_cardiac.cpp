// SPDX-License-Identifier: GPL-3.0-or-later
// The `cardiac` model on the CPU (the CUDA backend is not written yet): pacing of a single
// cell, a plane wave in a 1-D cable whose speed converges as dx and dt shrink, activation
// times, parameter values from text, exact restart, and bad input (a model that does not
// compile, an unknown parameter, a model that blows up: the run stops naming the state,
// the cell and the step).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/box_mesh.hpp"
#include "tests/support/model_fixture.hpp"

namespace cf {
namespace {

using test::metric;

class CardiacTest : public test::ModelFixture<&cardiac::descriptor> {};

// Activation time of node i of a cable (x = i dx).
double activationAt(Model& m, std::size_t i) {
    return m.snapshot().at("activation_time").as<double>()[i];
}

// A synthetic action potential sampled every 0.1 ms: rest -80 mV up to 10 ms, +20 mV from
// the next sample (an upstroke of 1000 mV/ms, midpoint 10.05 ms), flat to 100 ms, a fall of
// 1 mV/ms to -80 mV (100-200 ms). V90 = 20 - 0.9 x 100 = -70 mV is crossed at 190 ms:
// APD90 = 190 - 10.05 = 179.95 ms.
TEST(CardiacBeatMeter, MeasuresASyntheticActionPotential) {
    cardiac::BeatMeter meter(10.0, 500.0);
    auto v = [](double t) {
        if (t <= 10.0 + 1e-9) return -80.0;
        if (t <= 100.0) return 20.0;
        if (t <= 200.0) return 20.0 - (t - 100.0);
        return -80.0;
    };
    for (int k = 0; k <= 4000; ++k)
        meter.add(0.1 * k, v(0.1 * k));
    const std::vector<cardiac::BeatRecord> beats = meter.beats();
    ASSERT_EQ(beats.size(), 1u);
    EXPECT_DOUBLE_EQ(beats[0].vRest, -80.0);
    EXPECT_NEAR(beats[0].vPeak, 20.0, 1e-12);
    EXPECT_NEAR(beats[0].dvdtMax, 1000.0, 1e-6);
    EXPECT_NEAR(beats[0].tUp, 10.05, 1e-9);
    EXPECT_NEAR(beats[0].apd90, 179.95, 1e-9);
    EXPECT_TRUE(beats[0].responded);
}

// model.bundled's choices are the embedded assets/models/*.cfm, and each one runs.
TEST(CardiacBundled, ChoicesAreTheEmbeddedModels) {
    const ParamTable& table = cardiac::parameterTable();
    const ParamSpec* spec = table.find("model.bundled");
    ASSERT_NE(spec, nullptr);
    EXPECT_EQ(spec->choices, cardiac::bundledModelNames());
}

// model.variant picks a named parameter set of the model (ten Tusscher's M cell: gKs 0.098,
// gto 0.294 mS/uF, celltype 2); an unknown name is refused naming model.variant and the
// variants the model has; model.integrator = grl1 sets every state's method.
TEST(CardiacBundled, VariantAndIntegratorReachTheProgram) {
    ParamSet params(cardiac::parameterTable());
    params.setFromAssignment("model.bundled=tentusscher_2006");
    params.setFromAssignment("model.variant=M");
    params.setFromAssignment("model.integrator=grl1");
    const auto program = cardiac::loadCellProgram(cardiac::checkedParams(params));
    const cardiac::CheckedModel& m = program->model();
    EXPECT_EQ(m.variant, "M");
    auto value = [&](const std::string& name) {
        for (std::size_t k = 0; k < m.params.size(); ++k)
            if (m.vars[static_cast<std::size_t>(m.params[k])].name == name)
                return program->parameters()[k];
        ADD_FAILURE() << "no parameter " << name;
        return 0.0;
    };
    EXPECT_DOUBLE_EQ(value("iks.gKs"), 0.098);
    EXPECT_DOUBLE_EQ(value("ito.gto"), 0.294);
    for (const cardiac::StateInfo& s : m.states)
        EXPECT_EQ(s.method, cardiac::Method::GeneralizedRushLarsen);
    params.setFromAssignment("model.variant=purkinje");
    try {
        cardiac::loadCellProgram(cardiac::checkedParams(params));
        ADD_FAILURE() << "no error for an unknown variant";
    } catch (const ParameterError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("model.variant: ", 0), 0u) << what;
        EXPECT_NE(what.find("endo"), std::string::npos) << what;
    }
}

// Traces and extra volume channels: trace.<name>.V interpolates the potential between nodes
// (at a node: its value; half way: the mean of the two), views.states adds a channel per
// state (on the CPU its values are the state's, as float); bad names and points are refused
// naming the parameter and the line.
TEST_P(CardiacTest, TracePointsAndStateChannels) {
    set({"tissue.nx=40", "tissue.ny=4", "tissue.dx=0.25", "trace.points=a 0 0 0; b 2.125 0.25 0",
         "views.states=v"});
    auto m = make(1);
    m->advance(200);
    const Snapshot s = m->snapshot();
    const std::vector<double> v = s.at("cell.V").as<double>();
    // b lies half way between nodes (8, 1) and (9, 1) of the 40-wide sheet.
    EXPECT_NEAR(metric(*m, "trace.a.V"), v[0], 1e-12);
    EXPECT_NEAR(metric(*m, "trace.b.V"), 0.5 * (v[40 + 8] + v[40 + 9]), 1e-12);
    EXPECT_GT(metric(*m, "trace.a.V"), -79.0) << "the stimulated edge has depolarised";
    const ModelViews views = m->views();
    m->synchronize();
    ASSERT_EQ(views.volumes.size(), 1u);
    const auto& channels = views.volumes[0].scalars;
    ASSERT_EQ(channels.size(), 3u);
    EXPECT_EQ(channels[2].name, "cell.v");
    if (GetParam() == Backend::Cpu) {
        const std::vector<double> rec = s.at("cell.v").as<double>();
        for (std::size_t k = 0; k < rec.size(); ++k)
            ASSERT_EQ(channels[2].data[k], static_cast<float>(rec[k])) << k;
    }
    auto refused = [&](const std::string& assignment, const std::string& expected) {
        ParamSet bad = params;
        bad.setFromAssignment(assignment);
        try {
            desc.validate(bad);
            ADD_FAILURE() << "accepted " << assignment;
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    };
    refused("views.states=v, q",
            "views.states: the model has no state 'q' (its states: cell.V, "
            "cell.v)");
    refused("trace.points=a 0 0", "trace.points, line 1: expected 'name x y z'");
    refused("trace.points=a 0 0 0;a 1 0 0", "trace.points, line 2: 'a' named twice");
    refused("trace.points=far 50 0 0", "trace.points, line 1: 'far' lies outside the tissue");
}

// Tissue from a mesh: a closed box covering nodes i <= 20 of a 40-node-wide sheet gives,
// bit for bit, the activation map of a 21-node-wide sheet (a neighbour outside the tissue is
// mirrored like the grid's edge); nodes outside never activate and the metrics count tissue
// only. A missing file or a mesh around no node is refused naming tissue.mesh.
TEST_P(CardiacTest, MeshShapesTheTissue) {
    const std::string obj = testing::TempDir() + "cardiac_box.obj";
    const double lo[3] = {-0.1, -0.1, -1.0}, hi[3] = {5.1, 3.1, 1.0};
    test::writeBoxObj(obj, lo, hi);
    set({"tissue.nx=40", "tissue.ny=12", "tissue.dx=0.25", "tissue.mesh=" + obj});
    auto masked = make(1);
    set({"tissue.nx=21", "tissue.mesh="});
    auto plain = make(1);
    masked->advance(5000);  // 100 ms: the wave crosses the 5 mm
    plain->advance(5000);
    const std::vector<double> a = masked->snapshot().at("activation_time").as<double>();
    const std::vector<double> b = plain->snapshot().at("activation_time").as<double>();
    int outside = 0;
    for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 40; ++i) {
            const double t = a[static_cast<std::size_t>(j * 40 + i)];
            if (i <= 20) {
                ASSERT_EQ(t, b[static_cast<std::size_t>(j * 21 + i)]) << i << ", " << j;
            } else {
                EXPECT_EQ(t, cardiac::kNotActivated) << i << ", " << j;
                ++outside;
            }
        }
    EXPECT_EQ(outside, 19 * 12);
    EXPECT_GT(b[20], 0.0) << "the wave reached the far edge";
    EXPECT_EQ(metric(*masked, "activated"), metric(*plain, "activated"));
    EXPECT_EQ(metric(*masked, "activated"), 1.0);

    auto refused = [&](const std::string& mesh, const std::string& expected) {
        set({"tissue.nx=40", "tissue.mesh=" + mesh});
        try {
            make(1);
            ADD_FAILURE() << "accepted " << mesh;
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    };
    refused(testing::TempDir() + "no_such_mesh.obj", "tissue.mesh: ");
    const std::string far = testing::TempDir() + "cardiac_far.obj";
    {
        std::ofstream out(far);
        out << "v 100 100 -1\nv 101 100 -1\nv 100 101 -1\nv 101 101 -1\n"
               "v 100 100 1\nv 101 100 1\nv 100 101 1\nv 101 101 1\n"
               "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    }
    refused(far, "lies inside");
}

TEST_P(CardiacTest, SingleCellPacedThreeTimesFiresThreeTimes) {
    // Aliev-Panfilov recovers slowly (eps0 = 0.002 per 12.9 ms): a cycle of 1000 ms.
    set({"tissue.nx=1", "tissue.ny=1", "protocol.cycle_length=1000", "protocol.beats=3",
         "protocol.region=all", "time.dt=0.01"});
    auto m = make(1);
    int upstrokes = 0;
    bool above = false;
    for (int n = 0; n < 4000 * 100; n += 10) {
        m->advance(10);
        const double v = metric(*m, "v_centre");
        if (!above && v > 0.0) ++upstrokes;
        above = v > 0.0;
    }
    EXPECT_EQ(upstrokes, 3);
    EXPECT_EQ(metric(*m, "beats"), 3.0);
    const double apd = metric(*m, "apd90");
    std::printf("beat 3: rest %.3f mV, peak %.3f mV, dV/dt max %.3f mV/ms, APD90 %.2f ms\n",
                metric(*m, "v_rest"), metric(*m, "v_peak"), metric(*m, "dvdt_max"), apd);
    EXPECT_GT(apd, 100.0);
    EXPECT_LT(apd, 1000.0);
}

// The speed of a plane wave between x = 3 and 7 mm of a 10 mm cable (D = 0.5 mm^2/ms):
// first order in dt and second in dx, so the differences between successive halvings
// shrink, and the finest two agree within 2 %.
TEST_P(CardiacTest, CableWaveSpeedConvergesWithResolution) {
    std::vector<double> speeds;
    for (const double dx : {0.2, 0.1, 0.05}) {
        const int nodes = static_cast<int>(std::lround(10.0 / dx)) + 1;
        set({"tissue.nx=" + std::to_string(nodes), "tissue.ny=1", "tissue.dx=" + std::to_string(dx),
             "tissue.diffusion_long=0.5", "time.dt=" + std::to_string(dx / 10.0),
             "protocol.region_size=1", "protocol.duration=2"});
        auto m = make(1);
        const auto a = static_cast<std::size_t>(std::lround(3.0 / dx));
        const auto b = static_cast<std::size_t>(std::lround(7.0 / dx));
        while (activationAt(*m, b) < 0.0 && m->time() < 200.0)
            m->advance(static_cast<std::uint64_t>(std::lround(1.0 / (dx / 10.0))));
        ASSERT_GE(activationAt(*m, b), 0.0) << "no wave reached x = 7 mm at dx " << dx;
        const double speed = 4.0 / (activationAt(*m, b) - activationAt(*m, a));
        std::printf("dx %.2f mm, dt %.3f ms: %.5f mm/ms\n", dx, dx / 10.0, speed);
        speeds.push_back(speed);
    }
    EXPECT_LT(std::fabs(speeds[2] - speeds[1]), std::fabs(speeds[1] - speeds[0]));
    EXPECT_NEAR(speeds[2], speeds[1], 0.02 * speeds[2]);
}

TEST_P(CardiacTest, ParameterValuesAndExactRestart) {
    set({"tissue.nx=40", "tissue.ny=20", "model.parameters=k = 6; cell.a = 0.12"});
    auto m = make(1);
    m->advance(1500);  // 30 ms: the wave reaches the centre cell between the two halves
    const Snapshot mid = m->snapshot();
    m->advance(1500);
    auto r = make(1);
    r->restore(mid);
    r->advance(1500);
    EXPECT_EQ(m->snapshot().at("cell.V").bytes, r->snapshot().at("cell.V").bytes);
    EXPECT_EQ(m->snapshot().at("activation_time").bytes, r->snapshot().at("activation_time").bytes);
    EXPECT_GT(metric(*m, "activated"), 0.0);
    // The beat meter travels with the snapshot: the restored run measures the centre cell's
    // beat as the uninterrupted one does (NaN where both have no value yet).
    for (const char* name : {"beats", "v_rest", "v_peak", "dvdt_max", "apd90"}) {
        const double a = metric(*m, name), b = metric(*r, name);
        EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << name << ": " << a << " " << b;
    }
    EXPECT_TRUE(std::isfinite(metric(*m, "v_peak"))) << "the centre cell fired";
    // A damaged meter is refused before anything changes.
    Snapshot damaged = mid;
    for (Field& f : damaged.fields)
        if (f.name == "beat_meter") f.bytes.resize(f.bytes.size() - sizeof(double));
    for (Field& f : damaged.fields)
        if (f.name == "beat_meter") f.count -= 1;
    const std::uint64_t before = r->step();
    EXPECT_THROW(r->restore(damaged), IoError);
    EXPECT_EQ(r->step(), before);
}

// Hot reload: a new model text with an extra state, set live after 300 steps. The potential
// and recovery carry over bit for bit, the new state starts from its initial value, and the
// run goes on; a text that does not compile is refused with its position and changes nothing.
TEST_P(CardiacTest, EditedModelTextKeepsTheStates) {
    const std::string base = cardiac::bundledModelSource("aliev_panfilov");
    set({"tissue.nx=30", "tissue.ny=10", "model.source=" + base});
    auto m = make(1);
    m->advance(300);
    const std::vector<double> before = m->snapshot().at("cell.V").as<double>();
    params.set("model.source", ParamValue{base + "state w = 0.5\ndot(w) = -w / 10 [ms]\n"});
    m->setLiveParameters(params);
    // CUDA compiles the new kernel on a worker thread and keeps stepping the old model
    // meanwhile; applyPendingEdits() waits for the switch (the CPU switches at once).
    m->applyPendingEdits();
    const Snapshot after = m->snapshot();
    EXPECT_EQ(after.at("cell.V").as<double>(), before);
    EXPECT_EQ(after.at("cell.w").as<double>(), std::vector<double>(300, 0.5));
    m->advance(100);
    // The file says "method fe: *": 100 forward Euler steps of dt 0.02 ms on w' = -w / 10 ms.
    EXPECT_NEAR(m->snapshot().at("cell.w").as<double>()[0], 0.5 * std::pow(1.0 - 0.002, 100),
                1e-12);
    params.set("model.source", ParamValue{base + "dot(w) = -\n"});
    try {
        m->setLiveParameters(params);
        ADD_FAILURE() << "no error for a broken model text";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("model.source:"), std::string::npos) << e.what();
    }
    EXPECT_EQ(m->step(), 400u);
}

TEST_P(CardiacTest, BadInputNamesTheFileTheParameterOrTheState) {
    auto messageOf = [&](const std::vector<std::string>& assignments) -> std::string {
        try {
            set(assignments);
            make(1);
        } catch (const Error& e) {
            return e.what();
        }
        return "(no error)";
    };
    EXPECT_NE(messageOf({"model.parameters=kk = 3"}).find("the model has no parameter 'kk'"),
              std::string::npos);
    EXPECT_NE(messageOf({"model.parameters=k = 300"}).find("cell.k = 300 is outside its range"),
              std::string::npos);
    const std::string path = testing::TempDir() + "bad_model.cfm";
    std::ofstream(path) << "model bad\n[c]\nstate V = -80 bind potential\ndot(V) = -W\n";
    const std::string bad = messageOf({"model.parameters=", "model.file=" + path});
    EXPECT_NE(bad.find("bad_model.cfm:4:11: error: undefined name 'W'"), std::string::npos) << bad;

    // A model that blows up: V' = V^2 from 1 reaches infinity near t = 1.
    std::ofstream(path) << "model blowup\n[c]\nstate V = 1 bind potential\ndot(V) = V * V\n";
    set({"model.file=" + path, "tissue.nx=3", "tissue.ny=1", "time.dt=0.05"});
    auto m = make(1);
    try {
        m->advance(1000);
        ADD_FAILURE() << "no error for a state that blew up";
    } catch (const SimulationError& e) {
        const std::string what = e.what();
        std::printf("%s\n", what.c_str());
        EXPECT_NE(what.find("state 'c.V' of cell 0 (i=0, j=0, k=0) is"), std::string::npos);
        EXPECT_NE(what.find(" at step "), std::string::npos);
    }
}

// Live edits are all or nothing: an edit refused for any of its values (a model parameter
// outside its declared range, a line after a good one that names no parameter, an unknown view
// state, a trace point outside the tissue, a model text that does not compile), each sent with
// good live values besides, changes nothing: the steps after it are bit for bit those of a
// model never edited, and the device's constant blocks are the same. A structural value in an
// edit is not applied (it waits for a reset); an accepted edit reaches the device.
TEST_P(CardiacTest, RefusedLiveEditChangesNothing) {
    set({"tissue.nx=24", "tissue.ny=6", "trace.points=a 1 0 0", "model.parameters=k = 7"});
    auto edited = make(1);
    auto plain = make(1);
    edited->advance(150);
    plain->advance(150);
    const std::vector<std::uint8_t> blockBefore = edited->deviceParameterBlock();
    struct Refused {
        std::string key, value, expected;
    };
    const std::vector<Refused> refused = {
        {"model.parameters", "k = 300", "cell.k = 300 is outside its range"},
        {"model.parameters", "a = 0.1; kk = 3", "line 2: the model has no parameter 'kk'"},
        {"views.states", "q", "views.states: the model has no state 'q'"},
        {"trace.points", "far 50 0 0", "'far' lies outside the tissue"},
        {"model.source", cardiac::bundledModelSource("aliev_panfilov") + "dot(w) = -\n",
         "model.source:"},
    };
    for (const auto& [key, value, expected] : refused) {
        const std::string bad = key + "=" + value;
        ParamSet edit = params;
        for (const char* good :
             {"time.dt=0.01", "tissue.diffusion_long=0.5", "protocol.amplitude=-80",
              "activation.threshold=-20", "tissue.fibre_axis=y", "protocol.region=all"})
            edit.setFromAssignment(good);
        edit.set(key, ParamValue{value});
        try {
            edited->setLiveParameters(edit);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
        EXPECT_EQ(edited->deviceParameterBlock(), blockBefore) << bad;
    }
    edited->applyPendingEdits();
    edited->advance(1350);  // to 30 ms: the wave has crossed part of the sheet
    plain->advance(1350);
    const Snapshot a = edited->snapshot(), b = plain->snapshot();
    EXPECT_EQ(a.at("cell.V").bytes, b.at("cell.V").bytes);
    EXPECT_EQ(a.at("cell.v").bytes, b.at("cell.v").bytes);
    EXPECT_EQ(a.at("activation_time").bytes, b.at("activation_time").bytes);
    EXPECT_EQ(edited->time(), plain->time());
    EXPECT_EQ(metric(*edited, "trace.a.V"), metric(*plain, "trace.a.V"));
    EXPECT_GT(metric(*plain, "activated"), 0.0);

    // Structural values ride along unapplied; the live ones apply.
    ParamSet edit = params;
    edit.setFromAssignment("tissue.nx=30");
    edit.setFromAssignment("model.precision=float");
    edit.setFromAssignment("time.dt=0.01");
    edited->setLiveParameters(edit);
    const std::uint64_t step = edited->step();
    const double time = edited->time();
    edited->advance(10);
    EXPECT_EQ(edited->snapshot().at("cell.V").count, 24u * 6u);
    EXPECT_NEAR(edited->time() - time, 0.1, 1e-12);
    EXPECT_EQ(edited->step(), step + 10);
    if (GetParam() != Backend::Cpu) {
        EXPECT_NE(edited->deviceParameterBlock(), blockBefore);
    }
}

std::vector<Backend> cardiacBackends() {
    std::vector<Backend> out;
    const ModelDescriptor d = cardiac::descriptor();
    for (Backend b : test::builtBackends())
        if (b == Backend::Cpu || d.offers(b)) out.push_back(b);
    return out;
}

INSTANTIATE_TEST_SUITE_P(AllBackends, CardiacTest, testing::ValuesIn(cardiacBackends()),
                         test::backendName);

// The CUDA backend (generated kernel, NVRTC) against the CPU reference on a 48 x 32 sheet
// over 4000 steps of 0.02 ms (a wave part way across): double: the same arithmetic but for libm's
// last bits, so V within 1e-9 mV and activation times within 1e-9 ms; float: 0.5 mV and
// 0.05 ms (float rounding, amplified in the upstroke where V changes by ~10 mV per step).
// Three protocols, each in both precisions: one pulse at the left edge (the defaults); a
// train of two pulses 30 ms apart in the corner; a train of two 25 ms apart in the centre.
// The kernel decides pulse and region from its constant block, the CPU from pulseOn and
// inStimulusRegion; the region sizes put node centres exactly on the region's edge (corner:
// x = 1.5 mm; centre: 1.375 mm from the centre at 5.875, 3.875 mm), where the 1e-9 mm slack
// decides, and the pulse edges fall on step times up to the clock's rounding.
TEST(CardiacCuda, TissueMatchesTheCpuReference) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::vector<std::vector<const char*>> protocols = {
        {},
        {"protocol.region=corner", "protocol.region_size=1.5", "protocol.start=0.5",
         "protocol.cycle_length=30", "protocol.duration=2", "protocol.beats=2"},
        {"protocol.region=centre", "protocol.region_size=1.375", "protocol.start=1",
         "protocol.cycle_length=25", "protocol.duration=2", "protocol.beats=2"},
    };
    for (std::size_t run = 0; run < 2 * protocols.size(); ++run) {
        const char* precision = run % 2 == 0 ? "double" : "float";
        const std::vector<const char*>& protocol = protocols[run / 2];
        ParamSet ps{cardiac::descriptor().parameters()};
        for (const char* a : {"tissue.nx=48", "tissue.ny=32", "tissue.diffusion_long=0.3"})
            ps.setFromAssignment(a);
        for (const char* a : protocol)
            ps.setFromAssignment(a);
        ps.setFromAssignment(std::string("model.precision=") + precision);
        auto cpu = cardiac::descriptor().create(Backend::Cpu);
        auto gpu = cardiac::descriptor().create(Backend::Cuda);
        cpu->reset(ps, 1);
        gpu->reset(ps, 1);
        cpu->advance(4000);
        gpu->advance(4000);
        const auto vc = cpu->snapshot().at("cell.V").as<double>();
        const auto vg = gpu->snapshot().at("cell.V").as<double>();
        const auto ac = cpu->snapshot().at("activation_time").as<double>();
        const auto ag = gpu->snapshot().at("activation_time").as<double>();
        double dv = 0, da = 0;
        std::size_t activated = 0;
        for (std::size_t k = 0; k < vc.size(); ++k) {
            dv = std::max(dv, std::fabs(vc[k] - vg[k]));
            if (ac[k] >= 0 || ag[k] >= 0) {
                ++activated;
                da = std::max(da, std::fabs(ac[k] - ag[k]));
            }
        }
        std::printf(
            "%s, protocol %zu: %zu nodes activated, max |dV| %.3g mV, max |dt_act| %.3g "
            "ms\n",
            precision, run / 2, activated, dv, da);
        const bool dbl = std::string(precision) == "double";
        EXPECT_GT(activated, 100u);
        EXPECT_LE(dv, dbl ? 1e-9 : 0.5) << precision << ", protocol " << run / 2;
        EXPECT_LE(da, dbl ? 1e-9 : 0.05) << precision << ", protocol " << run / 2;
    }
}

// A model text edited on CUDA compiles on a worker thread: advance() goes on meanwhile (with
// the old kernel until the new one is ready), the new state then holds its initial value
// decayed by at most the steps taken since the switch; a reset while a compilation is
// pending drops it, and the run goes on with the reset's model.
TEST(CardiacCuda, EditedModelCompilesWhileTheOldOneRuns) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::string base = cardiac::bundledModelSource("aliev_panfilov");
    ParamSet ps{cardiac::descriptor().parameters()};
    for (const char* a : {"tissue.nx=30", "tissue.ny=10"})
        ps.setFromAssignment(a);
    ps.set("model.source", ParamValue{base});
    auto m = cardiac::descriptor().create(Backend::Cuda);
    m->reset(ps, 1);
    m->advance(100);
    // A text no earlier test compiled (the kernel cache would make the switch immediate).
    const std::string edited = base + "state w_async = 0.5\ndot(w_async) = -w_async / 10 [ms]\n" +
                               "# " + std::to_string(::getpid()) + "\n";
    ps.set("model.source", ParamValue{edited});
    m->setLiveParameters(ps);
    m->advance(3);  // does not wait for NVRTC
    EXPECT_EQ(m->step(), 103u);
    m->applyPendingEdits();
    const std::vector<double> w = m->snapshot().at("cell.w_async").as<double>();
    EXPECT_LE(w[0], 0.5);
    EXPECT_GE(w[0], 0.5 * std::pow(1.0 - 0.002, 3) - 1e-12);
    // A reset while the next edit compiles: the reset's model runs, the compilation is dropped.
    ps.set("model.source", ParamValue{edited + "# again\n"});
    m->setLiveParameters(ps);
    ps.set("model.source", ParamValue{base});
    m->reset(ps, 1);
    m->advance(10);
    m->applyPendingEdits();
    EXPECT_EQ(m->snapshot().find("cell.w_async"), nullptr);
    EXPECT_EQ(m->step(), 10u);
}

// The constant blocks as deviceParameterBlock() reads them back (double precision): TissueLive
// (coeff x, y, z [1/ms], diffusion sub-step h [ms], dt [ms], threshold [mV]), then the
// generated kernel's CfParams (dt, stimulus amplitude, the model's parameters: k, a, eps0, mu1,
// mu2, tscale), then its CfProtocol (the last 72 bytes: start, cycle length, duration, region
// size, dx; beats, region, nx, ny, nz, 0). An edit is there once applied; two instances stepped
// in turn keep their own values; a model text edit fills the new kernel's blocks before it
// runs; a model without parameters has a block of dt, amplitude and one unused value.
TEST(CardiacCuda, LiveEditsReachTheConstantBlocks) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    auto doubles = [](const std::vector<std::uint8_t>& bytes) {
        std::vector<double> out(bytes.size() / sizeof(double));
        std::memcpy(out.data(), bytes.data(), out.size() * sizeof(double));
        return out;
    };
    auto protocolOf = [](const std::vector<std::uint8_t>& bytes) {
        cardiac::CfProtocol p{};
        if (bytes.size() < sizeof p) {
            ADD_FAILURE() << "no protocol block in " << bytes.size() << " bytes";
            return p;
        }
        std::memcpy(&p, bytes.data() + bytes.size() - sizeof p, sizeof p);
        return p;
    };
    auto expectProtocol = [](const cardiac::CfProtocol& p, double start, double cycleLength,
                             double duration, double regionSize, int beats,
                             cardiac::StimulusRegion region) {
        EXPECT_EQ(p.start, start);
        EXPECT_EQ(p.cycleLength, cycleLength);
        EXPECT_EQ(p.duration, duration);
        EXPECT_EQ(p.regionSize, regionSize);
        EXPECT_EQ(p.dx, 0.25);
        EXPECT_EQ(p.beats, beats);
        EXPECT_EQ(p.region, static_cast<std::int32_t>(region));
        EXPECT_EQ(p.nx, 20);
        EXPECT_EQ(p.ny, 10);
        EXPECT_EQ(p.nz, 1);
        EXPECT_EQ(p.slabAxis, 0);  // one rank: the slab is the whole grid, along x (longest)
        EXPECT_EQ(p.slabBegin, 0);
        EXPECT_EQ(p.slabCount, 20);
    };
    ParamSet ps{cardiac::descriptor().parameters()};
    for (const char* a : {"tissue.nx=20", "tissue.ny=10", "tissue.dx=0.25",
                          "tissue.diffusion_long=0.1", "tissue.diffusion_trans=0.05"})
        ps.setFromAssignment(a);
    auto m = cardiac::descriptor().create(Backend::Cuda);
    m->reset(ps, 1);
    std::vector<std::uint8_t> bytes = m->deviceParameterBlock();
    std::vector<double> b = doubles(bytes);
    ASSERT_EQ(bytes.size(), 6u * 8 + 8u * 8 + sizeof(cardiac::CfProtocol));
    expectProtocol(protocolOf(bytes), 1.0, 0.0, 1.0, 1.0, 1, cardiac::StimulusRegion::LeftEdge);
    const double dx2 = 0.25 * 0.25;
    EXPECT_EQ(b[0], 0.1 / dx2);
    EXPECT_EQ(b[1], 0.05 / dx2);
    EXPECT_EQ(b[2], 0.0) << "one node along z";
    EXPECT_EQ(b[3], 0.02) << "one diffusion sub-step";
    EXPECT_EQ(b[4], 0.02);
    EXPECT_EQ(b[5], 0.0);
    EXPECT_EQ((std::vector<double>(b.begin() + 6, b.begin() + 14)),
              (std::vector<double>{0.02, -50.0, 8.0, 0.15, 0.002, 0.2, 0.3, 12.9}));
    for (const char* a : {"time.dt=0.01", "tissue.fibre_axis=y", "activation.threshold=-30",
                          "protocol.amplitude=-70", "model.parameters=k = 6; mu2 = 0.25",
                          "protocol.start=3", "protocol.region=corner"})
        ps.setFromAssignment(a);
    m->setLiveParameters(ps);
    bytes = m->deviceParameterBlock();
    b = doubles(bytes);
    expectProtocol(protocolOf(bytes), 3.0, 0.0, 1.0, 1.0, 1, cardiac::StimulusRegion::Corner);
    EXPECT_EQ(b[0], 0.05 / dx2);
    EXPECT_EQ(b[1], 0.1 / dx2);
    EXPECT_EQ(b[3], 0.01);
    EXPECT_EQ(b[4], 0.01);
    EXPECT_EQ(b[5], -30.0);
    EXPECT_EQ((std::vector<double>(b.begin() + 6, b.begin() + 14)),
              (std::vector<double>{0.01, -70.0, 6.0, 0.15, 0.002, 0.2, 0.25, 12.9}));
    // The rest of the protocol: a train.
    for (const char* a : {"protocol.cycle_length=400", "protocol.duration=2", "protocol.beats=3",
                          "protocol.region=centre", "protocol.region_size=0.5"})
        ps.setFromAssignment(a);
    m->setLiveParameters(ps);
    expectProtocol(protocolOf(m->deviceParameterBlock()), 3.0, 400.0, 2.0, 0.5, 3,
                   cardiac::StimulusRegion::Centre);
    // Another instance with its own values, stepped in turn.
    ParamSet other = ps;
    other.setFromAssignment("time.dt=0.005");
    other.setFromAssignment("activation.threshold=-10");
    auto n = cardiac::descriptor().create(Backend::Cuda);
    n->reset(other, 1);
    m->advance(20);
    n->advance(20);
    m->advance(20);
    EXPECT_EQ(doubles(m->deviceParameterBlock())[5], -30.0);
    EXPECT_EQ(doubles(n->deviceParameterBlock())[5], -10.0);
    EXPECT_EQ(doubles(m->deviceParameterBlock())[4], 0.01);
    EXPECT_EQ(protocolOf(n->deviceParameterBlock()).start, 3.0);
    other.setFromAssignment("protocol.start=7");
    n->setLiveParameters(other);
    EXPECT_EQ(protocolOf(n->deviceParameterBlock()).start, 7.0);
    EXPECT_EQ(protocolOf(m->deviceParameterBlock()).start, 3.0) << "each kernel its own block";
    EXPECT_NEAR(m->time(), 0.4, 1e-12);
    EXPECT_NEAR(n->time(), 0.1, 1e-12);
    // A new model text: its kernel's block holds the values in effect when it takes over.
    const std::string base = cardiac::bundledModelSource("aliev_panfilov");
    ps.set("model.source",
           ParamValue{base + "state w_block = 0.5\ndot(w_block) = -w_block / 10 [ms]\n"});
    m->setLiveParameters(ps);
    m->applyPendingEdits();
    m->advance(5);
    bytes = m->deviceParameterBlock();
    b = doubles(bytes);
    EXPECT_EQ((std::vector<double>(b.begin() + 6, b.begin() + 14)),
              (std::vector<double>{0.01, -70.0, 6.0, 0.15, 0.002, 0.2, 0.25, 12.9}));
    expectProtocol(protocolOf(bytes), 3.0, 400.0, 2.0, 0.5, 3, cardiac::StimulusRegion::Centre);
    EXPECT_NE(m->snapshot().find("cell.w_block"), nullptr);
    // No parameters: dt, amplitude and one unused value.
    ParamSet bare{cardiac::descriptor().parameters()};
    bare.setFromAssignment("tissue.nx=8");
    bare.setFromAssignment("tissue.ny=1");
    bare.set("model.source",
             ParamValue{std::string("model bare\n[cell]\nstate V = -80 [mV] bind potential\n"
                                    "i_stim = 0 [A/F] bind stimulus\n"
                                    "dot(V) = -(V + 80 [mV]) / 10 [ms] - i_stim\n")});
    auto z = cardiac::descriptor().create(Backend::Cuda);
    z->reset(bare, 1);
    z->advance(100);  // 2 ms: the stimulus (1 to 2 ms, -50 A/F) drove V up
    bytes = z->deviceParameterBlock();
    ASSERT_EQ(bytes.size(), 6u * 8 + 3u * 8 + sizeof(cardiac::CfProtocol));
    b = doubles(bytes);
    EXPECT_EQ((std::vector<double>(b.begin() + 6, b.begin() + 9)),
              (std::vector<double>{0.02, -50.0, 0.0}));
    EXPECT_EQ(protocolOf(bytes).nx, 8);
    EXPECT_GT(z->snapshot().at("cell.V").as<double>()[0], -79.0);
}

// Lookup tables over V on the GPU (model.lookup): the table is built on the host in double
// and read by the generated kernel; in double the tissue follows the CPU, which interpolates
// the same table, to rounding (1e-8 mV over 20 ms of ten Tusscher 2006: the two compilers
// order the arithmetic differently); with and without tables the potentials differ by the
// interpolation error (h^2/8 |f''| relative, measured 1.5e-6 mV on one cell: bound 1e-3 mV).
TEST(CardiacCuda, LookupTablesMatchTheCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    auto run = [](Backend b, bool lookup) {
        ParamSet ps{cardiac::descriptor().parameters()};
        for (const char* a :
             {"tissue.nx=24", "tissue.ny=16", "model.bundled=tentusscher_2006", "time.dt=0.01",
              "protocol.amplitude=-52", "tissue.diffusion_long=0.1", "tissue.diffusion_trans=0.1"})
            ps.setFromAssignment(a);
        ps.setFromAssignment(std::string("model.lookup=") + (lookup ? "true" : "false"));
        auto m = cardiac::descriptor().create(b);
        m->reset(ps, 1);
        m->advance(2000);
        return m->snapshot().at("membrane.V").as<double>();
    };
    const auto cpu = run(Backend::Cpu, true), gpu = run(Backend::Cuda, true),
               exact = run(Backend::Cuda, false);
    double same = 0, tables = 0;
    for (std::size_t k = 0; k < cpu.size(); ++k) {
        same = std::max(same, std::fabs(cpu[k] - gpu[k]));
        tables = std::max(tables, std::fabs(gpu[k] - exact[k]));
    }
    std::printf("TP06 with tables, 20 ms: max |CPU - CUDA| %.3g mV, tables vs none %.3g mV\n", same,
                tables);
    EXPECT_LT(same, 1e-8);
    EXPECT_LT(tables, 1e-3);
    EXPECT_GT(tables, 0.0) << "the tables were used";
}

}  // namespace
}  // namespace cf
