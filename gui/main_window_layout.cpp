// SPDX-License-Identifier: GPL-3.0-or-later
// The window's size and its docks' first sizes (from the screen, so that a 1280x720 projector
// and a 1920x1080 monitor both show every dock, the status bar and the caption), the actions
// that need a run, presentation mode with its captions, and what the window does at a
// scenario's end (`about.at_end`).
#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <algorithm>

#include "gui/main_window.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/plots_dock.hpp"
#include "gui/viewport.hpp"

namespace cf::gui {

namespace {
// Share of the screen's available area a first window takes: room left for a panel or a
// taskbar the available geometry does not know of, and a window that visibly is one.
constexpr double kScreenShare = 0.85;
// Below this width (a 1280x720 or 1366x768 projector or laptop) the window takes the whole
// free area and the left docks join the parameter dock's tabs: side by side they would leave
// the view a third of the width, too little to teach from.
constexpr int kCompactWidth = 1600;
}  // namespace

QString MainWindow::statusText() const {
    return status_ != nullptr ? status_->text() : QString();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    const bool restored = restoreGeometry(settings.value("window/geometry").toByteArray());
    sizeToScreen(restored);
    if (restoreState(settings.value("window/state").toByteArray())) return;
    // First start: docks sized once the window is laid out.
    QTimer::singleShot(0, this, &MainWindow::sizeDocks);
}

void MainWindow::setPresentationMode(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    if (on) {
        dockState_ = saveState();  // which docks were open, and where
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : findChildren<QToolBar*>())
            bar->hide();
    } else {
        restoreState(dockState_);
    }
    action("presentation")->setChecked(on);
    menuBar()->setVisible(!on);
    statusBar()->setVisible(!on);
    viewport_->overlay().setScale(on ? 1.6f : 1.0f);
    if (on)
        showFullScreen();
    else
        showNormal();
}

// A caption the user typed (presentation mode), else the scenario's caption for this step
// (guided scenarios, when shown), else the model's description in presentation mode.
QString MainWindow::shownCaption(std::uint64_t step) const {
    if (presenting_ && captionEdited_) return caption_;
    if (!scenario_->about.captions.empty() && action("captions")->isChecked())
        return QString::fromStdString(scenario_->about.captionAt(step, presenting_));
    return presenting_ ? caption_ : QString();
}

void MainWindow::sizeToScreen(bool restored) {
    const QScreen* screen =
        this->screen() != nullptr ? this->screen() : QGuiApplication::primaryScreen();
    if (screen == nullptr) return;
    const QRect available = screen->availableGeometry();
    if (!restored) {
        const double share = available.width() < kCompactWidth ? 1.0 : kScreenShare;
        const QSize size(static_cast<int>(available.width() * share),
                         static_cast<int>(available.height() * share));
        // Centred by whole pixels from the top left (QRect::center() rounds down, which put
        // a window as large as the screen one pixel off it).
        setGeometry(QRect(available.topLeft() + QPoint((available.width() - size.width()) / 2,
                                                       (available.height() - size.height()) / 2),
                          size));
        // On a small screen the window is the screen: maximised, so that a window manager
        // fits its frame in (without one, as under Xvfb, the geometry above is it).
        if (share == 1.0) setWindowState(windowState() | Qt::WindowMaximized);
        return;
    }
    // A size saved on a larger screen (or a second monitor that is gone) would put the docks
    // and the status bar off this one: it is fitted in, and kept where it fits.
    QRect g = geometry();
    if (g.width() <= available.width() && g.height() <= available.height() && available.contains(g))
        return;
    g.setSize(g.size().boundedTo(available.size()));
    g.moveLeft(std::clamp(g.left(), available.left(), available.right() + 1 - g.width()));
    g.moveTop(std::clamp(g.top(), available.top(), available.bottom() + 1 - g.height()));
    setGeometry(g);
}

