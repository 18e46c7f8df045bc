// SPDX-License-Identifier: GPL-3.0-or-later
// ViewExchange through the Runner, as the desktop window uses it: views arrive without a
// step, follow the steps, and a view held by the drawing thread never changes under it
// while the simulation goes on publishing (no torn frames). On every backend: device views
// are copied device to device.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "sim/core/runner.hpp"
#include "sim/core/view_exchange.hpp"
#include "sim/models/brownian/brownian_model.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

using namespace std::chrono_literals;

class ViewExchangeTest : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override {
        CF_REQUIRE_BACKEND(GetParam());
        params.setFromAssignment("system.count=5000");
    }
    const ModelDescriptor desc = brownian::descriptor();
    ParamSet params{desc.parameters()};

    static std::vector<float> positions(const ViewExchange::Lease& lease) {
        const PointCloudView& cloud = lease.views().clouds.at(0);
        return viewToHost(cloud.positions, 4 * cloud.count, cloud.space);
    }
    static std::optional<ViewExchange::Lease> waitFor(ViewExchange& ex, std::uint64_t step) {
        for (int i = 0; i < 500; ++i) {
            if (auto lease = ex.takeNewest(); lease && lease->step() >= step) return lease;
            std::this_thread::sleep_for(10ms);
        }
        return std::nullopt;
    }
};

TEST_P(ViewExchangeTest, ViewsFollowTheStepsWithoutTearing) {
    Runner runner(desc, GetParam(), params, 3);
    auto exchange = std::make_shared<ViewExchange>();
    runner.setViewExchange(exchange, 0ms);
    auto first = waitFor(*exchange, 0);
    ASSERT_TRUE(first) << "views must arrive before any step";
    EXPECT_EQ(first->step(), 0u);
    ASSERT_EQ(first->views().clouds.at(0).count, 5000u);
    const std::vector<float> held = positions(*first);
    EXPECT_FALSE(exchange->takeNewest()) << "nothing new was published";

    // The simulation runs on and publishes many times while the lease is held.
    runner.stepBy(40).get();
    ASSERT_TRUE(runner.waitUntilIdle(30s));
    EXPECT_GE(exchange->publishedCount(), 3u);
    EXPECT_EQ(positions(*first), held) << "a held view changed under the drawing thread";
    first.reset();

    auto later = waitFor(*exchange, 40);
    ASSERT_TRUE(later);
    EXPECT_EQ(later->step(), 40u);
    EXPECT_NE(positions(*later), held) << "the particles moved in 40 steps";
}

// The epidermis offers device views on CUDA: the exchange keeps them on the device (its
// copies are device to device) and they read back equal to the model's own views.
TEST_P(ViewExchangeTest, DeviceViewsStayOnTheDevice) {
    const ModelDescriptor epi = epidermis::descriptor();
    Runner runner(epi, GetParam(), ParamSet(epi.parameters()), 3);
    auto exchange = std::make_shared<ViewExchange>();
    runner.setViewExchange(exchange, 0ms);
    runner.stepBy(10).get();
    ASSERT_TRUE(runner.waitUntilIdle(30s));
    auto lease = waitFor(*exchange, 10);
    ASSERT_TRUE(lease);
    const PointCloudView& shown = lease->views().clouds.at(0);
    EXPECT_EQ(shown.space, GetParam() == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host);
    std::vector<float> direct;
    runner
        .withModel([&](Model& m) {
            const ModelViews v = m.views();
            m.synchronize();
            direct = viewToHost(v.clouds.at(0).positions, 4 * v.clouds.at(0).count,
                                v.clouds.at(0).space);
        })
        .get();
    EXPECT_EQ(positions(*lease), direct);
}

// While playing, publication is rate-limited (the window cannot show more than its
// refresh rate); after a pause the last state is always published.
TEST_P(ViewExchangeTest, PlayingPublishesAtMostAtTheIntervalAndTheFinalState) {
    Runner runner(desc, GetParam(), params, 3);
    runner.setStepsPerBatch(1);
    auto exchange = std::make_shared<ViewExchange>();
    runner.setViewExchange(exchange, 50ms);
    runner.play().get();
    std::this_thread::sleep_for(300ms);
    runner.pause().get();
    ASSERT_TRUE(runner.waitUntilIdle(30s));
    const std::uint64_t steps = runner.latestFrame()->step;
    // 300 ms at one publication per 50 ms: about 6-7, plus the first and the last.
    EXPECT_LE(exchange->publishedCount(), 12u) << steps << " steps";
    auto last = waitFor(*exchange, steps);
    ASSERT_TRUE(last);
    EXPECT_EQ(last->step(), steps);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, ViewExchangeTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
