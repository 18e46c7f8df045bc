// SPDX-License-Identifier: GPL-3.0-or-later
// The device-memory check of the CUDA bound motors of `gliding` (docs/design/gliding.md
// section 4 item 4, T11 "memory with an injected free size"): the byte counts against the
// design's memory table (section 1) and the message, exactly, for the design's example.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/motor_memory.hpp"

namespace cf {
namespace {

gliding::GlidingParams params(int n, int ninner, const char* precision) {
    ParamSet set(gliding::parameterTable());
    set.setFromAssignment("grid.n=" + std::to_string(n));
    set.setFromAssignment("grid.ninner=" + std::to_string(ninner));
    set.setFromAssignment(std::string("motors.precision=") + precision);
    return gliding::checkedParams(set);
}

std::string messageOf(const gliding::GlidingParams& p, const gliding::GlidingTables& t,
                      std::size_t freeBytes) {
    try {
        gliding::checkMotorMemory(p, t, freeBytes, "NVIDIA H100");
    } catch (const SimulationError& e) {
        return e.what();
    }
    return "";
}

constexpr std::size_t kGiB = std::size_t{1} << 30;

// The design's example (256^2 x 32^2, f64 motors, 5.1 GiB free): the packed slice holds 12,928
// configurations (design table 1), Mb is 65,536 x 12,928 x 8 B = 6.3 GiB and with W
// (0.5 GiB) the motors need 6.8 GiB; the message must be the design's, character for character.
TEST(GlidingMotorMemory, DesignExampleMessage) {
    const auto p = params(256, 32, "double");
    const auto t = gliding::buildTables(p);
    EXPECT_EQ(t.sliceSize, 12928);
    EXPECT_EQ(gliding::boundMotorBytes(p, t), std::size_t{65536} * 12928 * 8);
    const std::size_t freeBytes = static_cast<std::size_t>(5.1 * static_cast<double>(kGiB));
    const std::string msg = messageOf(p, t, freeBytes);
    std::printf("256^2x32^2 f64: motorDeviceBytes = %zu (%.4f GiB)\nmessage: %s\n",
                gliding::motorDeviceBytes(p, t),
                static_cast<double>(gliding::motorDeviceBytes(p, t)) / kGiB, msg.c_str());
    EXPECT_EQ(msg,
              "gliding: the run needs 6.8 GiB of device memory (bound motors 6.3 GiB = 65,536 "
              "tails × 12,928 configurations × 8 B); 5.1 GiB are free on NVIDIA H100. Use "
              "motors.precision = float or a smaller grid.n / grid.ninner");
    // f32 motors halve Mb and W (3.4 GiB): they fit in 0.9 x 5.1 GiB = 4.6 GiB.
    const auto pf = params(256, 32, "float");
    EXPECT_EQ(messageOf(pf, t, freeBytes), "");
    // With too little room the float advice drops the precision hint (it is float already).
    const std::string small = messageOf(pf, t, 2 * kGiB);
    std::printf("f32 with 2 GiB free: %s\n", small.c_str());
    EXPECT_NE(small.find("(bound motors 3.2 GiB = 65,536 tails × 12,928 configurations × 4 B)"),
              std::string::npos);
    EXPECT_NE(small.find("2.0 GiB are free on NVIDIA H100. Use a smaller grid.n / grid.ninner"),
              std::string::npos);
}

// The counts at 64^2 x 16^2 against design table 1 (Mb f32 3.0 MiB, f64 6.0 MiB; W f32 4 MiB)
// and the 0.9 x free threshold at its edge (integers: no tolerance).
TEST(GlidingMotorMemory, CountsAndThreshold) {
    const auto pf = params(64, 16, "float"), pd = params(64, 16, "double");
    const auto t = gliding::buildTables(pf);
    const std::size_t cells = 64 * 64, configs = 16 * 16;
    EXPECT_EQ(t.sliceSize, 192);
    EXPECT_EQ(gliding::boundMotorBytes(pf, t), 3u << 20);  // 3.0 MiB
    EXPECT_EQ(gliding::boundMotorBytes(pd, t), 6u << 20);  // 6.0 MiB
    // f64 adds 4 B per Mb, W, Mb,coarse and Mf entry and nothing else.
    EXPECT_EQ(gliding::motorDeviceBytes(pd, t) - gliding::motorDeviceBytes(pf, t),
              4 * cells * (192 + configs + 2));
    const std::size_t need = gliding::motorDeviceBytes(pf, t);
    std::printf("64^2x16^2 f32: motorDeviceBytes = %zu (%.3f MiB)\n", need,
                static_cast<double>(need) / (1 << 20));
    EXPECT_GT(need, (3u << 20) + (4u << 20));  // Mb and W alone (design table: ~12 MiB in all)
    EXPECT_LT(need, 12u << 20);
    // The smallest free size that passes: free/10*9 >= need.
    const std::size_t edge = (need + 8) / 9 * 10;
    EXPECT_EQ(messageOf(pf, t, edge), "");
    EXPECT_NE(messageOf(pf, t, edge - 10), "");
    // otherBytes (the rest of the run) counts too.
    EXPECT_THROW(gliding::checkMotorMemory(pf, t, edge, "X", 10), SimulationError);
}

// The CPU backend's check: 256^2 x 32^2 needs the packed motors in double plus W and the
// filament arrays; with 4 GiB available it is refused before anything is allocated.
TEST(GlidingMotorMemory, HostCheckNamesTheNeedAndTheRemedy) {
    ParamSet set(gliding::parameterTable());
    set.setFromAssignment("grid.n=256");
    set.setFromAssignment("grid.ninner=32");
    gliding::GlidingParams p = gliding::checkedParams(set);
    const gliding::GlidingTables t = gliding::buildTables(p);
    const std::size_t need = gliding::hostRunBytes(p, t);
    std::printf("256^2 x 32^2 on the CPU needs %.3f GiB\n", need / 1073741824.0);
    EXPECT_GT(need, 65536ull * 12928 * 8);  // at least the packed motors
    try {
        gliding::checkHostMemory(p, t, 4ull << 30);
        FAIL() << "4 GiB accepted";
    } catch (const SimulationError& e) {
        const std::string text = e.what();
        std::printf("%s\n", text.c_str());
        EXPECT_NE(text.find("65,536 tails"), std::string::npos);
        EXPECT_NE(text.find("4.0 GiB are available"), std::string::npos);
        EXPECT_NE(text.find("CUDA backend"), std::string::npos);
    }
    EXPECT_NO_THROW(gliding::checkHostMemory(p, t, need * 2));
    EXPECT_NO_THROW(gliding::checkHostMemory(p, t, 0));  // unknown: not checked
}

}  // namespace
}  // namespace cf
