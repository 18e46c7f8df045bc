// SPDX-License-Identifier: GPL-3.0-or-later
// cellforge: the desktop application. `cellforge [SCENARIO.toml]` opens the window;
// `cellforge --headless SCENARIO.toml ...` runs without a display and writes images and
// movies.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>

#include "app/headless_run.hpp"
#include "sim/core/data_paths.hpp"
#if CELLFORGE_HAVE_GUI
#include "gui/desktop_app.hpp"
#endif
#include "render/render_error.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/exit_status.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "cellforge: GPU workbench for cell and tissue simulation\n"
        "Exit codes: 0 success, 2 bad input, 3 failure during the run, 130 interrupted."};
    // The program's own name, not argv[0]: the usage line is also the man page's.
    app.name("cellforge");
    app.set_version_flag("--version", std::string("cellforge ") + CELLFORGE_VERSION);
    cf::app::HeadlessOptions o;
    std::string size = "1280x720";
    std::string windowScenario;
    app.add_option("scenario", windowScenario,
                   "Scenario to open in the window: a .toml file or a bundled scenario's name "
                   "(default: welcome)");
#if CELLFORGE_HAVE_GUI
    cf::gui::DesktopOptions d;
    app.add_option("--grab-window", d.grabWindow,
                   "Window: save a PNG of the whole window after --grab-after seconds, then quit");
    app.add_option("--grab-after", d.grabAfter, "Seconds before --grab-window (default 8)")
        ->check(CLI::Range(0.0, 3600.0));
    app.add_flag("--present", d.present, "Window: start in presentation mode");
    app.add_flag("--play", d.play, "Window: start playing the scenario");
    app.add_option("--raise-dock", d.raiseDock,
                   "Window: bring a dock to the front (Scenarios, Volume, Vectors, Plots, Log)");
    app.add_option("--soak", d.soakMinutes,
                   "Window: soak test for MINUTES (edits, recordings, resets; memory sampled), "
                   "then quit with 0 if no error and memory stayed within --soak-rss-bound")
        ->check(CLI::Range(0.05, 1440.0));
    app.add_option("--soak-log", d.soakLog, "CSV of the soak's samples (a .json summary beside)");
    app.add_option("--soak-rss-bound", d.soakRssBoundMiB,
                   "MiB the resident memory may grow after the warm-up (default 32)");
#endif
    app.allow_extras();  // Qt's own options (-platform, -style, ...) pass through
    app.add_option("--headless", o.scenario,
                   "Run SCENARIO.toml without a display and write images/movies");
    app.add_option("--steps", o.steps, "Simulation steps (default: the scenario's)");
    app.add_option("--every", o.every, "Simulation steps per movie frame")
        ->check(CLI::PositiveNumber);
    app.add_option("--backend", o.backend, "cpu or cuda");
    app.add_option("--set", o.sets, "Override a parameter: group.name=value (repeatable)");
    app.add_option("--screenshot", o.screenshot, "Write the last frame as PNG");
    app.add_option("--record", o.record, "Write every frame to an MP4 (H.264) movie");
    app.add_option("--size", size, "Image size WIDTHxHEIGHT, independent of any window");
    app.add_option("--fps", o.fps, "Movie frame rate")->check(CLI::Range(1, 240));
    app.add_option("--color", o.color, "Channel to colour by (a category or scalar name)");
    app.add_option("--turn", o.yawPerFrame, "Camera turn per frame in degrees");
    app.add_option("--camera-path", o.cameraPath,
                   "JSON key frames [{time, target, distance, yaw, pitch, fov}], seconds of movie")
        ->check(CLI::ExistingFile);
    app.add_flag("!--no-legend", o.legend, "Leave the colour legend out of images and movies");
    app.add_option("--title", o.title,
                   "Caption images and movies with TEXT, top left (one line; default: none)");
    app.add_flag("--timestamp,!--no-timestamp", o.timestamp,
                 "Time stamp (t = 41.9 s \u00B7 step 3200) under the title in images and "
                 "movies (default: on)");
    app.add_option("--volume", o.volume,
                   "Volume view to draw as slices, by name (default: the model's first)");
    app.add_option("--volume-channel", o.volumeChannel,
                   "Channel of that volume to show on the slices (default: the first "
                   "category, else the first scalar)");
    app.add_option("--slices", o.slices,
                   "Volume slices X,Y,Z: a coordinate in model units, mid or off each "
                   "(default mid,mid,mid)");
    app.add_option("--vectors", o.vectors,
                   "Vector view as arrows NAME[:STRIDE] (every STRIDE-th node; default: "
                   "automatic)");
    app.add_option("--lic", o.lic,
                   "Planar vector view drawn as a line-integral convolution (LIC) NAME");
    app.add_flag("--transparent", o.transparent,
                 "Screenshot with a transparent background (not with --record)");
    try {
        app.parse(argc, argv);
        if (std::sscanf(size.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 1 ||
            o.height < 1)
            throw CLI::ValidationError("--size",
                                       "expected WIDTHxHEIGHT, e.g. 1920x1080, got " + size);
        if (o.transparent && o.record)
            throw CLI::ValidationError(
                "--transparent", "movies have no transparency; drop --record or --transparent");
        if (o.record && (o.width % 2 != 0 || o.height % 2 != 0))
            throw CLI::ValidationError(
                "--size", "an H.264 movie needs an even width and height, got " + size);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? cf::kExitOk : cf::kExitBadInput;
    }
    // A scenario is a path or the name of a bundled one ("welcome", "lattice-obstructed").
    try {
        if (!o.scenario.empty()) o.scenario = cf::resolveScenarioArgument(o.scenario).string();
        if (!windowScenario.empty())
            windowScenario = cf::resolveScenarioArgument(windowScenario).string();
    } catch (const cf::Error& e) {
        std::fprintf(stderr, "cellforge: error: %s\n", e.what());
        return cf::exitStatusFor(e);
    }
    if (o.scenario.empty()) {
#if CELLFORGE_HAVE_GUI
        if (std::getenv("DISPLAY") == nullptr && std::getenv("WAYLAND_DISPLAY") == nullptr &&
            std::getenv("QT_QPA_PLATFORM") == nullptr) {
            std::fprintf(stderr,
                         "cellforge: no display; run a scenario in the background with "
                         "--headless SCENARIO.toml (see --help)\n");
            return cf::kExitBadInput;
        }
        if (!windowScenario.empty()) d.scenario = windowScenario;
        d.backend = o.backend;
        return cf::gui::runDesktop(argc, argv, d);
#else
        std::fprintf(stderr,
                     "cellforge: this build has no desktop window (configured without it, as "
                     "the headless preset is); run a scenario in the background with "
                     "--headless SCENARIO.toml (see --help)\n");
        return cf::kExitBadInput;
#endif
    }
    try {
        return cf::app::runHeadless(o);
    } catch (const std::exception& e) {
        // The one place a headless error is printed; its type says whether it is bad input
        // (sim/core/exit_status.hpp): a file, an option or a parameter, or a failure.
        std::fprintf(stderr, "cellforge: %s: %s\n", cf::isBadInput(e) ? "error" : "run failed",
                     e.what());
        return cf::exitStatusFor(e);
    }
}
