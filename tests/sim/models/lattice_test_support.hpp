// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A `lattice` model on the test's backend with parameters set by assignment, and a metric
// by name: shared by the lattice test files.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/models/lattice/lattice_model.hpp"
#include "tests/support/backends.hpp"

namespace cf::test {

class LatticeFixture : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }
    const ModelDescriptor desc = lattice::descriptor();
    ParamSet params{desc.parameters()};
    void set(const std::vector<std::string>& assignments) {
        for (const std::string& a : assignments)
            params.setFromAssignment(a);
    }
    std::unique_ptr<Model> make(std::uint32_t seed) {
        auto m = desc.create(GetParam());
        m->reset(params, seed);
        return m;
    }
};

inline double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

}  // namespace cf::test
