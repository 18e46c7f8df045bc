// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Simulation.render() and record() (python/src/simulation.hpp): the model drawn by the same
// renderer as `cellforge --headless` (app/frame_renderer.hpp) on an EGL context made on the
// simulation thread, so the CUDA backend's views reach GL through interop there. No
// pybind11 here.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace cf {
class Model;
}

namespace cf::py {

struct PictureOptions {
    int width = 1280;
    int height = 720;
    std::string color;  // the cloud's channel (empty: the view's first)
    bool legend = true;
    std::string title;
    bool timestamp = true;
    std::string volume, volumeChannel;
    std::string slices = "mid,mid,mid";
    std::string vectors, lic;
    float yawPerFrame = 0.0f;  // degrees per movie frame
    bool transparent = false;  // a clear background (render only)
    int fps = 30;              // movies
};

struct MovieSummary {
    std::filesystem::path path;
    long frames = 0;
    int width = 0, height = 0;
    std::string codec;
    double seconds = 0.0;
    double frameRate = 0.0;
};

// The GL context and what draws into it; every call on the simulation thread.
class Pictures {
public:
    Pictures();
    ~Pictures();  // on the simulation thread too (the context is current there)
    Pictures(const Pictures&) = delete;
    Pictures& operator=(const Pictures&) = delete;

    // One image of the model now: RGBA8, rows top to bottom. Throws ParameterError for an
    // option the model's views cannot honour, RenderError when it cannot be drawn.
    std::vector<std::uint8_t> render(Model& model, const std::string& modelName,
                                     const std::string& timeUnit, const PictureOptions& o);

    // A movie: begin (checks the options and the file), add frames, finish.
    void beginMovie(const std::filesystem::path& path, const std::string& modelName,
                    const std::string& timeUnit, const PictureOptions& o);
    void addMovieFrame(Model& model);
    MovieSummary finishMovie();
    bool recording() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// Whether this build can draw (the renderer and EGL are built in) and record movies.
bool renderingBuiltIn();
bool moviesBuiltIn();

}  // namespace cf::py
