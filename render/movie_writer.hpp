// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// MP4 (H.264) movies through FFmpeg's libraries. Frames are RGBA8, top row first. The
// movie is written as NAME.part and renamed to NAME when finish() (or, if a run is
// interrupted, the destructor) completes it: what was recorded stays playable, and a file
// under the movie's name is always complete. If the movie cannot be completed (the disk
// filled), the partial file is removed and the error says after how many frames.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace cf::render {

bool movieSupport();  // false in builds without FFmpeg

class MovieWriter {
public:
    // Throws RenderError naming the file (cannot create, no H.264 encoder, odd size...).
    MovieWriter(const std::filesystem::path& path, int width, int height, int fps = 30);
    ~MovieWriter();
    MovieWriter(const MovieWriter&) = delete;
    MovieWriter& operator=(const MovieWriter&) = delete;

    void addFrame(const std::vector<std::uint8_t>& rgba);
    void finish();
    int frames() const { return frames_; }
    const std::string& codecName() const { return codec_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::filesystem::path path_;
    std::filesystem::path partPath_;  // where the movie is written until finish()
    int frames_ = 0;
    std::string codec_;
};

struct MovieInfo {
    int width = 0;
    int height = 0;
    long frames = 0;
    std::string codec;
    double seconds = 0.0;    // the video stream's duration
    double frameRate = 0.0;  // its average frame rate
};
// Reads a movie's video stream (for tests and checks); throws RenderError.
MovieInfo probeMovie(const std::filesystem::path& path);

}  // namespace cf::render
