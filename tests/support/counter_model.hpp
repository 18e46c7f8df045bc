// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A test double: a single accumulator that adds `rate` each step. Its trajectory has a
// closed form, so tests of the Runner and the output code can check exact values.
#include <cmath>
#include <limits>
#include <optional>

#include "sim/core/model.hpp"

namespace cf::test {

struct CounterParams {
    double rate;
    std::int32_t size;  // structural: length of the state array
    bool poison;        // when true, step 5 produces NaN (exercises failure handling)
};

inline const ParamTable& counterTable() {
    static const ParamTable t = [] {
        ParamTableBuilder<CounterParams> b;
        b.real("dynamics", "rate", &CounterParams::rate, 1.0, -100.0, 100.0, "1/step",
               "Added to every value each step", Mutability::Live);
        b.integer("system", "size", &CounterParams::size, 4, 1, 1000, "1", "State length",
                  Mutability::Structural);
        b.boolean("debug", "poison", &CounterParams::poison, false, "Produce NaN at step 5",
                  Mutability::Live);
        return b.build();
    }();
    return t;
}

class CounterModel final : public Model {
public:
    Backend backend() const override { return Backend::Cpu; }
    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = params.toStruct<CounterParams>();
        inEffect_.emplace(params);
        values_.assign(static_cast<std::size_t>(p_.size), static_cast<double>(seed));
        step_ = 0;
    }
    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        const auto next = merged.toStruct<CounterParams>();
        // The backend's own limit, which the descriptor's check does not know: how a
        // refusal from the simulation thread (a device, a compiler) reaches the caller.
        if (next.rate > kBackendRateLimit)
            throw ParameterError("dynamics.rate = " + formatValue(next.rate) +
                                 " is refused by the backend (at most " +
                                 formatValue(kBackendRateLimit) + ")");
        p_ = next;
        inEffect_ = std::move(merged);
    }
    static constexpr double kBackendRateLimit = 50.0;
    void advance(std::uint64_t steps) override {
        for (std::uint64_t s = 0; s < steps; ++s) {
            ++step_;
            for (double& v : values_)
                v = (p_.poison && step_ == 5) ? std::numeric_limits<double>::quiet_NaN()
                                              : v + p_.rate;
        }
    }
    std::uint64_t step() const override { return step_; }
    double time() const override { return static_cast<double>(step_); }
    std::vector<Metric> metrics() override {
        return {{"value", "1", values_.at(0), "the counter's value"}};
    }
    Snapshot snapshot() override {
        Snapshot s;
        s.step = step_;
        s.time = time();
        s.fields.push_back(Field::of<double>("value", "1", FieldRole::PerEntity, 1, values_));
        return s;
    }
    void restore(const Snapshot& s) override {
        values_ = s.at("value").as<double>();
        step_ = s.step;
    }
    void checkFinite() override { checkSnapshotFinite(snapshot(), "counter"); }

private:
    CounterParams p_{};
    std::optional<ParamSet> inEffect_;
    std::vector<double> values_;
    std::uint64_t step_ = 0;
};

inline ModelDescriptor counterDescriptor() {
    ModelDescriptor d;
    d.name = "counter";
    d.description = "test double: adds a rate each step";
    d.timeUnit = "step";
    d.parameters = &counterTable;
    d.validate = [](const ParamSet&) {};  // no constraints across its parameters
    d.create = [](Backend) -> std::unique_ptr<Model> { return std::make_unique<CounterModel>(); };
    return d;
}

}  // namespace cf::test
