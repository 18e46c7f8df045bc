// SPDX-License-Identifier: GPL-3.0-or-later
// The CellML collection as the community writes it (issue 30): the Chaste project's working
// cardiac models, cellml-chaste/cellml/*.cellml in the conformance data folder
// (docs/reference/conformance-data.md; every case skips, saying so, where it is absent).
// Each model is imported with its own stimulus pulse at a period of 1000 ms (the period
// variable Chaste annotates), compiled to a checked model, emitted as CUDA and compiled by
// NVRTC to PTX (where NVRTC loads; no GPU is needed), and paced on the CPU interpreter at
// dt 0.01 ms with every state finite at every step. A model without a stimulus annotation
// (the sino-atrial ones, which beat on their own) runs with its own expressions unpaced.
// A table of every model, passed or failed with the reason, is printed.
//
// Reduction for CI: the short case paces one beat (1000 ms, 1e5 steps); the long case
// (CardiacCellmlCollection.PacesThreeBeats, ctest entry .long) paces the three beats the issue
// asks for. One beat already crosses the stimulus, the upstroke and the repolarisation of
// every model, where the non-finite values of the issue appeared (Bernus 2002 at step 1);
// the next two beats add minutes on one core and no new code path.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

namespace cf::cardiac {
namespace {

namespace fs = std::filesystem;

const fs::path kCollection = fs::path(CELLFORGE_SHARED_DATA) / "cellml-chaste" / "cellml";

// The models the conformance goal counts. Issue 30's goal is 75 of 79; today 65 pace one
// beat and 63 three (the others, listed with their reasons in docs/CARDIAC.md, are mostly
// stiff Markov, calcium-release or coupled-compartment systems that leave the finite numbers
// under explicit steps of 0.01 ms). Each case holds what passes, so a regression fails it;
// raise the counts as models are fixed.
constexpr std::size_t kModels = 79;
constexpr std::size_t kPassingOneBeat = 65;
constexpr std::size_t kPassingThreeBeats = 63;
constexpr std::size_t kGoal = 75;

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
    double seconds = 0;  // wall time of the whole case
};

// The import with the file's own pulse at 1000 ms; a file without an annotated period (no
// stimulus to pace) is imported again without asking for one.
std::string importForPacing(const std::string& xml, const std::string& name, bool& paced) {
    CellmlImportOptions o;
    o.ownStimulus = true;
    o.stimulusPeriodMs = 1000;
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

Outcome runModel(const fs::path& file, double durationMs) {
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
        text = importForPacing(readFile(file), file.filename().string(), paced);
        out.imported = true;
        out.how = paced ? "paced" : "unpaced (no stimulus annotation)";
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
    // The model's own time unit: seconds where the file keeps time in seconds.
    const double perMs = model.timeUnit == "s" ? 1e-3 : 1.0;
    const double dt = 0.01 * perMs;
    const long steps = std::lround(durationMs / 0.01);
    CellProgram p(model);
    CellProgram::Workspace w;
    std::vector<double> y = p.initialStates();
    for (long n = 0; n < steps; ++n) {
        const double t = static_cast<double>(n) * dt;
        p.step(y.data(), t, dt, nullptr, w);  // nullptr: the model's own stimulus expression
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
    }
    out.paced = true;
    return finish();
}

void runCollection(double durationMs, std::size_t passing) {
    if (!CELLFORGE_HAVE_CELLML) GTEST_SKIP() << "built without libxml2: no CellML import";
    if (!fs::is_directory(kCollection))
        GTEST_SKIP() << "the collection is absent: " << kCollection.lexically_normal().string()
                     << " (CELLFORGE_CONFORMANCE_DATA, docs/reference/conformance-data.md)";
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kCollection))
        if (e.path().extension() == ".cellml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ASSERT_EQ(files.size(), kModels) << "the collection changed: update the counts";
    std::size_t imported = 0, compiled = 0, ptx = 0, passed = 0;
    std::ostringstream table;
    for (const fs::path& f : files) {
        const Outcome o = runModel(f, durationMs);
        imported += o.imported;
        compiled += o.compiled;
        ptx += o.ptx;
        passed += o.paced;
        char head[160];
        std::snprintf(head, sizeof head, "%-62s %-6s %6.1f s  ", o.model.c_str(),
                      o.paced ? "passed" : "FAILED", o.seconds);
        table << head << (o.paced ? o.how : o.reason.substr(0, 400)) << "\n";
    }
    std::printf("CellML collection, %.0f ms at dt 0.01 ms:\n%s", durationMs, table.str().c_str());
    std::printf(
        "%zu of %zu import, %zu compile, %zu compile to PTX%s, %zu pace without a "
        "non-finite state\n",
        imported, files.size(), compiled, ptx,
        nvrtcAvailable() ? "" : (" (NVRTC unavailable: " + nvrtcStatus() + ")").c_str(), passed);
    std::printf("goal: %zu of %zu (issue 30)\n", kGoal, kModels);
    EXPECT_EQ(imported, files.size());
    EXPECT_EQ(compiled, files.size());
    if (nvrtcAvailable()) {
        EXPECT_EQ(ptx, files.size());
    }
    EXPECT_GE(passed, passing);
}

TEST(CardiacCellmlCollection, PacesOneBeat) {
    runCollection(1000, kPassingOneBeat);
}

TEST(CardiacCellmlCollection, PacesThreeBeats) {
    runCollection(3000, kPassingThreeBeats);
}

}  // namespace
}  // namespace cf::cardiac