void MainWindow::sizeDocks() {
    auto* scenarios = findChild<QDockWidget*>("scenarioDock");
    auto* parameters = findChild<QDockWidget*>("parameterDock");
    auto* plots = findChild<QDockWidget*>("plotsDock");
    if (scenarios == nullptr || parameters == nullptr || plots == nullptr) return;
    const int w = width();
    if (w < kCompactWidth) {  // one column of docks, on the right
        for (const char* name : {"scenarioDock", "volumeDock", "vectorDock"})
            if (auto* dock = findChild<QDockWidget*>(name)) {
                addDockWidget(Qt::RightDockWidgetArea, dock);
                tabifyDockWidget(parameters, dock);
            }
        parameters->raise();
        const int paramWidth = std::min(parameters_->fittingWidth() + 8, w * 2 / 5);
        resizeDocks({parameters}, {paramWidth}, Qt::Horizontal);
        const int plotHeight = std::max(plots_->minimumSizeHint().height(), height() / 5);
        resizeDocks({plots}, {plotHeight}, Qt::Vertical);
        return;
    }
    // The parameter dock as wide as its rows need, so that every reset button is in view;
    // the scenario list narrower on a small screen; the view keeps about 40 % of the width.
    const int paramWidth = std::min(parameters_->fittingWidth() + 8, w * 21 / 50);
    const int scenarioWidth = std::clamp(w / 6, 180, 320);
    resizeDocks({scenarios, parameters}, {scenarioWidth, paramWidth}, Qt::Horizontal);
    // The plots strip a quarter of the height, and at least one chart with its axis labels.
    const int plotHeight = std::max(plots_->minimumSizeHint().height(), height() / 4);
    resizeDocks({plots}, {plotHeight}, Qt::Vertical);
}

void MainWindow::updateRunActions() {
    // Without a run these have nothing to act on (after a failed first open, say): disabled,
    // so that Play cannot toggle on with nothing loaded.
    const bool run = runner_ != nullptr;
    for (const char* name : {"play", "step", "reset", "save", "saveCheckpoint", "loadCheckpoint",
                             "exportSnapshot", "exportGeometry", "record", "screenshot"})
        if (QAction* a = action(name)) a->setEnabled(run);
    if (!run) action("play")->setChecked(false);
}

void MainWindow::playToEnd() {
    if (!runner_ || !scenario_) return;
    const auto frame = runner_->latestFrame();
    const std::uint64_t step = frame ? frame->step : 0;
    const std::uint64_t end = scenario_->steps;
    endMessage_.clear();
    statusBar()->clearMessage();
    if (end > step) {
        runner_->runUntil(end);  // pauses exactly at the end; handleRunEnd does the rest
        playingToEnd_ = true;
    } else {
        // At or past the end already: the user asks to go on, so it plays without a bound.
        runner_->play();
        playingToEnd_ = false;
        log(Level::Info, tr("playing on past the scenario's %1 steps").arg(end));
    }
    endCheckedFrame_ = frame ? frame->index : 0;  // the end is judged on newer frames only
    action("play")->setChecked(true);
}

void MainWindow::handleRunEnd(const Frame& frame) {
    if (!playingToEnd_ || frame.index <= endCheckedFrame_ || isRecording()) return;
    endCheckedFrame_ = frame.index;
    if (frame.running || frame.step < scenario_->steps) return;
    playingToEnd_ = false;
    const QString steps = QString::number(scenario_->steps);
    if (scenario_->about.atEnd == ScenarioEnd::Loop) {
        // The run starts again (pending structural edits apply, as with Ctrl+R) and plays on.
        runner_->reset();
        parameters_->markApplied();
        log(Level::Info,
            tr("reached the scenario's %1 steps: starting again (at_end = loop)").arg(steps));
        runner_->runUntil(scenario_->steps);
        playingToEnd_ = true;
        return;
    }
    action("play")->setChecked(false);
    endMessage_ = tr("Reached the scenario's %1 steps. Space plays on past the end, Ctrl+R "
                     "starts again.")
                      .arg(steps);
    log(Level::Info, tr("reached the scenario's %1 steps: paused (at_end = stop)").arg(steps));
    statusBar()->showMessage(endMessage_);
}

}  // namespace cf::gui
