// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's output: checkpoints, snapshot and geometry export (run on the simulation
// thread, logged when done), movie recording and screenshots.
#include <QFile>
#include <QFileDialog>
#include <QInputDialog>
#include <QSettings>
#include <QTimer>
#include <cstdio>

#include "app/cloud_upload.hpp"
#include "gui/main_window.hpp"
#include "gui/movie_recorder.hpp"
#include "gui/parameter_panel.hpp"
#include "gui/record_dialog.hpp"
#include "gui/viewport.hpp"
#include "render/geometry_export.hpp"
#include "sim/core/errors.hpp"
#include "sim/io/snapshot_writer.hpp"

namespace cf::gui {

void MainWindow::track(const QString& done, std::future<void> result) {
    pending_.push_back({done, std::move(result)});
}

void MainWindow::saveCheckpoint(const QString& path) {
    if (!runner_) return;
    track(tr("checkpoint saved: %1").arg(path), runner_->save(path.toStdString()));
    // The checkpoint holds the edits as applied (step, old, new); the dock's history next
    // to it adds when they were made and what was undone.
    QFile edits(path + ".edits.json");
    if (edits.open(QIODevice::WriteOnly | QIODevice::Truncate))
        edits.write(QByteArray::fromStdString(parameters_->historyJson()));
    else
        log(Level::Warning, tr("cannot write %1").arg(edits.fileName()));
}

void MainWindow::loadCheckpoint(const QString& path) {
    if (!runner_) return;
    track(tr("checkpoint loaded: %1").arg(path), runner_->load(path.toStdString()));
    checkpointLoading_ = true;  // poll() shows the loaded parameters in the dock when done
}

void MainWindow::exportSnapshot(const QString& directory) {
    if (!runner_) return;
    const std::string dir = directory.toStdString(), model = scenario_->model->name;
    track(tr("snapshot written to %1 (HDF5 + XDMF: open the .xmf in ParaView)").arg(directory),
          runner_->withModel([dir, model](Model& m) {
              io::SnapshotWriter writer(dir, model);
              writer.adoptExisting(UINT64_MAX);  // keep earlier exports in the .xmf
              writer.write(m.snapshot());
          }));
}

void MainWindow::exportGeometry(const QString& path) {
    if (!runner_) return;
    const std::string file = path.toStdString(), color = viewport_->colorBy();
    track(tr("geometry written to %1").arg(path), runner_->withModel([file, color](Model& m) {
        const ModelViews views = m.views();
        m.synchronize();
        if (views.clouds.empty()) throw Error("this model has no geometry to export");
        const render::ExportSummary s =
            render::exportSpheres(file, app::sphereGeometry(views.clouds.front(), color));
        if (s.spheres == 0) throw Error("nothing to export: the model has no elements");
    }));
}

bool MainWindow::startRecording(const RecordSettings& settings) {
    if (!runner_ || isRecording()) return false;
    try {
        recordPath_.reset();
        if (settings.cameraPathFile) {
            QFile f(*settings.cameraPathFile);
            if (!f.open(QIODevice::ReadOnly))
                throw Error(settings.cameraPathFile->toStdString() + ": cannot open");
            recordPath_ = render::CameraPath::fromJson(f.readAll().toStdString());
            viewport_->camera() = recordPath_->evaluate(0.0);
        }
        recorder_ = std::make_unique<MovieRecorder>(settings);
    } catch (const std::exception& e) {
        showError(tr("cannot record: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
    // Exact spacing: the window steps the run itself, one batch of stepsPerFrame steps per
    // frame, and asks for the next batch when the frame is in the movie.
    runner_->pause();
    action("play")->setChecked(false);
    action("play")->setEnabled(false);
    action("step")->setEnabled(false);
    action("record")->setText(tr("Stop &recording"));
    viewport_->setImageCaptions({settings.title.toStdString(), settings.timestamp});
    viewport_->setFrameSink(
        [this](const QImage& frame, std::uint64_t step) { onRecordedFrame(frame, step); },
        settings.width, settings.height);
    recordProgress_->start(settings);
    recordProgress_->show();
    log(Level::Info, tr("recording %1 (%2x%3, %4 fps, one frame every %5 steps)")
                         .arg(settings.path)
                         .arg(settings.width)
                         .arg(settings.height)
                         .arg(settings.fps)
                         .arg(settings.stepsPerFrame));
    runner_->stepBy(static_cast<std::uint64_t>(settings.stepsPerFrame));
    return true;
}

void MainWindow::onRecordedFrame(const QImage& frame, std::uint64_t step) {
    if (!recorder_ || !runner_) return;
    try {
        recorder_->addFrame(frame, step);
    } catch (const std::exception& e) {
        showError(tr("recording stopped: %1").arg(QString::fromStdString(e.what())));
        stopRecording();
        return;
    }
    recordProgress_->setFramesWritten(recorder_->frames());
    if (recordPath_)
        viewport_->camera() =
            recordPath_->evaluate(recorder_->frames() / double(recorder_->settings().fps));
    if (!recorder_->wantsMoreFrames() || runner_->error()) {
        QTimer::singleShot(0, this, &MainWindow::stopRecording);
        return;
    }
    runner_->stepBy(static_cast<std::uint64_t>(recorder_->settings().stepsPerFrame));
}

void MainWindow::stopRecording() {
    if (!recorder_) return;
    viewport_->setFrameSink({}, 0, 0);
    const QString path = recorder_->settings().path;
    try {
        recorder_->finish();
        const QString done = tr("saved %1 (%2 frames, %3 s)")
                                 .arg(path)
                                 .arg(recorder_->frames())
                                 .arg(recorder_->seconds(), 0, 'f', 1);
        recordProgress_->finish(done);
        log(Level::Info, done);
    } catch (const std::exception& e) {
        recordProgress_->finish(tr("recording failed"));
        showError(tr("%1: %2").arg(path, QString::fromStdString(e.what())));
    }
    recorder_.reset();
    recordPath_.reset();
    action("play")->setEnabled(true);
    action("step")->setEnabled(true);
    action("record")->setText(tr("&Record movie..."));
}

void MainWindow::takeScreenshot() {
    const QSize view = viewport_->size() * viewport_->devicePixelRatioF();
    const QString viewSize = tr("%1x%2 (the viewport)").arg(view.width()).arg(view.height());
    const QStringList sizes = {viewSize, "1280x720", "1920x1080", "2560x1440", "3840x2160"};
    QSettings settings;
    bool ok = false;
    const QString choice = QInputDialog::getItem(
        this, tr("Screenshot"), tr("Image size in pixels (drawn at that size, not scaled):"), sizes,
        std::max(0, static_cast<int>(sizes.indexOf(settings.value("shot/size").toString()))), false,
        &ok);
    if (!ok) return;
    settings.setValue("shot/size", choice);
    const QString path = QFileDialog::getSaveFileName(this, tr("Screenshot"), "cellforge.png",
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    int w = view.width(), h = view.height();
    if (choice != viewSize) std::sscanf(choice.toLatin1().constData(), "%dx%d", &w, &h);
    saveScreenshot(path, w, h);
}

bool MainWindow::saveScreenshot(const QString& path, int width, int height) {
    const QImage image = viewport_->renderImage(width, height);
    if (image.isNull() || !image.save(path, "PNG")) {
        showError(tr("cannot write the screenshot %1").arg(path));
        return false;
    }
    log(Level::Info, tr("screenshot %1 (%2x%3)").arg(path).arg(width).arg(height));
    return true;
}

}  // namespace cf::gui
