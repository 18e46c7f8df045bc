// SPDX-License-Identifier: GPL-3.0-or-later
// The cardiac model language: lexer, parser, checker (units, variants, lookup tables,
// removable singularities) and, for what compiles, the CUDA source emitter.
#include "fuzz/fuzz_support.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    cf::fuzz::expectTypedErrorsOnly([&] {
        const cf::cardiac::CheckedModel model = cf::cardiac::compileModel(text, "fuzz.cfm");
        (void)cf::cardiac::emitCuda(model, cf::cardiac::Precision::Float);
    });
    return 0;
}
