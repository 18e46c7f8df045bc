// SPDX-License-Identifier: GPL-3.0-or-later
// The generator's options (cuda_emitter.hpp EmitOptions) and how a run chooses them
// (cardiac_model.hpp cudaEmitOptions): what the source holds and that NVRTC compiles it. The
// kernels against the interpreter are in test_cardiac_codegen.cpp (TP06, every option) and
// test_cardiac_cellml_collection.cpp (the collection, both state storages).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

namespace cf::cardiac {
namespace {

// StateStorage::Shared (Lionetti et al.'s Opt2S): the states live in dynamic shared memory,
// kCellBlock of each, every read of a state reads it there; the launch asks for exactly
// kCellBlock * states * sizeof(real) bytes. model.state_storage = auto chooses it from
// kSharedStatesFrom states on, and the generated view says which.
TEST(CardiacCodegen, StatesInSharedMemoryAreAnOption) {
    const CheckedModel m = compileModel(bundledModelSource("tentusscher_2006"), "tp06.cfm");
    EmitOptions shared;
    shared.states = StateStorage::Shared;
    for (Precision p : {Precision::Float, Precision::Double}) {
        const GeneratedSource regs = emitCuda(m, p), smem = emitCuda(m, p, shared);
        EXPECT_EQ(regs.sharedBytes, 0u);
        EXPECT_EQ(smem.sharedBytes, kCellBlock * m.states.size() * smem.realBytes);
        EXPECT_EQ(regs.code.find("__shared__"), std::string::npos);
        EXPECT_NE(smem.code.find("extern __shared__ unsigned char cf_shared[];"),
                  std::string::npos);
        EXPECT_NE(smem.code.find("cf_y[128u] = a.y[1u * a.pitch + i];"), std::string::npos);
    }
    CardiacParams p{};
    p.stateStorage = static_cast<std::int32_t>(StateStorageChoice::Auto);
    EXPECT_EQ(cudaEmitOptions(p, m).states, StateStorage::Registers);  // 19 states
    CheckedModel big = m;
    while (big.states.size() < kSharedStatesFrom)
        big.states.push_back(big.states.back());
    EXPECT_EQ(cudaEmitOptions(p, big).states, StateStorage::Shared);
    p.stateStorage = static_cast<std::int32_t>(StateStorageChoice::Registers);
    EXPECT_EQ(cudaEmitOptions(p, big).states, StateStorage::Registers);
    p.stateStorage = static_cast<std::int32_t>(StateStorageChoice::Shared);
    EXPECT_EQ(cudaEmitOptions(p, m).states, StateStorage::Shared);
    if (!nvrtcAvailable()) GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus();
    for (Precision prec : {Precision::Float, Precision::Double})
        EXPECT_GT(compileKernel(emitCuda(m, prec, shared), "tp06_shared.cu", "sm_90").image.size(),
                  4u);
}

// EmitOptions::parts (Opt3): the step as cf_step_0 .. cf_step_{parts-1}; each part writes its
// own states (all but the last into a.next) and loads only the states its rates read; the
// last copies the others' from a.next and keeps V before the step. More parts than states
// give one kernel per state. model.kernel_parts sets it.
TEST(CardiacCodegen, KernelSplittingIsAnOption) {
    const CheckedModel m = compileModel(bundledModelSource("tentusscher_2006"), "tp06.cfm");
    EmitOptions split;
    split.parts = 3;
    const GeneratedSource g = emitCuda(m, Precision::Float, split);
    EXPECT_EQ(g.kernelNames, (std::vector<std::string>{"cf_step_0", "cf_step_1", "cf_step_2"}));
    EXPECT_EQ(g.kernelName, "cf_step_0");
    EXPECT_EQ(emitCuda(m, Precision::Float).kernelNames, std::vector<std::string>{"cf_step"});
    const auto kernelText = [&](const std::string& name) {
        const std::size_t at = g.code.find("void " + name + "(CfArgs a)");
        EXPECT_NE(at, std::string::npos) << name;
        const std::size_t next = g.code.find("__global__", at);
        return g.code.substr(at, next == std::string::npos ? std::string::npos : next - at);
    };
    // TP06's states 0-5 (V, m, h, j, xr1, xr2), 6-11 (xs, r, s, d, f, f2), 12-18 (fCaSS ...
    // Ki): the gates' part reads no calcium state; the last writes every state.
    const std::string gates = kernelText("cf_step_1"), last = kernelText("cf_step_2");
    EXPECT_NE(gates.find("a.next[6u * a.pitch + i] = n_6;"), std::string::npos);
    EXPECT_EQ(gates.find("a.y[14u * a.pitch + i]"), std::string::npos) << "Cai is not read";
    EXPECT_EQ(gates.find("a.y[6u * a.pitch + i] ="), std::string::npos);
    EXPECT_NE(last.find("a.y[0u * a.pitch + i] = a.next[0u * a.pitch + i];"), std::string::npos);
    EXPECT_NE(last.find("a.y[18u * a.pitch + i] = n_18;"), std::string::npos);
    EXPECT_NE(last.find("a.v_before[i] = v_membrane_V;"), std::string::npos);
    split.parts = 100;
    EXPECT_EQ(emitCuda(m, Precision::Double, split).kernelNames.size(), m.states.size());
    CardiacParams p{};
    p.kernelParts = 4;
    EXPECT_EQ(cudaEmitOptions(p, m).parts, 4u);
    p.kernelParts = 0;  // auto: TP06's 19 states in 3 kernels in double, one in float
    p.precision = 0;
    EXPECT_EQ(cudaEmitOptions(p, m).parts, 3u);
    p.precision = 1;
    EXPECT_EQ(cudaEmitOptions(p, m).parts, 1u);
    CheckedModel big = m;
    while (big.states.size() < 32)
        big.states.push_back(big.states.back());
    p.precision = 0;
    EXPECT_EQ(cudaEmitOptions(p, big).parts, 4u);
    if (!nvrtcAvailable()) GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus();
    EXPECT_GT(compileKernel(g, "tp06_split.cu", "sm_90").image.size(), 4u);
}

}  // namespace
}  // namespace cf::cardiac
