// SPDX-License-Identifier: GPL-3.0-or-later
// The CellML collection as the community writes it (issue 30): the Chaste project's working
// cardiac models, cellml-chaste/cellml/*.cellml in the conformance data folder
// (docs/reference/conformance-data.md; every case skips, saying so, where it is absent).
// Each model is imported with its own stimulus pulse at a period of 1000 ms (the period
// variable Chaste annotates), compiled to a checked model, emitted as CUDA and compiled by
// NVRTC to PTX (where NVRTC loads; no GPU is needed), and paced on the CPU interpreter at
// dt 0.01 ms with every state finite at every step. A model whose own stimulus is not finite,
// or fires no upstroke over a period, runs again with the default stimulus (-50 A/F for 1 ms
// every 1000 ms: the amplitude means the same for every import). A model without a stimulus
// annotation (the sino-atrial ones, which beat on their own) runs with its own expressions
// unpaced. A table of every model, passed or failed with the reason, is printed.
//
// Reduction for CI: the short case paces the first 100 ms (the stimulus and the upstroke, where
// most of the non-finite values of the issue appeared: Bernus 2002 at step 1); the long case
// (CardiacCellmlCollection.PacesThreeBeats, ctest entry .long) paces the three beats the issue
// asks for, about 17 minutes on one core (GRL1 evaluates each state's slope as well).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/lang/invariants.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"
#include "tests/support/backends.hpp"
#if CELLFORGE_HAVE_CUDA
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/cuda/cell_kernel.hpp"
#endif

