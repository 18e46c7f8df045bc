// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The desktop window's entry point: QApplication, the OpenGL 4.5 core surface format, the
// main window on a scenario.
#include <optional>
#include <string>

namespace cf::gui {

struct DesktopOptions {
    std::optional<std::string> scenario;  // default: the bundled welcome.toml
    std::optional<std::string> backend;   // cpu or cuda; default: the scenario's or best
    // Pictures of the window as a user sees it (docs, install checks): after `grabAfter`
    // seconds the whole window is saved to `grabWindow` (PNG) and the program quits.
    std::optional<std::string> grabWindow;
    double grabAfter = 8.0;
    bool present = false;   // start in presentation mode
    bool play = false;      // start playing (guided scenarios play anyway)
    std::string raiseDock;  // bring this dock's tab to the front ("Volume", "Plots", ...)
    // The soak (gui/soak_driver.hpp): minutes to run, the CSV log, the memory bound.
    std::optional<double> soakMinutes;
    std::string soakLog = "soak.csv";
    double soakRssBoundMiB = 32.0;
};

// The OpenGL format every window asks for (4.5 core, a depth buffer), set as Qt's default
// before the QApplication exists; `vsync` off lets tests draw faster than the screen.
void setDefaultGlFormat(bool vsync);

// Returns the process exit code. argc/argv go to Qt (its own options such as -platform).
int runDesktop(int& argc, char** argv, const DesktopOptions& options);

// The bundled scenarios folder: next to the executable's tree (build or install), or the
// source tree's assets/scenarios.
std::string bundledScenarioDir();

}  // namespace cf::gui
