// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cloud_upload.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "render/cuda/cuda_gl_buffer.hpp"
#include "render/cuda/device_range.hpp"
#endif

namespace cf::app {

struct CloudUploader::Impl {
    render::LegendSpec legend;
    ColorRange range;  // of the scalar coloured by
    render::WorldBox extent;
#if CELLFORGE_HAVE_CUDA
    render::CudaGlBuffer positions, scalars, categories;
#endif
};

CloudUploader::CloudUploader() : impl_(std::make_unique<Impl>()) {}
CloudUploader::~CloudUploader() = default;

const render::LegendSpec& CloudUploader::legend() const {
    return impl_->legend;
}

const ColorRange& CloudUploader::range() const {
    return impl_->range;
}

const render::WorldBox& CloudUploader::extent() const {
    return impl_->extent;
}

namespace {
// Centres +- the largest finite radius over finite positions (lo > hi: none).
render::WorldBox sphereExtent(const std::vector<float>& xyzr) {
    render::WorldBox b{glm::vec3(std::numeric_limits<float>::max()),
                       glm::vec3(std::numeric_limits<float>::lowest())};
    float radius = 0.0f;
    for (std::size_t i = 0; i + 3 < xyzr.size(); i += 4) {
        const glm::vec3 p(xyzr[i], xyzr[i + 1], xyzr[i + 2]);
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
        b.lo = glm::min(b.lo, p);
        b.hi = glm::max(b.hi, p);
        if (std::isfinite(xyzr[i + 3])) radius = std::max(radius, xyzr[i + 3]);
    }
    if (b.lo.x <= b.hi.x) {
        b.lo -= glm::vec3(radius);
        b.hi += glm::vec3(radius);
    }
    return b;
}
}  // namespace

void frameScene(const ModelViews& views, render::Guides& guides, render::OrbitCamera* camera) {
    auto vec = [](const double v[3]) {
        return glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]),
                         static_cast<float>(v[2]));
    };
    if (camera != nullptr) camera->fit(vec(views.focusLo), vec(views.focusHi));
    guides.setBox(vec(views.boxLo),
                  {static_cast<float>(views.boxHi[0]), static_cast<float>(views.boxHi[1]),
                   static_cast<float>(views.focusHi[2])});
    guides.clearPlanes();
    for (const PlaneView& p : views.planes)
        guides.addPlane(vec(p.point), vec(p.normal),
                        {static_cast<float>(p.extent[0]), static_cast<float>(p.extent[1])},
                        {0.85f, 0.75f, 0.55f, 0.35f});
}

render::SphereGeometry sphereGeometry(const PointCloudView& view, const std::string& color,
                                      const RangeSetting& range) {
    const CloudChannel ch = chooseChannel(view, color);
    render::SphereGeometry g;
    g.xyzr = viewToHost(view.positions, 4 * view.count, view.space);
    g.rgb.resize(3 * view.count, 204);
    if (ch.category != nullptr) {
        const auto c = viewToHost(ch.category->data, view.count, view.space);
        const auto palette =
            render::categoryPalette(ch.category->colors, ch.category->labels.size());
        for (std::size_t i = 0; i < view.count; ++i)
            for (std::size_t k = 0; k < 3; ++k)
                g.rgb[3 * i + k] = static_cast<std::uint8_t>(
                    std::lround(255.0f * palette[c[i] % palette.size()][k]));
    } else if (ch.scalar != nullptr) {
        const auto v = viewToHost(ch.scalar->data, view.count, view.space);
        const ColorRange r = resolveRange(range, v);
        const double a = r.lo, span = r.hi - r.lo;  // lo < hi always
        const auto table = render::colormapTable(render::Colormap::Viridis, 256);
        for (std::size_t i = 0; i < view.count; ++i) {
            // Outside the range: the end colours, as on screen.
            const int j = std::isfinite(v[i])
                              ? std::clamp(static_cast<int>((v[i] - a) / span * 255.0), 0, 255)
                              : 0;
            for (int k = 0; k < 3; ++k)
                g.rgb[3 * i + k] = table[3 * static_cast<std::size_t>(j) + k];
        }
    }
    return g;
}

void CloudUploader::upload(const PointCloudView& view, render::PointCloud& cloud,
                           const std::string& color, const RangeSetting& range) {
    const std::size_t n = view.count;
    const CloudChannel ch = chooseChannel(view, color);
    const CategoryChannel* category = ch.category;
    const ScalarChannel* scalar = ch.scalar;

    cloud.resize(n);
    Impl& m = *impl_;
    m.extent = render::WorldBox{glm::vec3(1.0f), glm::vec3(0.0f)};  // unknown
    const bool interop = route_.choose(view.space) == UploadPath::Interop;
    if (interop) {
#if CELLFORGE_HAVE_CUDA
        // The simulation's stream work is complete (the caller synchronized the model);
        // the copies run on the default stream and finish before GL draws (unmap orders it).
        m.positions.attach(cloud.positionBuffer(), cloud.storageId());
        m.positions.copyFromDevice(view.positions, n * 4 * sizeof(float), nullptr);
        if (category != nullptr) {
            m.categories.attach(cloud.categoryBuffer(), cloud.storageId());
            m.categories.copyFromDevice(category->data, n, nullptr);
        } else if (scalar != nullptr) {
            m.scalars.attach(cloud.scalarBuffer(), cloud.storageId());
            m.scalars.copyFromDevice(scalar->data, n * sizeof(float), nullptr);
            const auto [dataLo, dataHi] = render::deviceRange(scalar->data, n, nullptr);
            m.range = resolveRangeFromExtremes(range, dataLo, dataHi);
        }
#endif
    } else {
        const auto xyzr = viewToHost(view.positions, 4 * n, view.space);
        cloud.setPoints(xyzr.data(), n);
        m.extent = sphereExtent(xyzr);
        if (category != nullptr) {
            const auto c = viewToHost(category->data, n, view.space);
            cloud.setCategories(c.data(), n);
        }
    }
    if (category != nullptr) {
        // One palette for the drawing and the legend: the channel's declared colours.
        cloud.colorByCategory(render::categoryPalette(category->colors, category->labels.size()));
        m.legend = render::buildCategoricalLegend(category->labels, category->name,
                                                  cloud.categoryColors());
    } else if (scalar != nullptr) {
        if (!interop) {  // host values: upload them and take the range here
            const auto v = viewToHost(scalar->data, n, view.space);
            cloud.setScalars(v.data(), n);
            m.range = resolveRange(range, v);
        }
        const auto lo = static_cast<float>(m.range.lo), hi = static_cast<float>(m.range.hi);
        cloud.colorByScalar(render::Colormap::Viridis, lo, hi);
        m.legend = render::buildLegend(render::Colormap::Viridis, m.range.lo, m.range.hi,
                                       scalar->name, scalar->unit);
    } else {
        cloud.colorUniform({0.8f, 0.8f, 0.8f});
        m.legend = render::LegendSpec{};
    }
}

}  // namespace cf::app
