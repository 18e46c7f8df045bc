// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model run over the job's ranks against the same model on one rank, for the rank
// tests: rank 0 also runs the serial reference in-process; every grid field of the ranks'
// snapshots, gathered, must equal the reference's bit for bit, and so must every metric.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/dist/grid_gather.hpp"
#include "tests/support/ranks.hpp"

namespace cf::test {

// `model` (created, not reset) distributed over the job's ranks, then reset.
inline std::unique_ptr<Model> distributedModel(const ModelDescriptor& desc, Backend backend,
                                               const ParamSet& params, std::uint32_t seed) {
    std::unique_ptr<Model> m = desc.create(backend);
    auto* d = dynamic_cast<dist::Distributable*>(m.get());
    if (d == nullptr) throw std::runtime_error(desc.name + " is not distributable");
    d->distribute(ranks());
    m->reset(params, seed);
    return m;
}

// The snapshot of the ranks' model with every Grid field gathered whole (on rank 0; the
// other ranks get the fields' names only).
inline Snapshot gatheredSnapshot(Model& m) {
    Snapshot s = m.snapshot();
    const dist::GridPiece piece = dynamic_cast<dist::Distributable&>(m).piece();
    for (Field& f : s.fields) {
        if (f.role != FieldRole::Grid) continue;
        const std::size_t valueBytes = sizeOf(f.type) * static_cast<std::size_t>(f.components);
        f.bytes = dist::gatherGridBytes(ranks(), piece, f.bytes, valueBytes, 0);
        f.count = f.bytes.size() / valueBytes;
    }
    for (int a = 0; a < 3; ++a)
        s.gridDims[a] = piece.globalDims[a];
    return s;
}

// Compares, on rank 0, every Grid field and every metric of the ranks' model with the
// serial one (`serial`: rank 0's; null on the others): bit for bit (the decomposition
// computes every node as one rank does). Collective.
inline void expectSameAsSerial(Model* serial, Model& distributed, const std::string& when) {
    const Snapshot whole = gatheredSnapshot(distributed);
    const std::vector<Metric> metrics = distributed.metrics();  // collective
    if (ranks().rank() != 0) return;
    ASSERT_NE(serial, nullptr);
    const Snapshot reference = serial->snapshot();
    int compared = 0;
    for (const Field& f : reference.fields) {
        if (f.role != FieldRole::Grid) continue;
        const Field* g = whole.find(f.name);
        ASSERT_NE(g, nullptr) << when << ": no field " << f.name;
        ASSERT_EQ(g->bytes.size(), f.bytes.size()) << when << ": " << f.name;
        EXPECT_EQ(std::memcmp(g->bytes.data(), f.bytes.data(), f.bytes.size()), 0)
            << when << ": field " << f.name << " differs on " << ranks().size() << " ranks";
        ++compared;
    }
    EXPECT_GT(compared, 0) << when << ": no grid field compared";
    const std::vector<Metric> expected = serial->metrics();
    ASSERT_EQ(metrics.size(), expected.size()) << when;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_EQ(metrics[k].name, expected[k].name);
        // Bitwise: NaN (no beat yet) equals NaN.
        EXPECT_EQ(std::memcmp(&metrics[k].value, &expected[k].value, sizeof(double)), 0)
            << when << ": metric " << expected[k].name << " = " << metrics[k].value
            << " on the ranks, " << expected[k].value << " on one";
    }
}

}  // namespace cf::test
