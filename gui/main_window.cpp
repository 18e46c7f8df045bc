// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "app/cloud_upload.hpp"
#include "gui/model_text_editor.hpp"
#include "gui/movie_recorder.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/plots_dock.hpp"
#include "gui/record_dialog.hpp"
#include "gui/scenario_browser.hpp"
#include "gui/vector_controls.hpp"
#include "gui/viewport.hpp"
#include "gui/volume_controls.hpp"
#include "render/geometry_export.hpp"
#include "sim/core/errors.hpp"
#include "sim/io/snapshot_writer.hpp"

namespace cf::gui {

MainWindow::MainWindow(const DesktopOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options), registry_(builtinModels()) {
    setWindowTitle("Cellforge");
    viewport_ = new Viewport(this);
    setCentralWidget(viewport_);
    connect(viewport_, &Viewport::renderError, this,
            [this](const QString& m) { log(Level::Error, "renderer: " + m); });
    viewport_->overlay().onParameterEdited([this](const std::string& key, double value) {
        if (!runner_) return;
        const ParamSpec& spec = runner_->parameters().table().at(key);
        const ParamValue v = spec.type == ParamType::Integer
                                 ? ParamValue(static_cast<std::int64_t>(std::llround(value)))
                                 : ParamValue(value);
        try {
            // A value outside the range is refused here (the overlay does not clamp it); the
            // model may still refuse it later, through the future (poll()).
            trackEdit(key, v, runner_->setParameter(key, v), EditSource::Quick);
            parameters_->setValue(key, v);  // the dock shows what the quick panel set
            log(Level::Info, tr("%1 = %2").arg(QString::fromStdString(key),
                                               QString::fromStdString(formatValue(v))));
        } catch (const InputError& e) {  // a value, or a file the new set names, refused
            log(Level::Warning, tr("refused: %1").arg(QString::fromStdString(e.what())));
            throw;  // the overlay shows it under the sliders
        }
    });
    // The quick panel starts folded so the first view is the model; one click opens it.
    viewport_->overlay().setQuickPanelOpen(false);
    viewport_->overlay().onColorByChosen(
        [this](const std::string& channel) { viewport_->setColorBy(channel); });
    buildDocks();
    buildActions();
    status_ = new QLabel(this);
    statusBar()->addPermanentWidget(status_, 1);
    poll_ = new QTimer(this);
    connect(poll_, &QTimer::timeout, this, &MainWindow::poll);
    poll_->start(50);
    restoreSettings();
    updateRunActions();  // nothing to play until a scenario is open
    openScenario(
        QString::fromStdString(options_.scenario.value_or(bundledScenarioDir() + "/welcome.toml")));
}

MainWindow::~MainWindow() = default;

QAction* MainWindow::action(const QString& name) const {
    return findChild<QAction*>(name);
}

QString MainWindow::logText() const {
    return logView_->toPlainText();
}

void MainWindow::buildDocks() {
    logView_ = new QPlainTextEdit(this);
    logView_->setReadOnly(true);
    logView_->setMaximumBlockCount(5000);
    auto* logDock = new QDockWidget(tr("Log"), this);
    logDock->setObjectName("logDock");
    logDock->setWidget(logView_);
    addDockWidget(Qt::BottomDockWidgetArea, logDock);

    plots_ = new MetricsPlot(this);
    auto* plotsDock = new QDockWidget(tr("Plots"), this);
    plotsDock->setObjectName("plotsDock");
    plotsDock->setWidget(plots_);
    addDockWidget(Qt::BottomDockWidgetArea, plotsDock);
    tabifyDockWidget(logDock, plotsDock);
    plotsDock->raise();

    browser_ = new ScenarioBrowser(this);
    browser_->setDirectory(QString::fromStdString(bundledScenarioDir()));
    auto* browserDock = new QDockWidget(tr("Scenarios"), this);
    browserDock->setObjectName("scenarioDock");
    browserDock->setWidget(browser_);
    addDockWidget(Qt::LeftDockWidgetArea, browserDock);
    connect(browser_, &ScenarioBrowser::scenarioChosen, this,
            [this](const QString& path) { openScenario(path); });

    // The volume view's channel and slices, next to the scenarios (shown on demand).
    auto* volumeControls = new VolumeControls(this);
    auto* volumeDock = new QDockWidget(tr("Volume"), this);
    volumeDock->setObjectName("volumeDock");
    volumeDock->setWidget(volumeControls);
    addDockWidget(Qt::LeftDockWidgetArea, volumeDock);
    tabifyDockWidget(browserDock, volumeDock);
    bindVolumeControls(*volumeControls, *viewport_);
    // The vector views: which one, arrows or LIC, the stride; beside the volume's.
    auto* vectorControls = new VectorControls(this);
    auto* vectorDock = new QDockWidget(tr("Vectors"), this);
    vectorDock->setObjectName("vectorDock");
    vectorDock->setWidget(vectorControls);
    addDockWidget(Qt::LeftDockWidgetArea, vectorDock);
    tabifyDockWidget(browserDock, vectorDock);
    browserDock->raise();
    bindVectorControls(*vectorControls, *viewport_);

    recordProgress_ = new RecordingProgress(this);
    recordProgress_->hide();
    statusBar()->addWidget(recordProgress_);
    connect(recordProgress_, &RecordingProgress::cancelRequested, this, &MainWindow::stopRecording);

    parameters_ = new ParameterPanel(this);
    auto* paramDock = new QDockWidget(tr("Parameters"), this);
    paramDock->setObjectName("parameterDock");
    paramDock->setWidget(parameters_);
    addDockWidget(Qt::RightDockWidgetArea, paramDock);
    // Their widths are set once the window is laid out (restoreSettings: first start).
    // The viewport gets the most room: the plots and log share a low strip.
    resizeDocks({logDock}, {200}, Qt::Vertical);
    // Validated at once (a bad value is refused here, in the GUI thread, and the panel
    // reverts); applied by the simulation thread at the next step boundary.
    // The text of a model that is text (the cardiac cell model), next to the parameters.
    modelText_ = new ModelTextEditor(this);
    modelTextDock_ = new QDockWidget(tr("Model text"), this);
    modelTextDock_->setObjectName("modelTextDock");
    modelTextDock_->setWidget(modelText_);
    addDockWidget(Qt::RightDockWidgetArea, modelTextDock_);
    tabifyDockWidget(paramDock, modelTextDock_);
    paramDock->raise();
    modelTextDock_->hide();
    connect(modelText_, &ModelTextEditor::applyRequested, this, &MainWindow::applyModelText);
    // Checked at once (setParameter throws); a refusal from the simulation thread comes
    // through the future, which the panel keeps and looks at.
    parameters_->setApplyFunction(
        [this](const std::string& key, const ParamValue& v) -> std::future<void> {
            if (!runner_) throw Error("no simulation is loaded");
            return runner_->setParameter(key, v);
        });
    parameters_->setInEffectFunction([this](const std::string& key) -> ParamValue {
        if (!runner_) throw Error("no simulation is loaded");
        return runner_->parameters().get(key);
    });
    connect(parameters_, &ParameterPanel::parameterEdited, this,
            [this](const QString& k, const QString& v) {
                log(Level::Info, k + " = " + v);
                // Another model, file, variant or precision changes the text in effect or its
                // generated code (not model.parameters, which the text does not hold).
                if (k.startsWith("model.") && k != "model.parameters" && scenario_ &&
                    !scenario_->model->editableText.parameter.empty())
                    refreshModelText();
            });
    connect(parameters_, &ParameterPanel::editRejected, this, [this](const QString& m) {
        log(Level::Warning, tr("refused: %1").arg(m));
        statusBar()->showMessage(m, 5000);
    });
    connect(parameters_, &ParameterPanel::pendingResetChanged, this, [this](bool pending) {
        action("reset")->setText(pending ? tr("&Reset (apply pending edits)") : tr("&Reset"));
    });
}

void MainWindow::buildActions() {
    auto make = [this](const QString& name, const QString& text, const QKeySequence& key,
                       auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);  // shortcuts work with the menu bar hidden (presentation mode)
        return a;
    };
    QAction* open = make("open", tr("&Open scenario..."), QKeySequence::Open, [this] {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open scenario"),
            settings.value("scenarioDir", QString::fromStdString(bundledScenarioDir())).toString(),
            tr("Scenarios (*.toml)"));
        if (path.isEmpty()) return;
        settings.setValue("scenarioDir", QFileInfo(path).absolutePath());
        openScenario(path);
    });
    QAction* save = make("save", tr("&Save scenario as..."), QKeySequence::SaveAs, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save scenario"), {}, tr("Scenarios (*.toml)"));
        if (!path.isEmpty()) saveScenario(path);
    });
    QAction* shot = make("screenshot", tr("Screens&hot..."), QKeySequence(Qt::Key_F12),
                         &MainWindow::takeScreenshot);
    auto askSave = [this](const QString& title, const QString& name, const QString& filter) {
        return QFileDialog::getSaveFileName(this, title, name, filter);
    };
    QAction* saveCp = make("saveCheckpoint", tr("Save &checkpoint..."), {}, [this, askSave] {
        const QString p = askSave(tr("Save checkpoint"), "run.cfchk", tr("Checkpoints (*.cfchk)"));
        if (!p.isEmpty()) saveCheckpoint(p);
    });
    QAction* loadCp = make("loadCheckpoint", tr("&Load checkpoint..."), {}, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Load checkpoint"), {},
                                                       tr("Checkpoints (*.cfchk)"));
        if (!p.isEmpty()) loadCheckpoint(p);
    });
    QAction* snap = make("exportSnapshot", tr("Export &snapshot (HDF5/XDMF)..."), {}, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Export snapshot into"));
        if (!d.isEmpty()) exportSnapshot(d);
    });
    QAction* geo =
        make("exportGeometry", tr("Export &geometry (PLY/OBJ/glTF)..."), {}, [this, askSave] {
            const QString p = askSave(tr("Export geometry"), "cells.ply",
                                      tr("Geometry (*.ply *.obj *.glb *.gltf *.stl)"));
            if (!p.isEmpty()) exportGeometry(p);
        });
    QAction* record =
        make("record", tr("&Record movie..."), QKeySequence(Qt::CTRL | Qt::Key_M), [this] {
            if (isRecording()) {
                stopRecording();
                return;
            }
            QSettings settings;
            RecordSettings s;
            s.path = settings.value("record/path", "cellforge.mp4").toString();
            s.width = settings.value("record/width", 1920).toInt();
            s.height = settings.value("record/height", 1080).toInt();
            s.fps = settings.value("record/fps", 30).toInt();
            s.stepsPerFrame = settings.value("record/steps", 10).toInt();
            s.title = settings.value("record/title", QString()).toString();
            s.timestamp = settings.value("record/timestamp", true).toBool();
            RecordDialog dialog(s, this);
            if (dialog.exec() != QDialog::Accepted) return;
            s = dialog.settings();
            settings.setValue("record/path", s.path);
            settings.setValue("record/width", s.width);
            settings.setValue("record/height", s.height);
            settings.setValue("record/fps", s.fps);
            settings.setValue("record/steps", s.stepsPerFrame);
            settings.setValue("record/title", s.title);
            settings.setValue("record/timestamp", s.timestamp);
            startRecording(s);
        });
    QAction* quit = make("quit", tr("&Quit"), QKeySequence::Quit, &QWidget::close);
    QAction* play = make("play", tr("&Play"), QKeySequence(Qt::Key_Space), &MainWindow::togglePlay);
    play->setCheckable(true);
    QAction* step = make("step", tr("&Step"), QKeySequence(Qt::Key_Period), &MainWindow::stepOnce);
    QAction* reset =
        make("reset", tr("&Reset"), QKeySequence(Qt::CTRL | Qt::Key_R), &MainWindow::resetRun);
    QAction* fit =
        make("fit", tr("&Fit view"), QKeySequence(Qt::Key_F), [this] { viewport_->fitToScene(); });
    QAction* present = make("presentation", tr("Pr&esentation mode"), QKeySequence(Qt::Key_F11),
                            &MainWindow::setPresentationMode);
    present->setCheckable(true);
    auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(leave, &QShortcut::activated, this, [this] { setPresentationMode(false); });
    QAction* caption = make("caption", tr("Presentation &caption..."), {}, [this] {
        bool ok = false;
        const QString text = QInputDialog::getMultiLineText(
            this, tr("Presentation caption"), tr("Shown across the bottom in presentation mode:"),
            caption_, &ok);
        if (ok) {
            caption_ = text;
            captionEdited_ = true;
        }
    });
    QAction* captions = make("captions", tr("Scenario &captions"), {}, [] {});
    captions->setCheckable(true);
    captions->setChecked(true);
    captions->setToolTip(
        tr("Show the captions a guided scenario (e.g. the welcome) writes "
           "across the view as it runs"));
    // The overlay (HUD, legends, Quick panel) hides for a clean view or a projector; the
    // viewport's own H key and this action stay in step through the viewport's signal.
    QAction* overlay = make("overlay", tr("&Overlay"), QKeySequence(Qt::Key_H),
                            [this](bool on) { viewport_->setOverlayVisible(on); });
    overlay->setCheckable(true);
    overlay->setChecked(viewport_->overlayVisible());
    overlay->setToolTip(tr("Show the HUD, the legends and the Quick panel over the view (H)"));
    connect(viewport_, &Viewport::overlayVisibilityChanged, overlay, &QAction::setChecked);
    QAction* about = make("about", tr("&About Cellforge"), {}, [this] {
        QMessageBox::about(
            this, tr("About Cellforge"),
            tr("<b>Cellforge %1</b><p>GPU workbench for cell and tissue simulation.</p>"
               "<p>License: GPL-3.0-or-later.</p>")
                .arg(CELLFORGE_VERSION));
    });

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({open, save});
    file->addSeparator();
    file->addActions({saveCp, loadCp});
    file->addSeparator();
    file->addActions({shot, record, snap, geo});
    file->addSeparator();
    file->addAction(quit);
    QAction* undo = parameters_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName("undo");
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = parameters_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName("redo");
    redo->setShortcut(QKeySequence::Redo);
    menuBar()->addMenu(tr("&Edit"))->addActions({undo, redo});
    QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
    sim->addActions({play, step, reset});
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addActions({fit, overlay, present, caption, captions});
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    menuBar()->addMenu(tr("&Help"))->addAction(about);

    QToolBar* bar = addToolBar(tr("Simulation"));
    bar->setObjectName("simulationToolBar");
    bar->addActions({open, play, step, reset});
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Steps per frame "), this));
    stepsPerFrame_ = new QSpinBox(this);
    stepsPerFrame_->setObjectName("stepsPerFrame");
    stepsPerFrame_->setRange(1, 100000);
    stepsPerFrame_->setValue(10);
    stepsPerFrame_->setToolTip(
        tr("Simulation steps between two published frames, at most: fewer when steps are "
           "costly, so that the window keeps its frame rate. '.' steps exactly this many."));
    connect(stepsPerFrame_, &QSpinBox::valueChanged, this, [this](int v) {
        if (runner_) runner_->setStepsPerBatch(static_cast<std::uint64_t>(v));
    });
    bar->addWidget(stepsPerFrame_);
    bar->addWidget(new QLabel(tr(" Speed limit "), this));
    speedLimit_ = new QDoubleSpinBox(this);
    speedLimit_->setObjectName("speedLimit");
    speedLimit_->setRange(0, 1e6);
    speedLimit_->setDecimals(0);
    speedLimit_->setSuffix(tr(" steps/s"));
    speedLimit_->setSpecialValueText(tr("full speed"));
    speedLimit_->setToolTip(
        tr("Play no faster than this (0: as fast as the backend runs); "
           "guided scenarios set their own pace"));
    connect(speedLimit_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (runner_) runner_->setMaxStepsPerSecond(v);
    });
    bar->addWidget(speedLimit_);
    bar->addSeparator();
    bar->addActions({shot, record, fit});
}

