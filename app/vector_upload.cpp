// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/vector_upload.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "app/volume_settings.hpp"
#include "sim/core/errors.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "render/cuda/cuda_gl_buffer.hpp"
#endif

namespace cf::app {

namespace {

std::string dimsText(const VectorFieldView& v) {
    return std::to_string(v.dims[0]) + "x" + std::to_string(v.dims[1]) + "x" +
           std::to_string(v.dims[2]);
}

bool planar(const VectorFieldView& v) {
    return v.dims[2] == 1 && v.dims[0] >= 2 && v.dims[1] >= 2;
}

// |v| of host vectors (NaN where a component is not finite).
std::vector<float> hostMagnitudes(const std::vector<float>& xyz) {
    std::vector<float> m;
    m.reserve(xyz.size() / 3);
    for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
        m.push_back(std::sqrt(xyz[i] * xyz[i] + xyz[i + 1] * xyz[i + 1] + xyz[i + 2] * xyz[i + 2]));
    return m;
}

}  // namespace

VectorSettings parseVectorsOption(const std::string& text) {
    VectorSettings s;
    const std::size_t colon = text.find(':');
    s.view = text.substr(0, colon);
    if (s.view.empty())
        throw ParameterError("--vectors '" + text + "': expected NAME[:STRIDE] (a view name)");
    if (colon != std::string::npos) {
        const std::string k = text.substr(colon + 1);
        int stride = 0;
        const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), stride);
        if (ec != std::errc() || end != k.data() + k.size() || k.empty() || stride < 1)
            throw ParameterError("--vectors '" + text + "': the stride '" + k +
                                 "' is not a whole number >= 1");
        s.stride = stride;
    }
    return s;
}

std::vector<std::string> vectorViewNames(const ModelViews& views) {
    std::vector<std::string> names;
    for (const VectorFieldView& v : views.vectors)
        names.push_back(v.name);
    return names;
}

const VectorFieldView& findVectorView(const ModelViews& views, const std::string& name,
                                      const std::string& option) {
    for (const VectorFieldView& v : views.vectors)
        if (name.empty() || v.name == name) return v;
    if (name.empty()) throw ParameterError(option + "the model offers no vector view");
    throw ParameterError(option + "no vector view '" + name +
                         "' (there are: " + joinedNames(vectorViewNames(views)) + ")");
}

int autoStride(const VectorFieldView& view) {
    const int longest = std::max({view.dims[0], view.dims[1], view.dims[2], 1});
    return std::max(1, (longest + 31) / 32);
}

std::vector<VectorSettings> resolveVectorOptions(const std::string& vectors, const std::string& lic,
                                                 const ModelViews& views) {
    std::vector<VectorSettings> out;
    if (!vectors.empty()) {
        VectorSettings s = parseVectorsOption(vectors);
        findVectorView(views, s.view, "--vectors: ");
        out.push_back(s);
    }
    if (!lic.empty()) {
        const VectorFieldView& v = findVectorView(views, lic, "--lic: ");
        if (!planar(v))
            throw ParameterError("--lic: vector view '" + lic + "' is " + dimsText(v) +
                                 " nodes; a LIC needs a plane of at least 2 x 2 (nz = 1)");
        if (!out.empty() && out.front().view == lic) {
            out.front().lic = true;
        } else {
            VectorSettings s;
            s.view = lic;
            s.arrows = false;
            s.lic = true;
            out.push_back(s);
        }
    }
    if (vectors.empty() && lic.empty() && !views.vectors.empty()) {
        VectorSettings s;
        s.view = views.vectors.front().name;
        out.push_back(s);
    }
    return out;
}

struct VectorUploader::Impl {
    render::LegendSpec legend;
    std::pair<float, float> range{0.0f, 0.0f};
    ColorRange colorRange;
#if CELLFORGE_HAVE_CUDA
    std::unique_ptr<render::CudaGlBuffer> buffer;  // made at the first interop upload
#endif
};

VectorUploader::VectorUploader() : impl_(std::make_unique<Impl>()) {}
VectorUploader::~VectorUploader() = default;

const render::LegendSpec& VectorUploader::legend() const {
    return impl_->legend;
}

std::pair<float, float> VectorUploader::magnitudeRange() const {
    return impl_->range;
}

