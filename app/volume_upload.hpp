// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The glue between a model's volume views (sim/core/views.hpp) and the renderer's VolumeGrid,
// shared by the headless run and the viewport: device voxels reach the 3D texture through
// CUDA-GL texture interop (a pitched device-to-array copy, no host round trip), host voxels
// by a plain upload; the slice settings (--slices, the window's volume controls) and the
// legend of the channel shown.
#include <memory>
#include <string>

#include "app/color_range.hpp"
#include "app/upload_choice.hpp"
#include "app/volume_settings.hpp"
#include "render/legend.hpp"
#include "render/volume_grid.hpp"
#include "sim/core/views.hpp"

namespace cf::app {

// Shows the slices on `grid` (whose box is set).
void applySlices(const SliceSettings& slices, render::VolumeGrid& grid);

class VolumeUploader {
public:
    VolumeUploader();
    ~VolumeUploader();
    VolumeUploader(const VolumeUploader&) = delete;
    VolumeUploader& operator=(const VolumeUploader&) = delete;

    // Copies one channel of `view` into `grid` (reallocating its texture when the size or
    // the kind of data changes) and sets its colouring: categories in the palette, scalars
    // through Viridis over the range `range` resolves to (app/color_range.hpp; automatic: the
    // channel's range hint, else the rule applied to the data), sampled per voxel.
    // Sets the grid's box when it differs, which puts the slices at the centre: apply the
    // slice settings after. `channel`: a name (empty: the first category, else the first
    // scalar). Throws ParameterError for a name the view does not have (listing those it
    // has) and for a view without voxels or channels.
    void upload(const VolumeView& view, render::VolumeGrid& grid, const std::string& channel,
                const RangeSetting& range = {});
    // "interop" or "host upload": how the last upload moved the voxels.
    const char* path() const { return route_.path(); }
    // The legend of the last upload's channel.
    const render::LegendSpec& legend() const;
    // The range of the last scalar upload (meaningless for categories).
    const ColorRange& range() const;
    // The name of the channel the last upload showed.
    const std::string& channel() const;
    // Lets go of the interop registration; call before the grid's texture or its GL context
    // goes away (the next upload registers again).
    void release();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    UploadRoute route_;
};

}  // namespace cf::app
