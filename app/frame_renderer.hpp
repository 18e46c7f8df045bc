// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One model's views drawn into an offscreen image: what `cellforge --headless` draws for
// each frame of its images and movies, and what `import cellforge`'s Simulation.render()
// and record() draw, so that all of them show a model the same way. Needs a current GL
// context (render/headless_context.hpp) on the calling thread; with the CUDA backend that is
// the model's thread, so interop copies device views straight into GL buffers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cloud_upload.hpp"
#include "app/vector_upload.hpp"
#include "app/volume_settings.hpp"
#include "app/volume_upload.hpp"
#include "render/camera.hpp"
#include "render/camera_path.hpp"
#include "render/guides.hpp"
#include "render/legend.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "render/volume_grid.hpp"
#include "sim/core/model.hpp"

namespace cf::app {

struct FrameSettings {
    std::string modelName;  // for messages
    std::string timeUnit;   // of the time stamp
    int width = 1280;
    int height = 720;
    int fps = 30;              // frames per second of a camera path's time
    std::string color;         // channel to colour the cloud by (default: the view's first)
    float yawPerFrame = 0.0f;  // camera turn per frame, degrees
    std::optional<render::CameraPath> cameraPath;
    bool legend = true;
    std::string title;  // caption (empty: none)
    bool timestamp = true;
    std::string volume;         // volume view drawn (empty: the model's first)
    std::string volumeChannel;  // its channel (empty: the first category, else scalar)
    SliceSettings slices{};     // parseSlices("mid,mid,mid")
    std::string vectors;        // "NAME[:STRIDE]" (app/vector_upload.hpp)
    std::string lic;
    // Option names for messages about a bad colour or view ("--color" for the command line,
    // "color" for Python).
    std::string titleOption = "--title";
    std::string colorOption = "--color";
    std::string volumeOption = "--volume";
    std::string volumeChannelOption = "--volume-channel";
    std::string vectorsOption = "--vectors";
};

class FrameRenderer {
public:
    // Checks the settings that need no model (the title); the views are checked by draw().
    explicit FrameRenderer(FrameSettings settings);
    ~FrameRenderer();
    FrameRenderer(const FrameRenderer&) = delete;
    FrameRenderer& operator=(const FrameRenderer&) = delete;

    // Draws the model's views now. `transparent`: a clear background (PNG only). Throws
    // ParameterError for a colour, volume or vector view the model lacks, RenderError when
    // it offers nothing to draw.
    void draw(Model& model, bool transparent = false);

    // The image drawn last: RGBA8, rows top to bottom.
    std::vector<std::uint8_t> readPixels() const { return target_.readPixels(); }
    render::OffscreenTarget& target() { return target_; }
    const FrameSettings& settings() const { return s_; }
    int frames() const { return frameIndex_; }

    // What was drawn, for the programs' summary lines.
    bool showsCloud() const { return showCloud_; }
    const char* cloudPath() const { return uploader_.path(); }
    bool showsVolume() const { return volume_ != nullptr; }
    const std::string& volumeShown() const { return volumeShown_; }
    const VolumeUploader& volumeUploader() const { return volumeUploader_; }
    const std::vector<std::unique_ptr<VectorLayer>>& vectorLayers() const { return vectorLayers_; }

private:
    FrameSettings s_;
    render::OffscreenTarget target_;
    render::PointCloud cloud_;
    render::Guides guides_;
    CloudUploader uploader_;
    std::unique_ptr<render::VolumeGrid> volume_;  // made for the volume view drawn
    VolumeUploader volumeUploader_;
    std::string volumeShown_;
    std::vector<std::unique_ptr<VectorLayer>> vectorLayers_;  // made at the first frame
    bool vectorsResolved_ = false;
    bool showCloud_ = false;
    render::OrbitCamera camera_;
    render::LegendOverlay legend_;
    int frameIndex_ = 0;
    bool framed_ = false;
};

}  // namespace cf::app