const ColorRange& VectorUploader::colorRange() const {
    return impl_->colorRange;
}

void VectorUploader::release() {
#if CELLFORGE_HAVE_CUDA
    impl_->buffer.reset();
#endif
}

void VectorUploader::upload(const VectorFieldView& view, render::VectorField& field,
                            const VectorSettings& settings, const RangeSetting& range) {
    const std::size_t n = view.nodeCount();
    if (n == 0 || view.dims[0] < 0 || view.dims[1] < 0 || view.dims[2] < 0)
        throw ParameterError("vector view '" + view.name + "' has no nodes (" + dimsText(view) +
                             ")");
    if (settings.lic && !planar(view))
        throw ParameterError("vector view '" + view.name + "' is " + dimsText(view) +
                             " nodes; a LIC needs a plane of at least 2 x 2 (nz = 1)");
    const int nx = view.dims[0], ny = view.dims[1], nz = view.dims[2];
    Impl& m = *impl_;

    // Cell centres: the first node half a cell inside lo, the last half a cell inside hi.
    glm::vec3 lo, hi;
    for (int a = 0; a < 3; ++a) {
        const double half = 0.5 * (view.hi[a] - view.lo[a]) / view.dims[a];
        lo[a] = static_cast<float>(view.lo[a] + half);
        hi[a] = static_cast<float>(view.hi[a] - half);
    }
    // Placed again only when it changes: a new placement makes the LIC stale.
    const bool plane = nz == 1;
    const glm::vec3 span = hi - lo;
    const glm::vec3 edges[3] = {{span.x, 0, 0}, {0, span.y, 0}, {0, 0, plane ? 0.0f : span.z}};
    if (field.origin() != lo || field.edge(0) != edges[0] || field.edge(1) != edges[1] ||
        field.edge(2) != edges[2]) {
        if (plane)
            field.setPlaneZ({lo.x, lo.y}, {hi.x, hi.y}, lo.z);
        else
            field.setBox(lo, hi);
    }

    if (route_.choose(view.space) == UploadPath::Interop) {
#if CELLFORGE_HAVE_CUDA
        // The model's stream work is complete (the exchange or the caller synchronized it);
        // the copy runs on the default stream and is ordered before GL's next use by the
        // unmap. resize() may replace the buffer object: attach() re-registers then.
        field.resize(nx, ny, nz);
        if (!m.buffer) m.buffer = std::make_unique<render::CudaGlBuffer>();
        m.buffer->attach(field.vectorBuffer(), field.vectorStorageId());
        m.buffer->copyFromDevice(view.xyz, n * 3 * sizeof(float), nullptr);
        field.notifyVectorsChanged();
        const glm::vec2 r = field.magnitudeRange();  // reduced on the GPU, read back
        m.range = {r.x, r.y};
        m.colorRange = resolveRangeFromExtremes(range, r.x, r.y);
#endif
    } else {
        const std::vector<float> xyz = viewToHost(view.xyz, 3 * n, view.space);
        field.setVectors(xyz.data(), nx, ny, nz);
        const std::vector<float> magnitudes = hostMagnitudes(xyz);
        m.colorRange = resolveRange(range, magnitudes);
        m.range = std::isnan(m.colorRange.dataLo)
                      ? std::pair{0.0f, 0.0f}
                      : std::pair{static_cast<float>(m.colorRange.dataLo),
                                  static_cast<float>(m.colorRange.dataHi)};
    }

    field.setStride(settings.stride > 0 ? settings.stride : autoStride(view));
    field.setGlyph(view.directional ? render::VectorField::Glyph::Arrow
                                    : render::VectorField::Glyph::Segment);
    field.showArrows(settings.arrows);
    field.showLic(settings.lic);
    constexpr render::Colormap kMap = render::Colormap::Coolwarm;
    field.colorByMagnitude(kMap, static_cast<float>(m.colorRange.lo),
                           static_cast<float>(m.colorRange.hi));  // the range the legend names
    if (settings.lic) {
        field.setLicColorByMagnitude(true);
        field.colorUniform({0.95f, 0.95f, 0.95f});  // arrows over the coloured LIC
    }
    m.legend = render::buildLegend(kMap, m.colorRange.lo, m.colorRange.hi, "|" + view.name + "|",
                                   view.unit);
}

}  // namespace cf::app
