// SPDX-License-Identifier: GPL-3.0-or-later
// cellforge-sim: the headless runner (no Qt, no GL). Runs scenarios, lists models and
// parameters, and runs benchmarks. Builds and runs on a bare GPU server.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/model_commands.hpp"
#include "sim/cli/params_markdown.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/data_paths.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/model.hpp"
#include "sim/core/scenario.hpp"
#include "sim/dist/communicator.hpp"
#if CELLFORGE_HAVE_MPI
#include "sim/dist/mpi_communicator.hpp"
#endif
#if CELLFORGE_HAVE_NCCL
#include "sim/dist/nccl_exchange.hpp"
#endif

namespace {

int listModels(const cf::ModelRegistry& registry) {
    for (const cf::ModelDescriptor& m : registry.all())
        std::printf("%-12s %s\n", m.name.c_str(), m.description.c_str());
    return cf::kExitOk;
}

// The bundled scenarios: name, model and title, then what it demonstrates and what it
// reproduces, indented; `cellforge-sim run NAME` runs one.
int listScenarios(const cf::ModelRegistry& registry) {
    const std::filesystem::path dir = cf::bundledScenarioDirectory();
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::printf("Bundled scenarios in %s (run one with `cellforge-sim run NAME`):\n\n",
                dir.string().c_str());
    for (const auto& file : files) {
        const std::string name = file.stem().string();
        try {
            const cf::Scenario sc = cf::loadScenario(file, registry);
            std::printf("%-24s %-9s %s\n", name.c_str(), sc.model->name.c_str(),
                        sc.about.title.c_str());
            if (!sc.about.demonstrates.empty())
                std::printf("%35s%s\n%35s%s\n", "", sc.about.demonstrates.c_str(), "",
                            ("Reproduces: " + sc.about.reproduces).c_str());
        } catch (const cf::Error& e) {
            std::printf("%-24s (cannot be loaded: %s)\n", name.c_str(), e.what());
        }
    }
    return cf::kExitOk;
}

int showParams(const cf::ModelRegistry& registry, const std::string& model, bool markdown) {
    if (markdown) {
        std::fputs(cf::cli::parametersMarkdown(registry, model).c_str(), stdout);
        return cf::kExitOk;
    }
    if (model.empty())
        throw cf::ParameterError("params: name a MODEL (see `list`), or give --markdown");
    const cf::ModelDescriptor& m = registry.at(model);
    std::printf("%s: %s\n\n", m.name.c_str(), m.description.c_str());
    std::fputs(cf::describeParameters(m.parameters()).c_str(), stdout);
    std::printf(
        "\nlive: editable while running; structural: applied at the next reset.\n"
        "Override with --set group.name=value or in [parameters.group] of a scenario.\n");
    return cf::kExitOk;
}

int showBackends(cf::dist::Communicator* ranks) {
    for (cf::Backend b : {cf::Backend::Cpu, cf::Backend::Cuda}) {
        if (ranks && ranks->rank() != 0) break;
        const bool ok = cf::isAvailable(b);
        std::printf("%-5s %-11s %s\n", std::string(cf::toString(b)).c_str(),
                    ok ? "available" : "unavailable",
                    b == cf::Backend::Cpu ? "reference implementation" : cf::cudaStatus().c_str());
    }
#if CELLFORGE_HAVE_MPI
    // Every rank says where it runs; rank 0 prints them all, in rank order.
    std::string where = "one rank (start several with mpirun -n N)";
    std::vector<std::string> lines;
    if (ranks) {
        where =
            "rank " + std::to_string(ranks->rank()) + " of " + std::to_string(ranks->size()) +
            " on " + ranks->host() +
            (ranks->deviceBuffers() ? ", halos in device memory" : ", halos through host memory");
        lines = ranks->gatherStrings(where, 0);
    } else {
        lines = {where};
    }
    if (!ranks || ranks->rank() == 0) {
        std::printf("%-5s %-11s %s\n", "mpi", "available", cf::dist::mpiDescription().c_str());
        for (const std::string& line : lines)
            std::printf("%-5s %-11s %s\n", "", "", line.c_str());
#if CELLFORGE_HAVE_NCCL
        const std::string nccl = cf::dist::ncclDescription();
        const bool ncclOk = nccl.rfind("NCCL ", 0) == 0;
        std::printf("%-5s %-11s %s\n", "nccl", ncclOk ? "available" : "unavailable",
                    (nccl + (ncclOk ? ": halo planes GPU to GPU on the stream in distributed runs"
                                    : "; halos between GPUs go through MPI"))
                        .c_str());
#endif
    }
#else
    (void)ranks;
    std::printf("%-5s %-11s %s\n", "mpi", "unavailable",
                "this build has no MPI (configure with CELLFORGE_MPI=ON)");
#endif
    return cf::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    // Started by mpirun (or another launcher) as one of a job's ranks: MPI for the whole
    // process. Otherwise one rank without MPI. Only rank 0 prints what all ranks would.
#if CELLFORGE_HAVE_MPI
    std::unique_ptr<cf::dist::MpiSession> mpi;  // declared first: it outlives the communicator
#endif
    std::unique_ptr<cf::dist::Communicator> world;
#if CELLFORGE_HAVE_MPI
    if (cf::dist::launchedAsRank()) {
        try {
            mpi = std::make_unique<cf::dist::MpiSession>(&argc, &argv);
            world = mpi->world();
#if CELLFORGE_HAVE_NCCL
            world->provideStreamExchange(&cf::dist::makeNcclExchange);
#endif
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cellforge-sim: error: %s\n", e.what());
            return cf::kExitRunFailed;
        }
    }
#endif
    const bool quietRank = world && world->rank() != 0;
    CLI::App app{
        "cellforge-sim: headless simulation runner of Cellforge\n"
        "Exit codes: 0 success, 2 bad input (scenario, parameter, file), "
        "3 failure during the run, 130 interrupted."};
    // The program's own name, not argv[0]: the usage lines are also the man page's.
    app.name("cellforge-sim");
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("cellforge-sim ") + CELLFORGE_VERSION);
    // Every subcommand's options on one page: what the man page is made from (help2man).
    app.set_help_all_flag("--help-all", "Print this help and every subcommand's, then exit");

