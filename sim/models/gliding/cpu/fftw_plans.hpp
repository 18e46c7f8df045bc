// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// FFTW 3 (double) for the CPU backend of `gliding` (docs/design/gliding.md 3.3): buffers from
// fftw_malloc, so plans see the alignment they were made for, and move-only RAII plans made
// with FFTW_ESTIMATE, which chooses the same plan every run (FFTW_MEASURE times candidates and
// can pick differently, so results would change from run to run). FFTW's planner (plan
// creation and destruction) is not thread-safe: every call to it takes one process-wide
// mutex. fftw_execute on distinct plans may run concurrently.
#include <fftw3.h>

#include <cstddef>
#include <mutex>

namespace cf::gliding::fftw {

// Held around every fftw_plan_* and fftw_destroy_plan call of this process's code.
std::mutex& plannerMutex();

// An fftw_malloc'ed array of T (double or fftw_complex), zero-filled. Move-only.
template <typename T>
class Buffer {
public:
    Buffer() = default;
    explicit Buffer(std::size_t n);
    ~Buffer();
    Buffer(Buffer&& o) noexcept : data_(o.data_), size_(o.size_) {
        o.data_ = nullptr;
        o.size_ = 0;
    }
    Buffer& operator=(Buffer&& o) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return size_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

using RealBuffer = Buffer<double>;
using ComplexBuffer = Buffer<fftw_complex>;

// A move-only fftw_plan; execute() runs it on the arrays it was planned with.
class Plan {
public:
    Plan() = default;
    explicit Plan(fftw_plan p) : plan_(p) {}
    ~Plan();
    Plan(Plan&& o) noexcept : plan_(o.plan_) { o.plan_ = nullptr; }
    Plan& operator=(Plan&& o) noexcept;
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;

    void execute() const { fftw_execute(plan_); }
    bool valid() const { return plan_ != nullptr; }

private:
    fftw_plan plan_ = nullptr;
};

// Real-to-complex 3-D transform of a row-major n0 x n1 x n2 array (n2 fastest) into
// n0 x n1 x (n2/2 + 1) complex values, and its unnormalised inverse. The inverse overwrites
// its complex input (FFTW's c2r does), so callers keep no data there. Both throw
// SimulationError if FFTW returns no plan or a buffer is too small.
Plan planR2C3d(int n0, int n1, int n2, RealBuffer& in, ComplexBuffer& out);
Plan planC2R3d(int n0, int n1, int n2, ComplexBuffer& in, RealBuffer& out);

}  // namespace cf::gliding::fftw
