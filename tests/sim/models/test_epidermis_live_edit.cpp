// SPDX-License-Identifier: GPL-3.0-or-later
// A live edit made while the model runs, through the Runner (the path the desktop window's
// parameter panel uses), reaches the model at a step boundary; on CUDA it is in the
// device's constant memory (read back from the symbol), without a pause or reset.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "sim/models/brownian/brownian_model.hpp"
#include "sim/models/brownian/brownian_params.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"
#include "sim/models/epidermis/epidermis_params.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

using namespace std::chrono_literals;

class LiveEditTest : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }

    // Plays, edits while running, and returns the parameter block the model holds after
    // the edit (empty on host backends) plus the step the edit applied from.
    template <typename Pod>
    std::pair<std::vector<std::uint8_t>, std::uint64_t> editWhileRunning(
        const ModelDescriptor& desc, const std::string& key, double value) {
        Runner runner(desc, GetParam(), ParamSet(desc.parameters()), 5);
        runner.setStepsPerBatch(5);
        runner.play().get();
        while (runner.latestFrame()->step < 20)
            std::this_thread::sleep_for(1ms);
        runner.setParameter(key, ParamValue{value}).get();
        EXPECT_TRUE(runner.isRunning()) << "the edit must not pause the run";
        std::vector<std::uint8_t> block;
        runner.withModel([&](Model& m) { block = m.deviceParameterBlock(); }).get();
        const auto history = runner.history();
        runner.pause().get();
        EXPECT_EQ(std::get<double>(runner.activeParameters().get(key)), value);
        EXPECT_FALSE(history.empty());
        EXPECT_EQ(history.back().key, key);
        EXPECT_FALSE(history.back().pendingReset);
        if (GetParam() == Backend::Cuda) {
            EXPECT_EQ(block.size(), sizeof(Pod));
        }
        return {block, history.back().step};
    }
};

TEST_P(LiveEditTest, EpidermisEditReachesTheModelWhileRunning) {
    const auto [block, step] = editWhileRunning<epidermis::EpidermisParams>(
        epidermis::descriptor(), "mechanics.intra_u0", 0.42);
    EXPECT_GE(step, 20u);
    if (GetParam() != Backend::Cuda) {
        EXPECT_TRUE(block.empty());
        return;
    }
    epidermis::EpidermisParams onDevice{};
    std::memcpy(&onDevice, block.data(), sizeof onDevice);
    EXPECT_FLOAT_EQ(onDevice.intraU0, 0.42f) << "constant memory holds the edited value";
    EXPECT_FLOAT_EQ(onDevice.intraXi1, 0.12f) << "and the others unchanged";
}

TEST_P(LiveEditTest, BrownianEditReachesTheModelWhileRunning) {
    const auto [block, step] = editWhileRunning<brownian::BrownianParams>(
        brownian::descriptor(), "dynamics.diffusion", 3.5);
    EXPECT_GE(step, 20u);
    if (GetParam() != Backend::Cuda) return;
    brownian::BrownianParams onDevice{};
    std::memcpy(&onDevice, block.data(), sizeof onDevice);
    EXPECT_FLOAT_EQ(onDevice.diffusion, 3.5f);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, LiveEditTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
