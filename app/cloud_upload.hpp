// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The glue between a model's views (sim/core/views.hpp) and the renderer's structures:
// device arrays go device to device through CUDA-GL interop when it works, host arrays
// (CPU backend, or no interop) through glNamedBufferSubData (app/upload_choice.hpp decides).
#include <memory>
#include <string>
#include <vector>

#include "app/color_range.hpp"
#include "app/upload_choice.hpp"
#include "render/camera.hpp"
#include "render/geometry_export.hpp"
#include "render/guides.hpp"
#include "render/legend.hpp"
#include "render/point_cloud.hpp"
#include "sim/core/views.hpp"

namespace cf::app {

// The scene's frame from a model's views, as every view of a run shows it: the domain box
// (its height cut to the focus box, so a thin tissue is not lost in a tall domain), the
// model's planes (translucent), and, when `camera` is given, the camera fitted to the focus
// box.
void frameScene(const ModelViews& views, render::Guides& guides, render::OrbitCamera* camera);

// The cloud as geometry for export (host copies; colours as the viewport shows them, scalars
// over the range `range` resolves to: app/color_range.hpp).
render::SphereGeometry sphereGeometry(const PointCloudView& view, const std::string& color,
                                      const RangeSetting& range = {});

class CloudUploader {
public:
    CloudUploader();
    ~CloudUploader();
    // Copies positions and the colouring channel (`color`: a category or scalar name;
    // empty: the first category, else the first scalar) into `cloud` and sets its colour
    // mode. A scalar's colour range follows `range` (app/color_range.hpp: automatic from the
    // host values, or from the device's minimum and maximum for device data; locked; typed).
    // Throws ParameterError listing the view's channels for a `color` it does not have.
    void upload(const PointCloudView& view, render::PointCloud& cloud, const std::string& color,
                const RangeSetting& range = {});
    // "interop" or "host upload": how the last upload moved the data.
    const char* path() const { return route_.path(); }
    // The legend of the last upload's colouring (categories with their labels, or the
    // scalar's colormap, range and unit); empty title when the cloud is uniform.
    const render::LegendSpec& legend() const;
    // The range of the last scalar colouring (meaningless for categories: see legend()).
    const ColorRange& range() const;
    // The box the last upload's spheres fill (centres +- the largest radius), from host
    // positions; lo > hi when not known (device data through interop, or no points).
    const render::WorldBox& extent() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    UploadRoute route_;
};

}  // namespace cf::app
