// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/backend.hpp"

#include <dlfcn.h>

#include <mutex>

#include "sim/core/errors.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cf {

std::string_view toString(Backend b) {
    switch (b) {
        case Backend::Cpu:
            return "cpu";
        case Backend::Cuda:
            return "cuda";
    }
    return "unknown";
}

std::optional<Backend> parseBackend(std::string_view text) {
    if (text == "cpu") return Backend::Cpu;
    if (text == "cuda") return Backend::Cuda;
    return std::nullopt;
}

bool builtWithCuda() {
    return CELLFORGE_HAVE_CUDA != 0;
}

namespace {

struct CudaProbe {
    bool available = false;
    std::string status;
};

// Probed once: cudaGetDeviceCount loads the driver lazily, and on a machine without
// libcuda.so.1 it returns an error instead of failing to start (static cudart).
const CudaProbe& probeCuda() {
    static CudaProbe probe;
    static std::once_flag once;
    std::call_once(once, [] {
#if CELLFORGE_HAVE_CUDA
        int count = 0;
        const cudaError_t err = cudaGetDeviceCount(&count);
        if (err != cudaSuccess) {
            // Say the plain reason when there is no driver at all (the runtime then reports
            // an "insufficient" driver, which reads as if one were installed).
            void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
            if (driver == nullptr)
                probe.status = "no NVIDIA driver installed (libcuda.so.1 not found)";
            else
                probe.status = cudaGetErrorString(err);
            if (driver != nullptr) dlclose(driver);
            cudaGetLastError();  // clear the sticky-free error so later calls start clean
        } else if (count == 0) {
            probe.status = "no CUDA device found";
        } else {
            cudaDeviceProp prop{};
            if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
                probe.status = prop.name;
            } else {
                probe.status = "CUDA device 0";
            }
            probe.available = true;
        }
#else
        probe.status = "this build has no CUDA backend (configured with CELLFORGE_CUDA=OFF or no nvcc)";
#endif
    });
    return probe;
}

}  // namespace

std::vector<Backend> availableBackends() {
    std::vector<Backend> out{Backend::Cpu};
    if (probeCuda().available) out.push_back(Backend::Cuda);
    return out;
}

bool isAvailable(Backend b) {
    return b == Backend::Cpu || probeCuda().available;
}

std::string cudaStatus() {
    return probeCuda().status;
}

std::string backendLine(Backend chosen) {
    if (chosen == Backend::Cuda) return "cuda (" + cudaStatus() + ")";
    if (!builtWithCuda()) return "cpu (this build has no CUDA backend)";
    if (!isAvailable(Backend::Cuda)) return "cpu (CUDA unavailable: " + cudaStatus() + ")";
    return "cpu (CUDA available, not chosen)";
}

Backend defaultBackend() {
    return probeCuda().available ? Backend::Cuda : Backend::Cpu;
}

Backend resolveBackend(const std::optional<std::string>& requested,
                       std::optional<Backend> preferred) {
    Backend b = preferred.value_or(defaultBackend());
    if (requested) {
        const auto parsed = parseBackend(*requested);
        if (!parsed)
            throw ParameterError("--backend must be cpu or cuda, not '" + *requested + "'");
        b = *parsed;
    }
    if (!isAvailable(b))
        throw ParameterError("backend 'cuda' was requested but is unavailable: " + cudaStatus() +
                             " (use --backend cpu)");
    return b;
}

}  // namespace cf
