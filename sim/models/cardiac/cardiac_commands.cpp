// SPDX-License-Identifier: GPL-3.0-or-later
// The cardiac model's own cellforge-sim commands, declared with its descriptor:
//   nversion    the Niederer et al. 2011 N-version benchmark at the chosen resolutions:
//               activation times at P1, P8 and P9 per run, and nversion_points.csv,
//               nversion_diagonal.csv and nversion.json;
//   cellml2cfm  a CellML 1.0, 1.1 or 2.0 file as model text.
#include <cmath>
#include <cstdio>
#include <fstream>

#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/exit_status.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/nversion.hpp"

namespace cf::cardiac {
namespace {

using Kind = CommandOption::Kind;

std::string formatted(const char* format, auto... values) {
    char line[256];
    std::snprintf(line, sizeof line, format, values...);
    return line;
}

int runNversionCommand(const CommandArguments& args, CommandStreams& io) {
    std::vector<double> dxs = args.numbers("dx"), dts = args.numbers("dt");
    if (args.flag("all")) {
        if (!dxs.empty() || !dts.empty())
            throw ParameterError("nversion: give --all or --dx/--dt, not both");
        dxs = {0.5, 0.2, 0.1};
        dts = {0.05, 0.01, 0.005};
    }
    if (dxs.empty()) dxs = {0.5};
    if (dts.empty()) dts = {0.05};
    // Every resolution is checked before the first run, so a bad one costs no finished run.
    for (double dx : dxs)
        for (double dt : dts) {
            NversionOptions o;
            o.dx = dx;
            o.dt = dt;
            nversionOverrides(o);  // throws ParameterError naming dx or dt
        }
    const double endTime = args.number("end", 150.0);
    if (!(endTime >= 0.0 && endTime <= 1e6))
        throw ParameterError("nversion: --end " + formatted("%g", endTime) +
                             " ms is outside [0, 1e6] ms");
    const Backend backend = resolveBackend(args.text("backend"), std::nullopt);
    const std::string outDir = args.text("out", "out/nversion");
    installInterruptHandler();

    std::vector<NversionResult> results;
    io.out << formatted("%-7s %-7s %-13s %-6s %9s %9s %9s %9s %9s\n", "dx_mm", "dt_ms", "grid",
                        "real", "P1_ms", "P8_ms", "P9_ms", "wall_s", "reset_s");
    int status = kExitOk;
    for (double dx : dxs)
        for (double dt : dts) {
            NversionOptions o;
            o.dx = dx;
            o.dt = dt;
            o.precision = args.text("precision", "float");
            o.integrator = args.text("integrator", "declared");
            o.endTime = endTime;
            o.stopWhenActivated = args.flag("until-activated");
            o.progress = [&](double t, double /*activated: NaN here*/) {
                if (io.progressIsTerminal)
                    io.progress << formatted("\r  dx %.3g dt %.3g: t = %.1f ms ", dx, dt, t)
                                << std::flush;
                return !interruptRequested();
            };
            NversionResult r;
            try {
                r = runNversion(backend, o);
            } catch (const Error& e) {
                // The other resolutions still run; the exit status reports the failure.
                if (io.progressIsTerminal) io.progress << "\n";
                io.progress << formatted("cellforge-sim: nversion dx %g dt %g: ", dx, dt)
                            << e.what() << "\n";
                if (isBadInput(e)) return kExitBadInput;
                status = kExitRunFailed;
                continue;
            }
            if (io.progressIsTerminal) io.progress << "\r\033[K" << std::flush;
            const auto ms = [](double v) { return std::isfinite(v) ? v : -1.0; };
            const std::string grid = formatted("%dx%dx%d", r.nx, r.ny, r.nz);
            io.out << formatted("%-7g %-7g %-13s %-6s %9.3f %9.3f %9.3f %9.3f %9.3f\n", dx, dt,
                                grid.c_str(), r.precision == "float" ? "f32" : "f64",
                                ms(r.points[0]), ms(r.points[7]), ms(r.points[8]), r.wallSeconds,
                                r.resetSeconds)
                   << std::flush;
            results.push_back(std::move(r));
            if (interruptRequested()) {
                status = kExitInterrupted;
                break;
            }
        }
    writeNversionResults(outDir, results);
    io.out << "(-1: not activated) wrote " << outDir
           << "/nversion_points.csv, nversion_diagonal.csv, nversion.json\n";
    return status;
}

int runCellmlToCfm(const CommandArguments& args, CommandStreams& io) {
    const std::string in = args.text("IN", "");
    CellmlImportOptions options;
    options.potential = args.text("potential", "");
    options.stimulus = args.text("stimulus", "");
    options.capacitance = args.text("capacitance", "");
    options.stimulusByEquation = args.flag("stimulus-by-equation");
    const std::string cfm = importCellml(readInputFile(in), in, options);
    const std::optional<std::string> out = args.text("OUT");
    if (!out) {
        io.out << cfm;
        return kExitOk;
    }
    std::ofstream o(*out, std::ios::binary);
    if (!(o << cfm)) throw IoError("cannot write '" + *out + "'");
    return kExitOk;
}

}  // namespace

std::vector<ModelCommand> commands() {
    // Every field spelled out: kind, name, help, required, choices.
    const std::vector<std::string> none;
    ModelCommand nversion{
        "nversion",
        "Cardiac: the Niederer et al. 2011 N-version benchmark (activation times at P1..P9 "
        "and along the diagonal)",
        {{Kind::RepeatedValue, "dx", "Node spacing in mm (repeatable; default 0.5)", false, none},
         {Kind::RepeatedValue, "dt", "Time step in ms (repeatable; default 0.05)", false, none},
         {Kind::Flag, "all",
          "The nine published runs: dx 0.5, 0.2, 0.1 mm x dt 0.05, 0.01, 0.005 ms", false, none},
         {Kind::Value, "backend", "cpu or cuda (default: the best)", false, none},
         {Kind::Value,
          "precision",
          "CUDA arithmetic: float (default) or double",
          false,
          {"float", "double"}},
         {Kind::Value, "integrator",
          "model.integrator for every run: declared (the model's own: gates Rush-Larsen, the "
          "rest forward Euler; default) or one method for every state",
          false, parameterTable().at("model.integrator").choices},
         {Kind::Value, "end", "Simulated time in ms (default 150)", false, none},
         {Kind::Flag, "until-activated", "Stop each run once every node has activated", false,
          none},
         {Kind::Value, "out", "Output directory (default out/nversion)", false, none}},
        runNversionCommand};
    ModelCommand cellml{
        "cellml2cfm",
        "Import a CellML 1.0, 1.1 or 2.0 cell model as model text (.cfm)",
        {{Kind::Positional, "IN", "CellML file", true, none},
         {Kind::Positional, "OUT", "Output .cfm file (default: standard output)", false, none},
         {Kind::Value, "potential",
          "The membrane potential as component.variable (default: annotated or found by name)",
          false, none},
         {Kind::Value, "stimulus",
          "The stimulus current as component.variable (default: annotated or found by name)", false,
          none},
         {Kind::Value, "capacitance",
          "The membrane capacitance as component.variable, read where the stimulus is a "
          "current or a current density (default: annotated, or the one the potential's "
          "equation reads)",
          false, none},
         {Kind::Flag, "stimulus-by-equation",
          "Where the stimulus' units do not reconcile with the potential's equation, scale it "
          "so that 1 A/F changes the potential's rate by 1 mV/ms (with a warning in the "
          "header) instead of refusing the file",
          false, none}},
        runCellmlToCfm};
    return {std::move(nversion), std::move(cellml)};
}

}  // namespace cf::cardiac
