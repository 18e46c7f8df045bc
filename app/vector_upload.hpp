// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The glue between a model's vector-field views (sim/core/views.hpp) and the renderer's
// VectorField, shared by the headless run and the viewport: which view is drawn and how
// (arrows every k-th node, a line-integral convolution of a plane, or both: --vectors,
// --lic, the window's Vectors dock), and the upload itself. Device vectors reach the GL
// buffer through CUDA-GL buffer interop (device to device, the same float3 layout), host
// vectors by a plain upload. The view's nodes sit at cell centres, VectorField's at the
// corners of its rectangle, so the rectangle is the box shrunk by half a cell each side.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/color_range.hpp"
#include "app/upload_choice.hpp"
#include "render/legend.hpp"
#include "render/vector_field.hpp"
#include "sim/core/views.hpp"

namespace cf::app {

// How one vector view is drawn. Both off: not drawn.
struct VectorSettings {
    std::string view;  // a view name; empty: the model's first vector view
    bool arrows = true;
    int stride = 0;  // arrows at every stride-th node; 0: automatic (autoStride)
    bool lic = false;

    bool operator==(const VectorSettings&) const = default;
};

// "--vectors NAME[:STRIDE]" (STRIDE a whole number >= 1). Throws ParameterError naming the
// option.
VectorSettings parseVectorsOption(const std::string& text);

// The names of the model's vector views, in order.
std::vector<std::string> vectorViewNames(const ModelViews& views);
// The view called `name` (empty: the first). Throws ParameterError, prefixed by `option`
// (e.g. "--lic: "), naming the views there are.
const VectorFieldView& findVectorView(const ModelViews& views, const std::string& name,
                                      const std::string& option);
// The stride that leaves at most about 32 arrows along the grid's longest axis.
int autoStride(const VectorFieldView& view);

// What the headless run draws for its options (`vectors`: the --vectors text, `lic`: the
// --lic view; either may be empty): one entry per view named, arrows for --vectors and a LIC
// for --lic (both when they name the same view). Neither given: the first vector view's
// arrows at the automatic stride, if the model has one. Names are checked against `views`,
// and a LIC needs a planar view (dims[2] == 1, at least 2 x 2 nodes); ParameterError
// otherwise.
std::vector<VectorSettings> resolveVectorOptions(const std::string& vectors, const std::string& lic,
                                                 const ModelViews& views);

class VectorUploader {
public:
    VectorUploader();
    ~VectorUploader();
    VectorUploader(const VectorUploader&) = delete;
    VectorUploader& operator=(const VectorUploader&) = delete;

    // Copies the vectors of `view` into `field`, places its nodes at the view's cell centres
    // (a plane z = box centre when dims[2] == 1, else a box) and applies `settings`: the
    // stride (0: autoStride), arrows and LIC on or off, a segment glyph for a director. Arrows
    // alone are coloured by |v| (Coolwarm over the range `range` resolves to, from the host
    // magnitudes or the device's extremes: app/color_range.hpp); with a LIC, the LIC is
    // coloured so and the arrows drawn white over it. Throws ParameterError for a view
    // without nodes or a LIC of a view that is not planar.
    void upload(const VectorFieldView& view, render::VectorField& field,
                const VectorSettings& settings, const RangeSetting& range = {});
    // "interop" or "host upload": how the last upload moved the vectors.
    const char* path() const { return route_.path(); }
    // The colour legend of |v| (title: view name and unit).
    const render::LegendSpec& legend() const;
    // The (min, max) of |v| of the last upload.
    std::pair<float, float> magnitudeRange() const;
    // The colour range of |v| the last upload used.
    const ColorRange& colorRange() const;
    // Lets go of the interop registration; call before the field or its GL context goes
    // away (the next upload registers again).
    void release();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    UploadRoute route_;
};

// A VectorField with its uploader and settings: one drawn vector view.
struct VectorLayer {
    VectorSettings settings;
    render::VectorField field;
    VectorUploader uploader;
    ~VectorLayer() { uploader.release(); }
};

}  // namespace cf::app