bool MainWindow::openScenario(const QString& path) {
    try {
        Scenario sc = loadScenario(path.toStdString(), registry_);
        const Backend backend = resolveModelBackend(*sc.model, options_.backend, sc.backend);
        auto runner = std::make_unique<Runner>(*sc.model, backend, sc.parameters, sc.seed);
        runner->setStepsPerBatch(static_cast<std::uint64_t>(stepsPerFrame_->value()));
        runner->setBatchTimeBudget(kBatchBudget);
        {
            const QSignalBlocker quiet(speedLimit_);  // the new runner gets it just below
            speedLimit_->setValue(sc.about.stepsPerSecond);
        }
        runner->setMaxStepsPerSecond(speedLimit_->value());
        auto exchange = std::make_shared<ViewExchange>();
        runner->setViewExchange(exchange);
        stopRecording();  // a movie shows one run
        // The old run stops before the new one is shown (its thread joins here).
        trackedEdits_.clear();  // the old run's edits
        runner_ = std::move(runner);
        exchange_ = std::move(exchange);
        scenario_.emplace(std::move(sc));
        parameters_->setParameters(scenario_->model->parameters(), scenario_->parameters);
        // File paths typed into the panel are relative to the scenario, as in its file.
        parameters_->setFileBaseDirectory(QFileInfo(path).absolutePath());
        refreshModelText(false);
        caption_ = QString::fromStdString(scenario_->model->description);
        captionEdited_ = false;
        plots_->clear();
        plots_->setTimeUnit(QString::fromStdString(scenario_->model->timeUnit));
        browser_->selectPath(path);
        viewport_->setExchange(exchange_);
        lastFrameIndex_ = 0;
        errorShown_ = false;
        playingToEnd_ = false;
        endCheckedFrame_ = 0;
        endMessage_.clear();
        action("play")->setChecked(false);
        updateRunActions();
        setWindowTitle(QString("Cellforge — %1 (%2, %3)")
                           .arg(QFileInfo(path).fileName(),
                                QString::fromStdString(scenario_->model->name),
                                QString::fromStdString(std::string(toString(backend)))));
        log(Level::Info, tr("opened %1: model %2, backend %3")
                             .arg(path, QString::fromStdString(scenario_->model->name),
                                  QString::fromStdString(backendLine(backend))));
        if (!scenario_->about.captions.empty()) playToEnd();  // a guided one starts by itself
        return true;
    } catch (const std::exception& e) {
        showError(tr("cannot open %1: %2").arg(path, QString::fromStdString(e.what())));
        return false;
    }
}

