// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoint files (.cfchk): header, model name, parameters and their history, the state.
// A damaged file must be refused with a typed error, never read into a model.
#include <memory>

#include "fuzz/fuzz_support.hpp"
#include "sim/core/model.hpp"
#include "sim/io/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const cf::ModelRegistry registry = cf::builtinModels();
    static const std::filesystem::path file = cf::fuzz::scratchFile(".cfchk");
    cf::fuzz::writeScratch(file, data, size);
    cf::fuzz::expectTypedErrorsOnly([&] {
        const cf::io::Checkpoint cp = cf::io::readCheckpoint(file, registry);
        // What reads must restore into its model or be refused there (File > Load
        // checkpoint and --resume do this next).
        std::unique_ptr<cf::Model> model = registry.at(cp.model).create(cf::Backend::Cpu);
        model->reset(cp.parameters, cp.seed);
        model->restore(cp.state);
    });
    return 0;
}
