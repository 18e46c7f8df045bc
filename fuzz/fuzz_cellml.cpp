// SPDX-License-Identifier: GPL-3.0-or-later
// CellML import (libxml2): any XML either imports to model text that then compiles, or is
// refused with a typed error.
#include "fuzz/fuzz_support.hpp"
#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    cf::fuzz::expectTypedErrorsOnly([&] {
        const std::string cfm = cf::cardiac::importCellml(text, "fuzz.cellml");
        (void)cf::cardiac::compileModel(cfm, "imported.cfm");
    });
    return 0;
}
