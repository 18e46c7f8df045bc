// SPDX-License-Identifier: GPL-3.0-or-later
// DeviceBuffer and the CUDA error checks. Built only with CUDA; every case needs a device.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "tests/sim/cuda/device_buffer_test_cuda.hpp"
#include "tests/support/backends.hpp"

namespace cf::test {
namespace {

using cuda::DeviceBuffer;

std::vector<int> iota(std::size_t n, int first = 0) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

// No error may be left pending after a case (a stray one would be blamed on the next call).
void expectNoPendingError() {
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(DeviceBufferCuda, RoundTrip) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::vector<int> host = iota(100000, -7);
    DeviceBuffer<int> buffer{std::span<const int>(host)};
    EXPECT_EQ(buffer.size(), host.size());
    EXPECT_EQ(buffer.bytes(), host.size() * sizeof(int));
    EXPECT_FALSE(buffer.empty());
    incrementOnDevice(buffer.data(), buffer.size());
    const std::vector<int> back = buffer.toHost();
    ASSERT_EQ(back.size(), host.size());
    for (std::size_t i = 0; i < host.size(); ++i)
        ASSERT_EQ(back[i], host[i] + 1) << i;
    buffer.fillZero();
    std::vector<int> zeros(host.size(), 1);
    buffer.copyToHost(zeros);
    for (int z : zeros)
        ASSERT_EQ(z, 0);
    expectNoPendingError();
}

TEST(DeviceBufferCuda, MoveTransfersOwnership) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::vector<int> host = iota(1000);
    {
        DeviceBuffer<int> a{std::span<const int>(host)};
        const int* p = a.data();
        DeviceBuffer<int> b(std::move(a));
        EXPECT_EQ(b.data(), p);
        EXPECT_EQ(b.size(), host.size());
        EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified
        EXPECT_EQ(a.data(), nullptr);
        EXPECT_EQ(a.size(), 0u);

        DeviceBuffer<int> c(10);
        c = std::move(b);  // c's old allocation is released, b's taken over
        EXPECT_EQ(c.data(), p);
        EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move)
        EXPECT_EQ(c.toHost(), host);

        DeviceBuffer<int>& self = c;
        c = std::move(self);  // self-move keeps the contents
        EXPECT_EQ(c.data(), p);
        EXPECT_EQ(c.toHost(), host);
        EXPECT_TRUE(a.toHost().empty());  // NOLINT(bugprone-use-after-move)
    }  // a, b (empty) and c destroyed here: one cudaFree, no double free
    expectNoPendingError();
}

TEST(DeviceBufferCuda, Resize) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    DeviceBuffer<double> buffer;
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.data(), nullptr);
    buffer.resize(64);
    EXPECT_EQ(buffer.size(), 64u);
    ASSERT_NE(buffer.data(), nullptr);
    const double* p = buffer.data();
    buffer.resize(64);  // same size: the allocation is kept
    EXPECT_EQ(buffer.data(), p);
    buffer.resize(1000);
    EXPECT_EQ(buffer.size(), 1000u);
    std::vector<double> host(1000, 2.5);
    buffer.copyFromHost(host);
    EXPECT_EQ(buffer.toHost(), host);
    buffer.resize(0);
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.data(), nullptr);
    EXPECT_TRUE(buffer.toHost().empty());
    expectNoPendingError();
}

TEST(DeviceBufferCuda, SizeMismatchCopyThrows) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    DeviceBuffer<int> buffer(10);
    std::vector<int> small(5, 0);
    EXPECT_THROW(buffer.copyFromHost(small), CudaError);
    EXPECT_THROW(buffer.copyToHost(small), CudaError);
    try {
        buffer.copyFromHost(small);
    } catch (const CudaError& e) {
        EXPECT_EQ(e.code(), static_cast<int>(cudaErrorInvalidValue));
        EXPECT_NE(std::string(e.what()).find("5 elements"), std::string::npos) << e.what();
    }
    expectNoPendingError();
}

TEST(CudaCheck, FailingCallThrowsWithExpressionAndLocation) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const int line = __LINE__ + 2;
    try {
        CF_CUDA_CHECK(cudaSetDevice(9999));
        FAIL() << "expected cf::CudaError";
    } catch (const CudaError& e) {
        const std::string what = e.what();
        const std::string where = std::string(__FILE__) + ":" + std::to_string(line);
        EXPECT_EQ(e.code(), static_cast<int>(cudaErrorInvalidDevice));
        EXPECT_EQ(e.expression(), "cudaSetDevice(9999)");
        EXPECT_EQ(e.location(), where);
        EXPECT_NE(what.find("cudaSetDevice(9999)"), std::string::npos) << what;
        EXPECT_NE(what.find(where), std::string::npos) << what;
    }
    cudaGetLastError();  // the failed call may leave its (non-sticky) error behind
    expectNoPendingError();
}

TEST(CudaCheck, InvalidLaunchThrowsNamingTheKernel) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    try {
        launchWithInvalidConfiguration();
        FAIL() << "expected cf::CudaError";
    } catch (const CudaError& e) {
        const std::string what = e.what();
        // CUDA 13 reports an over-sized block as cudaErrorInvalidValue, older runtimes as
        // cudaErrorInvalidConfiguration; either way the launch must not pass silently.
        EXPECT_TRUE(e.code() == static_cast<int>(cudaErrorInvalidConfiguration) ||
                    e.code() == static_cast<int>(cudaErrorInvalidValue))
            << what;
        EXPECT_NE(what.find("tooManyThreads"), std::string::npos) << what;
        EXPECT_NE(e.expression().find("tooManyThreads"), std::string::npos);
        EXPECT_NE(e.location().find("test_device_buffer_cuda.cu:"), std::string::npos)
            << e.location();
    }
    expectNoPendingError();  // a configuration error is not sticky: the context still works
    DeviceBuffer<int> after(std::vector<int>{1, 2, 3});
    incrementOnDevice(after.data(), after.size());
    EXPECT_EQ(after.toHost(), (std::vector<int>{2, 3, 4}));
}

}  // namespace
}  // namespace cf::test
