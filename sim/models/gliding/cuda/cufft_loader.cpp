// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cuda/cufft_loader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <optional>
#include <type_traits>
#include <utility>

#include "sim/core/errors.hpp"

namespace cf::gliding::cuda {

std::string cufftResultName(int result) {
    switch (result) {
        case CUFFT_SUCCESS:
            return "CUFFT_SUCCESS";
        case CUFFT_INVALID_PLAN:
            return "CUFFT_INVALID_PLAN";
        case CUFFT_ALLOC_FAILED:
            return "CUFFT_ALLOC_FAILED";
        case CUFFT_INVALID_TYPE:
            return "CUFFT_INVALID_TYPE";
        case CUFFT_INVALID_VALUE:
            return "CUFFT_INVALID_VALUE";
        case CUFFT_INTERNAL_ERROR:
            return "CUFFT_INTERNAL_ERROR";
        case CUFFT_EXEC_FAILED:
            return "CUFFT_EXEC_FAILED";
        case CUFFT_SETUP_FAILED:
            return "CUFFT_SETUP_FAILED";
        case CUFFT_INVALID_SIZE:
            return "CUFFT_INVALID_SIZE";
        case CUFFT_UNALIGNED_DATA:
            return "CUFFT_UNALIGNED_DATA";
        case CUFFT_INVALID_DEVICE:
            return "CUFFT_INVALID_DEVICE";
        case CUFFT_NO_WORKSPACE:
            return "CUFFT_NO_WORKSPACE";
        case CUFFT_NOT_IMPLEMENTED:
            return "CUFFT_NOT_IMPLEMENTED";
        case CUFFT_NOT_SUPPORTED:
            return "CUFFT_NOT_SUPPORTED";
        default:
            return "cufftResult " + std::to_string(result);
    }
}

std::string cufftLibraryName() {
    const char* env = std::getenv("CELLFORGE_CUFFT");
    return env != nullptr && env[0] != '\0' ? std::string(env) : std::string("libcufft.so.12");
}

CufftLibrary::CufftLibrary(const std::string& name) : name_(name) {
    handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) {
        const char* why = dlerror();
        throw SimulationError("cannot load cuFFT from '" + name +
                              "': " + (why != nullptr ? why : "dlopen failed") +
                              " (set CELLFORGE_CUFFT to the path of libcufft.so.12)");
    }
    std::string missing;
    auto get = [&](auto& fn, const char* symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle_, symbol));
        if (fn == nullptr && missing.empty()) missing = symbol;
    };
    get(api_.create, "cufftCreate");
    get(api_.makePlanMany, "cufftMakePlanMany");
    get(api_.setStream, "cufftSetStream");
    get(api_.setAutoAllocation, "cufftSetAutoAllocation");
    get(api_.setWorkArea, "cufftSetWorkArea");
    get(api_.execD2Z, "cufftExecD2Z");
    get(api_.execZ2D, "cufftExecZ2D");
    get(api_.destroy, "cufftDestroy");
    get(api_.getVersion, "cufftGetVersion");
    if (!missing.empty()) {
        dlclose(handle_);
        handle_ = nullptr;
        throw SimulationError("cuFFT library '" + name + "' lacks " + missing);
    }
}

CufftLibrary::~CufftLibrary() {
    if (handle_ != nullptr) dlclose(handle_);
}

CufftLibrary::CufftLibrary(CufftLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      name_(std::move(other.name_)),
      api_(other.api_) {}

namespace {

struct Loaded {
    std::optional<CufftLibrary> lib;
    std::string status;  // empty when loaded
};

const Loaded& loaded() {
    static const Loaded l = [] {
        Loaded out;
        try {
            out.lib.emplace(CufftLibrary::fromEnvironment());
        } catch (const SimulationError& e) {
            out.status = e.what();
        }
        return out;
    }();
    return l;
}

}  // namespace

const CufftLibrary& CufftLibrary::instance() {
    const Loaded& l = loaded();
    if (!l.lib) throw SimulationError(l.status);
    return *l.lib;
}

std::string CufftLibrary::status() {
    return loaded().status;
}

int CufftLibrary::version() const {
    int v = 0;
    check(api_.getVersion(&v), "cufftGetVersion");
    return v;
}

void CufftLibrary::check(cufftResult result, const char* what) const {
    if (result != CUFFT_SUCCESS)
        throw CudaError(static_cast<int>(result),
                        std::string("cuFFT ") + what + " failed: " + cufftResultName(result), what,
                        name_);
}

CufftPlan::CufftPlan(const CufftLibrary& lib, int rank, const int* dims, cufftType type, int batch,
                     cudaStream_t stream)
    : lib_(&lib) {
    const CufftApi& a = lib.api();
    lib.check(a.create(&handle_), "cufftCreate");
    valid_ = true;
    try {
        // Auto-allocation off before planning, so that cuFFT allocates no work area of its
        // own: the owner hands one in (grow-only scratch).
        lib.check(a.setAutoAllocation(handle_, 0), "cufftSetAutoAllocation");
        int n[3] = {0, 0, 0};
        for (int i = 0; i < rank && i < 3; ++i)
            n[i] = dims[i];
        lib.check(
            a.makePlanMany(handle_, rank, n, nullptr, 1, 0, nullptr, 1, 0, type, batch, &workSize_),
            "cufftMakePlanMany");
        lib.check(a.setStream(handle_, stream), "cufftSetStream");
    } catch (...) {
        release();
        throw;
    }
}

CufftPlan::~CufftPlan() {
    release();
}

CufftPlan::CufftPlan(CufftPlan&& other) noexcept
    : lib_(other.lib_),
      handle_(other.handle_),
      valid_(std::exchange(other.valid_, false)),
      workSize_(other.workSize_) {}

CufftPlan& CufftPlan::operator=(CufftPlan&& other) noexcept {
    if (this != &other) {
        release();
        lib_ = other.lib_;
        handle_ = other.handle_;
        valid_ = std::exchange(other.valid_, false);
        workSize_ = other.workSize_;
    }
    return *this;
}

void CufftPlan::release() noexcept {
    if (valid_) lib_->api().destroy(handle_);  // no throw from a destructor path
    valid_ = false;
}

void CufftPlan::setWorkArea(void* area) {
    lib_->check(lib_->api().setWorkArea(handle_, area), "cufftSetWorkArea");
}

void CufftPlan::execD2Z(double* in, cufftDoubleComplex* out) {
    lib_->check(lib_->api().execD2Z(handle_, in, out), "cufftExecD2Z");
}

void CufftPlan::execZ2D(cufftDoubleComplex* in, double* out) {
    lib_->check(lib_->api().execZ2D(handle_, in, out), "cufftExecZ2D");
}

}  // namespace cf::gliding::cuda
