// SPDX-License-Identifier: GPL-3.0-or-later
// Generated CUDA C for cardiac models (docs/design/cardiac.md sections 3.6 and 4): readable
// source with model-line comments; NVRTC compiles it to an sm_90 binary on any machine with
// the CUDA toolkit (no GPU needed); a compile error names the generated line and the model
// line; and on a GPU the kernel steps cells as the CPU interpreter does (double: 1e-9 mV,
// rounding only, as Aliev-Panfilov has no libm call; float: 0.05 mV after 3000 steps).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/nvrtc/kernel_cache.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"
#include "tests/support/backends.hpp"
#if CELLFORGE_HAVE_CUDA
#include "sim/core/device_buffer.hpp"
#include "sim/models/cardiac/cuda/cell_kernel.hpp"
#endif

namespace cf::cardiac {
namespace {

const char* kModel = R"(model test_cell
[cell]
param k = 8 range(0, 50)
param a = 0.15
state V = -80 [mV] bind potential
state v = 0
state m = 0.1
u = (V + 80 [mV]) / 100 [mV]
i_stim = 0 [A/F] bind stimulus
dot(V) = 100 / 12.9 * (-k * u * (u - a) * (u - 1) - u * v) - i_stim
dot(v) = (0.002 + 0.2 * v / (u + 0.3)) * (-v - k * u * (u - a - 1)) / 12.9
alpha = 0.1 * exp(0.05 * V)
beta = 0.2 / (1 + exp(-0.1 * (V + 40)))
dot(m) = alpha * (1 - m) - beta * m + 0 * m * piecewise(V < -50, 1, V < 0, 2, 3)
)";

#define SKIP_WITHOUT_NVRTC()                                               \
    do {                                                                   \
        if (!nvrtcAvailable()) {                                           \
            std::printf("NVRTC unavailable: %s\n", nvrtcStatus().c_str()); \
            GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus();        \
        }                                                                  \
    } while (0)

TEST(CardiacCodegen, SourceIsReadableAndMapsLinesToTheModel) {
    const CheckedModel m = compileModel(kModel, "test_cell.cfm");
    const GeneratedSource g = emitCuda(m, Precision::Double);
    EXPECT_NE(g.code.find("typedef double real;"), std::string::npos);
    EXPECT_NE(g.code.find("const real v_cell_u = ((v_cell_V + 80.0) / 100.0);  // cell.u"),
              std::string::npos)
        << g.code;
    EXPECT_NE(g.code.find("cf_phi1("), std::string::npos) << "m is a gate: Rush-Larsen";
    // The line of "u = ..." in the model is 8.
    std::size_t line = 0, at = g.code.find("const real v_cell_u");
    for (std::size_t i = 0; i < at; ++i)
        line += g.code[i] == '\n' ? 1 : 0;
    EXPECT_EQ(g.modelLine[line], 8);
    const GeneratedSource f = emitCuda(m, Precision::Float);
    EXPECT_NE(f.code.find("typedef float real;"), std::string::npos);
    EXPECT_NE(f.code.find("expf("), std::string::npos);
}

// The live values are a __constant__ block of the generated source (CfParams cf_params: dt,
// the stimulus amplitude, the model's parameters), read by the kernel instead of kernel
// arguments; a model without parameters keeps one unused element. NVRTC keeps the block under
// its plain name, which the host looks up (cudaLibraryGetGlobal), in PTX and in a binary.
TEST(CardiacCodegen, LiveValuesAreAConstantBlock) {
    const CheckedModel m = compileModel(kModel, "test_cell.cfm");
    // As test_cardiac's CardiacCuda.LiveEditsReachTheConstantBlocks runs it.
    const char* noParams = R"(model bare
[cell]
state V = -80 [mV] bind potential
i_stim = 0 [A/F] bind stimulus
dot(V) = -(V + 80 [mV]) / 10 [ms] - i_stim
)";
    const CheckedModel bare = compileModel(noParams, "bare.cfm");
    ASSERT_TRUE(bare.params.empty());
    for (Precision p : {Precision::Float, Precision::Double}) {
        const GeneratedSource g = emitCuda(m, p);
        EXPECT_EQ(g.parameterBlock, "cf_params");
        EXPECT_EQ(g.parameterBlockReals, 4u) << "dt, amplitude, k, a";
        EXPECT_EQ(g.realBytes, p == Precision::Float ? sizeof(float) : sizeof(double));
        EXPECT_NE(g.code.find("__constant__ CfParams cf_params;"), std::string::npos) << g.code;
        EXPECT_NE(g.code.find("    real p[2];"), std::string::npos) << g.code;
        EXPECT_NE(g.code.find("const real v_cell_k = cf_params.p[0];"), std::string::npos)
            << g.code;
        EXPECT_NE(g.code.find("const real v_cell_a = cf_params.p[1];"), std::string::npos);
        EXPECT_NE(g.code.find("const real cf_dt = cf_params.dt;"), std::string::npos);
        EXPECT_NE(g.code.find("a.pulse != 0 ? cf_params.amplitude : (real)0"), std::string::npos);
        EXPECT_EQ(g.code.find("a.p["), std::string::npos) << "no parameter read from global memory";
        EXPECT_EQ(g.code.find("a.dt"), std::string::npos);
        EXPECT_EQ(g.code.find("a.stimulus"), std::string::npos);
        const std::vector<double> values{8.0, 0.15};
        const auto block = p == Precision::Float ? parameterBlock<float>(0.02, -50, values).size()
                                                 : parameterBlock<double>(0.02, -50, values).size();
        EXPECT_EQ(block, g.parameterBlockReals);
        const GeneratedSource b = emitCuda(bare, p);
        EXPECT_EQ(b.parameterBlockReals, 3u);
        EXPECT_NE(b.code.find("    real p[1];"), std::string::npos) << b.code;
        EXPECT_EQ(parameterBlock<double>(0.02, -50, {}), (std::vector<double>{0.02, -50, 0}));
    }
    if (!nvrtcAvailable()) GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus();
    for (const CheckedModel* model : {&m, &bare}) {
        for (Precision p : {Precision::Float, Precision::Double}) {
            const GeneratedSource g = emitCuda(*model, p);
            const CompiledKernel ptx = compileKernel(g, model->name + ".cu", "compute_90");
            const std::string text(ptx.image.begin(), ptx.image.end());
            const std::size_t bytes = g.parameterBlockReals * g.realBytes;
            EXPECT_NE(text.find(".const .align " + std::to_string(g.realBytes) + " .b8 cf_params[" +
                                std::to_string(bytes) + "]"),
                      std::string::npos)
                << text.substr(0, 2000);
            EXPECT_NE(text.find("ld.const"), std::string::npos) << "the kernel reads the block";
            const CompiledKernel cubin = compileKernel(g, model->name + ".cu", "sm_90");
            const std::string elf(cubin.image.begin(), cubin.image.end());
            EXPECT_NE(elf.find(std::string("cf_params") + '\0'), std::string::npos)
                << "the symbol cudaLibraryGetGlobal finds";
        }
    }
}

