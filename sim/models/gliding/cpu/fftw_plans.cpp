// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cpu/fftw_plans.hpp"

#include <cstring>
#include <new>
#include <string>

#include "sim/core/errors.hpp"

namespace cf::gliding::fftw {

std::mutex& plannerMutex() {
    static std::mutex m;
    return m;
}

template <typename T>
Buffer<T>::Buffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    data_ = static_cast<T*>(fftw_malloc(n * sizeof(T)));
    if (!data_) throw std::bad_alloc();
    std::memset(static_cast<void*>(data_), 0, n * sizeof(T));
}

template <typename T>
Buffer<T>::~Buffer() {
    fftw_free(data_);
}

template <typename T>
Buffer<T>& Buffer<T>::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        fftw_free(data_);
        data_ = o.data_;
        size_ = o.size_;
        o.data_ = nullptr;
        o.size_ = 0;
    }
    return *this;
}

template class Buffer<double>;
template class Buffer<fftw_complex>;

Plan::~Plan() {
    if (plan_) {
        std::lock_guard<std::mutex> lock(plannerMutex());
        fftw_destroy_plan(plan_);
    }
}

Plan& Plan::operator=(Plan&& o) noexcept {
    if (this != &o) {
        if (plan_) {
            std::lock_guard<std::mutex> lock(plannerMutex());
            fftw_destroy_plan(plan_);
        }
        plan_ = o.plan_;
        o.plan_ = nullptr;
    }
    return *this;
}

namespace {

void checkSizes(const char* what, int n0, int n1, int n2, std::size_t real, std::size_t complex) {
    if (n0 <= 0 || n1 <= 0 || n2 <= 0)
        throw SimulationError(std::string("gliding: ") + what + ": non-positive FFT size");
    const std::size_t rows = static_cast<std::size_t>(n0) * static_cast<std::size_t>(n1);
    if (real < rows * static_cast<std::size_t>(n2) ||
        complex < rows * static_cast<std::size_t>(n2 / 2 + 1))
        throw SimulationError(std::string("gliding: ") + what +
                              ": buffer smaller than the transform");
}

Plan checked(fftw_plan p, const char* what) {
    if (!p) throw SimulationError(std::string("gliding: FFTW returned no plan for the ") + what);
    return Plan(p);
}

}  // namespace

Plan planR2C3d(int n0, int n1, int n2, RealBuffer& in, ComplexBuffer& out) {
    checkSizes("r2c plan", n0, n1, n2, in.size(), out.size());
    std::lock_guard<std::mutex> lock(plannerMutex());
    return checked(fftw_plan_dft_r2c_3d(n0, n1, n2, in.data(), out.data(), FFTW_ESTIMATE),
                   "3-D r2c transform");
}

Plan planC2R3d(int n0, int n1, int n2, ComplexBuffer& in, RealBuffer& out) {
    checkSizes("c2r plan", n0, n1, n2, out.size(), in.size());
    std::lock_guard<std::mutex> lock(plannerMutex());
    return checked(fftw_plan_dft_c2r_3d(n0, n1, n2, in.data(), out.data(), FFTW_ESTIMATE),
                   "3-D c2r transform");
}

}  // namespace cf::gliding::fftw
