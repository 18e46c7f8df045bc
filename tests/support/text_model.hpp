// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A test double with text parameters (no built-in model declares one yet): a reaction
// network (multi-line, structural), species names (live) and an input file path
// (structural), next to one number. The model only keeps the values it was given, so tests
// can see which text reached it and when.
#include <optional>
#include <string>

#include "sim/core/model.hpp"

namespace cf::test {

struct TextParams {
    std::string network;
    std::string species;
    std::string input;
    double rate = 0.0;
};

inline const ParamTable& textTable() {
    static const ParamTable t = [] {
        using P = TextParams;
        ParamTableBuilder<P> b;
        b.text("reactions", "network", &P::network, "A + B -> C @ 1e5\nC -> A + B @ 2",
               "Reactions, one per line: reactants -> products @ rate", Mutability::Structural);
        b.text("reactions", "species", &P::species, "A, B, C", "Species names, comma separated",
               Mutability::Live);
        b.text("io", "input", &P::input, "", "Initial occupancy file (empty: none)",
               Mutability::Structural, TextKind::FilePath);
        b.real("reactions", "rate", &P::rate, 1.0, 0.0, 10.0, "1/s", "Overall rate factor",
               Mutability::Live);
        return b.build();
    }();
    return t;
}

class TextModel final : public Model {
public:
    Backend backend() const override { return Backend::Cpu; }
    void reset(const ParamSet& params, std::uint32_t) override {
        p_ = params.toStruct<TextParams>();
        inEffect_.emplace(params);
        step_ = 0;
    }
    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        p_ = merged.toStruct<TextParams>();
        inEffect_ = std::move(merged);
    }
    void advance(std::uint64_t steps) override { step_ += steps; }
    std::uint64_t step() const override { return step_; }
    double time() const override { return static_cast<double>(step_); }
    std::vector<Metric> metrics() override {
        return {{"rate", "1/s", p_.rate, "the rate parameter"}};
    }
    Snapshot snapshot() override {
        Snapshot s;
        s.step = step_;
        return s;
    }
    void restore(const Snapshot& s) override { step_ = s.step; }
    void checkFinite() override {}

    const TextParams& running() const { return p_; }

private:
    std::optional<ParamSet> inEffect_;
    TextParams p_;
    std::uint64_t step_ = 0;
};

inline ModelDescriptor textDescriptor() {
    ModelDescriptor d;
    d.name = "text";
    d.description = "test double: text parameters";
    d.timeUnit = "step";
    d.parameters = &textTable;
    d.validate = [](const ParamSet&) {};  // no constraints across its parameters
    d.create = [](Backend) -> std::unique_ptr<Model> { return std::make_unique<TextModel>(); };
    d.backends = {Backend::Cpu};
    return d;
}

}  // namespace cf::test
