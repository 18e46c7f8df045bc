// SPDX-License-Identifier: GPL-3.0-or-later
// CellML 2.0 (issue 30: what the Physiome model repository serves now) read by the same
// importer as 1.0 and 1.1. The 2.0 file is the Beeler-Reuter test model rewritten as CellML 2.0
// writes it: the 2.0 namespace, connections naming their components as attributes,
// <encapsulation> instead of a <group>, `interface` instead of public/private interfaces and
// plain `id` attributes. Its import must be the 1.0 import, line for line, except the header
// that names the version: the same equations, units, roles and methods.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "sim/models/cardiac/cellml/cellml_import.hpp"

namespace cf::cardiac {
namespace {

const std::string kBr77 = CELLFORGE_TEST_DATA "/data/cardiac/beeler_reuter_1977.cellml";

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The 1.0 text as CellML 2.0 has it.
std::string asCellml2(std::string x) {
    x = std::regex_replace(x, std::regex("http://www\\.cellml\\.org/cellml/1\\.0#"),
                           "http://www.cellml.org/cellml/2.0#");
    x = std::regex_replace(x,
                           std::regex("<connection>\\s*<map_components (component_1=\"[^\"]*\" "
                                      "component_2=\"[^\"]*\")\\s*/>"),
                           "<connection $1>");
    x = std::regex_replace(
        x, std::regex("<group>\\s*<relationship_ref relationship=\"encapsulation\"\\s*/>"),
        "<encapsulation>");
    x = std::regex_replace(x, std::regex("</group>"), "</encapsulation>");
    x = std::regex_replace(x, std::regex(" (public|private)_interface=\"[a-z]*\""),
                           " interface=\"public_and_private\"");
    x = std::regex_replace(x, std::regex("( interface=\"public_and_private\")+"),
                           " interface=\"public_and_private\"");
    x = std::regex_replace(x, std::regex("cmeta:id="), "id=");
    return x;
}

std::string withoutFirstLine(const std::string& s) {
    return s.substr(s.find('\n') + 1);
}

#define REQUIRE_CELLML()                                                             \
    do {                                                                             \
        if (!CELLFORGE_HAVE_CELLML)                                                  \
            GTEST_SKIP() << "built without libxml2 (libxml2-dev): no CellML import"; \
    } while (0)

TEST(CardiacCellmlVersions, Cellml2ImportsAsCellml1Does) {
    REQUIRE_CELLML();
    const std::string v1 = readFile(kBr77);
    const std::string v2 = asCellml2(v1);
    ASSERT_EQ(v2.find("cellml/1.0#"), std::string::npos);
    ASSERT_EQ(v2.find("map_components"), std::string::npos);
    ASSERT_NE(v2.find("<encapsulation>"), std::string::npos);
    const std::string a = importCellml(v1, "br77.cellml");
    const std::string b = importCellml(v2, "br77.cellml");
    EXPECT_NE(a.substr(0, a.find('\n')).find("(CellML 1.0)"), std::string::npos);
    EXPECT_NE(b.substr(0, b.find('\n')).find("(CellML 2.0)"), std::string::npos);
    EXPECT_EQ(withoutFirstLine(a), withoutFirstLine(b));
}

// What 2.0 adds and the language cannot hold is refused by name: a <reset> (a discontinuous
// change of a variable), as a 1.0 <reaction> is.
TEST(CardiacCellmlVersions, Cellml2ResetIsRefusedByName) {
    REQUIRE_CELLML();
    std::string v2 = asCellml2(readFile(kBr77));
    const std::size_t at = v2.find("</component>");
    ASSERT_NE(at, std::string::npos);
    v2.insert(at, "<reset variable=\"V\" test_variable=\"time\" order=\"1\"/>\n");
    try {
        importCellml(v2, "reset.cellml");
        ADD_FAILURE() << "imported";
    } catch (const CellmlError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("reset.cellml:"), std::string::npos) << what;
        EXPECT_NE(what.find("<reset>"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace cf::cardiac