bool MainWindow::saveScenario(const QString& path) {
    if (!scenario_ || !runner_) return false;
    Scenario copy = *scenario_;
    copy.parameters = runner_->parameters();
    std::ofstream out(path.toStdString());
    // Paths under the new file's directory are written relative to it.
    out << scenarioToToml(copy, QFileInfo(path).absolutePath().toStdString());
    if (!out) {
        showError(tr("cannot write %1").arg(path));
        return false;
    }
    log(Level::Info, tr("saved %1").arg(path));
    return true;
}

void MainWindow::togglePlay() {
    if (!runner_) {
        action("play")->setChecked(false);  // nothing to play
        return;
    }
    // The action's own state says what the user asked for: it was toggled before this slot
    // runs. The runner cannot say it, as it takes commands asynchronously: just after a play
    // (a guided scenario starts on opening) it has not started yet, and asking it would turn
    // a pause into a second play.
    if (!action("play")->isChecked()) {
        runner_->pause();
        playingToEnd_ = false;
        action("play")->setChecked(false);
    } else {
        playToEnd();
    }
}

void MainWindow::stepOnce() {
    if (!runner_) return;
    runner_->stepBy(static_cast<std::uint64_t>(stepsPerFrame_->value()));
    playingToEnd_ = false;  // a step ends playing, as the runner does
    action("play")->setChecked(false);
}

