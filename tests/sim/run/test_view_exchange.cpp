// SPDX-License-Identifier: GPL-3.0-or-later
// ViewExchange through the Runner, as the desktop window uses it: views arrive without a
// step, follow the steps, and a view held by the drawing thread never changes under it
// while the simulation goes on publishing (no torn frames). On every backend: device views
// are copied device to device.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "sim/models/brownian/brownian_model.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"
#include "sim/run/runner.hpp"
#include "sim/run/view_exchange.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/volume_model.hpp"

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

// Volumes travel like clouds: the slot holds copies in the view's own memory space (the
// model's arrays may change under a held lease), with the same size, box, labels and hints.
TEST_P(ViewExchangeTest, VolumesAreCopiedIntoTheSlot) {
    const ModelDescriptor vol = test::volumeDescriptor();
    Runner runner(vol, GetParam(), ParamSet(vol.parameters()), 1);
    auto exchange = std::make_shared<ViewExchange>();
    runner.setViewExchange(exchange, 0ms);
    auto first = waitFor(*exchange, 0);
    ASSERT_TRUE(first);
    ASSERT_EQ(first->views().volumes.size(), 1u);
    const VolumeView& shown = first->views().volumes[0];
    EXPECT_EQ(shown.space, GetParam() == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host);
    EXPECT_EQ(shown.voxelCount(), 8u * 6u * 4u);
    EXPECT_EQ(shown.hi[0], 8.0);
    EXPECT_EQ(shown.lo[2], -2.0);
    ASSERT_EQ(shown.categories.size(), 1u);
    EXPECT_EQ(shown.categories[0].labels, (std::vector<std::string>{"empty", "even", "odd"}));
    ASSERT_EQ(shown.scalars.size(), 2u);
    EXPECT_EQ(shown.scalars[0].rangeHi, 7.0);
    const auto phase = viewToHost(shown.categories[0].data, shown.voxelCount(), shown.space);
    const auto height = viewToHost(shown.scalars[1].data, shown.voxelCount(), shown.space);
    ModelViews direct;
    runner.withModel([&](Model& m) { direct = m.views(); }).get();
    EXPECT_NE(shown.categories[0].data, direct.volumes.at(0).categories[0].data)
        << "a copy, not the model's own array";
    std::size_t c = 0;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 6; ++j)
            for (int i = 0; i < 8; ++i, ++c) {
                ASSERT_EQ(phase[c], test::checkerPhase(i, j, k)) << i << "," << j << "," << k;
                ASSERT_EQ(height[c], static_cast<float>(k));
            }
    // The model moves on (height = k + step) while the lease is held: the held copy stays.
    runner.stepBy(5).get();
    ASSERT_TRUE(runner.waitUntilIdle(30s));
    EXPECT_EQ(viewToHost(shown.scalars[1].data, shown.voxelCount(), shown.space), height);
    first.reset();
    auto later = waitFor(*exchange, 5);
    ASSERT_TRUE(later);
    const VolumeView& now = later->views().volumes.at(0);
    EXPECT_EQ(viewToHost(now.scalars[1].data, now.voxelCount(), now.space)[0], 5.0f);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, ViewExchangeTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
