// SPDX-License-Identifier: GPL-3.0-or-later
// The Runner as the window uses it, from several threads at once, for ThreadSanitizer (the
// `tsan` preset) and, in every build, as a check that nothing deadlocks or is lost:
//  - the GUI thread plays, pauses, steps, edits a live parameter, saves and loads
//    checkpoints and resets, as the toolbar, the parameter panel and the file menu do;
//  - the drawing thread takes the newest views from the ViewExchange and reads every
//    position, as the viewport's upload does;
//  - a poll thread reads frames, the history, the parameters and the notes, as the
//    window's 30 Hz poll and the plots do.
// A real model (brownian, CPU) with views. The run must end consistent: every edit in the
// history, the drawing thread saw views, no error.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <thread>

#include "sim/models/brownian/brownian_model.hpp"
#include "sim/run/runner.hpp"
#include "sim/run/view_exchange.hpp"

namespace cf {
namespace {

using namespace std::chrono_literals;

TEST(RunnerThreads, GuiDrawAndPollThreadsTogether) {
    const ModelDescriptor desc = brownian::descriptor();
    ParamSet params{desc.parameters()};
    params.setFromAssignment("system.count=400");
    params.setFromAssignment("system.box=8");
    Runner runner(desc, Backend::Cpu, params, 3);
    auto exchange = std::make_shared<ViewExchange>();
    runner.setViewExchange(exchange, 1ms);
    runner.setPublishState(true);
    std::atomic<bool> done{false};

    std::atomic<long> viewsSeen{0};
    double drawSum = 0.0;  // keep the reads from being optimized away (one per thread)
    double pollSum = 0.0;
    std::thread draw([&] {
        while (!done) {
            if (auto lease = exchange->takeNewest()) {
                for (const PointCloudView& c : lease->views().clouds)
                    for (std::size_t i = 0; i < 4 * c.count; ++i)
                        drawSum += c.positions[i];
                ++viewsSeen;
            }
            std::this_thread::sleep_for(1ms);
        }
    });
    std::atomic<long> polls{0};
    std::thread poll([&] {
        std::uint64_t last = 0;
        while (!done) {
            const auto frame = runner.waitForFrame(last, 5ms);
            last = frame->index;
            if (frame->state) pollSum += static_cast<double>(frame->state->fields.size());
            (void)runner.history();
            (void)runner.parameters();
            (void)runner.activeParameters();
            (void)runner.takeNotes();
            (void)runner.isRunning();
            (void)runner.error();
            ++polls;
        }
    });

    const std::filesystem::path checkpoint =
        std::filesystem::path(testing::TempDir()) / "runner-threads.cfchk";
    int edits = 0;
    for (int round = 0; round < 20; ++round) {
        runner.play();
        std::this_thread::sleep_for(2ms);
        runner.setParameter("dynamics.diffusion", ParamValue{1.0 + 0.01 * round});
        ++edits;
        runner.setStepsPerBatch(1 + round % 7);
        std::this_thread::sleep_for(2ms);
        runner.pause();
        runner.stepBy(3);
        if (round % 5 == 0) runner.save(checkpoint);
        if (round % 5 == 4) runner.load(checkpoint);
        if (round % 7 == 6) runner.reset();
    }
    runner.pause().get();
    ASSERT_TRUE(runner.waitUntilIdle(10s));
    done = true;
    draw.join();
    poll.join();

    EXPECT_EQ(runner.error(), nullptr);
    EXPECT_GT(viewsSeen.load(), 0);
    EXPECT_GT(polls.load(), 0);
    // A load brings back the history saved with the checkpoint, so later edits count from
    // there: at least the edits since the last load are recorded.
    EXPECT_GE(runner.history().size(), 1u);
    EXPECT_TRUE(std::isfinite(drawSum + pollSum));
    std::filesystem::remove(checkpoint);
}

}  // namespace
}  // namespace cf