void MainWindow::resetRun() {
    if (!runner_) return;
    runner_->reset();
    parameters_->markApplied();
    action("play")->setChecked(false);
    playingToEnd_ = false;
    endMessage_.clear();
    statusBar()->clearMessage();
    errorShown_ = false;
    log(Level::Info, tr("reset (structural edits applied)"));
}

void MainWindow::log(Level level, const QString& text) {
    if (level == Level::Error) {
        ++errorsLogged_;
        lastError_ = text;
    }
    static const char* names[] = {"info", "warning", "error"};
    logView_->appendPlainText(QString("%1 %2: %3")
                                  .arg(QDateTime::currentDateTime().toString("HH:mm:ss"),
                                       names[static_cast<int>(level)], text));
}

void MainWindow::showError(const QString& text) {
    log(Level::Error, text);
    // Non-modal: the window stays usable while the message is up.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cellforge"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void MainWindow::poll() {
    for (auto it = pending_.begin(); it != pending_.end();) {
        if (it->result.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        try {
            it->result.get();
            log(Level::Info, it->done);
            if (checkpointLoading_ && runner_) {
                parameters_->setValues(runner_->parameters());
                parameters_->markApplied();
            }
        } catch (const std::exception& e) {
            showError(QString::fromStdString(e.what()));
        }
        it = pending_.erase(it);
        checkpointLoading_ = false;
    }
    if (!runner_) return;
    checkTrackedEdits();
    for (const std::string& note : runner_->takeNotes())
        log(Level::Info, QString::fromStdString(note));
    if (auto error = runner_->error(); error && !errorShown_) {
        errorShown_ = true;
        playingToEnd_ = false;
        action("play")->setChecked(false);
        try {
            std::rethrow_exception(error);
        } catch (const std::exception& e) {
            showError(tr("the simulation stopped: %1").arg(QString::fromStdString(e.what())));
        }
    }
    const auto frame = runner_->latestFrame();
    if (!frame) return;
    if (frame->index != lastFrameIndex_) plots_->addSample(frame->time, frame->metrics);
    lastFrameIndex_ = frame->index;
    handleRunEnd(*frame);
    status_->setText(tr("step %1   t = %2 %3   %4 steps/s   %5 fps   %6, %7")
                         .arg(frame->step)
                         .arg(frame->time, 0, 'g', 6)
                         .arg(scenario_->model->timeUnit == "1"
                                  ? QString()
                                  : QString::fromStdString(scenario_->model->timeUnit))
                         .arg(frame->stepsPerSecond, 0, 'f', 0)
                         .arg(viewport_->framesPerSecond(), 0, 'f', 0)
                         .arg(QString::fromStdString(std::string(toString(runner_->backend()))),
                              QString::fromStdString(viewport_->uploadPath())));
    OverlayState hud;
    hud.title = scenario_->model->name;
    hud.running = runner_->isRunning();
    hud.stepsPerSecond = frame->stepsPerSecond;
    hud.time = frame->time;
    // "1" is a dimensionless time (model time units): shown as a bare number.
    hud.timeUnit = scenario_->model->timeUnit == "1" ? "" : scenario_->model->timeUnit;
    hud.step = frame->step;
    hud.backend = std::string(toString(runner_->backend()));
    hud.metrics = frame->metrics;
    // At the scenario's end the caption says so and what to do next.
    hud.caption = (endMessage_.isEmpty() ? shownCaption(frame->step) : endMessage_).toStdString();
    hud.quick =
        makeQuickParams(runner_->parameters(), defaultQuickKeys(scenario_->model->parameters()));
    viewport_->setOverlayState(std::move(hud));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    // Closed in presentation mode: the layout to keep is the one presentation returns to,
    // not its hidden docks and full-screen size (the next start would show neither).
    if (!presenting_) settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", presenting_ ? dockState_ : saveState());
    stopRecording();  // the movie stays playable
    runner_.reset();  // stops the simulation thread before the window goes
    e->accept();
}

void MainWindow::refreshModelText(bool keepEdits) {
    const ModelDescriptor::EditableText& t = scenario_->model->editableText;
    if (t.parameter.empty()) {
        modelTextDock_->hide();
        return;
    }
    modelTextDock_->setWindowTitle(tr("Model text: %1").arg(QString::fromStdString(t.language)));
    modelTextDock_->show();
    const ParamSet params = runner_->parameters();
    try {
        const std::string edited = std::get<std::string>(params.get(t.parameter));
        modelText_->setCommittedText(
            QString::fromStdString(t.current(params)),
            edited.empty() ? tr("The model in effect (edit it and Apply: the text becomes %1)")
                                 .arg(QString::fromStdString(t.parameter))
                           : tr("%1, as applied").arg(QString::fromStdString(t.parameter)),
            keepEdits);
        modelText_->setGenerated(QString::fromStdString(t.generated(params)));
        modelText_->showStatus(QString());
    } catch (const Error& e) {
        modelText_->showError(QString::fromStdString(e.what()),
                              QString::fromStdString(t.parameter));
    }
}

void MainWindow::applyModelText(const QString& text) {
    if (!runner_ || !scenario_) return;
    const ModelDescriptor::EditableText& t = scenario_->model->editableText;
    const ParamValue value{text.toStdString()};
    try {
        // Checked here; applied between steps, where the model may still refuse it (poll()).
        trackEdit(t.parameter, value, runner_->setParameter(t.parameter, value),
                  EditSource::ModelText);
    } catch (const Error& e) {
        modelText_->showError(QString::fromStdString(e.what()),
                              QString::fromStdString(t.parameter));
        log(Level::Warning, tr("refused: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    parameters_->setValue(t.parameter, value);
    ParamSet params = runner_->parameters();
    params.set(t.parameter, value);
    modelText_->setCommittedText(text,
                                 tr("%1, as applied").arg(QString::fromStdString(t.parameter)));
    try {
        modelText_->setGenerated(QString::fromStdString(t.generated(params)));
    } catch (const Error& e) {
        modelText_->setGenerated(QString::fromStdString(e.what()));
    }
    modelText_->showStatus(
        tr("Applied: the running model switches as soon as its kernel is "
           "compiled; states of the same name keep their values."));
    log(Level::Info, tr("%1 applied (%2 lines)")
                         .arg(QString::fromStdString(t.parameter))
                         .arg(text.count('\n') + 1));
}

}  // namespace cf::gui
