// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/movie_recorder.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "render/camera_path.hpp"
#include "render/movie_writer.hpp"
#include "render/text_annotations.hpp"

namespace cf::gui {

namespace {
// Frames waiting for the encoder: enough to ride out a slow frame, few enough that a 4K
// recording holds ~100 MB at most.
constexpr std::size_t kMaxQueued = 3;
constexpr int kMaxWidth = 7680;
constexpr int kMaxHeight = 4320;
constexpr int kMinSide = 16;
}  // namespace

QString validateRecordSettings(const RecordSettings& s) {
    if (s.path.trimmed().isEmpty()) return QObject::tr("Choose a file to record to.");
    const QFileInfo file(s.path);
    if (file.suffix().compare("mp4", Qt::CaseInsensitive) != 0)
        return QObject::tr("The movie is an MP4 file: its name must end in .mp4 (%1).")
            .arg(file.fileName());
    if (!file.absoluteDir().exists())
        return QObject::tr("The folder %1 does not exist.")
            .arg(QDir::toNativeSeparators(file.absolutePath()));
    if (file.isDir()) return QObject::tr("%1 is a folder.").arg(s.path);
    if (s.width < kMinSide || s.width > kMaxWidth)
        return QObject::tr("The width must be %1 to %2 pixels (it is %3).")
            .arg(kMinSide)
            .arg(kMaxWidth)
            .arg(s.width);
    if (s.height < kMinSide || s.height > kMaxHeight)
        return QObject::tr("The height must be %1 to %2 pixels (it is %3).")
            .arg(kMinSide)
            .arg(kMaxHeight)
            .arg(s.height);
    if (s.width % 2 != 0 || s.height % 2 != 0)
        return QObject::tr("H.264 needs an even width and height: %1x%2 has an odd %3.")
            .arg(s.width)
            .arg(s.height)
            .arg(s.width % 2 != 0
                     ? (s.height % 2 != 0 ? QObject::tr("width and height") : QObject::tr("width"))
                     : QObject::tr("height"));
    if (s.fps < 1 || s.fps > 240)
        return QObject::tr("The frame rate must be 1 to 240 fps (it is %1).").arg(s.fps);
    if (s.stepsPerFrame < 1)
        return QObject::tr(
                   "There must be at least 1 simulation step per movie frame (it is "
                   "%1).")
            .arg(s.stepsPerFrame);
    if (const std::string problem = render::titleProblem(s.title.toStdString()); !problem.empty())
        return QObject::tr("The title %1.").arg(QString::fromStdString(problem));
    if (s.durationFrames && *s.durationFrames < 1)
        return QObject::tr("A recording of a fixed length needs at least 1 frame (it is %1).")
            .arg(*s.durationFrames);
    if (s.cameraPathFile) {
        QFile f(*s.cameraPathFile);
        if (s.cameraPathFile->isEmpty()) return QObject::tr("Choose a camera path file.");
        if (!f.open(QIODevice::ReadOnly))
            return QObject::tr("Cannot read the camera path %1: %2")
                .arg(*s.cameraPathFile, f.errorString());
        try {
            (void)render::CameraPath::fromJson(f.readAll().toStdString());
        } catch (const std::exception& e) {
            return QObject::tr("The camera path %1 is not valid: %2")
                .arg(QFileInfo(*s.cameraPathFile).fileName(), QString::fromStdString(e.what()));
        }
    }
    return {};
}

// The encoder thread: takes RGBA frames from a short queue and feeds the MovieWriter.
struct MovieRecorder::Worker {
    std::unique_ptr<render::MovieWriter> writer;
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::vector<std::uint8_t>> queue;
    bool stopping = false;
    int written = 0;
    std::string error;
    std::thread thread;

    void run() {
        for (;;) {
            std::vector<std::uint8_t> frame;
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return stopping || !queue.empty(); });
                if (queue.empty()) return;  // stopping, nothing left
                frame = std::move(queue.front());
                queue.pop_front();
            }
            try {
                writer->addFrame(frame);
                std::lock_guard lock(mutex);
                ++written;
            } catch (const std::exception& e) {
                std::lock_guard lock(mutex);
                error = e.what();
                queue.clear();
                changed.notify_all();
                return;
            }
            changed.notify_all();
        }
    }
};