namespace cf::cardiac {
namespace {

namespace fs = std::filesystem;

const fs::path kCollection = fs::path(CELLFORGE_SHARED_DATA) / "cellml-chaste" / "cellml";

// The models the conformance goal counts. Issue 30's goal is 75 of 79. Imported models
// integrate every state that is not a gate by GRL1 (CellmlImportOptions::nonGates), which the
// stiff calcium, Markov and coupled-potential states need at 0.01 ms; a model whose own
// stimulus is not finite or does not fire it gets the default stimulus. 76 run the first 100 ms
// and the three beats finite; the 3 others (Bondarenko 2004 apical and septal, Li 2010: the
// mouse calcium release runs away in the first upstroke) are listed with their reasons in
// docs/CARDIAC.md. Each case holds what passes, so a regression fails it.
constexpr std::size_t kModels = 79;
constexpr std::size_t kPassingFirst100Ms = 76;
constexpr std::size_t kPassingThreeBeats = 76;
constexpr std::size_t kGoal = 75;

// An upstroke: the potential crossing -20 mV upwards (every model's action potential
// overshoots it; the resting potentials lie below -50 mV). Reported, not asserted: the
// goal counts finite runs, and the table shows that the beats fire.
constexpr double kUpstrokeMv = -20.0;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Outcome {
    std::string model;
    bool imported = false, compiled = false, ptx = false, paced = false;
    std::string reason;  // the first failure
    std::string how;     // "paced" or "unpaced (no stimulus annotation)"
    int upstrokes = 0;   // crossings of kUpstrokeMv upwards: the beats that fired
    double seconds = 0;  // wall time of the whole case
};

// The import with the file's own pulse at 1000 ms; a file without an annotated period (no
// stimulus to pace) is imported again without asking for one.
std::string importForPacing(const std::string& xml, const std::string& name, bool& paced) {
    CellmlImportOptions o;
    o.ownStimulus = true;
    o.stimulusPeriodMs = 1000;
    // Its own pulse does not read the protocol's units: a file whose stimulus units are
    // inconsistent (refused by default, StimulusAmplitudeIsInAmperesPerFarad) still paces.
    o.stimulusByEquation = true;
    try {
        paced = true;
        return importCellml(xml, name, o);
    } catch (const CellmlError& e) {
        if (std::string(e.what()).find("membrane_stimulus_current_period") == std::string::npos)
            throw;
    }
    paced = false;
    o.stimulusPeriodMs = 0;
    return importCellml(xml, name, o);
}

// The model's time units per ms: 1e-3 where the file keeps time in seconds.
double perMillisecond(const CheckedModel& model) {
    return model.timeUnit == "s" ? 1e-3 : 1.0;
}

// The collection's models, sorted by name.
std::vector<fs::path> collectionFiles() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kCollection))
        if (e.path().extension() == ".cellml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The default stimulus, for a model whose own does not fire it (issue 30: "with its own
// stimulus (or a default one)"): the protocol's -50 A/F for 1 ms, at 10 ms and every 1000 ms
// after. The amplitude is in A/F for every imported model (StimulusAmplitudeIsInAmperesPerFarad),
// so one pulse depolarises each by 50 mV.
constexpr double kDefaultAmplitude = -50.0, kDefaultStartMs = 10.0, kDefaultDurationMs = 1.0,
                 kPeriodMs = 1000.0;

double defaultStimulus(double tMs) {
    if (tMs < kDefaultStartMs) return 0.0;
    return std::fmod(tMs - kDefaultStartMs, kPeriodMs) < kDefaultDurationMs ? kDefaultAmplitude
                                                                            : 0.0;
}

std::string importForDefaultStimulus(const std::string& xml, const std::string& name) {
    CellmlImportOptions o;
    o.stimulusByEquation = true;  // as importForPacing
    return importCellml(xml, name, o);
}

Outcome runModel(const fs::path& file, double durationMs, bool useDefaultStimulus = false) {
    Outcome out;
    out.model = file.stem().string();
    const auto start = std::chrono::steady_clock::now();
    auto finish = [&] {
        out.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return out;
    };
    std::string text;
    bool paced = false;
    try {
        text = useDefaultStimulus
                   ? importForDefaultStimulus(readFile(file), file.filename().string())
                   : importForPacing(readFile(file), file.filename().string(), paced);
        out.imported = true;
        out.how = useDefaultStimulus ? "default stimulus"
                  : paced            ? "paced"
                                     : "unpaced (no stimulus annotation)";
    } catch (const ModelError& e) {
        out.reason = std::string("import: ") + e.what();
        return finish();
    }
    CheckedModel model;
    try {
        model = compileModel(text, out.model + " (imported)");
        out.compiled = true;
    } catch (const ModelError& e) {
        out.reason = std::string("compile: ") + e.what();
        return finish();
    }
    if (nvrtcAvailable()) {
        try {
            const GeneratedSource g = emitCuda(model, Precision::Double);
            const CompiledKernel k = compileKernel(g, out.model + ".cu", "compute_90");
            out.ptx = !k.image.empty();
            if (!out.ptx) out.reason = "nvrtc: empty PTX";
        } catch (const std::exception& e) {
            out.reason = std::string("nvrtc: ") + e.what();
            return finish();
        }
    }
    const double perMs = perMillisecond(model);
    const double dt = 0.01 * perMs;
    const long steps = std::lround(durationMs / 0.01);
    CellProgram p(model);
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    const auto v = static_cast<std::size_t>(model.stateOf(model.potential));
    // A minimal model's potential rests at 0 and peaks near 1.5 (Bueno 2007's u, whatever
    // units its file declares): its upstroke is a crossing of 0.5.
    const double threshold = y[v] > kUpstrokeMv ? 0.5 : kUpstrokeMv;
    bool above = y[v] > threshold;
    for (long n = 0; n < steps; ++n) {
        const double t = static_cast<double>(n) * dt;
        const double pulse = defaultStimulus(static_cast<double>(n) * 0.01);
        // nullptr: the model's own stimulus expression
        p.step(y.data(), t, dt, useDefaultStimulus ? &pulse : nullptr, w);
        for (std::size_t s = 0; s < y.size(); ++s)
            if (!std::isfinite(y[s])) {
                char when[64];
                std::snprintf(when, sizeof when, "%.6g ms", (t + dt) / perMs);
                out.reason = "state '" +
                             model.vars[static_cast<std::size_t>(model.states[s].var)].name +
                             "' not finite at step " + std::to_string(n + 1) + " (t = " + when +
                             "): " + p.explainNonFinite(s, dt, w);
                return finish();
            }
        if (!above && y[v] > threshold) ++out.upstrokes;
        above = y[v] > threshold;
    }
    out.paced = true;
    return finish();
}

void runCollection(double durationMs, std::size_t passing) {
    if (!CELLFORGE_HAVE_CELLML) GTEST_SKIP() << "built without libxml2: no CellML import";
    if (!fs::is_directory(kCollection))
        GTEST_SKIP() << "the collection is absent: " << kCollection.lexically_normal().string()
                     << " (CELLFORGE_CONFORMANCE_DATA, docs/reference/conformance-data.md)";
    const std::vector<fs::path> files = collectionFiles();
    ASSERT_EQ(files.size(), kModels) << "the collection changed: update the counts";
    std::size_t imported = 0, compiled = 0, ptx = 0, passed = 0;
    std::ostringstream table;
    std::size_t byDefault = 0;
    for (const fs::path& f : files) {
        Outcome o = runModel(f, durationMs);
        // Its own stimulus was not finite, or (over a whole period: the own pulse of some
        // starts after 100 ms) did not fire it: the default stimulus.
        if (o.compiled && o.how == "paced" &&
            (!o.paced || (durationMs >= kPeriodMs && o.upstrokes == 0))) {
            Outcome d = runModel(f, durationMs, true);
            d.seconds += o.seconds;
            d.how += std::string(" (its own: ") +
                     (o.paced ? "no upstroke" : o.reason.substr(0, 120)) + ")";
            if (d.paced) {
                o = d;
                ++byDefault;
            } else {
                o.reason += "; with the default stimulus: " + d.reason;
            }
        }
        imported += o.imported;
        compiled += o.compiled;
        ptx += o.ptx;
        passed += o.paced;
        char head[160];
        std::snprintf(head, sizeof head, "%-62s %-6s %6.1f s  ", o.model.c_str(),
                      o.paced ? "passed" : "FAILED", o.seconds);
        table << head
              << (o.paced ? o.how + ", " + std::to_string(o.upstrokes) + " upstrokes"
                          : o.reason.substr(0, 400))
              << "\n";
    }
    std::printf("CellML collection, %.0f ms at dt 0.01 ms:\n%s", durationMs, table.str().c_str());
    std::printf(
        "%zu of %zu import, %zu compile, %zu compile to PTX%s, %zu pace without a "
        "non-finite state\n",
        imported, files.size(), compiled, ptx,
        nvrtcAvailable() ? "" : (" (NVRTC unavailable: " + nvrtcStatus() + ")").c_str(), passed);
    std::printf("%zu of them with the default stimulus (%g A/F for %g ms every %g ms)\n", byDefault,
                kDefaultAmplitude, kDefaultDurationMs, kPeriodMs);
    std::printf("goal: %zu of %zu (issue 30)\n", kGoal, kModels);
    EXPECT_EQ(imported, files.size());
    EXPECT_EQ(compiled, files.size());
    if (nvrtcAvailable()) {
        EXPECT_EQ(ptx, files.size());
    }
    EXPECT_GE(passed, passing);
}

// Every model's stimulus in the protocol's units: imported for the protocol (its own pulse
// replaced), 1 A/F of depolarising amplitude must raise the potential's rate by 1 mV/ms at the
// initial state, whatever the file's stimulus is in (A/F, nA, pA, uA/cm^2 with the membrane
// capacitance, a sign either way). Bound 1e-9 relative: the conversion is exact factors of
// ten and one product with the capacitance, so only rounding separates it from 1. Models whose
// potential is dimensionless (Bueno 2007's u) have the amplitude in their own units and are
// listed, not bounded.
TEST(CardiacCellmlCollection, StimulusAmplitudeIsInAmperesPerFarad) {
    if (!CELLFORGE_HAVE_CELLML) GTEST_SKIP() << "built without libxml2: no CellML import";
    if (!fs::is_directory(kCollection))
        GTEST_SKIP() << "the collection is absent: " << kCollection.lexically_normal().string();
    std::size_t withStimulus = 0, exact = 0, reversed = 0, capacitance = 0, own = 0;
    std::vector<std::string> refused;
    for (const fs::path& f : collectionFiles()) {
        std::string text;
        try {
            text = importCellml(readFile(f), f.filename().string());
        } catch (const CellmlError& e) {
            // Refused only for inconsistent units, naming the stimulus; by its equation then.
            const std::string why = e.what();
            EXPECT_NE(why.find("do not reconcile with the equation of"), std::string::npos) << why;
            refused.push_back(f.stem().string() + ": " + why.substr(why.find("error: ") + 7));
            CellmlImportOptions byEquation;
            byEquation.stimulusByEquation = true;
            text = importCellml(readFile(f), f.filename().string(), byEquation);
            EXPECT_NE(text.find("WARNING: the file's units do not reconcile"), std::string::npos);
        }
        const CheckedModel model = compileModel(text, f.stem().string());
        if (model.stimulus < 0) continue;
        ++withStimulus;
        const double effect = stimulusEffect(CellProgram(model, false));
        const bool dimensionless =
            text.find("is dimensionless: the protocol's amplitude") != std::string::npos ||
            model.vars[static_cast<std::size_t>(model.potential)].unit == "1";
        const bool timesCm = text.find("times the membrane capacitance") != std::string::npos;
        const bool flipped = text.find("depolarises when positive") != std::string::npos;
        capacitance += timesCm;
        reversed += flipped;
        own += !timesCm && text.find("_A_per_F") == std::string::npos;
        std::printf("%-62s %12.9f mV/ms per A/F%s%s\n", f.stem().string().c_str(), effect,
                    timesCm ? ", times Cm" : "", flipped ? ", sign reversed" : "");
        if (dimensionless) continue;
        EXPECT_NEAR(effect, 1.0, 1e-9) << f.stem().string();
        exact += std::fabs(effect - 1.0) <= 1e-9;
    }
    std::printf(
        "%zu models with a stimulus: %zu at 1 mV/ms per A/F; %zu read through the membrane "
        "capacitance, %zu with the sign reversed, %zu in A/F as written\n",
        withStimulus, exact, capacitance, reversed, own);
    std::printf("%zu refused for inconsistent units (then imported with stimulusByEquation):\n",
                refused.size());
    for (const std::string& r : refused)
        std::printf("  %s\n", r.c_str());
    // Bernus 2002 and Ramirez 2000 (their pA/pF currents are divided by Cm in pF again) and
    // Maleckar 2009 (its pA_per_nF currents are pA/pF, times 1000 in its equation); a change
    // in either direction should be looked at.
    EXPECT_EQ(refused.size(), 3u);
    EXPECT_EQ(withStimulus, 70u);  // the 70 with a stimulus annotation
}

TEST(CardiacCellmlCollection, PacesTheFirst100Ms) {
    runCollection(100, kPassingFirst100Ms);
}

TEST(CardiacCellmlCollection, PacesThreeBeats) {
    runCollection(3000, kPassingThreeBeats);
}

#if CELLFORGE_HAVE_CUDA
struct KernelComparison {
    bool compiled = false, finite = true, ok = false, byDefault = false;
    double worstV = 0.0, worstRel = 0.0;
};

// One model's generated kernels (double, 32 cells; four generator configurations: the states in
// registers; in shared memory (Opt2S); the step split into 4 kernels with the states in shared
// memory (Opt3 + 2S); and every arithmetic rewrite with the step split into 4 kernels) beside
// the interpreter for 200 ms: with its own stimulus expression (the tissue mask
// keeps the protocol off), or with the default stimulus driven by the protocol on every cell,
// as the CPU case falls back to it. The worst difference of either kernel is reported.
KernelComparison compareKernel(const fs::path& f, bool useDefaultStimulus) {
    constexpr unsigned kCells = 32;
    constexpr double kMs = 200.0, kVoltTolerance = 1e-6, kRelTolerance = 1e-9;
    KernelComparison c;
    c.byDefault = useDefaultStimulus;
    bool paced = false;
    CheckedModel model;
    try {
        model = compileModel(useDefaultStimulus
                                 ? importForDefaultStimulus(readFile(f), f.filename().string())
                                 : importForPacing(readFile(f), f.filename().string(), paced),
                             f.stem().string());
    } catch (const ModelError&) {
        return c;
    }
    c.compiled = true;
    const double dt = 0.01 * perMillisecond(model);
    const long steps = std::lround(kMs / 0.01);
    CellProgram cpu(model);
    CellProgram::Workspace w;
    std::vector<double> ref = cpu.initialStates();
    const std::size_t states = ref.size();
    std::vector<double> host(states * kCells);
    for (unsigned i = 0; i < kCells; ++i)
        for (std::size_t s = 0; s < states; ++s)
            host[s * kCells + i] = ref[s];
    // The configurations' kernels (EmitOptions) beside one interpreter.
    std::vector<EmitOptions> configurations(4);
    configurations[1].states = StateStorage::Shared;
    configurations[2].states = StateStorage::Shared;
    configurations[2].parts = 4;
    configurations[3].hoistInvariants = configurations[3].polynomialPhi1 = true;
    configurations[3].parts = 4;
    std::vector<cuda::DeviceBuffer<double>> ys;
    std::vector<CellKernel> kernels;
    std::vector<GeneratedSource> sources;
    for (const EmitOptions& o : configurations) {
        ys.emplace_back(host);
        sources.push_back(emitCuda(model, Precision::Double, o));
        kernels.emplace_back(sources.back(), f.stem().string() + ".cu");
    }
    cuda::DeviceBuffer<double> next(host);  // the split kernels' scratch
    cuda::DeviceBuffer<unsigned char> tissue(
        std::vector<unsigned char>(kCells, useDefaultStimulus ? 1 : 0));
    cuda::DeviceBuffer<int> fail(std::vector<int>{static_cast<int>(kCells)});
    CardiacParams protocol{};
    protocol.beats = useDefaultStimulus ? 1 : 0;
    protocol.start = kDefaultStartMs;
    protocol.duration = kDefaultDurationMs;
    protocol.cycleLength = kPeriodMs;
    protocol.amplitude = kDefaultAmplitude;
    protocol.region = static_cast<std::int32_t>(StimulusRegion::All);
    protocol.regionSize = 1.0;
    protocol.nx = kCells;
    protocol.ny = protocol.nz = 1;
    protocol.dx = 0.1;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        kernels[k].setParameters(
            parameterBlock<double>(dt, useDefaultStimulus ? kDefaultAmplitude : 0.0,
                                   cpu.parameters(),
                                   invariantValues(model, sources[k].invariants, cpu.parameters())),
            nullptr);
        kernels[k].setProtocol(protocolBlock(protocol), nullptr);
    }
    const auto v = static_cast<std::size_t>(model.stateOf(model.potential));
    for (long n = 0; n < steps && c.finite; ++n) {
        const double t = static_cast<double>(n) * dt;
        for (std::size_t k = 0; k < kernels.size(); ++k)
            kernels[k].launch(CfArgs<double>{ys[k].data(),
                                             tissue.data(),
                                             fail.data(),
                                             t,
                                             kCells,
                                             kCells,
                                             nullptr,
                                             nullptr,
                                             next.data(),
                                             {}},
                              nullptr);
        // The kernel's pulse test, so both stimulate at the same steps.
        const double pulse = pulseOn(protocol, t) ? kDefaultAmplitude : 0.0;
        cpu.step(ref.data(), t, dt, useDefaultStimulus ? &pulse : nullptr, w);
        for (double x : ref)
            c.finite = c.finite && std::isfinite(x);
        if ((n + 1) % 100 == 0 || n + 1 == steps)
            for (const cuda::DeviceBuffer<double>& y : ys) {
                const std::vector<double> out = y.toHost();
                for (unsigned i = 0; i < kCells; ++i)
                    c.worstV = std::max(c.worstV, std::fabs(out[v * kCells + i] - ref[v]));
                if (n + 1 == steps)
                    for (std::size_t s = 0; s < states; ++s)
                        for (unsigned i = 0; i < kCells; ++i)
                            c.worstRel =
                                std::max(c.worstRel, std::fabs(out[s * kCells + i] - ref[s]) /
                                                         (std::fabs(ref[s]) + 1e-6));
            }
    }
    c.ok = c.finite && fail.toHost()[0] == static_cast<int>(kCells) && c.worstV < kVoltTolerance &&
           c.worstRel < kRelTolerance;
    return c;
}

