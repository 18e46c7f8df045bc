// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/volume_upload.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "app/volume_settings.hpp"
#include "sim/core/errors.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "render/cuda/cuda_gl_buffer.hpp"
#include "render/cuda/cuda_gl_texture.hpp"
#include "render/cuda/device_range.hpp"
#endif

namespace cf::app {

void applySlices(const SliceSettings& slices, render::VolumeGrid& grid) {
    for (int axis = 0; axis < 3; ++axis) {
        const SliceSetting& s = slices[static_cast<std::size_t>(axis)];
        grid.enableSlice(axis, s.mode != SliceSetting::Mode::Off);
        const float centre = 0.5f * (grid.lo()[axis] + grid.hi()[axis]);
        grid.setSlice(axis,
                      s.mode == SliceSetting::Mode::At ? static_cast<float>(s.coordinate) : centre);
    }
}

struct VolumeUploader::Impl {
    render::LegendSpec legend;
    ColorRange range;
    std::string channel;
#if CELLFORGE_HAVE_CUDA
    render::CudaGlTexture texture;
#endif

    // Gives the grid a texture of this size and format, letting go of the registration of
    // the texture a resize replaces first (CUDA must never hold a deleted texture).
    void ensureShape(render::VolumeGrid& grid, const VolumeView& view,
                     render::VolumeGrid::ValueFormat format) {
        const glm::ivec3 size(view.dims[0], view.dims[1], view.dims[2]);
        if (grid.size() == size && grid.valueFormat() == format) return;
#if CELLFORGE_HAVE_CUDA
        texture.detach();
#endif
        grid.resize(size.x, size.y, size.z, format);
    }
};

VolumeUploader::VolumeUploader() : impl_(std::make_unique<Impl>()) {}
VolumeUploader::~VolumeUploader() = default;

const render::LegendSpec& VolumeUploader::legend() const {
    return impl_->legend;
}

const ColorRange& VolumeUploader::range() const {
    return impl_->range;
}

const std::string& VolumeUploader::channel() const {
    return impl_->channel;
}

void VolumeUploader::release() {
#if CELLFORGE_HAVE_CUDA
    impl_->texture.detach();
#endif
}

void VolumeUploader::upload(const VolumeView& view, render::VolumeGrid& grid,
                            const std::string& channel, const RangeSetting& setting) {
    using Format = render::VolumeGrid::ValueFormat;
    if (view.voxelCount() == 0)
        throw ParameterError("volume '" + view.name + "' has no voxels (" +
                             std::to_string(view.dims[0]) + "x" + std::to_string(view.dims[1]) +
                             "x" + std::to_string(view.dims[2]) + ")");
    const VolumeChannel ch = chooseChannel(view, channel);
    if (!ch.category && !ch.scalar)
        throw ParameterError("volume '" + view.name + "' has no channels to draw");
    const std::size_t n = view.voxelCount();
    const int nx = view.dims[0], ny = view.dims[1], nz = view.dims[2];
    Impl& m = *impl_;
    const glm::vec3 lo(static_cast<float>(view.lo[0]), static_cast<float>(view.lo[1]),
                       static_cast<float>(view.lo[2]));
    const glm::vec3 hi(static_cast<float>(view.hi[0]), static_cast<float>(view.hi[1]),
                       static_cast<float>(view.hi[2]));
    if (grid.lo() != lo || grid.hi() != hi) grid.setBox(lo, hi);
    const Format format = ch.category ? Format::Category : Format::Scalar;
    // The model's range hint, which the automatic rule uses in place of the data's.
    std::optional<std::pair<double, double>> hint;
    if (ch.scalar && ch.scalar->rangeLo < ch.scalar->rangeHi)
        hint = std::pair{ch.scalar->rangeLo, ch.scalar->rangeHi};

    m.ensureShape(grid, view, format);
    if (route_.choose(view.space) == UploadPath::Interop) {
#if CELLFORGE_HAVE_CUDA
        // The model's stream work is complete (the exchange synchronized it); the copy runs
        // on the default stream and is ordered before GL's next use by the unmap.
        m.texture.attach(grid.texture(), GL_TEXTURE_3D, render::CudaGlTexture::Access::WriteDiscard,
                         grid.textureGeneration());
        const cudaExtent extent{static_cast<std::size_t>(nx), static_cast<std::size_t>(ny),
                                static_cast<std::size_t>(nz)};
        if (ch.category) {
            m.texture.copyFromDevice(ch.category->data, static_cast<std::size_t>(nx), extent,
                                     nullptr);
        } else {
            m.texture.copyFromDevice(ch.scalar->data, static_cast<std::size_t>(nx) * sizeof(float),
                                     extent, nullptr);
            // Reduced on the device: the extremes only (app/color_range.hpp).
            const auto [dataLo, dataHi] = render::deviceRange(ch.scalar->data, n, nullptr);
            m.range = resolveRangeFromExtremes(setting, dataLo, dataHi, hint);
        }
#endif
    } else if (ch.category) {
        const auto c = viewToHost(ch.category->data, n, view.space);
        grid.setCategories(c.data(), nx, ny, nz);
    } else {
        const auto v = viewToHost(ch.scalar->data, n, view.space);
        grid.setScalars(v.data(), nx, ny, nz);
        m.range = resolveRange(setting, v, hint);
    }
    if (ch.category) {
        grid.setEmptyCategoryTransparent(ch.category->emptyTransparent);
        // One palette for the slices and the legend: the channel's declared colours.
        grid.setCategoryColors(
            render::categoryPalette(ch.category->colors, ch.category->labels.size()));
        m.legend =
            render::buildCategoricalLegend(ch.category->labels, ch.category->name,
                                           grid.categoryColors(), ch.category->emptyTransparent);
        m.channel = ch.category->name;
    } else {
        // Voxels are sites or cells: each shows its own value, no blending across faces.
        grid.setLinearScalars(false);
        grid.colorByScalar(render::Colormap::Viridis, static_cast<float>(m.range.lo),
                           static_cast<float>(m.range.hi));
        m.legend = render::buildLegend(render::Colormap::Viridis, m.range.lo, m.range.hi,
                                       ch.scalar->name, ch.scalar->unit);
        m.channel = ch.scalar->name;
    }
}

}  // namespace cf::app
