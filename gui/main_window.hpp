// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main window: the viewport in the centre, docks around it, menus and a toolbar. It
// owns the simulation (a Runner on its own thread) and polls it; it never blocks on the
// GPU. Errors from the simulation or from files go to the log dock and a non-modal
// message; the window stays usable.
#include <QMainWindow>
#include <QString>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "gui/desktop_app.hpp"
#include "render/camera_path.hpp"
#include "sim/core/scenario.hpp"
#include "sim/run/runner.hpp"

class QAction;
class QDockWidget;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;
class QTimer;

namespace cf::gui {

class MetricsPlot;
class ModelTextEditor;
class MovieRecorder;
class ParameterPanel;
class RecordingProgress;
class ScenarioBrowser;
struct RecordSettings;
class Viewport;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const DesktopOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a scenario and starts a paused simulation on it. On error the current run
    // stays, the error is logged and shown, and false is returned.
    bool openScenario(const QString& path);
    bool saveScenario(const QString& path);

    Runner* runner() { return runner_.get(); }
    // The status bar's run line ("step N  t = ...  X steps/s  Y fps ..."), for --grab-window
    // and tests.
    QString statusText() const;
    // Shown (status bar, log and caption) when a run stops at its scenario's `steps`; empty
    // while the run is not at its end.
    const QString& endMessage() const { return endMessage_; }
    // Batches of simulation steps are kept to about this much wall time, so the window
    // answers within a frame whatever a step costs (Runner::setBatchTimeBudget).
    static constexpr std::chrono::milliseconds kBatchBudget{25};
    const Scenario* scenario() const { return scenario_ ? &*scenario_ : nullptr; }
    Viewport* viewport() { return viewport_; }
    bool isPresenting() const { return presenting_; }
    void setCaption(const QString& text) { caption_ = text; }
    ParameterPanel* parameterPanel() { return parameters_; }
    // Actions by object name ("play", "step", "reset", "screenshot", ...), for tests.
    QAction* action(const QString& name) const;
    QString logText() const;

    enum class Level { Info, Warning, Error };
    void log(Level level, const QString& text);
    // Errors logged since the window opened, and the last one's text (the soak driver).
    int errorsLogged() const { return errorsLogged_; }
    const QString& lastError() const { return lastError_; }

public slots:
    void togglePlay();
    void stepOnce();
    void resetRun();
    void takeScreenshot();  // asks for a size and a file
    bool saveScreenshot(const QString& path, int width, int height);
    void setPresentationMode(bool on);
    // File operations run on the simulation thread between batches (the model is there);
    // the window logs the result when they are done and never waits for them.
    void saveCheckpoint(const QString& path);
    void loadCheckpoint(const QString& path);
    void exportSnapshot(const QString& directory);
    void exportGeometry(const QString& path);
    bool hasPendingTasks() const { return !pending_.empty(); }
    // Movie recording: one frame every settings.stepsPerFrame simulation steps, exactly
    // (the window steps the run itself while recording), optionally along a camera path.
    bool startRecording(const RecordSettings& settings);
    void stopRecording();
    bool isRecording() const { return recorder_ != nullptr; }

protected:
    void closeEvent(QCloseEvent* e) override;

private:
    void buildActions();
    void buildDocks();
    void poll();
    void showError(const QString& text);
    void restoreSettings();
    // main_window_layout.cpp: the first size from the screen (restored ones clamped to it),
    // the docks' first widths and heights, and the actions that need a run.
    void sizeToScreen(bool restored);
    void sizeDocks();
    void updateRunActions();
    // Plays up to the scenario's `steps` (or on past them when the run is already there);
    // what happens at the end is the scenario's `about.at_end` (handleRunEnd, from poll()).
    void playToEnd();
    void handleRunEnd(const Frame& frame);
    bool playingToEnd_ = false;          // the run plays towards the scenario's end
    std::uint64_t endCheckedFrame_ = 0;  // frames up to this one were looked at for the end
    QString endMessage_;

    DesktopOptions options_;
    // Scenarios and runners refer to the model descriptors in here: it outlives them.
    const ModelRegistry registry_;
    std::optional<Scenario> scenario_;
    std::unique_ptr<Runner> runner_;
    std::shared_ptr<ViewExchange> exchange_;
    Viewport* viewport_ = nullptr;
    QPlainTextEdit* logView_ = nullptr;
    ParameterPanel* parameters_ = nullptr;
    ModelTextEditor* modelText_ = nullptr;  // the model's own text, when it has one
    QDockWidget* modelTextDock_ = nullptr;
    void refreshModelText(bool keepEdits = true);
    void applyModelText(const QString& text);
    MetricsPlot* plots_ = nullptr;
    ScenarioBrowser* browser_ = nullptr;
    RecordingProgress* recordProgress_ = nullptr;
    std::unique_ptr<MovieRecorder> recorder_;
    std::optional<render::CameraPath> recordPath_;
    void onRecordedFrame(const QImage& frame, std::uint64_t step);
    QSpinBox* stepsPerFrame_ = nullptr;
    QDoubleSpinBox* speedLimit_ = nullptr;  // steps per second, 0: full speed
    QLabel* status_ = nullptr;
    QTimer* poll_ = nullptr;
    std::uint64_t lastFrameIndex_ = 0;
    struct PendingTask {
        QString done;  // logged on success
        std::future<void> result;
    };
    std::vector<PendingTask> pending_;
    bool checkpointLoading_ = false;
    bool presenting_ = false;
    QByteArray dockState_;        // the layout to return to after presentation mode
    QString caption_;             // presentation caption; the model's description by default
    bool captionEdited_ = false;  // the user's caption wins over the scenario's captions
    QString shownCaption(std::uint64_t step) const;
    void track(const QString& done, std::future<void> result);
    // Edits from the quick panel and the model-text dock whose futures may still hold a
    // refusal from the simulation thread (the parameter dock keeps its own).
    enum class EditSource { Quick, ModelText };
    struct TrackedEdit {
        std::string key;
        ParamValue value;
        std::future<void> result;
        EditSource source = EditSource::Quick;
    };
    std::vector<TrackedEdit> trackedEdits_;
    void trackEdit(const std::string& key, const ParamValue& value, std::future<void> result,
                   EditSource source);
    void checkTrackedEdits();
    bool errorShown_ = false;
    int errorsLogged_ = 0;
    QString lastError_;
};

}  // namespace cf::gui
