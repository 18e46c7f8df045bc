// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/desktop_app.hpp"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "gui/main_window.hpp"
#include "gui/soak_driver.hpp"
#include "sim/core/data_paths.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/interrupt.hpp"

namespace cf::gui {

std::string bundledScenarioDir() {
    if (auto dir = bundledDataDirectory()) return (*dir / "scenarios").string();
    return (QString(CELLFORGE_SOURCE_DIR) + "/assets/scenarios").toStdString();
}

namespace {
// The CPU backend's parallelFor takes every hardware thread (sim/core/parallel.hpp) unless
// CELLFORGE_THREADS caps it. In the window one is left to the interface, so that drawing and
// input keep a core however costly the model is; a cap the user set is kept.
void leaveAThreadForTheInterface() {
    if (std::getenv("CELLFORGE_THREADS") != nullptr) return;
    const unsigned hw = std::thread::hardware_concurrency();
    if (hw > 1) setenv("CELLFORGE_THREADS", std::to_string(hw - 1).c_str(), 0);
}
}  // namespace

void setDefaultGlFormat(bool vsync) {
    QSurfaceFormat format;
    format.setVersion(4, 5);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSwapInterval(vsync ? 1 : 0);
    QSurfaceFormat::setDefaultFormat(format);
}

int runDesktop(int& argc, char** argv, const DesktopOptions& options) {
    leaveAThreadForTheInterface();  // before any model runs: parallelFor reads it once
    setDefaultGlFormat(/*vsync=*/true);
    QCoreApplication::setOrganizationName("Cellforge");
    QCoreApplication::setApplicationName("Cellforge");
    QCoreApplication::setApplicationVersion(CELLFORGE_VERSION);
    QApplication app(argc, argv);
    // Without an OpenGL 4.5 core context (no GL on the display, a platform plugin without
    // GL such as offscreen) Qt's widget compositing crashes in its first repaint: say so
    // and point at the mode that needs no display instead.
    {
        QOffscreenSurface surface;
        surface.setFormat(QSurfaceFormat::defaultFormat());
        surface.create();
        QOpenGLContext probe;
        probe.setFormat(QSurfaceFormat::defaultFormat());
        const bool ok = probe.create() && probe.makeCurrent(&surface) &&
                        probe.format().version() >= qMakePair(4, 5);
        if (!ok) {
            std::fprintf(stderr,
                         "cellforge: the display (Qt platform '%s') offers no OpenGL 4.5 core "
                         "context, which the window needs; run without a window instead: "
                         "cellforge --headless SCENARIO (see --help)\n",
                         qPrintable(QGuiApplication::platformName()));
            return 2;
        }
        probe.doneCurrent();
    }
    // The desktop entry and icon installed by the package (Wayland matches windows by it).
    QGuiApplication::setDesktopFileName("io.github.cellforge.Cellforge");
    MainWindow window(options);  // sized from the screen it opens on
    window.show();
    if (!options.raiseDock.empty()) {
        for (QDockWidget* dock : window.findChildren<QDockWidget*>())
            if (dock->windowTitle() == QString::fromStdString(options.raiseDock)) {
                dock->show();
                dock->raise();
            }
    }
    if (options.present) window.action("presentation")->trigger();
    if (options.play && !window.action("play")->isChecked()) window.action("play")->trigger();
    if (options.soakMinutes) {
        SoakOptions soak;
        soak.minutes = *options.soakMinutes;
        soak.logPath = QString::fromStdString(options.soakLog);
        soak.rssBoundMiB = options.soakRssBoundMiB;
        try {
            new SoakDriver(window, soak);  // owned by the window
        } catch (const Error& e) {
            std::fprintf(stderr, "cellforge: %s\n", e.what());
            return 2;
        }
    }
    // Ctrl-C in the terminal or SIGTERM from the session: the window closes as if the user
    // closed it (a movie being recorded is finished and stays playable), exit code 130.
    installInterruptHandler();
    bool interrupted = false;
    auto* signalWatch = new QTimer(&window);
    QObject::connect(signalWatch, &QTimer::timeout, &window, [&] {
        if (!interruptRequested() || interrupted) return;
        interrupted = true;
        std::fprintf(stderr, "cellforge: interrupted; closing the window\n");
        window.close();
        QApplication::exit(130);
    });
    signalWatch->start(100);
    int grabFailed = 0;
    if (options.grabWindow) {
        QTimer::singleShot(static_cast<int>(options.grabAfter * 1000.0), &window, [&] {
            const QString file = QString::fromStdString(*options.grabWindow);
            // What the status bar said (step, steps/s, fps): a record of the run's pace.
            std::printf("cellforge: %s\n", qPrintable(window.statusText()));
            std::fflush(stdout);
            if (!window.grab().save(file, "PNG")) {
                std::fprintf(stderr, "cellforge: cannot write %s\n", qPrintable(file));
                grabFailed = 1;
            }
            QApplication::quit();
        });
    }
    const int code = app.exec();
    return code != 0 ? code : grabFailed;
}

}  // namespace cf::gui
