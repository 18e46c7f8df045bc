// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/run/view_exchange.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/core/model.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cf {

namespace {

// Storage for one array of a slot, in the memory space of the view it copies.
class Staging {
public:
    Staging() = default;
    Staging(const Staging&) = delete;
    Staging& operator=(const Staging&) = delete;
    ~Staging() { free(); }

    // Copies `bytes` from `source` (in `space`) into this storage; returns its copy.
    const void* copy(const void* source, std::size_t bytes, MemorySpace space) {
        reserve(bytes, space);
        if (bytes == 0) return data_;
        if (space == MemorySpace::Host) {
            std::memcpy(data_, source, bytes);
            return data_;
        }
#if CELLFORGE_HAVE_CUDA
        const cudaError_t err = cudaMemcpy(data_, source, bytes, cudaMemcpyDeviceToDevice);
        if (err != cudaSuccess)
            throw Error(std::string("copying a device view for drawing failed: ") +
                        cudaGetErrorString(err));
#endif
        return data_;
    }

private:
    void reserve(std::size_t bytes, MemorySpace space) {
        if (bytes <= capacity_ && space == space_ && data_ != nullptr) return;
        free();
        const std::size_t size = std::max<std::size_t>(bytes, 256);
        if (space == MemorySpace::Host) {
            data_ = ::operator new(size);
        } else {
#if CELLFORGE_HAVE_CUDA
            const cudaError_t err = cudaMalloc(&data_, size);
            if (err != cudaSuccess) {
                data_ = nullptr;
                throw Error(std::string("no device memory for drawing views: ") +
                            cudaGetErrorString(err));
            }
#else
            throw Error("a device view in a build without CUDA");
#endif
        }
        capacity_ = size;
        space_ = space;
    }
    void free() {
        if (data_ == nullptr) return;
        if (space_ == MemorySpace::Host) {
            ::operator delete(data_);
        } else {
#if CELLFORGE_HAVE_CUDA
            cudaFree(data_);
#endif
        }
        data_ = nullptr;
        capacity_ = 0;
    }

    void* data_ = nullptr;
    std::size_t capacity_ = 0;
    MemorySpace space_ = MemorySpace::Host;
};

}  // namespace

struct ViewExchange::Slot {
    ModelViews views;
    std::uint64_t step = 0;
    double time = 0.0;
    std::vector<std::unique_ptr<Staging>> arrays;  // reused from publication to publication

    Staging& array(std::size_t i) {
        while (arrays.size() <= i)
            arrays.push_back(std::make_unique<Staging>());
        return *arrays[i];
    }
};

ViewExchange::ViewExchange() : slots_(std::make_unique<Slot[]>(3)) {}
ViewExchange::~ViewExchange() = default;

void ViewExchange::publish(Model& model) {
    ModelViews views = model.views();
    model.synchronize();
    int target = -1;
    {
        std::lock_guard lock(mutex_);
        for (int s = 0; s < 3 && target < 0; ++s)
            if (s != newest_ && s != held_) target = s;
    }
    // The slot is neither published nor held: only this thread touches it now.
    Slot& slot = slots_[target];
    std::size_t next = 0;
    for (PointCloudView& cloud : views.clouds) {
        cloud.positions = static_cast<const float*>(
            slot.array(next++).copy(cloud.positions, cloud.count * 4 * sizeof(float), cloud.space));
        for (ScalarChannel& c : cloud.scalars)
            c.data = static_cast<const float*>(
                slot.array(next++).copy(c.data, cloud.count * sizeof(float), cloud.space));
        for (CategoryChannel& c : cloud.categories)
            c.data = static_cast<const std::uint8_t*>(
                slot.array(next++).copy(c.data, cloud.count, cloud.space));
    }
    for (VolumeView& volume : views.volumes) {
        const std::size_t n = volume.voxelCount();
        for (VolumeScalarChannel& c : volume.scalars)
            c.data = static_cast<const float*>(
                slot.array(next++).copy(c.data, n * sizeof(float), volume.space));
        for (VolumeCategoryChannel& c : volume.categories)
            c.data =
                static_cast<const std::uint8_t*>(slot.array(next++).copy(c.data, n, volume.space));
    }
    for (VectorFieldView& field : views.vectors)
        field.xyz = static_cast<const float*>(
            slot.array(next++).copy(field.xyz, field.nodeCount() * 3 * sizeof(float), field.space));
    slot.views = std::move(views);
    slot.step = model.step();
    slot.time = model.time();
    std::lock_guard lock(mutex_);
    newest_ = target;
    ++published_;
}

std::optional<ViewExchange::Lease> ViewExchange::takeNewest() {
    std::lock_guard lock(mutex_);
    if (newest_ < 0) return std::nullopt;
    held_ = newest_;
    newest_ = -1;
    return Lease(this, held_);
}

std::uint64_t ViewExchange::publishedCount() const {
    std::lock_guard lock(mutex_);
    return published_;
}

void ViewExchange::release(int slot) {
    std::lock_guard lock(mutex_);
    if (held_ == slot) held_ = -1;
}

ViewExchange::Lease::Lease(Lease&& other) noexcept : owner_(other.owner_), slot_(other.slot_) {
    other.owner_ = nullptr;
}

ViewExchange::Lease::~Lease() {
    if (owner_ != nullptr) owner_->release(slot_);
}

const ModelViews& ViewExchange::Lease::views() const {
    return owner_->slots_[slot_].views;
}
std::uint64_t ViewExchange::Lease::step() const {
    return owner_->slots_[slot_].step;
}
double ViewExchange::Lease::time() const {
    return owner_->slots_[slot_].time;
}

}  // namespace cf
