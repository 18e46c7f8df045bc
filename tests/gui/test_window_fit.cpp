// SPDX-License-Identifier: GPL-3.0-or-later
// The window on the screen it opens on (Xvfb, registered at 1280x720 and at 1920x1080): its
// first size comes from the screen, every dock, the status bar and the caption lie on it,
// the parameter dock shows its reset buttons, the plots dock one whole chart; a size saved
// on a larger screen is fitted in; without a run, Play stays off; Space just after a guided
// scenario opens pauses it.
#include <epoxy/gl.h>

#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QValueAxis>
#include <QtTest>
#include <memory>

#include "gui/main_window.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/plots_dock.hpp"
#include "gui/viewport.hpp"

namespace cf::gui {

class WindowFitTest : public QObject {
    Q_OBJECT
private:
    static QRect available() { return QGuiApplication::primaryScreen()->availableGeometry(); }
    static QRect onScreen(const QWidget* w) {
        return QRect(w->mapToGlobal(QPoint(0, 0)), w->size());
    }
    static QString sizeName() {
        const QSize s = QGuiApplication::primaryScreen()->size();
        return QString("%1x%2").arg(s.width()).arg(s.height());
    }
    // The whole screen as the X server has it (what is off the window's part is black).
    static void saveScreen(const QString& name) {
        const QString dir = qEnvironmentVariable("CELLFORGE_GUI_SHOTS");
        if (dir.isEmpty()) return;
        QGuiApplication::primaryScreen()->grabWindow(0).save(
            QString("%1/%2_%3.png").arg(dir, name, sizeName()));
    }

private slots:
    void init() {
        QStandardPaths::setTestModeEnabled(true);  // settings do not touch the user's
        QCoreApplication::setOrganizationName("CellforgeFitTests");
        QSettings().clear();
    }

    // First start: 85 % of the screen, centred; every dock, the status bar and the view
    // (whose bottom carries the caption) on it; the parameter dock at least as wide as its
    // rows (no reset button off to the right); the plots dock one whole chart high.
    void firstWindowAndItsDocksLieOnTheScreen() {
        MainWindow window{DesktopOptions{}};  // the welcome scenario
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(1500);  // the docks are sized once laid out; captions and plots arrive
        const QRect screen = available();
        const QRect frame = window.frameGeometry();
        QVERIFY2(screen.contains(frame), qPrintable(QString("window %1,%2 %3x%4 on %5x%6")
                                                        .arg(frame.x())
                                                        .arg(frame.y())
                                                        .arg(frame.width())
                                                        .arg(frame.height())
                                                        .arg(screen.width())
                                                        .arg(screen.height())));
        QVERIFY(frame.width() >= screen.width() * 8 / 10);  // it uses the screen
        int docks = 0;
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            // Shown to the user: not closed, and not a tab behind another dock.
            if (!dock->isVisible() || dock->visibleRegion().isEmpty()) continue;
            ++docks;
            QVERIFY2(screen.contains(onScreen(dock)), qPrintable(dock->objectName()));
        }
        // Parameters and plots; the scenarios beside them on a wide screen, and in the
        // parameters' tabs on a small one (gui/main_window_layout.cpp, kCompactWidth).
        QVERIFY(docks >= (screen.width() < 1600 ? 2 : 3));
        QVERIFY(window.statusBar()->isVisible());
        QVERIFY(screen.contains(onScreen(window.statusBar())));
        QVERIFY(screen.contains(onScreen(window.viewport())));
        QVERIFY(window.viewport()->width() >= frame.width() / 3);  // the view keeps room
        QTRY_VERIFY_WITH_TIMEOUT(!window.viewport()->overlayState().caption.empty(), 20000);