TEST(CardiacCodegen, NvrtcCompilesEveryPrecisionToABinary) {
    SKIP_WITHOUT_NVRTC();
    const CheckedModel m = compileModel(kModel, "test_cell.cfm");
    for (Precision p : {Precision::Float, Precision::Double}) {
        const CompiledKernel k = compileKernel(emitCuda(m, p), "test_cell.cu", "sm_90");
        ASSERT_GT(k.image.size(), 4u);
        EXPECT_EQ(std::string(k.image.data(), 4),
                  "\x7f"
                  "ELF");
        std::printf("NVRTC %s: %s kernel, %zu-byte sm_90 binary\n", nvrtcVersion().c_str(),
                    p == Precision::Float ? "float" : "double", k.image.size());
    }
}

// Every bundled model's generated kernel compiles, in both precisions (a real test of the
// generated source on any machine with the CUDA toolkit).
// These tests are about NVRTC compiling: no disk cache (a kernel cached by an earlier run
// would hide a compiler failure); the cache has its own test below.
const bool kDiskCacheOff = [] { return setenv("CELLFORGE_KERNEL_CACHE", "off", 1) == 0; }();

TEST(CardiacCodegen, EveryBundledModelCompiles) {
    SKIP_WITHOUT_NVRTC();
    ASSERT_TRUE(kDiskCacheOff);
    clearKernelMemoryCache();
    for (const std::string& name : bundledModelNames()) {
        const CheckedModel m = compileModel(bundledModelSource(name), name + ".cfm");
        for (Precision p : {Precision::Float, Precision::Double}) {
            const CompiledKernel k = compileKernel(emitCuda(m, p), name + ".cu", "sm_90");
            EXPECT_GT(k.image.size(), 4u) << name;
        }
        std::printf("%s: %zu states, compiled (float and double)\n", name.c_str(), m.states.size());
    }
}

