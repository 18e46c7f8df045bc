// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main() of GoogleTest programs that show OpenGL widgets (under Xvfb): the surface
// format the application asks for (OpenGL 4.5 core, a depth buffer, no vsync so frames are
// not held to the virtual screen's rate), then a QApplication, then the tests.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSurfaceFormat>

namespace cf::test {

inline int runGlWidgetTests(int argc, char** argv) {
    QSurfaceFormat format;
    format.setVersion(4, 5);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSwapInterval(0);
    QSurfaceFormat::setDefaultFormat(format);
    QApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

}  // namespace cf::test
