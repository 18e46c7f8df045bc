// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// cuFFT loaded at run time (docs/design/gliding.md 3.3-3.4). Linking CUDA::cufft would make
// libcufft.so.12 (~290 MB, no static library in CUDA 13) a start-up dependency of every
// Cellforge program; instead this dlopen()s it on first use (override: the environment
// variable CELLFORGE_CUFFT, a file name or path) and resolves the few entry points gliding
// needs. cufft.h is included for its types only. Include only in CUDA-enabled sources.
#include <cufft.h>

#include <cstddef>
#include <cuda_runtime_api.h>
#include <string>

namespace cf::gliding::cuda {

// The entry points (signatures of cufft.h, CUDA 12/13).
struct CufftApi {
    cufftResult (*create)(cufftHandle*) = nullptr;
    cufftResult (*makePlanMany)(cufftHandle, int, int*, int*, int, int, int*, int, int, cufftType,
                                int, std::size_t*) = nullptr;
    cufftResult (*setStream)(cufftHandle, cudaStream_t) = nullptr;
    cufftResult (*setAutoAllocation)(cufftHandle, int) = nullptr;
    cufftResult (*setWorkArea)(cufftHandle, void*) = nullptr;
    cufftResult (*execD2Z)(cufftHandle, cufftDoubleReal*, cufftDoubleComplex*) = nullptr;
    cufftResult (*execZ2D)(cufftHandle, cufftDoubleComplex*, cufftDoubleReal*) = nullptr;
    cufftResult (*destroy)(cufftHandle) = nullptr;
    cufftResult (*getVersion)(int*) = nullptr;
};

// "CUFFT_EXEC_FAILED" etc.; "cufftResult <n>" for codes this build does not know.
std::string cufftResultName(int result);

// The library name tried: $CELLFORGE_CUFFT when set and non-empty, else "libcufft.so.12".
std::string cufftLibraryName();

// One dlopen()ed cuFFT with its resolved entry points. Move-only; dlclose()s on destruction.
class CufftLibrary {
public:
    // Opens `name`; throws SimulationError naming the library and the dlerror() reason, or
    // the first missing entry point.
    explicit CufftLibrary(const std::string& name);
    ~CufftLibrary();
    CufftLibrary(const CufftLibrary&) = delete;
    CufftLibrary& operator=(const CufftLibrary&) = delete;
    CufftLibrary(CufftLibrary&& other) noexcept;
    CufftLibrary& operator=(CufftLibrary&&) = delete;

    // A fresh load of cufftLibraryName() (not cached; tests of the override use this).
    static CufftLibrary fromEnvironment() { return CufftLibrary(cufftLibraryName()); }
    // The process-wide library, loaded once from cufftLibraryName(). Throws the load's
    // SimulationError (again on every call) when that failed.
    static const CufftLibrary& instance();
    // Empty when instance() can be used, else why not (for availableBackends).
    static std::string status();

    const CufftApi& api() const { return api_; }
    const std::string& name() const { return name_; }
    int version() const;  // cufftGetVersion, e.g. 12000

    // Throws CudaError (code = the cufftResult) "cuFFT <what> failed: CUFFT_..." unless
    // result is CUFFT_SUCCESS.
    void check(cufftResult result, const char* what) const;

private:
    void* handle_ = nullptr;
    std::string name_;
    CufftApi api_;
};

// One cuFFT plan (RAII) on a stream, with its work area supplied by the owner (design 3.3:
// auto-allocation off, so steady-state steps never allocate). Move-only.
class CufftPlan {
public:
    CufftPlan() = default;
    // cufftMakePlanMany(rank, dims, NULL, 1, 0, NULL, 1, 0, type, batch): the basic
    // contiguous layout. workSize() tells how large a work area setWorkArea must get.
    CufftPlan(const CufftLibrary& lib, int rank, const int* dims, cufftType type, int batch,
              cudaStream_t stream);
    ~CufftPlan();
    CufftPlan(const CufftPlan&) = delete;
    CufftPlan& operator=(const CufftPlan&) = delete;
    CufftPlan(CufftPlan&& other) noexcept;
    CufftPlan& operator=(CufftPlan&& other) noexcept;

    std::size_t workSize() const { return workSize_; }
    void setWorkArea(void* area);
    void execD2Z(double* in, cufftDoubleComplex* out);
    void execZ2D(cufftDoubleComplex* in, double* out);

private:
    void release() noexcept;

    const CufftLibrary* lib_ = nullptr;
    cufftHandle handle_ = 0;
    bool valid_ = false;
    std::size_t workSize_ = 0;
};

}  // namespace cf::gliding::cuda