// The kernel cache: the same source and options come back from memory, then (memory cleared,
// as at the next start) from disk, byte for byte; other options compile afresh; a damaged
// disk entry is ignored and rewritten; compile errors are not cached.
TEST(CardiacCodegen, CompiledKernelsAreCachedBySourceAndOptions) {
    SKIP_WITHOUT_NVRTC();
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("cellforge-kernels-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    ASSERT_EQ(setenv("CELLFORGE_KERNEL_CACHE", dir.c_str(), 1), 0);
    clearKernelMemoryCache();
    const CheckedModel m = compileModel(kModel, "cache.cfm");
    const GeneratedSource src = emitCuda(m, Precision::Float);
    using C = CompiledKernel::Cache;
    const CompiledKernel first = compileKernel(src, "cache.cu", "sm_90");
    EXPECT_EQ(first.fromCache, C::None);
    const CompiledKernel again = compileKernel(src, "cache.cu", "sm_90");
    EXPECT_EQ(again.fromCache, C::Memory);
    EXPECT_EQ(again.image, first.image);
    clearKernelMemoryCache();
    const CompiledKernel fromDisk = compileKernel(src, "cache.cu", "sm_90");
    EXPECT_EQ(fromDisk.fromCache, C::Disk);
    EXPECT_EQ(fromDisk.image, first.image);
    EXPECT_EQ(compileKernel(src, "cache.cu", "sm_90", true).fromCache, C::None) << "fast math";
    EXPECT_EQ(compileKernel(src, "cache.cu", "sm_80").fromCache, C::None) << "another arch";
    EXPECT_EQ(compileKernel(emitCuda(m, Precision::Double), "cache.cu", "sm_90").fromCache,
              C::None);
    // Damage every entry: truncated, or one byte of the image flipped (same length): each is
    // ignored, compiled again and rewritten.
    std::size_t entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        if (entries++ % 2 == 0) {
            std::filesystem::resize_file(e.path(), 40);
        } else {
            std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(-10, std::ios::end);
            const char c = static_cast<char>(f.get());
            f.seekp(-10, std::ios::end);
            f.put(static_cast<char>(c ^ 0x5a));
        }
    }
    EXPECT_EQ(entries, 4u);
    clearKernelMemoryCache();
    for (Precision p : {Precision::Float, Precision::Double})
        EXPECT_EQ(compileKernel(emitCuda(m, p), "cache.cu", "sm_90").fromCache, C::None);
    clearKernelMemoryCache();
    EXPECT_EQ(compileKernel(src, "cache.cu", "sm_90").fromCache, C::Disk);
    GeneratedSource broken = src;
    broken.code += "\nthis is not C++\n";
    broken.modelLine.push_back(0);
    broken.modelLine.push_back(0);
    const auto countEntries = [&] {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
            ++n;
        return n;
    };
    const std::size_t before = countEntries();
    for (int k = 0; k < 2; ++k)
        EXPECT_THROW(compileKernel(broken, "cache.cu", "sm_90"), KernelCompileError);
    EXPECT_EQ(countEntries(), before) << "a failed compilation leaves no entry";
    ASSERT_EQ(setenv("CELLFORGE_KERNEL_CACHE", "off", 1), 0);
    clearKernelMemoryCache();
    std::filesystem::remove_all(dir);
}

