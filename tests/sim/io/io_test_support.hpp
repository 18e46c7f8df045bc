// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared fixtures of the io tests: a scratch directory per test, a small parameter table
// and a registry that knows one test model.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "sim/core/model.hpp"
#include "sim/core/params.hpp"

namespace cf::io::testing {

// A fresh directory under the system temp directory, removed after the test.
class ScratchDir : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::random_device rd;
        dir_ = std::filesystem::temp_directory_path() /
               ("cellforge-io-" + std::string(info->name()) + "-" + std::to_string(rd()));
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path dir_;
};

struct ToyParams {
    double dt = 0;
    double tiny = 0;
    std::int64_t count = 0;
    bool periodic = false;
    int layout = 0;
    std::string network;
    std::string input;
};

inline ParamTable makeToyTable(double dtMin, double dtMax) {
    ParamTableBuilder<ToyParams> b;
    b.real("time", "dt", &ToyParams::dt, dtMin, dtMin, dtMax, "s", "time step", Mutability::Live);
    b.real("time", "tiny", &ToyParams::tiny, 1e-300, 0.0, 1.0, "1", "a very small number",
           Mutability::Live);
    b.integer("domain", "count", &ToyParams::count, 100, 0, 10'000'000'000, "1", "entities",
              Mutability::Live);
    b.boolean("domain", "periodic", &ToyParams::periodic, true, "periodic box", Mutability::Live);
    b.choice("domain", "layout", &ToyParams::layout, {"random", "lattice", "hex"}, "random",
             "initial layout", Mutability::Structural);
    b.text("domain", "network", &ToyParams::network, "A -> B @ 1", "reactions",
           Mutability::Structural);
    b.text("domain", "input", &ToyParams::input, "", "input file", Mutability::Structural,
           TextKind::FilePath);
    return b.build();
}

inline const ParamTable& toyTable() {
    static const ParamTable table = makeToyTable(0.0, 1.0);
    return table;
}

// The same parameters with dt limited to [0.5, 1]: a checkpoint with dt = 0.3 is out of range.
inline const ParamTable& strictToyTable() {
    static const ParamTable table = makeToyTable(0.5, 1.0);
    return table;
}

inline ModelRegistry registryWith(const ParamTable& (*table)()) {
    ModelRegistry r;
    ModelDescriptor d;
    d.name = "toy";
    d.description = "test model";
    d.parameters = table;
    d.validate = [](const ParamSet&) {};  // no constraints across its parameters
    d.create = [](Backend) -> std::unique_ptr<Model> { throw Error("not used in these tests"); };
    r.add(std::move(d));
    return r;
}

inline std::string readText(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace cf::io::testing
