// SPDX-License-Identifier: GPL-3.0-or-later
// `cellforge-sim bench MODEL`: runs the benchmark cases a model registers, prints a table
// and optionally writes JSON (for docs/PERFORMANCE.md and the GPU runner's summary).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/cli/commands.hpp"
#include "sim/core/parallel.hpp"
#include "sim/io/run_info.hpp"

namespace cf::cli {

namespace {

std::vector<const BenchCase*> selectCases(const ModelDescriptor& m,
                                          const std::vector<std::string>& names, bool all) {
    std::vector<const BenchCase*> out;
    std::string known;
    for (const BenchCase& c : m.benchCases)
        known += (known.empty() ? "" : ", ") + c.name;
    if (names.empty()) {
        for (const BenchCase& c : m.benchCases)
            if (all || c.runByDefault) out.push_back(&c);
        return out;
    }
    for (const std::string& n : names) {
        auto it = std::find_if(m.benchCases.begin(), m.benchCases.end(),
                               [&](const BenchCase& c) { return c.name == n; });
        if (it == m.benchCases.end())
            throw ParameterError("model '" + m.name + "' has no benchmark case '" + n +
                                 "' (cases: " + known + ")");
        out.push_back(&*it);
    }
    return out;
}

}  // namespace

int runBench(const ModelRegistry& registry, const BenchOptionsCli& options) {
    const ModelDescriptor& model = registry.at(options.model);
    if (options.list) {
        for (const BenchCase& c : model.benchCases)
            std::printf("%c %-40s %s\n", c.runByDefault ? '*' : ' ', c.name.c_str(),
                        c.description.c_str());
        return kExitOk;
    }
    const std::vector<const BenchCase*> cases = selectCases(model, options.cases, options.all);
    if (cases.empty())
        throw ParameterError("model '" + model.name + "' registers no benchmark cases");

    std::vector<Backend> backends;
    for (Backend b : availableBackends())
        if (model.offers(b)) backends.push_back(b);
    if (options.backend) {
        const Backend b = resolveBackend(options.backend, std::nullopt);
        if (!model.offers(b)) {
            // Not a failure: the model is not written for it yet (a GPU run benches all).
            std::printf("%s: no %s backend yet, nothing to benchmark there\n", model.name.c_str(),
                        std::string(toString(b)).c_str());
            return kExitOk;
        }
        backends = {b};
    }
    BenchOptions opts;
    opts.repeats = options.repeats;
    opts.scale = options.scale;

    nlohmann::json results = nlohmann::json::array();
    std::printf("%-10s %-22s %-5s %12s %12s %14s %10s\n", "model", "case", "backend", "entities",
                "median ms", "steps/s", "GB/s");
    for (const BenchCase* c : cases) {
        for (Backend b : backends) {
            if (!c->onlyOn.empty() &&
                std::find(c->onlyOn.begin(), c->onlyOn.end(), b) == c->onlyOn.end()) {
                std::printf("%-10s %-22s %-5s (a baseline of another backend: not run here)\n",
                            model.name.c_str(), c->name.c_str(), std::string(toString(b)).c_str());
                continue;
            }
            BenchResult r;
            try {
                r = c->run(b, opts);
            } catch (const InputError&) {  // e.g. --scale giving a size the model refuses
                throw;
            } catch (const Error& e) {
                std::fprintf(stderr, "cellforge-sim: benchmark %s/%s on %s failed: %s\n",
                             model.name.c_str(), c->name.c_str(), std::string(toString(b)).c_str(),
                             e.what());
                return kExitRunFailed;
            }
            r.caseName = c->name;
            const double gbps =
                r.bytesPerStep > 0 ? r.bytesPerStep * r.stepsPerSecond() / 1e9 : 0.0;
            std::printf("%-10s %-22s %-5s %12llu %12.4g %14.4g %10.4g\n", model.name.c_str(),
                        c->name.c_str(), std::string(toString(b)).c_str(),
                        static_cast<unsigned long long>(r.entities), r.medianSeconds * 1e3,
                        r.stepsPerSecond(), gbps);
            std::fflush(stdout);
            nlohmann::json extra = nlohmann::json::object();
            for (const auto& [name, value] : r.extra)
                extra[name] = value;
            results.push_back({{"model", model.name},
                               {"case", c->name},
                               {"description", c->description},
                               {"backend", std::string(toString(b))},
                               {"device", b == Backend::Cuda ? cudaStatus() : "host CPU"},
                               {"cpu_threads", workerThreads()},
                               {"entities", r.entities},
                               {"steps_per_repeat", r.stepsPerRepeat},
                               {"repeats", r.repeats},
                               {"median_s", r.medianSeconds},
                               {"min_s", r.minSeconds},
                               {"max_s", r.maxSeconds},
                               {"steps_per_s", r.stepsPerSecond()},
                               {"entity_steps_per_s", r.entityStepsPerSecond()},
                               {"bytes_per_step", r.bytesPerStep},
                               {"effective_GB_per_s", gbps},
                               {"note", r.note},
                               {"extra", extra}});
        }
    }
    if (options.json) {
        const nlohmann::json doc = {{"cellforge_version", CELLFORGE_VERSION},
                                    {"date", io::isoTimestampNow()},
                                    {"cuda", cudaStatus()},
                                    {"scale", options.scale},
                                    {"results", results}};
        std::ofstream out(*options.json, std::ios::trunc);
        out << doc.dump(2) << "\n";
        if (!out) throw IoError(*options.json + ": cannot write benchmark results");
    }
    return kExitOk;
}

}  // namespace cf::cli
