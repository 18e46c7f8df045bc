// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files (TOML) against the real model registry: every key, every parameter table.
#include "fuzz/fuzz_support.hpp"
#include "sim/core/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const cf::ModelRegistry registry = cf::builtinModels();
    const std::string text(reinterpret_cast<const char*>(data), size);
    cf::fuzz::expectTypedErrorsOnly([&] {
        const cf::Scenario sc = cf::parseScenario(text, "fuzz.toml", registry);
        // What loads must write back and load again (the save path of the window).
        (void)cf::parseScenario(cf::scenarioToToml(sc), "written.toml", registry);
    });
    return 0;
}
