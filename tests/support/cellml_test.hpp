// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the CellML import tests share: reading a file whole, and skipping (saying why) in a
// build without libxml2, which has no CellML import.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace cf::test {

inline std::string readWholeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << "cannot read " << path;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace cf::test

#define REQUIRE_CELLML()                                                             \
    do {                                                                             \
        if (!CELLFORGE_HAVE_CELLML)                                                  \
            GTEST_SKIP() << "built without libxml2 (libxml2-dev): no CellML import"; \
    } while (0)
