// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Run-time compilation of generated cell-model kernels with NVRTC (docs/design/cardiac.md
// section 4). NVRTC is loaded with dlopen when first needed, so a machine without it still
// starts and runs the CPU backend; nvrtcStatus() says why it is missing. NVRTC needs no GPU
// driver: CI compiles every generated kernel to a real sm_90 binary as a test of the source.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"

namespace cf::cardiac {

// NVRTC rejected the generated source. The message holds NVRTC's log with each reported
// line of the generated code and the model line it came from.
class KernelCompileError : public Error {
public:
    using Error::Error;
};

// "" when NVRTC can be loaded, else why not (the library tried and dlerror()). The
// environment variable CELLFORGE_NVRTC names the library to try first.
std::string nvrtcStatus();
bool nvrtcAvailable();
// NVRTC's version, e.g. "13.0" (empty when unavailable).
std::string nvrtcVersion();

struct CompiledKernel {
    std::vector<char> image;  // CUBIN for sm_XY, PTX for compute_XY
    bool ptx = false;
    std::string log;  // NVRTC's log (warnings), possibly empty
    enum class Cache { None, Memory, Disk };
    Cache fromCache = Cache::None;  // where the image came from (None: NVRTC compiled it)
};

// Compiles `source` for `arch` ("sm_90", or "compute_90" for PTX), or returns the image a
// previous compilation of the same source and options left in the cache (kernel_cache.hpp).
// Throws Error when NVRTC is unavailable, KernelCompileError when the source does not compile
// (failures are not cached). Thread-safe: models compile on worker threads.
CompiledKernel compileKernel(const GeneratedSource& source, const std::string& name,
                             const std::string& arch, bool fastMath = false);

}  // namespace cf::cardiac