TEST(CardiacCodegen, CompileErrorShowsTheGeneratedAndTheModelLine) {
    SKIP_WITHOUT_NVRTC();
    GeneratedSource g = emitCuda(compileModel(kModel, "test_cell.cfm"), Precision::Double);
    // A generator bug, injected: an undefined helper in the line of "alpha".
    const std::size_t at = g.code.find("0.10000000000000001 * exp(");
    ASSERT_NE(at, std::string::npos) << g.code;
    g.code.replace(at + 22, 3, "exq");
    try {
        compileKernel(g, "test_cell.cu", "sm_90");
        ADD_FAILURE() << "no compile error";
    } catch (const KernelCompileError& e) {
        const std::string what = e.what();
        std::printf("%s\n", what.c_str());
        EXPECT_NE(what.find("exq"), std::string::npos);
        EXPECT_NE(what.find("from model line 12"), std::string::npos);
    }
}

#if CELLFORGE_HAVE_CUDA
// 256 cells, every second one stimulated for 1 ms; 3000 steps of 0.01 ms on the CPU
// interpreter and the generated kernel.
template <typename Real>
double maxDifferenceAgainstCpu(Precision precision) {
    const CheckedModel m = compileModel(kModel, "test_cell.cfm");
    CellProgram cpu(m);
    const unsigned n = 256, pitch = 256, states = 3;
    const double dt = 0.01, amplitude = -50.0;
    std::vector<double> y0 = cpu.initialStates();
    std::vector<std::vector<double>> ref(n, y0);
    std::vector<Real> host(states * pitch);
    std::vector<unsigned char> region(n);
    for (unsigned i = 0; i < n; ++i) {
        region[i] = i % 2 == 0 ? 1 : 0;
        ref[i][0] = -80.0 + 0.01 * i;  // slightly different starts
        for (unsigned s = 0; s < states; ++s)
            host[s * pitch + i] = static_cast<Real>(ref[i][s]);
    }
    cuda::DeviceBuffer<Real> y(host);
    cuda::DeviceBuffer<unsigned char> reg(region);
    cuda::DeviceBuffer<int> fail(std::vector<int>{static_cast<int>(n)});
    CellKernel kernel(emitCuda(m, precision), "test_cell.cu");
    EXPECT_EQ(kernel.parameterBytes(), 4 * sizeof(Real));
    kernel.setParameters(parameterBlock<Real>(dt, amplitude, {8.0, 0.15}), nullptr);
    for (int step = 0; step < 3000; ++step) {
        const double t = step * dt;
        const bool on = t < 1.0;
        CfArgs<Real> args{y.data(), reg.data(), fail.data(), t,
                          n,        pitch,      on ? 1 : 0,  nullptr};  // no lookup tables
        kernel.launch(args, nullptr);
        for (unsigned i = 0; i < n; ++i) {
            const double stim = on && region[i] != 0 ? amplitude : 0.0;
            cpu.step(ref[i], t, dt, &stim);
        }
    }
    const std::vector<Real> out = y.toHost();
    EXPECT_EQ(fail.toHost()[0], static_cast<int>(n)) << "a cell reported a non-finite state";
    double worst = 0.0;
    for (unsigned i = 0; i < n; ++i)
        worst = std::max(worst, std::fabs(static_cast<double>(out[i]) - ref[i][0]));
    return worst;
}