    app.add_subcommand("list", "List the models: name, then description");
    app.add_subcommand("backends", "Show which backends this build and machine can run");

    std::string paramsModel;
    bool paramsMarkdown = false;
    CLI::App* params = app.add_subcommand("params", "Show every parameter of a model");
    params->add_option("MODEL", paramsModel,
                       "Model name (see `list`); optional with --markdown (then every model)");
    params->add_flag("--markdown", paramsMarkdown,
                     "The scenario-file reference as Markdown (docs/reference/scenario-file.md "
                     "is its output for every model)");

    cf::cli::RunOptions run;
    app.add_subcommand("scenarios", "List the bundled scenarios: what each shows and reproduces");
    CLI::App* runCmd = app.add_subcommand("run", "Run a scenario and write its output");
    runCmd
        ->add_option("SCENARIO", run.scenario,
                     "Scenario file (.toml), or the name of a bundled one (see `scenarios`)")
        ->required();
    runCmd->add_option("--steps", run.steps, "Number of steps (overrides the scenario)");
    runCmd->add_option("--backend", run.backend,
                       "cpu or cuda (default: the scenario's, else the best available)");
    runCmd->add_option("--set", run.sets, "Override a parameter: group.name=value (repeatable)");
    runCmd->add_option("--out", run.outDir, "Output directory (overrides [output] dir)");
    runCmd->add_option("--every", run.every,
                       "Steps between HDF5 snapshots (overrides [output] snapshot_every)");
    runCmd->add_option("--resume", run.resume,
                       "Continue from a checkpoint written by an earlier run");
    runCmd->footer(
        "Under mpirun (or a batch system's launcher) one simulation is split over the ranks,\n"
        "one GPU each (cardiac and lattice): rank 0 prints and writes series.csv and run.json,\n"
        "snapshots are one .xmf over per-rank pieces, each rank writes its own checkpoint file\n"
        "and --resume needs as many ranks. docs/SCALING.md has the details.\n"
        "Example: mpirun -n 4 cellforge-sim run cardiac-niederer --backend cuda --out out/t");

