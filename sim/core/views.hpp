// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a model offers for drawing: plain arrays the renderer (render/, no model headers)
// turns into point clouds, planes, volume slices and arrows. On the CUDA backend the arrays
// live in device memory, so CUDA-GL interop can copy them into GL buffers and textures
// without touching the host.
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

// A category's colour as 0xRRGGBB (sRGB). Models declare one per label, so what is drawn and
// what the legend shows come from one place and the categories a model draws together (a
// lattice's site types and its species) never share a colour.
using CategoryColor = std::uint32_t;

struct CategoryChannel {
    std::string name;
    const std::uint8_t* data = nullptr;  // one index into `labels` per point
    std::vector<std::string> labels;
    std::vector<CategoryColor> colors;  // one per label (empty: the renderer's default palette)
};

struct PointCloudView {
    std::string name;
    MemorySpace space = MemorySpace::Host;
    const float* positions = nullptr;  // count x (x, y, z, radius), float4-aligned
    std::size_t count = 0;
    std::vector<ScalarChannel> scalars;
    std::vector<CategoryChannel> categories;
};

// A regular grid of voxels over a box (a lattice's occupancy, a concentration field),
// drawn as axis-aligned slices. Voxel (i, j, k) covers lo + (i, j, k) * (hi - lo) / dims up
// to the next voxel face; data run x fastest, then y, then z (dims[0] * dims[1] * dims[2]
// values per channel), in the view's memory space.
struct VolumeScalarChannel {
    std::string name;
    std::string unit;
    const float* data = nullptr;
    // The values the colormap spans; rangeLo >= rangeHi: the data's own minimum and maximum.
    double rangeLo = 0.0;
    double rangeHi = 0.0;
};

struct VolumeCategoryChannel {
    std::string name;
    const std::uint8_t* data = nullptr;  // an index into `labels` per voxel
    std::vector<std::string> labels;
    std::vector<CategoryColor> colors;  // one per label, as CategoryChannel::colors
    // Category 0 is empty space: slices leave it see-through (what lies behind shows), so it
    // is drawn in no colour and the legend leaves it out.
    bool emptyTransparent = false;
};

struct VolumeView {
    std::string name;
    MemorySpace space = MemorySpace::Host;
    int dims[3] = {0, 0, 0};   // nx, ny, nz voxels
    double lo[3] = {0, 0, 0};  // the box the voxels fill, in model units
    double hi[3] = {1, 1, 1};
    std::vector<VolumeScalarChannel> scalars;
    std::vector<VolumeCategoryChannel> categories;

    std::size_t voxelCount() const {
        return static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) *
               static_cast<std::size_t>(dims[2]);
    }
};

// A vector per node of a regular grid over a box (a flow, an orientation field): 3 floats
// (x, y, z) per node, x fastest, then y, then z, in the view's memory space. Node (i, j, k)
// sits at the centre of cell (i, j, k) of the box cut into dims cells, i.e. at
// lo + (i + 0.5) * (hi - lo) / dims; dims[2] == 1 is a plane (drawn as arrows or as a
// line-integral convolution). A director (directional = false) means +v and -v alike
// (a nematic axis): it is drawn as a centred segment without a head.
struct VectorFieldView {
    std::string name;
    std::string unit;
    MemorySpace space = MemorySpace::Host;
    int dims[3] = {0, 0, 0};
    double lo[3] = {0, 0, 0};
    double hi[3] = {1, 1, 1};
    const float* xyz = nullptr;
    bool directional = true;

    std::size_t nodeCount() const {
        return static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) *
               static_cast<std::size_t>(dims[2]);
    }
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
    std::vector<VolumeView> volumes;
    std::vector<VectorFieldView> vectors;
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
