// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main() of GoogleTest programs that show OpenGL widgets (under Xvfb): the application's
// surface format without vsync (frames not held to the virtual screen's rate), then a
// QApplication, then the tests.
#include <gtest/gtest.h>

#include <QApplication>

#include "gui/desktop_app.hpp"

namespace cf::test {

inline int runGlWidgetTests(int argc, char** argv) {
    gui::setDefaultGlFormat(/*vsync=*/false);
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

}  // namespace cf::test
