// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/frame_renderer.hpp"

#include <utility>

#include "render/render_error.hpp"
#include "render/text_annotations.hpp"
#include "sim/core/errors.hpp"

namespace cf::app {

FrameRenderer::FrameRenderer(FrameSettings settings)
    : s_(std::move(settings)), target_(s_.width, s_.height) {
    if (const std::string problem = render::titleProblem(s_.title); !problem.empty())
        throw ParameterError(s_.titleOption + ": the title " + problem);
    if (!s_.vectors.empty()) parseVectorsOption(s_.vectors);  // the names wait for the views
}

FrameRenderer::~FrameRenderer() = default;

void FrameRenderer::draw(Model& model, bool transparent) {
    const ModelViews views = model.views();
    model.synchronize();
    if (!vectorsResolved_) {  // bad names or a LIC of a non-planar view: bad input
        for (const VectorSettings& v : resolveVectorOptions(s_.vectors, s_.lic, views)) {
            vectorLayers_.push_back(std::make_unique<VectorLayer>());
            vectorLayers_.back()->settings = v;
        }
        vectorsResolved_ = true;
    }
    if (views.clouds.empty() && views.volumes.empty() && vectorLayers_.empty())
        throw render::RenderError("model '" + s_.modelName + "' offers nothing to draw");
    for (auto& layer : vectorLayers_)
        layer->uploader.upload(findVectorView(views, layer->settings.view, s_.vectorsOption + ": "),
                               layer->field, layer->settings);
    showCloud_ = !views.clouds.empty();
    if (!s_.color.empty() && views.clouds.empty())
        throw ParameterError(s_.colorOption + ": model '" + s_.modelName +
                             "' offers no point cloud (for a volume: " + s_.volumeChannelOption +
                             ")");
    if (showCloud_) {
        try {
            uploader_.upload(views.clouds.front(), cloud_, s_.color);
        } catch (const ParameterError& e) {  // a colour the cloud lacks: its channels
            throw ParameterError(s_.colorOption + ": " + e.what());
        }
    }
    for (const auto& [option, value] : {std::pair{&s_.volumeOption, &s_.volume},
                                        std::pair{&s_.volumeChannelOption, &s_.volumeChannel}})
        if (!value->empty() && views.volumes.empty())
            throw ParameterError(*option + ": model '" + s_.modelName + "' offers no volume view");
    if (!views.volumes.empty()) {
        // A bad name is bad input listing the volumes there are.
        const VolumeView& shown = findVolumeView(views, s_.volume, s_.volumeOption + ": ");
        volumeShown_ = volumeName(shown);
        if (!volume_) volume_ = std::make_unique<render::VolumeGrid>();
        try {
            volumeUploader_.upload(shown, *volume_, s_.volumeChannel);
        } catch (const ParameterError& e) {
            if (s_.volumeChannel.empty()) throw;
            throw ParameterError(s_.volumeChannelOption + ": " + e.what());
        }
        applySlices(s_.slices, *volume_);
    }
    if (!framed_) {
        frameScene(views, guides_, &camera_);
        framed_ = true;
    }
    if (s_.cameraPath) camera_ = s_.cameraPath->evaluate(frameIndex_ / static_cast<double>(s_.fps));
    target_.bind();
    if (transparent)
        target_.clear(0.0f, 0.0f, 0.0f, 0.0f);
    else
        target_.clear(0.12f, 0.12f, 0.14f, 1.0f);
    const glm::mat4 proj =
        camera_.projection(static_cast<float>(s_.width) / static_cast<float>(s_.height));
    guides_.drawLines(proj * camera_.view());
    if (showCloud_) cloud_.draw(camera_.view(), proj);
    if (volume_) volume_->drawSlices(camera_.view(), proj);  // opaque, before the planes
    for (auto& layer : vectorLayers_)                        // opaque too (LIC, arrows)
        layer->field.draw(camera_.view(), proj);
    guides_.drawPlanes(proj * camera_.view());
    // Legends in the image's corners, captions top left (render/text_annotations.hpp).
    render::ImageOverlayContent overlay;
    if (s_.legend) {
        if (showCloud_) overlay.cloud = &uploader_.legend();
        if (volume_) overlay.volume = &volumeUploader_.legend();
        if (!vectorLayers_.empty()) overlay.vectors = &vectorLayers_.front()->uploader.legend();
    }
    overlay.title = s_.title;
    if (s_.timestamp)
        overlay.timestamp = render::formatTimestamp(model.time(), s_.timeUnit, model.step());
    render::drawImageOverlay(legend_, overlay, s_.width, s_.height);
    camera_.yawDegrees += s_.yawPerFrame;
    ++frameIndex_;
}

}  // namespace cf::app
