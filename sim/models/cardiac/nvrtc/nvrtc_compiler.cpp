// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>

#include "sim/core/fault_injection.hpp"
#include "sim/models/cardiac/nvrtc/kernel_cache.hpp"

namespace cf::cardiac {

namespace {

// The NVRTC entry points used here (signatures of nvrtc.h, CUDA 12/13), resolved at run
// time. nvrtcResult is an int enum and nvrtcProgram an opaque pointer.
using Program = void*;
struct NvrtcApi {
    int (*version)(int*, int*) = nullptr;
    int (*create)(Program*, const char*, const char*, int, const char* const*,
                  const char* const*) = nullptr;
    int (*compile)(Program, int, const char* const*) = nullptr;
    int (*logSize)(Program, std::size_t*) = nullptr;
    int (*log)(Program, char*) = nullptr;
    int (*cubinSize)(Program, std::size_t*) = nullptr;
    int (*cubin)(Program, char*) = nullptr;
    int (*ptxSize)(Program, std::size_t*) = nullptr;
    int (*ptx)(Program, char*) = nullptr;
    int (*destroy)(Program*) = nullptr;
    const char* (*errorString)(int) = nullptr;
    std::string status;  // empty when loaded
};

const NvrtcApi& api() {
    static NvrtcApi a;
    static std::once_flag once;
    std::call_once(once, [] {
        std::vector<std::string> names;
        // A library named by the user is the only one tried: if it does not load, the
        // message says so instead of another version being used behind their back.
        if (const char* env = std::getenv("CELLFORGE_NVRTC"))
            names.emplace_back(env);
        else
            names = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
        void* handle = nullptr;
        std::string tried;
        for (const std::string& n : names) {
            handle = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
            if (handle != nullptr) break;
            const char* why = dlerror();
            tried += (tried.empty() ? "" : "; ") + std::string(why ? why : n.c_str());
        }
        if (handle == nullptr) {
            a.status = "NVRTC not found (" + tried + ")";
            return;
        }
        auto get = [&](auto& fn, const char* symbol) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, symbol));
            if (fn == nullptr && a.status.empty()) a.status = std::string("NVRTC lacks ") + symbol;
        };
        get(a.version, "nvrtcVersion");
        get(a.create, "nvrtcCreateProgram");
        get(a.compile, "nvrtcCompileProgram");
        get(a.logSize, "nvrtcGetProgramLogSize");
        get(a.log, "nvrtcGetProgramLog");
        get(a.cubinSize, "nvrtcGetCUBINSize");
        get(a.cubin, "nvrtcGetCUBIN");
        get(a.ptxSize, "nvrtcGetPTXSize");
        get(a.ptx, "nvrtcGetPTX");
        get(a.destroy, "nvrtcDestroyProgram");
        get(a.errorString, "nvrtcGetErrorString");
    });
    return a;
}

void check(const NvrtcApi& a, int result, const char* what) {
    if (result != 0)
        throw Error(std::string("NVRTC ") + what + " failed: " + a.errorString(result));
}

// NVRTC reports "<name>(<line>): error: ..."; each such line gets the generated line and
// the model line it came from.
std::string annotate(const std::string& log, const GeneratedSource& source,
                     const std::string& name) {
    std::istringstream in(log);
    std::ostringstream out;
    std::vector<std::string> generated;
    {
        std::istringstream code(source.code);
        std::string l;
        while (std::getline(code, l))
            generated.push_back(l);
    }
    const std::regex located("^(.*)\\(([0-9]+)\\): (.*)$");
    std::string l;
    while (std::getline(in, l)) {
        std::smatch m;
        if (!std::regex_match(l, m, located)) {
            if (!l.empty()) out << l << '\n';
            continue;
        }
        const auto at = static_cast<std::size_t>(std::stoul(m[2].str()));
        out << name << ":" << at << ": " << m[3].str() << '\n';
        if (at >= 1 && at <= generated.size()) {
            out << "    " << generated[at - 1] << '\n';
            const int modelLine = at <= source.modelLine.size() ? source.modelLine[at - 1] : 0;
            if (modelLine > 0) out << "from model line " << modelLine << '\n';
        }
    }
    return out.str();
}

// Compiles with NVRTC; stores the result under `cacheKey` unless it is empty.
CompiledKernel compileUncached(const NvrtcApi& a, const GeneratedSource& source,
                               const std::string& name, const std::string& arch, bool fastMath,
                               const std::string& cacheKey) {
    Program p = nullptr;
    check(a, a.create(&p, source.code.c_str(), name.c_str(), 0, nullptr, nullptr),
          "nvrtcCreateProgram");
    const std::string archOption = "-arch=" + arch;
    std::vector<const char*> options = {archOption.c_str(), "-std=c++17", "-default-device",
                                        "-lineinfo"};
    if (fastMath) options.push_back("--use_fast_math");
    const int result = a.compile(p, static_cast<int>(options.size()), options.data());
    std::size_t logSize = 0;
    a.logSize(p, &logSize);
    std::string log(logSize, '\0');
    if (logSize > 0) a.log(p, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    if (result != 0) {
        a.destroy(&p);
        throw KernelCompileError(name + " does not compile (" + a.errorString(result) + "):\n" +
                                 annotate(log, source, name));
    }
    CompiledKernel k;
    k.log = log;
    k.ptx = arch.rfind("compute_", 0) == 0;
    std::size_t size = 0;
    if (k.ptx) {
        check(a, a.ptxSize(p, &size), "nvrtcGetPTXSize");
        k.image.resize(size);
        check(a, a.ptx(p, k.image.data()), "nvrtcGetPTX");
    } else {
        check(a, a.cubinSize(p, &size), "nvrtcGetCUBINSize");
        k.image.resize(size);
        check(a, a.cubin(p, k.image.data()), "nvrtcGetCUBIN");
    }
    a.destroy(&p);
    if (!cacheKey.empty()) storeCachedKernel(cacheKey, CachedImage{k.image, k.ptx, k.log});
    return k;
}

}  // namespace

std::string nvrtcStatus() {
    return api().status;
}

bool nvrtcAvailable() {
    return api().status.empty();
}

std::string nvrtcVersion() {
    const NvrtcApi& a = api();
    if (!a.status.empty()) return "";
    int major = 0, minor = 0;
    a.version(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

CompiledKernel compileKernel(const GeneratedSource& source, const std::string& name,
                             const std::string& arch, bool fastMath) {
    const NvrtcApi& a = api();
    if (!a.status.empty()) throw Error("cannot compile " + name + ": " + a.status);
    // An injected failure (CELLFORGE_FAULTS=nvrtc-compile) is a real one: NVRTC is given
    // source that cannot compile, past the cache, and its log takes the usual way.
    if (faultInjected("nvrtc-compile")) {
        GeneratedSource broken = source;
        broken.code += "\n#error \"fault injected by CELLFORGE_FAULTS=nvrtc-compile\"\n";
        return compileUncached(a, broken, name, arch, fastMath, "");
    }
    const std::string key = kernelCacheKey(source.code, name, arch, fastMath, nvrtcVersion());
    CacheHit hit = CacheHit::None;
    if (std::optional<CachedImage> cached = findCachedKernel(key, &hit)) {
        CompiledKernel k;
        k.image = std::move(cached->image);
        k.ptx = cached->ptx;
        k.log = std::move(cached->log);
        k.fromCache =
            hit == CacheHit::Memory ? CompiledKernel::Cache::Memory : CompiledKernel::Cache::Disk;
        return k;
    }
    return compileUncached(a, source, name, arch, fastMath, key);
}

}  // namespace cf::cardiac
