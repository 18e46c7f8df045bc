// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ViewExchange: hands a model's views (sim/core/views.hpp: clouds, planes, volumes, vector
// fields) from the simulation thread to a drawing thread without either waiting for the
// other. The simulation thread copies the views into a free slot (device to device for
// device views, so the data never leave the GPU; a host copy otherwise) and publishes it;
// the drawing thread takes the newest published slot and holds it while it uploads into
// its own buffers and textures (CUDA-GL interop or a host upload). Three slots: one being
// written, one published, one held.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "sim/core/views.hpp"

namespace cf {

class Model;

class ViewExchange {
public:
    ViewExchange();
    ~ViewExchange();
    ViewExchange(const ViewExchange&) = delete;
    ViewExchange& operator=(const ViewExchange&) = delete;

    // Simulation thread: copies the model's current views (synchronising the model first)
    // into a free slot and publishes it as the newest. Throws cf::Error if a copy fails.
    void publish(Model& model);

    class Lease {
    public:
        Lease(Lease&& other) noexcept;
        Lease& operator=(Lease&&) = delete;
        Lease(const Lease&) = delete;
        ~Lease();
        // Pointers into the slot: valid while the lease lives.
        const ModelViews& views() const;
        std::uint64_t step() const;
        double time() const;

    private:
        friend class ViewExchange;
        Lease(ViewExchange* owner, int slot) : owner_(owner), slot_(slot) {}
        ViewExchange* owner_;
        int slot_;
    };
    // Drawing thread: the newest views published since the last take, or nothing. Hold at
    // most one lease at a time.
    std::optional<Lease> takeNewest();
    std::uint64_t publishedCount() const;

private:
    struct Slot;
    void release(int slot);

    mutable std::mutex mutex_;
    std::unique_ptr<Slot[]> slots_;
    int newest_ = -1;  // published, not yet taken
    int held_ = -1;    // leased to the drawing thread
    std::uint64_t published_ = 0;
};

}  // namespace cf
