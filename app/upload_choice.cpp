// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/upload_choice.hpp"

#include <vector>

#include "app/volume_settings.hpp"  // joinedNames
#include "sim/core/errors.hpp"

#if CELLFORGE_HAVE_CUDA
#include "render/cuda/cuda_gl_buffer.hpp"
#endif

namespace cf::app {

namespace {

bool interopWorksHere() {
#if CELLFORGE_HAVE_CUDA
    return render::cudaGlInteropAvailable();
#else
    return false;
#endif
}

template <typename Chosen, typename View>
Chosen chooseIn(const View& view, const std::string& name, const char* kind) {
    Chosen c;
    for (const auto& cat : view.categories)
        if (!c.category && (name.empty() || cat.name == name)) c.category = &cat;
    if (!c.category)
        for (const auto& s : view.scalars)
            if (!c.scalar && (name.empty() || s.name == name)) c.scalar = &s;
    if (!name.empty() && !c.category && !c.scalar) {
        std::vector<std::string> names;
        for (const auto& cat : view.categories)
            names.push_back(cat.name);
        for (const auto& s : view.scalars)
            names.push_back(s.name);
        throw ParameterError(std::string(kind) + " '" + view.name + "' has no channel '" + name +
                             "' (it has: " + joinedNames(names) + ")");
    }
    return c;
}

}  // namespace

UploadPath UploadRoute::choose(MemorySpace space) {
    path_ = UploadPath::Host;
    if (space == MemorySpace::Host) {
        reason_ = "host data";
        return path_;
    }
    if (!probed_) {
        probed_ = true;
        interopWorks_ = interopWorksHere();
    }
    if (!interopWorks_) {
#if CELLFORGE_HAVE_CUDA
        reason_ = "device data, no CUDA-GL interop with this GL context";
#else
        reason_ = "device data, a build without CUDA";
#endif
        return path_;
    }
    path_ = UploadPath::Interop;
    reason_ = "device data, CUDA-GL interop";
    return path_;
}

CloudChannel chooseChannel(const PointCloudView& view, const std::string& name) {
    return chooseIn<CloudChannel>(view, name, "view");
}

VolumeChannel chooseChannel(const VolumeView& view, const std::string& name) {
    return chooseIn<VolumeChannel>(view, name, "volume");
}

}  // namespace cf::app
