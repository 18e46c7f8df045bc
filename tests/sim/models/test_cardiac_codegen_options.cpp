// SPDX-License-Identifier: GPL-3.0-or-later
// The generator's options (cuda_emitter.hpp EmitOptions) and how a run chooses them
// (cardiac_model.hpp cudaEmitOptions): what the source holds and that NVRTC compiles it. The
// kernels against the interpreter are in test_cardiac_codegen.cpp (TP06, every option) and
// test_cardiac_cellml_collection.cpp (the collection, both state storages).
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace cf::cardiac