    cf::cli::SweepOptionsCli sweep;
    CLI::App* sweepCmd = app.add_subcommand(
        "sweep", "Run a scenario once per point of a parameter grid, with a summary CSV");
    sweepCmd
        ->add_option("SCENARIO", sweep.scenario,
                     "Scenario file (.toml), or the name of a bundled one (see `scenarios`)")
        ->required();
    sweepCmd
        ->add_option("--vary", sweep.vary,
                     "An axis: group.name=FROM:TO:COUNT, COUNT values from FROM to TO inclusive, "
                     "equally spaced (repeatable; the grid is every combination)")
        ->required();
    sweepCmd->add_option("--log", sweep.logKeys,
                         "Space this axis (group.name) geometrically instead (repeatable)");
    sweepCmd->add_option("--set", sweep.sets, "A fixed override for every run: group.name=value");
    sweepCmd->add_option("--gpus", sweep.gpus, "CUDA devices, one run on each at a time: 0,1,..")
        ->delimiter(',');
    sweepCmd->add_option("--backend", sweep.backend, "cpu or cuda (default as for `run`)");
    sweepCmd->add_option("--steps", sweep.steps, "Steps of each run (overrides the scenario)");
    sweepCmd->add_option("--out", sweep.outDir,
                         "Output directory, new or empty (default: the scenario's [output] "
                         "dir + /sweep)");
    sweepCmd->add_option("--jobs", sweep.jobs,
                         "CPU runs at a time (default 1: each run already uses every core)");
    sweepCmd->footer(
        "Each run writes OUT/run-0001, OUT/run-0002, ... as `run` does; OUT/summary.csv has one\n"
        "row per run: the varied values, status, wall time and the last value of each metric.\n"
        "Integer parameters take rounded, distinct values. The first --vary varies slowest.\n"
        "Every value is checked before anything runs. Ctrl-C stops cleanly: finished runs are\n"
        "kept and the summary says which are missing. Exit 3 when a run failed.\n"
        "Under `mpirun -n K` rank 0 hands the runs to K-1 worker ranks, one run each at a time\n"
        "(CUDA: a worker's device is its place among the workers of its host, of --gpus if\n"
        "given), with the same folders and summary; OUT must be shared by every host.\n\n"
        "Example (4 x 3 = 12 runs):\n"
        "  cellforge-sim sweep assets/scenarios/default.toml --steps 500 \\\n"
        "    --vary system.count=1000:8000:4 --vary dynamics.dt=1e-4:1e-2:3 --log dynamics.dt \\\n"
        "    --out out/sweep-dt\n"
        "  mpirun -n 5 cellforge-sim sweep ... --backend cuda   (a host with 4 GPUs: 4 workers)");

    cf::cli::BenchOptionsCli bench;
    CLI::App* benchCmd = app.add_subcommand("bench", "Run a model's benchmark cases");
    benchCmd->add_option("MODEL", bench.model, "Model name (see `list`)")->required();
    benchCmd->add_option("--case", bench.cases, "Case name (repeatable; default: the default set)");
    benchCmd->add_flag("--all", bench.all, "Run every registered case, not only the default set");
    benchCmd->add_flag("--list", bench.list, "List the cases (default ones marked *) and exit");
    benchCmd->add_option("--backend", bench.backend, "cpu or cuda (default: every available)");
    benchCmd->add_option("--json", bench.json, "Write results as JSON to this file");
    benchCmd->add_option("--repeats", bench.repeats, "Timed repeats per case")
        ->check(CLI::Range(1, 100000));
    benchCmd->add_option("--scale", bench.scale, "Problem-size factor (e.g. 0.1 for a quick run)")
        ->check(CLI::Range(1e-6, 100.0));
    benchCmd->add_option("--set", bench.sets,
                         "A case of your own: the model with this override, group.name=value "
                         "(repeatable), timed over --steps on the ranks mpirun started");
    benchCmd->add_option("--steps", bench.steps, "Steps per repeat of a case of your own")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));

    // Commands the models declare (cardiac: nversion, cellml2cfm).
    const cf::ModelRegistry registry = cf::builtinModels();
    cf::cli::ModelCommandLines modelCommands;
    modelCommands.addTo(app, registry);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::ostringstream discard;
        const int code = quietRank ? app.exit(e, discard, discard)
                                   : app.exit(e);  // prints help or the parse error
        return code == 0 ? cf::kExitOk : cf::kExitBadInput;
    }
    for (int i = 0; i < argc; ++i)
        run.commandLine.emplace_back(argv[i]);
    sweep.commandLine = run.commandLine;
    run.ranks = world.get();
    bench.ranks = world.get();
    sweep.ranks = world.get();

    try {
        if (app.got_subcommand("list")) return listModels(registry);
        if (app.got_subcommand("backends")) return showBackends(world.get());
        if (app.got_subcommand("scenarios")) return listScenarios(registry);
        if (app.got_subcommand("params")) return showParams(registry, paramsModel, paramsMarkdown);
        if (app.got_subcommand("run")) return cf::cli::runScenario(registry, run);
        if (app.got_subcommand("sweep")) return cf::cli::runSweep(registry, sweep);
        if (app.got_subcommand("bench"))
            return bench.sets.empty() && !bench.steps ? cf::cli::runBench(registry, bench)
                                                      : cf::cli::runRankBench(registry, bench);
        if (const std::optional<int> status = modelCommands.runChosen(app)) return *status;
    } catch (const std::exception& e) {
        // The one place an error that escapes a subcommand is printed; its type says whether
        // it is bad input (sim/core/exit_status.hpp). Subcommands print none of these.
        // Errors of a distributed run are raised on every rank alike (a rank that fails
        // alone ends the job itself, naming its rank and host): rank 0 speaks for them.
        if (!quietRank) std::fprintf(stderr, "cellforge-sim: error: %s\n", e.what());
        return cf::exitStatusFor(e);
    }
    return cf::kExitOk;
}
