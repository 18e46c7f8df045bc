// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `cellforge --headless`: run a scenario without a display and write images and a movie of
// it (the renderer on an EGL context), the way `blender -b` renders in the background.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cf {
class ModelRegistry;
}

namespace cf::app {

struct HeadlessOptions {
    std::string scenario;
    std::optional<std::uint64_t> steps;
    std::uint64_t every = 10;  // simulation steps per movie frame
    std::optional<std::string> backend;
    std::vector<std::string> sets;
    std::optional<std::string> screenshot;  // PNG of the last frame
    std::optional<std::string> record;      // MP4 of every frame
    int width = 1280;
    int height = 720;
    int fps = 30;
    std::string color;         // channel to colour by (default: the view's first)
    float yawPerFrame = 0.0f;  // camera turn per frame, degrees
    bool transparent = false;  // PNG with a transparent background (movies stay opaque)
    std::optional<std::string> cameraPath;  // JSON key frames; frame k is at k / fps seconds
    bool legend = true;                     // colour legend in the images and movie
    // Captions in the images and movie, top left (render/text_annotations.hpp): a title
    // (empty: none) over a time stamp ("t = 41.9 s · step 3200", on unless turned off).
    std::string title;
    bool timestamp = true;
    // Volume views: the one drawn (a name; empty: the model's first), the channel shown
    // (empty: the first category, else the first scalar) and where the x, y and z slices go
    // ("X,Y,Z": a coordinate in model units, mid or off each; see parseSlices in
    // app/volume_settings.hpp).
    std::string volume;
    std::string volumeChannel;
    std::string slices = "mid,mid,mid";
    // Vector views: "NAME[:STRIDE]" draws view NAME as arrows at every STRIDE-th node
    // (default: automatic, at most about 32 along the longest axis); `lic` names a planar
    // view drawn as a line-integral convolution (with the arrows on top when both name the
    // same view). Neither: the first vector view's arrows, if the model has one.
    std::string vectors;
    std::string lic;
};

// Returns the process exit code of a run that ended: 0, or 130 when interrupted. Throws what
// stops it, for the caller to print once and map with exitStatusFor()
// (sim/core/exit_status.hpp: InputError is bad input, 2; the rest 3). Prints progress to
// stderr and the files written to stdout.
int runHeadless(const HeadlessOptions& options);
// The same with the models of `registry` (tests bring their own).
int runHeadless(const HeadlessOptions& options, const ModelRegistry& registry);

}  // namespace cf::app
