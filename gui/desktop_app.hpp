// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The desktop window's entry point: QApplication, the OpenGL 4.5 core surface format, the
// main window on a scenario.
#include <optional>
#include <string>

namespace cf::gui {

struct DesktopOptions {
    std::optional<std::string> scenario;  // default: assets/scenarios/default.toml
    std::optional<std::string> backend;   // cpu or cuda; default: the scenario's or best
};

// Returns the process exit code. argc/argv go to Qt (its own options such as -platform).
int runDesktop(int& argc, char** argv, const DesktopOptions& options);

// The bundled scenarios folder: next to the executable's tree (build or install), or the
// source tree's assets/scenarios.
std::string bundledScenarioDir();

}  // namespace cf::gui
