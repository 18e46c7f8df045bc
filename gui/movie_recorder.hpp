// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Recording the viewport to an MP4 (H.264) movie from the window: what to record
// (RecordSettings, chosen in gui/record_dialog.hpp) and the recorder that takes the frames
// (QImage, any format) and encodes them with render::MovieWriter on a background thread,
// so that a 4K frame does not stall the window. No Qt widgets here.
//
// A recording always ends with a playable file: finish() (stop), cancel() and the
// destructor all close the movie with the frames encoded so far.
#include <QImage>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>

#include "sim/core/errors.hpp"

namespace cf::gui {

struct RecordSettings {
    QString path;  // the .mp4 file
    int width = 1920;
    int height = 1080;
    int fps = 30;
    int stepsPerFrame = 10;                 // simulation steps between two movie frames
    std::optional<QString> cameraPathFile;  // JSON key frames (render/camera_path.hpp), times
                                            // in seconds of movie; none: the user's camera
    std::optional<int> durationFrames;      // none: until stopped
    // Captions drawn into every frame, top left (render/text_annotations.hpp); the window
    // keeps them for its screenshots too.
    QString title;          // one line; empty: none
    bool timestamp = true;  // "t = 41.9 s · step 3200" of the frame's views

    // Seconds of movie, 0 when recording until stopped.
    double durationSeconds() const { return durationFrames ? double(*durationFrames) / fps : 0; }
};

// Empty when `s` can be recorded, else the first problem in words for the user (a missing
// folder, an odd size for H.264, a camera path that does not parse, ...). Does not check
// movieSupport().
QString validateRecordSettings(const RecordSettings& s);

class RecordingError : public Error {
public:
    using Error::Error;
};

class MovieRecorder {
public:
    // Creates the movie. Throws RecordingError naming the file and the reason (no movie
    // support in this build, invalid settings, the file cannot be created, no encoder).
    explicit MovieRecorder(const RecordSettings& settings);
    ~MovieRecorder();  // closes the movie (playable) if finish()/cancel() was not called
    MovieRecorder(const MovieRecorder&) = delete;
    MovieRecorder& operator=(const MovieRecorder&) = delete;

    // Queues one frame of simulation step `step`. Any QImage format is converted to RGBA8;
    // its size must be the movie's. Blocks only while the encoder is a few frames behind.
    // Throws RecordingError when the size is wrong, the recording has ended, or encoding
    // an earlier frame failed (the message says why; the file keeps what was encoded).
    void addFrame(const QImage& image, std::uint64_t step);

    // Whether the next frame is due at simulation step `step`: the first frame always is,
    // later ones once `stepsPerFrame` steps have passed since the last frame.
    bool frameDue(std::uint64_t step) const;
    // False once durationFrames frames were added (never when recording until stopped).
    bool wantsMoreFrames() const;

    // Encodes the queued frames and closes the movie. Idempotent. Throws RecordingError if
    // encoding or closing failed.
    void finish();
    // Drops the frames not yet encoded and closes the movie (what was encoded stays
    // playable). Never throws; a failure is kept in error().
    void cancel();

    bool isFinished() const { return finished_; }
    int frames() const { return frames_; }  // added
    int framesWritten() const;              // encoded so far
    std::optional<std::uint64_t> lastStep() const { return lastStep_; }
    double seconds() const { return double(frames_) / settings_.fps; }
    const RecordSettings& settings() const { return settings_; }
    QString codec() const;
    QString error() const;  // the first encoding error, empty if none

private:
    struct Worker;
    void close(bool dropQueued);

    RecordSettings settings_;
    std::unique_ptr<Worker> worker_;
    int frames_ = 0;
    std::optional<std::uint64_t> lastStep_;
    bool finished_ = false;
};

}  // namespace cf::gui
