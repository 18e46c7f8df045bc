// SPDX-License-Identifier: GPL-3.0-or-later
// main() of the tests that mpirun starts on several ranks (cellforge_add_rank_test): MPI
// for the whole process, rank 0 prints GoogleTest's report, the other ranks only their
// failures (prefixed with the rank), and every rank exits 1 when a case failed on any.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "sim/core/backend.hpp"
#include "sim/cuda/cuda_device.hpp"
#include "sim/dist/mpi_communicator.hpp"
#if CELLFORGE_HAVE_NCCL
#include "sim/dist/nccl_exchange.hpp"
#endif
#include "tests/support/ranks.hpp"

namespace {

cf::dist::Communicator* g_ranks = nullptr;

class RankFailurePrinter final : public ::testing::EmptyTestEventListener {
public:
    explicit RankFailurePrinter(int rank) : rank_(rank) {}
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (!r.failed()) return;
        std::fprintf(stderr, "rank %d: %s:%d: failure\n%s\n", rank_,
                     r.file_name() ? r.file_name() : "?", r.line_number(), r.summary());
    }

private:
    int rank_;
};

}  // namespace

namespace cf::test {

dist::Communicator& ranks() {
    return *g_ranks;
}

}  // namespace cf::test

int main(int argc, char** argv) {
    cf::dist::MpiSession session(&argc, &argv);
    ::testing::InitGoogleTest(&argc, argv);
    const std::unique_ptr<cf::dist::Communicator> world = session.world();
    g_ranks = world.get();
#if CELLFORGE_HAVE_NCCL
    world->provideStreamExchange(&cf::dist::makeNcclExchange);
#endif
    // One GPU per rank where there are several (ranks on one host share them round robin).
    if (cf::isAvailable(cf::Backend::Cuda))
        cf::useCudaDevice(world->localRank() % std::max(1, cf::cudaDeviceCount()));
    if (world->rank() != 0) {
        ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new RankFailurePrinter(world->rank()));
    }
    const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
    return world->anyOf(failed != 0) ? 1 : 0;
}