// ten Tusscher 2006 (19 states, exp/log everywhere): 64 cells paced once, 2000 steps of
// 0.01 ms through the upstroke and plateau, kernel against interpreter. Double: libm and
// CUDA's math differ in the last bits, amplified in the upstroke: 1e-6 mV. Float: 0.5 mV.
// Float with --use_fast_math (__expf, __logf: ~2 ulp plus range errors): 2 mV.
TEST(CardiacCuda, TenTusscherKernelFollowsTheInterpreter) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const CheckedModel m = compileModel(bundledModelSource("tentusscher_2006"), "tp06.cfm");
    for (int variant = 0; variant < 3; ++variant) {
        // double, float, float with --use_fast_math (approximate exp/log: 2 mV)
        const Precision precision = variant == 0 ? Precision::Double : Precision::Float;
        const bool fastMath = variant == 2;
        CellProgram cpu(m);
        const unsigned n = 64, pitch = 64;
        const std::size_t states = m.states.size();
        std::vector<double> y0 = cpu.initialStates();
        std::vector<std::vector<double>> ref(n, y0);
        std::vector<double> host(states * pitch);
        for (unsigned i = 0; i < n; ++i)
            for (std::size_t s = 0; s < states; ++s)
                host[s * pitch + i] = ref[i][s];
        const bool dbl = precision == Precision::Double;
        std::vector<float> hostF(host.begin(), host.end());
        const std::vector<double> params = cpu.parameters();
        cuda::DeviceBuffer<double> yd(host);
        cuda::DeviceBuffer<float> yf(hostF);
        cuda::DeviceBuffer<int> fail(std::vector<int>{static_cast<int>(n)});
        CellKernel kernel(emitCuda(m, precision), "tp06.cu", fastMath);
        if (dbl)
            kernel.setParameters(parameterBlock<double>(0.01, -52.0, params), nullptr);
        else
            kernel.setParameters(parameterBlock<float>(0.01, -52.0, params), nullptr);
        for (int step = 0; step < 2000; ++step) {
            const double t = step * 0.01;
            const bool on = t >= 1.0 && t < 2.0;
            const double stim = on ? -52.0 : 0.0;
            if (dbl)
                kernel.launch(CfArgs<double>{yd.data(), nullptr, fail.data(), t, n, pitch,
                                             on ? 1 : 0, nullptr},
                              nullptr);
            else
                kernel.launch(CfArgs<float>{yf.data(), nullptr, fail.data(), t, n, pitch,
                                            on ? 1 : 0, nullptr},
                              nullptr);
            for (unsigned i = 0; i < n; ++i)
                cpu.step(ref[i], t, 0.01, &stim);
        }
        double worst = 0.0;
        if (dbl) {
            const std::vector<double> out = yd.toHost();
            for (unsigned i = 0; i < n; ++i)
                worst = std::max(worst, std::fabs(out[i] - ref[i][0]));
        } else {
            const std::vector<float> out = yf.toHost();
            for (unsigned i = 0; i < n; ++i)
                worst = std::max(worst, std::fabs(static_cast<double>(out[i]) - ref[i][0]));
        }
        std::printf("TP06 %s: V %.3f mV after 20 ms, max |V_cuda - V_cpu| %.3g mV\n",
                    dbl ? "double" : (fastMath ? "float, fast math" : "float"), ref[0][0], worst);
        EXPECT_EQ(fail.toHost()[0], static_cast<int>(n));
        EXPECT_LE(worst, dbl ? 1e-6 : (fastMath ? 2.0 : 0.5));
    }
}

TEST(CardiacCuda, GeneratedKernelStepsCellsAsTheInterpreter) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const double d = maxDifferenceAgainstCpu<double>(Precision::Double);
    const double f = maxDifferenceAgainstCpu<float>(Precision::Float);
    std::printf("max |V_cuda - V_cpu| after 3000 steps: double %.3g mV, float %.3g mV\n", d, f);
    EXPECT_LE(d, 1e-9);
    EXPECT_LE(f, 0.05);
}
#endif

}  // namespace
}  // namespace cf::cardiac
