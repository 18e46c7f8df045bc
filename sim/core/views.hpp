// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a model offers for drawing: plain arrays the renderer (render/, no model headers)
// turns into point clouds and planes. On the CUDA backend the arrays live in device
// memory, so CUDA-GL interop can copy them into GL buffers without touching the host.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cf {

enum class MemorySpace { Host, Device };

struct ScalarChannel {
    std::string name;
    std::string unit;
    const float* data = nullptr;  // one value per point
};

struct CategoryChannel {
    std::string name;
    const std::uint8_t* data = nullptr;  // one index into `labels` per point
    std::vector<std::string> labels;
};

struct PointCloudView {
    std::string name;
    MemorySpace space = MemorySpace::Host;
    const float* positions = nullptr;  // count x (x, y, z, radius), float4-aligned
    std::size_t count = 0;
    std::vector<ScalarChannel> scalars;
    std::vector<CategoryChannel> categories;
};

struct PlaneView {
    std::string name;
    double point[3] = {0, 0, 0};
    double normal[3] = {0, 0, 1};
    double extent[2] = {1, 1};  // drawn size along the plane's two in-plane axes
};

// Pointers stay valid until the model's next advance/reset/restore/views call. Device
// arrays are written on the model's stream: call Model::synchronize() (or order GPU work
// after it) before reading them.
struct ModelViews {
    std::vector<PointCloudView> clouds;
    std::vector<PlaneView> planes;
    double boxLo[3] = {0, 0, 0};  // the model's domain
    double boxHi[3] = {1, 1, 1};
    // What a camera should frame at first (a tissue's thin slab, not its tall domain);
    // equal to the domain unless the model narrows it.
    double focusLo[3] = {0, 0, 0};
    double focusHi[3] = {1, 1, 1};
};

// Copies `bytes` of a view array to host memory (a plain copy for host views, a CUDA copy
// for device views). Throws cf::Error when a device copy fails or the build has no CUDA.
void copyViewToHost(const void* source, void* destination, std::size_t bytes, MemorySpace space);

template <typename T>
std::vector<T> viewToHost(const T* data, std::size_t count, MemorySpace space) {
    std::vector<T> out(count);
    if (count > 0) copyViewToHost(data, out.data(), count * sizeof(T), space);
    return out;
}

}  // namespace cf