        auto* parameters = window.findChild<QDockWidget*>("parameterDock");
        QVERIFY(parameters->isVisible());
        auto* scroll = window.parameterPanel()->findChild<QScrollArea*>();
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        const QRect view(scroll->viewport()->mapToGlobal(QPoint(0, 0)), scroll->viewport()->size());
        int resets = 0;
        for (QWidget* w : window.parameterPanel()->findChildren<QWidget*>()) {
            if (!w->objectName().startsWith("reset:") && !w->objectName().startsWith("groupReset:"))
                continue;
            if (!w->isVisible() || w->visibleRegion().isEmpty()) continue;  // scrolled away
            const QRect r = onScreen(w);
            QVERIFY2(r.right() <= view.right() && r.left() >= view.left(),
                     qPrintable(w->objectName()));
            ++resets;
        }
        QVERIFY(resets > 0);

        auto* plotsDock = window.findChild<QDockWidget*>("plotsDock");
        QVERIFY(plotsDock->isVisible());
        auto* plots = qobject_cast<MetricsPlot*>(plotsDock->widget());
        QVERIFY(plots != nullptr);
        QVERIFY(plots->height() >= MetricsPlot::kChartHeight);
        QTRY_VERIFY_WITH_TIMEOUT(plots->chartCount() > 0, 20000);
        saveScreen("window");
    }

    // A size saved on a larger screen is fitted into this one, not restored off it.
    void aRestoredSizeIsClampedToTheScreen() {
        const QRect screen = available();
        {
            MainWindow big{DesktopOptions{}};
            big.setGeometry(screen.x() + 200, screen.y() + 100, screen.width() * 2,
                            screen.height() * 2);
            big.show();
            QVERIFY(QTest::qWaitForWindowExposed(&big));
            big.close();  // saves its geometry and dock state, as a user's quit does
        }
        MainWindow window{DesktopOptions{}};
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(300);
        QVERIFY2(screen.contains(window.frameGeometry()), qPrintable(QString("%1x%2 at %3,%4")
                                                                         .arg(window.width())
                                                                         .arg(window.height())
                                                                         .arg(window.x())
                                                                         .arg(window.y())));
        QVERIFY(screen.contains(onScreen(window.statusBar())));
    }

    // Space right after a guided scenario opens (it starts playing by itself) pauses it: the
    // window judges by what Play shows, not by whether the runner's thread has picked up the
    // play yet (a race that once turned that pause into a second play).
    void pauseRightAfterAGuidedOpenPauses() {
        MainWindow window{DesktopOptions{}};  // the welcome scenario, guided
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.action("play")->isChecked());
        for (int round = 0; round < 5; ++round) {
            window.action("reset")->trigger();
            window.action("play")->trigger();  // plays again
            QVERIFY(window.action("play")->isChecked());
            window.action("play")->trigger();  // at once: pauses
            QVERIFY(!window.action("play")->isChecked());
            // The runner takes the three commands when its thread gets to them: paused means
            // that, within 10 s, it stands still for 500 ms (the welcome plays at 50 steps/s,
            // so a run moves on about 25 steps in that time).
            bool still = false;
            for (int waited = 0; waited < 10000 && !still; waited += 500) {
                const std::uint64_t step = window.runner()->latestFrame()->step;
                QTest::qWait(500);
                still =
                    !window.runner()->isRunning() && window.runner()->latestFrame()->step == step;
            }
            QVERIFY2(still, "the run went on after the pause");
        }
    }

    // A failed first open leaves no run: the actions that need one are off, and Play (its
    // shortcut too) does not toggle on with nothing loaded.
    void withoutARunPlayStaysOff() {
        DesktopOptions options;
        options.scenario = "/nonexistent/cellforge-fit-test.toml";
        MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.runner() == nullptr);
        for (const char* name : {"play", "step", "reset", "record", "saveCheckpoint", "screenshot"})
            QVERIFY2(!window.action(name)->isEnabled(), name);
        window.action("play")->trigger();
        QTest::keyClick(&window, Qt::Key_Space);
        QVERIFY(!window.action("play")->isChecked());
        QVERIFY(window.action("open")->isEnabled());  // the way out
        QVERIFY(window.logText().contains("cannot open /nonexistent/cellforge-fit-test.toml"));
    }
};

}  // namespace cf::gui

QTEST_MAIN(cf::gui::WindowFitTest)
#include "test_window_fit.moc"
