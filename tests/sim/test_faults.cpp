// SPDX-License-Identifier: GPL-3.0-or-later
// Faults injected into the models (sim/core/fault_injection.hpp): the device running out of
// memory while a population grows, and NVRTC failing to compile a cardiac model, at the start
// and on a live edit. Each case checks what the user is told and that the state is exactly
// what it would be without the fault (bit for bit: a fault must never corrupt a run).
// Disk faults and signals are checked end to end by tests/faults/faults.sh.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/fault_injection.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

// Sets CELLFORGE_FAULTS for the scope of a test.
class ScopedFaults {
public:
    explicit ScopedFaults(const std::string& faults) {
        setenv("CELLFORGE_FAULTS", faults.c_str(), 1);
    }
    ~ScopedFaults() { unsetenv("CELLFORGE_FAULTS"); }
    ScopedFaults(const ScopedFaults&) = delete;
    ScopedFaults& operator=(const ScopedFaults&) = delete;
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

void expectSameState(const Snapshot& a, const Snapshot& b) {
    ASSERT_EQ(a.step, b.step);
    EXPECT_EQ(a.time, b.time);
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (std::size_t i = 0; i < a.fields.size(); ++i)
        EXPECT_TRUE(a.fields[i].bytes == b.fields[i].bytes) << "field " << a.fields[i].name;
}

TEST(FaultList, NamesAndSizesAreRead) {
    {
        ScopedFaults f("nvrtc-compile,device-memory=3M");
        EXPECT_TRUE(faultInjected("nvrtc-compile"));
        EXPECT_TRUE(faultInjected("device-memory"));
        EXPECT_FALSE(faultInjected("nvrtc"));  // whole names only
        EXPECT_EQ(faultBytes("device-memory"), std::size_t{3} << 20);
        EXPECT_EQ(faultBytes("nvrtc-compile"), std::nullopt);
    }
    {
        ScopedFaults f("device-memory=12x");
        EXPECT_EQ(faultBytes("device-memory"), std::nullopt) << "not a size";
    }
    EXPECT_FALSE(faultInjected("nvrtc-compile"));
}

ParamSet growingSpheroid() {
    ParamSet p{spheres::descriptor().parameters()};
    // 60 cells in buffers for 60: the first division must grow every per-cell buffer.
    for (const char* a : {"init.count=60", "init.radius=60", "init.age_spread=1.0",
                          "capacity.initial=60", "growth.rate=3000"})
        p.setFromAssignment(a);
    return p;
}

// The population outgrows the device (injected: no allocation beyond what the model holds
// after its reset). The run stops at a step boundary with OutOfDeviceMemoryError, whose
// message says how much was needed and that the state is unchanged; the state is then bit
// for bit that of an unhindered run at the same step, and once memory is there again the
// same model goes on exactly as the unhindered one does.
TEST(FaultsCuda, SpheresOutOfDeviceMemoryKeepsTheLastStep) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ParamSet params = growingSpheroid();
    auto model = spheres::descriptor().create(Backend::Cuda);
    model->reset(params, 7);
    model->advance(1);  // the buffers every step needs (grid, scratch) exist from here on
    std::string message;
    {
        ScopedFaults f("device-memory=" + std::to_string(deviceBytesHeld()));
        try {
            for (int k = 0; k < 4000; ++k)
                model->advance(1);
            FAIL() << "the population never needed more memory in 4000 steps";
        } catch (const OutOfDeviceMemoryError& e) {
            message = e.what();
        }
    }
    const std::uint64_t stoppedAt = model->step();
    EXPECT_GT(stoppedAt, 0u);
    EXPECT_TRUE(contains(message, "of device memory")) << message;
    EXPECT_TRUE(contains(message, "injected by CELLFORGE_FAULTS")) << message;
    EXPECT_TRUE(contains(message, "state is unchanged at step " + std::to_string(stoppedAt)))
        << message;

    auto reference = spheres::descriptor().create(Backend::Cuda);
    reference->reset(params, 7);
    reference->advance(stoppedAt);
    expectSameState(model->snapshot(), reference->snapshot());

    model->advance(100);
    reference->advance(100);
    expectSameState(model->snapshot(), reference->snapshot());
    std::printf("out of device memory at step %llu: %s\n",
                static_cast<unsigned long long>(stoppedAt), message.c_str());
}

ParamSet smallTissue(const std::string& source) {
    ParamSet p{cardiac::descriptor().parameters()};
    for (const char* a : {"tissue.nx=30", "tissue.ny=10"})
        p.setFromAssignment(a);
    p.set("model.source", ParamValue{source});
    return p;
}

// NVRTC fails (injected: it is given source that cannot compile) when the model starts:
// KernelCompileError, with NVRTC's own log placed in the generated code.
TEST(FaultsCuda, NvrtcFailureAtTheStartIsAnErrorWithTheCompilerLog) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    if (!cardiac::nvrtcAvailable()) GTEST_SKIP() << cardiac::nvrtcStatus();
    ScopedFaults f("nvrtc-compile");
    auto m = cardiac::descriptor().create(Backend::Cuda);
    try {
        m->reset(smallTissue(cardiac::bundledModelSource("aliev_panfilov")), 1);
        FAIL() << "the model started although NVRTC failed";
    } catch (const cardiac::KernelCompileError& e) {
        const std::string text = e.what();
        EXPECT_TRUE(contains(text, "does not compile")) << text;
        EXPECT_TRUE(contains(text, "fault injected by CELLFORGE_FAULTS=nvrtc-compile")) << text;
    }
}

// NVRTC fails on a live edit: the tissue keeps running the previous model (a note says so
// and why), bit for bit as a run that was never edited.
TEST(FaultsCuda, NvrtcFailureOnALiveEditKeepsThePreviousModel) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    if (!cardiac::nvrtcAvailable()) GTEST_SKIP() << cardiac::nvrtcStatus();
    const std::string base = cardiac::bundledModelSource("aliev_panfilov");
    ParamSet params = smallTissue(base);
    auto m = cardiac::descriptor().create(Backend::Cuda);
    m->reset(params, 1);
    auto reference = cardiac::descriptor().create(Backend::Cuda);
    reference->reset(params, 1);
    m->advance(200);
    reference->advance(200);
    {
        ScopedFaults f("nvrtc-compile");
        params.set("model.source", ParamValue{base + "state w_fault = 0.5\n"
                                                     "dot(w_fault) = -w_fault / 10 [ms]\n"});
        m->setLiveParameters(params);
        m->applyPendingEdits();  // waits for the (failing) compilation
    }
    bool noted = false;
    for (const std::string& n : m->takeNotes())
        noted = noted || (contains(n, "keeps running the previous model") &&
                          contains(n, "fault injected by CELLFORGE_FAULTS=nvrtc-compile"));
    EXPECT_TRUE(noted) << "no note tells the user that the edit did not take";
    m->advance(100);
    reference->advance(100);
    EXPECT_EQ(m->snapshot().find("cell.w_fault"), nullptr);
    expectSameState(m->snapshot(), reference->snapshot());
}

}  // namespace
}  // namespace cf
