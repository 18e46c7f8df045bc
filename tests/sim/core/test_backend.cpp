// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/model.hpp"

namespace cf {
namespace {

TEST(Backend, CpuIsAlwaysAvailable) {
    const auto b = availableBackends();
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b.front(), Backend::Cpu);
    EXPECT_TRUE(isAvailable(Backend::Cpu));
}

TEST(Backend, CudaListedExactlyWhenAvailable) {
    const auto b = availableBackends();
    const bool listed = std::find(b.begin(), b.end(), Backend::Cuda) != b.end();
    EXPECT_EQ(listed, isAvailable(Backend::Cuda)) << cudaStatus();
    if (!builtWithCuda()) {
        EXPECT_FALSE(listed);
    }
    EXPECT_EQ(defaultBackend(), listed ? Backend::Cuda : Backend::Cpu);
    EXPECT_FALSE(cudaStatus().empty());
}

TEST(Backend, NamesRoundTrip) {
    for (Backend b : {Backend::Cpu, Backend::Cuda})
        EXPECT_EQ(parseBackend(toString(b)), b);
    EXPECT_FALSE(parseBackend("gpu"));
    EXPECT_FALSE(parseBackend("CPU"));
}

TEST(Backend, ResolveFollowsRequestThenScenarioThenBest) {
    EXPECT_EQ(resolveBackend(std::nullopt, Backend::Cpu), Backend::Cpu);
    EXPECT_EQ(resolveBackend(std::string("cpu"), Backend::Cuda), Backend::Cpu);
    EXPECT_EQ(resolveBackend(std::nullopt, std::nullopt), defaultBackend());
    EXPECT_THROW(resolveBackend(std::string("gpu"), std::nullopt), ParameterError);
    if (!isAvailable(Backend::Cuda)) {
        try {
            resolveBackend(std::string("cuda"), std::nullopt);
            FAIL() << "expected ParameterError";
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find(cudaStatus()), std::string::npos) << e.what();
        }
    }
}

TEST(Registry, BuiltinModelsHaveUniqueNamesAndValidTables) {
    const ModelRegistry r = builtinModels();
    ASSERT_FALSE(r.all().empty());
    for (const ModelDescriptor& d : r.all()) {
        EXPECT_EQ(r.find(d.name), &d);
        ASSERT_NE(d.parameters, nullptr);
        EXPECT_FALSE(d.parameters().specs().empty()) << d.name;
        EXPECT_FALSE(d.description.empty());
    }
    EXPECT_THROW(r.at("no-such-model"), ScenarioError);
}

TEST(Registry, DuplicateRegistrationThrows) {
    ModelRegistry r = builtinModels();
    EXPECT_THROW(r.add(r.all().front()), Error);
}

}  // namespace
}  // namespace cf

namespace cf {
namespace {

// A model written for the CPU only: chosen automatically on any machine, refused by name
// when CUDA is asked for explicitly.
TEST(ModelBackend, ModelsRunOnlyOnBackendsTheyOffer) {
    ModelDescriptor cpuOnly;
    cpuOnly.name = "cpu-only";
    cpuOnly.backends = {Backend::Cpu};
    EXPECT_EQ(resolveModelBackend(cpuOnly, std::nullopt, std::nullopt), Backend::Cpu);
    EXPECT_EQ(resolveModelBackend(cpuOnly, std::string("cpu"), std::nullopt), Backend::Cpu);
    EXPECT_THROW(resolveModelBackend(cpuOnly, std::string("cuda"), std::nullopt), ParameterError);
    EXPECT_THROW(resolveModelBackend(cpuOnly, std::nullopt, Backend::Cuda), ParameterError);
    if (isAvailable(Backend::Cuda)) {
        try {
            resolveModelBackend(cpuOnly, std::string("cuda"), std::nullopt);
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find("cpu-only"), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(cpuOnly.offers(Backend::Cpu));
    EXPECT_FALSE(cpuOnly.offers(Backend::Cuda));
}

}  // namespace
}  // namespace cf