MovieRecorder::MovieRecorder(const RecordSettings& settings) : settings_(settings) {
    if (!render::movieSupport())
        throw RecordingError(QObject::tr("cannot record %1: this build has no movie support "
                                         "(it was built without FFmpeg's libraries)")
                                 .arg(settings.path)
                                 .toStdString());
    if (const QString problem = validateRecordSettings(settings); !problem.isEmpty())
        throw RecordingError(
            QObject::tr("cannot record %1: %2").arg(settings.path, problem).toStdString());
    worker_ = std::make_unique<Worker>();
    try {
        worker_->writer = std::make_unique<render::MovieWriter>(
            settings.path.toStdString(), settings.width, settings.height, settings.fps);
    } catch (const std::exception& e) {
        throw RecordingError(std::string("cannot record: ") + e.what());
    }
    worker_->thread = std::thread([w = worker_.get()] { w->run(); });
}

MovieRecorder::~MovieRecorder() {
    close(false);
}

int MovieRecorder::framesWritten() const {
    std::lock_guard lock(worker_->mutex);
    return worker_->written;
}

QString MovieRecorder::codec() const {
    return QString::fromStdString(worker_->writer->codecName());
}

QString MovieRecorder::error() const {
    std::lock_guard lock(worker_->mutex);
    return QString::fromStdString(worker_->error);
}

bool MovieRecorder::frameDue(std::uint64_t step) const {
    if (!lastStep_) return true;
    return step >= *lastStep_ + static_cast<std::uint64_t>(settings_.stepsPerFrame);
}

bool MovieRecorder::wantsMoreFrames() const {
    return !finished_ && (!settings_.durationFrames || frames_ < *settings_.durationFrames);
}

void MovieRecorder::addFrame(const QImage& image, std::uint64_t step) {
    const std::string file = settings_.path.toStdString();
    if (finished_)
        throw RecordingError(file + ": frame added after the recording ended (" +
                             std::to_string(frames_) + " frames)");
    if (image.width() != settings_.width || image.height() != settings_.height)
        throw RecordingError(file + ": frame " + std::to_string(frames_ + 1) + " is " +
                             std::to_string(image.width()) + "x" + std::to_string(image.height()) +
                             ", the movie is " + std::to_string(settings_.width) + "x" +
                             std::to_string(settings_.height));
    const QImage rgba = image.format() == QImage::Format_RGBA8888
                            ? image
                            : image.convertToFormat(QImage::Format_RGBA8888);
    const auto rowBytes = static_cast<std::size_t>(settings_.width) * 4;
    std::vector<std::uint8_t> pixels(rowBytes * static_cast<std::size_t>(settings_.height));
    for (int y = 0; y < settings_.height; ++y)  // scan lines may be padded
        std::memcpy(pixels.data() + rowBytes * static_cast<std::size_t>(y), rgba.constScanLine(y),
                    rowBytes);

    Worker& w = *worker_;
    std::unique_lock lock(w.mutex);
    w.changed.wait(lock, [&] { return w.queue.size() < kMaxQueued || !w.error.empty(); });
    if (!w.error.empty())
        throw RecordingError(file + ": encoding stopped after " + std::to_string(w.written) +
                             " frames: " + w.error);
    w.queue.push_back(std::move(pixels));
    lock.unlock();
    w.changed.notify_all();
    ++frames_;
    lastStep_ = step;
}

void MovieRecorder::close(bool dropQueued) {
    if (finished_) return;
    finished_ = true;
    Worker& w = *worker_;
    {
        std::lock_guard lock(w.mutex);
        if (dropQueued) w.queue.clear();
        w.stopping = true;
    }
    w.changed.notify_all();
    if (w.thread.joinable()) w.thread.join();
    try {
        w.writer->finish();
    } catch (const std::exception& e) {
        std::lock_guard lock(w.mutex);
        if (w.error.empty()) w.error = e.what();
    }
}

void MovieRecorder::finish() {
    close(false);
    const QString problem = error();
    if (!problem.isEmpty())
        throw RecordingError(settings_.path.toStdString() + ": the movie is incomplete (" +
                             std::to_string(framesWritten()) + " of " + std::to_string(frames_) +
                             " frames): " + problem.toStdString());
}

void MovieRecorder::cancel() {
    close(true);
}

}  // namespace cf::gui
