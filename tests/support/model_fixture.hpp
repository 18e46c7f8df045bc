// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model test parameterized over backends: the model's descriptor, its parameters set
// by assignment ("group.name=value"), a model made and reset on the test's backend, and
// a metric by name. `Descriptor` is the model's descriptor() function.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "tests/support/backends.hpp"

namespace cf::test {

template <ModelDescriptor (*Descriptor)()>
class ModelFixture : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }
    const ModelDescriptor desc = Descriptor();
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
