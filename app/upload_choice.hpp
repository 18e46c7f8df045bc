// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The two choices every uploader (CloudUploader, VolumeUploader, VectorUploader) makes
// before it copies a view into a render structure, made here once for all of them: which
// path the arrays take to GL (device to device through CUDA-GL interop, or a host upload),
// and which channel of the view colours the drawing.
#include <string>

#include "sim/core/views.hpp"

namespace cf::app {

enum class UploadPath { Host, Interop };

// How one uploader's arrays reach GL. Interop needs the data on the device, a CUDA build and
// interop working with the current GL context; that last is asked once, at the first device
// data (render::cudaGlInteropAvailable registers a scratch buffer), and kept: the context
// does not change under an uploader. Everything else goes through the host
// (glNamedBufferSubData, glTextureSubImage3D), device data copied down first.
class UploadRoute {
public:
    // The path for data in `space`; path() and reason() then tell it.
    UploadPath choose(MemorySpace space);
    // "interop" or "host upload": the path the last choose() gave (what the HUD and the
    // headless run's report show).
    const char* path() const { return path_ == UploadPath::Interop ? "interop" : "host upload"; }
    // Why, for a log line: "host data", "device data, no CUDA-GL interop with this GL
    // context", ...
    const char* reason() const { return reason_; }

private:
    bool probed_ = false;
    bool interopWorks_ = false;
    UploadPath path_ = UploadPath::Host;
    const char* reason_ = "nothing uploaded yet";
};

// The channel a view is coloured by: at most one of the two is set (neither: the view has
// no channels and none was named).
template <typename Category, typename Scalar>
struct ChosenChannel {
    const Category* category = nullptr;
    const Scalar* scalar = nullptr;
};
using CloudChannel = ChosenChannel<CategoryChannel, ScalarChannel>;
using VolumeChannel = ChosenChannel<VolumeCategoryChannel, VolumeScalarChannel>;

// The channel called `name` (categories are looked at first), or for an empty name the
// first category, else the first scalar. Throws ParameterError for a name the view does not
// have, listing those it has (categories first, then scalars): "view 'cells' has no channel
// 'x' (it has: type, pressure)"; a volume says "volume 'lattice' ...".
CloudChannel chooseChannel(const PointCloudView& view, const std::string& name);
VolumeChannel chooseChannel(const VolumeView& view, const std::string& name);

}  // namespace cf::app
