// SPDX-License-Identifier: GPL-3.0-or-later
// The lattice model's reaction-network text (the reactions.network parameter).
#include "fuzz/fuzz_support.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<std::string> species{"A", "B", "C", "D"};
    const std::string text(reinterpret_cast<const char*>(data), size);
    cf::fuzz::expectTypedErrorsOnly(
        [&] { (void)cf::lattice::parseReactionNetwork(text, species, "reactions.network"); });
    return 0;
}