// On the GPU: every model of the collection as generated CUDA (double) beside the CPU
// interpreter, 200 ms at dt 0.01 ms from the file's initial state with the file's own stimulus
// expression (the tissue mask keeps the protocol off, so the kernel evaluates it as the
// interpreter does), 32 cells. Compared: the potential every 1 ms and every state at the end.
// Tolerance: 1e-6 mV on the potential and 1e-9 of |y| + 1e-6 on every state (the floor for
// states near 0). What differs is CUDA's libdevice against glibc's libm in the last bits of
// exp, log and pow, amplified through upstrokes and calcium release: on an H200 (2026-11-28,
// the whole collection in 12 shards at once, 66 s) the 76 models the interpreter paces (Paci
// ventricular with the default stimulus, as the CPU case) stayed within 9.8e-11 mV (Mahajan
// 2008) and 1.5e-11 relative (Jafri 1998), as ten Tusscher 2006 within 1e-6 mV over 20 ms
// (test_cardiac_codegen); a wrong emitted expression or method moves millivolts. A model the
// interpreter cannot run finite with either stimulus is not compared (Bondarenko x2, Li 2010).
TEST(CardiacCellmlCollectionCuda, GeneratedKernelsFollowTheInterpreter) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    if (!CELLFORGE_HAVE_CELLML) GTEST_SKIP() << "built without libxml2: no CellML import";
    if (!fs::is_directory(kCollection)) GTEST_SKIP() << "the collection is absent";
    std::vector<fs::path> files = collectionFiles();
    // CELLFORGE_COLLECTION_SHARD=i/n: the models whose index is i modulo n, so that n
    // processes share the interpreter's side (the slow one) on a machine with many cores.
    std::size_t shard = 0, shards = 1;
    if (const char* e = std::getenv("CELLFORGE_COLLECTION_SHARD")) {
        ASSERT_EQ(std::sscanf(e, "%zu/%zu", &shard, &shards), 2) << "write i/n, not " << e;
    }
    ASSERT_LT(shard, shards);
    std::vector<fs::path> mine;
    for (std::size_t i = shard; i < files.size(); i += shards)
        mine.push_back(files[i]);
    const std::size_t inCollection = files.size();
    files = mine;
    std::size_t compared = 0, agreed = 0, byDefault = 0;
    std::printf("%-62s %-9s %12s %12s\n", "model", "result", "max |dV| mV", "max rel dy");
    for (const fs::path& f : files) {
        KernelComparison c = compareKernel(f, false);
        if (c.compiled && !c.finite) c = compareKernel(f, true);  // as the CPU case does
        if (!c.compiled) continue;                                // the CPU case reports it
        const std::string name = f.stem().string() + (c.byDefault ? " (default stimulus)" : "");
        if (!c.finite) {
            std::printf("%-62s %-9s\n", name.c_str(), "not run");
            continue;
        }
        ++compared;
        byDefault += c.byDefault;
        agreed += c.ok;
        std::printf("%-62s %-9s %12.3g %12.3g\n", name.c_str(), c.ok ? "agrees" : "DIFFERS",
                    c.worstV, c.worstRel);
        std::fflush(stdout);  // a row at a time: the table is read while it runs
        EXPECT_TRUE(c.ok) << name << ": |dV| " << c.worstV << " mV, relative " << c.worstRel;
    }
    std::printf("%zu with the default stimulus\n", byDefault);
    std::printf("%zu of %zu compared models agree (shard %zu/%zu: %zu of the %zu)\n", agreed,
                compared, shard, shards, files.size(), inCollection);
    // Every model but those the interpreter cannot run finite with either stimulus
    // (kModels - kPassingThreeBeats in all) is compared.
    EXPECT_GE(compared + (kModels - kPassingThreeBeats), files.size());
}
#endif

}  // namespace
}  // namespace cf::cardiac
