// SPDX-License-Identifier: GPL-3.0-or-later
// MP4 export: every frame written is in the file, at the size asked, as H.264; a writer
// destroyed without finish() (an interrupted run) still leaves a playable file.
#include <gtest/gtest.h>

#include <filesystem>

#include "render/movie_writer.hpp"
#include "render/render_error.hpp"

namespace cf::render {
namespace {

std::vector<std::uint8_t> frame(int w, int h, int shade) {
    std::vector<std::uint8_t> px(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
    for (std::size_t i = 0; i < px.size(); i += 4) {
        px[i] = static_cast<std::uint8_t>(shade);
        px[i + 1] = static_cast<std::uint8_t>(255 - shade);
        px[i + 2] = 128;
        px[i + 3] = 255;
    }
    return px;
}

class MovieTest : public testing::Test {
protected:
    void SetUp() override {
        if (!movieSupport()) GTEST_SKIP() << "this build has no FFmpeg libraries";
    }
};

TEST_F(MovieTest, EveryFrameArrivesAsH264AtTheRequestedSize) {
    const auto path = std::filesystem::temp_directory_path() / "cf_movie_test.mp4";
    {
        MovieWriter movie(path, 160, 96, 30);
        for (int f = 0; f < 45; ++f)
            movie.addFrame(frame(160, 96, (f * 5) % 256));
        movie.finish();
        EXPECT_EQ(movie.frames(), 45);
    }
    const MovieInfo info = probeMovie(path);
    EXPECT_EQ(info.width, 160);
    EXPECT_EQ(info.height, 96);
    EXPECT_EQ(info.frames, 45);
    EXPECT_EQ(info.codec, "h264");
    // Every frame lasts 1/fps, the last one included (players at a constant rate drop a
    // final frame without a duration).
    EXPECT_NEAR(info.seconds, 45.0 / 30.0, 1e-6);
    EXPECT_NEAR(info.frameRate, 30.0, 1e-9);
}

TEST_F(MovieTest, InterruptedRecordingStaysPlayable) {
    const auto path = std::filesystem::temp_directory_path() / "cf_movie_interrupted.mp4";
    {
        MovieWriter movie(path, 64, 64, 25);
        for (int f = 0; f < 12; ++f)
            movie.addFrame(frame(64, 64, f * 20));
    }  // no finish(): the destructor finalizes
    EXPECT_EQ(probeMovie(path).frames, 12);
}

TEST_F(MovieTest, BadInputIsReported) {
    EXPECT_THROW(MovieWriter("/nonexistent/dir/x.mp4", 64, 64), RenderError);
    EXPECT_THROW(MovieWriter(std::filesystem::temp_directory_path() / "odd.mp4", 63, 64),
                 RenderError);
    MovieWriter movie(std::filesystem::temp_directory_path() / "cf_movie_bad.mp4", 64, 64);
    EXPECT_THROW(movie.addFrame(frame(32, 32, 0)), RenderError);
    EXPECT_THROW(probeMovie("/nonexistent.mp4"), RenderError);
}

}  // namespace
}  // namespace cf::render
