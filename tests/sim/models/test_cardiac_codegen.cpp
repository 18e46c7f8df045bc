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
#include "sim/cuda/device_buffer.hpp"
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
        EXPECT_NE(g.code.find("cf_pulse_on(a.t) ? cf_params.amplitude : (real)0"),
                  std::string::npos);
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

// The stimulus protocol is the generated source's second __constant__ block (CfProtocol
// cf_protocol, 72 bytes of fixed layout in either precision): the kernel decides per thread
// whether the pulse is on at a.t and whether its node is in the region, with the CPU's
// arithmetic in double and no contraction into fused multiply-adds; the host passes no pulse
// flag and no region mask, only the tissue's shape (tissue.mesh). A model that binds no
// stimulus still has the block (the host writes both blocks of every kernel).
TEST(CardiacCodegen, StimulusProtocolIsAConstantBlock) {
    const CheckedModel m = compileModel(kModel, "test_cell.cfm");
    const char* noStimulus = R"(model quiet
[cell]
param tau = 10 [ms]
state V = -80 [mV] bind potential
dot(V) = -(V + 80 [mV]) / tau
)";
    const CheckedModel quiet = compileModel(noStimulus, "quiet.cfm");
    ASSERT_LT(quiet.stimulus, 0);
    for (Precision p : {Precision::Float, Precision::Double}) {
        const GeneratedSource g = emitCuda(m, p);
        EXPECT_EQ(g.protocolBlock, "cf_protocol");
        EXPECT_NE(g.code.find("__constant__ CfProtocol cf_protocol;"), std::string::npos) << g.code;
        EXPECT_NE(g.code.find("static_assert(sizeof(CfProtocol) == 72,"), std::string::npos);
        EXPECT_NE(g.code.find("    double start;"), std::string::npos);
        EXPECT_NE(g.code.find("    int nx, ny, nz;"), std::string::npos);
        EXPECT_NE(g.code.find("const bool cf_stimulated = (a.tissue == nullptr || a.tissue[i] "
                              "!= 0) && cf_in_region(i);"),
                  std::string::npos)
            << g.code;
        EXPECT_EQ(g.code.find("a.pulse"), std::string::npos) << "no pulse flag from the host";
        EXPECT_EQ(g.code.find("a.region"), std::string::npos) << "no region mask from the host";
        EXPECT_EQ(g.code.find("int pulse"), std::string::npos);
        // pulseOn and inStimulusRegion, in double, each operation rounded on its own.
        const std::size_t from = g.code.find("__device__ inline bool cf_pulse_on(double t)");
        const std::size_t to = g.code.find("extern \"C\" __global__");
        ASSERT_NE(from, std::string::npos) << g.code;
        ASSERT_LT(from, to);
        const std::string protocol = g.code.substr(from, to - from);
        EXPECT_EQ(protocol.find("float"), std::string::npos) << protocol;
        EXPECT_EQ(protocol.find("real"), std::string::npos) << protocol;
        // Products of doubles through __dmul_rn: the one '*' is the grid's nx * ny (unsigned).
        EXPECT_EQ(protocol.find(" * "), protocol.find("(nx * ny)") + 3) << protocol;
        EXPECT_EQ(protocol.find(" * ", protocol.find(" * ") + 1), std::string::npos) << protocol;
        EXPECT_NE(protocol.find("k = floor(__ddiv_rn(since, cf_protocol.cycleLength));"),
                  std::string::npos)
            << protocol;
        EXPECT_NE(protocol.find("since = __dsub_rn(since, __dmul_rn(k, cf_protocol.cycleLength));"),
                  std::string::npos);
        EXPECT_NE(protocol.find("const double s = __dadd_rn(cf_protocol.regionSize, 1e-9);"),
                  std::string::npos);
        EXPECT_NE(protocol.find("fabs(__dsub_rn(x, cx)) <= s"), std::string::npos);
        const GeneratedSource q = emitCuda(quiet, p);
        EXPECT_NE(q.code.find("__constant__ CfProtocol cf_protocol;"), std::string::npos);
        EXPECT_EQ(q.code.find("cf_pulse_on"), std::string::npos);
    }
    // The host's block mirrors the protocol and the grid.
    ParamSet ps{descriptor().parameters()};
    for (const char* a :
         {"tissue.nx=7", "tissue.ny=5", "tissue.nz=3", "tissue.dx=0.25", "protocol.start=2.5",
          "protocol.cycle_length=300", "protocol.duration=2", "protocol.beats=4",
          "protocol.region=centre", "protocol.region_size=0.75"})
        ps.setFromAssignment(a);
    const CfProtocol b = protocolBlock(checkedParams(ps));
    EXPECT_EQ(b.start, 2.5);
    EXPECT_EQ(b.cycleLength, 300.0);
    EXPECT_EQ(b.duration, 2.0);
    EXPECT_EQ(b.regionSize, 0.75);
    EXPECT_EQ(b.dx, 0.25);
    EXPECT_EQ(b.beats, 4);
    EXPECT_EQ(b.region, static_cast<std::int32_t>(StimulusRegion::Centre));
    EXPECT_EQ(b.nx, 7);
    EXPECT_EQ(b.ny, 5);
    EXPECT_EQ(b.nz, 3);
    EXPECT_EQ(b.slabAxis, 2);
    EXPECT_EQ(b.slabBegin, 0);
    EXPECT_EQ(b.slabCount, 3);
    EXPECT_EQ(sizeof(CfArgs<float>), sizeof(CfArgs<double>));
    if (!nvrtcAvailable()) GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus();
    for (const CheckedModel* model : {&m, &quiet}) {
        for (Precision p : {Precision::Float, Precision::Double}) {
            for (bool fastMath : {false, true}) {
                const GeneratedSource g = emitCuda(*model, p);
                const CompiledKernel ptx =
                    compileKernel(g, model->name + ".cu", "compute_90", fastMath);
                const std::string text(ptx.image.begin(), ptx.image.end());
                EXPECT_NE(text.find(".const .align 8 .b8 cf_protocol[72]"), std::string::npos)
                    << model->name << "\n"
                    << text.substr(0, 2000);
                if (model == &m) {
                    // The protocol's division stays IEEE double, also with --use_fast_math.
                    EXPECT_NE(text.find("div.rn.f64"), std::string::npos) << model->name;
                }
                const CompiledKernel cubin =
                    compileKernel(g, model->name + ".cu", "sm_90", fastMath);
                const std::string elf(cubin.image.begin(), cubin.image.end());
                EXPECT_NE(elf.find(std::string("cf_protocol") + '\0'), std::string::npos)
                    << "the symbol cudaLibraryGetGlobal finds";
            }
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
// The protocol parameters of a one-row grid of n nodes: one pulse of `duration` ms from
// `start`, every node in the region (tests that choose the stimulated cells with the tissue
// mask); dx 0.1 mm.
CardiacParams singlePulse(unsigned n, double start, double duration) {
    CardiacParams p{};
    p.start = start;
    p.cycleLength = 0.0;
    p.duration = duration;
    p.beats = 1;
    p.region = static_cast<std::int32_t>(StimulusRegion::All);
    p.regionSize = 1.0;
    p.nx = static_cast<std::int32_t>(n);
    p.ny = 1;
    p.nz = 1;
    p.dx = 0.1;
    return p;
}

// The arguments of one step of a kernel without tables, split parts or V kept, whose step
// ends outside it (every CfArgs member named: -Wmissing-field-initializers).
template <typename Real>
CfArgs<Real> argsOf(Real* y, const unsigned char* tissue, int* fail, double t, unsigned n,
                    unsigned pitch) {
    return {y, tissue, fail, t, n, pitch, nullptr, nullptr, nullptr, {}};
}

// 256 cells, every second one stimulated (the tissue mask) for 1 ms; 3000 steps of 0.01 ms on
// the CPU interpreter and the generated kernel.
template <typename Real>
double maxDifferenceAgainstCpu(Precision precision) {
    const CheckedModel m = compileModel(kModel, "test_cell.cfm");
    CellProgram cpu(m);
    const unsigned n = 256, pitch = 256, states = 3;
    const double dt = 0.01, amplitude = -50.0;
    std::vector<double> y0 = cpu.initialStates();
    std::vector<std::vector<double>> ref(n, y0);
    std::vector<Real> host(states * pitch);
    std::vector<unsigned char> region(n);  // the tissue: the other cells are never stimulated
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
    const CardiacParams protocol = singlePulse(n, 0.0, 1.0);
    kernel.setProtocol(protocolBlock(protocol), nullptr);
    for (int step = 0; step < 3000; ++step) {
        const double t = step * dt;
        const bool on = pulseOn(protocol, t);
        kernel.launch(argsOf(y.data(), reg.data(), fail.data(), t, n, pitch), nullptr);
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
// 0.01 ms through the upstroke and plateau, kernel against interpreter, with the model's own
// methods and with every state by backward Euler (be: y + dt f / (1 - dt J), the slope J
// evaluated as GRL1 does, the division last on both sides). Double: libm and CUDA's math
// differ in the last bits, amplified in the upstroke: 1e-6 mV. Float: 0.5 mV. Float with
// --use_fast_math (__expf, __logf: ~2 ulp plus range errors): 2 mV.
TEST(CardiacCuda, TenTusscherKernelFollowsTheInterpreter) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const CheckedModel declared = compileModel(bundledModelSource("tentusscher_2006"), "tp06.cfm");
    CheckedModel backward = declared;
    for (StateInfo& s : backward.states)
        s.method = Method::BackwardEuler;
    EmitOptions shared;  // the states in shared memory (Opt2S), own methods
    shared.states = StateStorage::Shared;
    for (int config = 0; config < 3; ++config)
        for (int variant = 0; variant < 3; ++variant) {
            const CheckedModel& m = config == 1 ? backward : declared;
            const EmitOptions options = config == 2 ? shared : EmitOptions{};
            const char* methods = config == 0   ? "own methods"
                                  : config == 1 ? "backward Euler"
                                                : "own methods, states in shared memory";
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
            CellKernel kernel(emitCuda(m, precision, options), "tp06.cu", fastMath);
            if (dbl)
                kernel.setParameters(parameterBlock<double>(0.01, -52.0, params), nullptr);
            else
                kernel.setParameters(parameterBlock<float>(0.01, -52.0, params), nullptr);
            const CardiacParams protocol = singlePulse(n, 1.0, 1.0);
            kernel.setProtocol(protocolBlock(protocol), nullptr);
            for (int step = 0; step < 2000; ++step) {
                const double t = step * 0.01;
                const double stim = pulseOn(protocol, t) ? -52.0 : 0.0;
                if (dbl)
                    kernel.launch(argsOf(yd.data(), nullptr, fail.data(), t, n, pitch), nullptr);
                else
                    kernel.launch(argsOf(yf.data(), nullptr, fail.data(), t, n, pitch), nullptr);
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
            std::printf("TP06 (%s) %s: V %.3f mV after 20 ms, max |V_cuda - V_cpu| %.3g mV\n",
                        methods, dbl ? "double" : (fastMath ? "float, fast math" : "float"),
                        ref[0][0], worst);
            EXPECT_EQ(fail.toHost()[0], static_cast<int>(n)) << methods;
            EXPECT_LE(worst, dbl ? 1e-6 : (fastMath ? 2.0 : 0.5)) << methods;
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

// The kernel's own pulse and region tests against the CPU's pulseOn and inStimulusRegion,
// exactly: a model whose potential counts the steps its cell was stimulated (dot(V) =
// -i_stim, amplitude -1 A/F, dt 1 ms, forward Euler: +1 per stimulated step, exact in
// either precision), on a 7 x 5 x 3 grid with one node outside the tissue, over 400
// launches at times k * 0.1 ms (computed as the multiplication rounds it), so that pulse
// edges at multiples of 0.1 ms fall within rounding of a step's time and floor(since /
// cycle_length) sits on integers. Every region (node centres exactly on the region's edge
// included), trains with and without a beat limit, a single pulse, a pulse of length 0. In
// float (compiled with --use_fast_math) the kernel's stimulus tests are still double.
TEST(CardiacCuda, KernelStimulatesTheNodesAndStepsTheCpuDoes) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const CheckedModel m = compileModel(R"(model counter
[cell]
state V = 0 [mV] bind potential
i_stim = 0 [A/F] bind stimulus
dot(V) = -i_stim
)",
                                        "counter.cfm");
    const unsigned nx = 7, ny = 5, nz = 3, n = nx * ny * nz, pitch = 128;
    std::vector<unsigned char> tissue(n, 1);
    tissue[8] = 0;  // node (1, 1, 0), in the corner region
    cuda::DeviceBuffer<unsigned char> tissueOnDevice(tissue);
    struct Case {
        int region;
        double start, cycleLength, duration, regionSize;
        int beats;
    };
    const Case cases[] = {
        {0, 1.3, 0.0, 2.0, 0.5, 1}, {1, 1.3, 0.7, 0.3, 0.5, 2},  {2, 0.0, 0.3, 0.1, 0.25, 0},
        {2, 1.3, 1.1, 0.2, 0.5, 3}, {3, 0.7, 0.0, 0.0, 1.0, 1},  {1, 2.0, 0.9, 0.9, 0.25, 5},
        {0, 0.1, 0.3, 0.2, 0.0, 0}, {2, 1.0, 0.0, 30.0, 0.3, 1},
    };
    for (Precision precision : {Precision::Double, Precision::Float}) {
        CellKernel kernel(emitCuda(m, precision), "counter.cu", precision == Precision::Float);
        const bool dbl = precision == Precision::Double;
        for (const Case& c : cases) {
            CardiacParams p{};
            p.start = c.start;
            p.cycleLength = c.cycleLength;
            p.duration = c.duration;
            p.beats = c.beats;
            p.region = c.region;
            p.regionSize = c.regionSize;
            p.nx = nx;
            p.ny = ny;
            p.nz = nz;
            p.dx = 0.25;
            cuda::DeviceBuffer<double> yd(std::vector<double>(pitch, 0.0));
            cuda::DeviceBuffer<float> yf(std::vector<float>(pitch, 0.0f));
            cuda::DeviceBuffer<int> fail(std::vector<int>{static_cast<int>(n)});
            if (dbl)
                kernel.setParameters(parameterBlock<double>(1.0, -1.0, {}), nullptr);
            else
                kernel.setParameters(parameterBlock<float>(1.0, -1.0, {}), nullptr);
            kernel.setProtocol(protocolBlock(p), nullptr);
            std::vector<double> expected(n, 0.0);
            for (int step = 0; step < 400; ++step) {
                const double t = step * 0.1;
                if (dbl)
                    kernel.launch(
                        argsOf(yd.data(), tissueOnDevice.data(), fail.data(), t, n, pitch),
                        nullptr);
                else
                    kernel.launch(
                        argsOf(yf.data(), tissueOnDevice.data(), fail.data(), t, n, pitch),
                        nullptr);
                if (!pulseOn(p, t)) continue;
                std::size_t node = 0;
                for (int k = 0; k < p.nz; ++k)
                    for (int j = 0; j < p.ny; ++j)
                        for (int i = 0; i < p.nx; ++i, ++node)
                            if (tissue[node] != 0 && inStimulusRegion(p, i, j, k))
                                expected[node] += 1.0;
            }
            std::vector<double> got(n);
            if (dbl) {
                const std::vector<double> out = yd.toHost();
                std::copy(out.begin(), out.begin() + n, got.begin());
            } else {
                const std::vector<float> out = yf.toHost();
                std::copy(out.begin(), out.begin() + n, got.begin());
            }
            double stimulated = 0.0;
            for (unsigned node = 0; node < n; ++node) {
                EXPECT_EQ(got[node], expected[node])
                    << (dbl ? "double" : "float") << ", region " << c.region << ", start "
                    << c.start << ", cycle " << c.cycleLength << ", node " << node;
                stimulated += expected[node];
            }
            EXPECT_EQ(got[8], 0.0) << "outside the tissue";
            if (c.duration > 0.0) {
                EXPECT_GT(stimulated, 0.0) << "region " << c.region;
            }
        }
    }
}
#endif

}  // namespace
}  // namespace cf::cardiac
