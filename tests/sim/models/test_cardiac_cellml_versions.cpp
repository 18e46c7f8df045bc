// SPDX-License-Identifier: GPL-3.0-or-later
// CellML 1.1 imports and CellML 2.0 (issue 30: what the Physiome model repository serves now),
// read by the same importer as 1.0. The 2.0 file is the Beeler-Reuter test model rewritten as
// CellML 2.0 writes it: the 2.0 namespace, connections naming their components as attributes,
// <encapsulation> instead of a <group>, `interface` instead of public/private interfaces and
// plain `id` attributes. Its import must be the 1.0 import, line for line, except the header
// that names the version: the same equations, units, roles and methods.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "tests/support/cellml_test.hpp"

namespace cf::cardiac {
namespace {

const std::string kBr77 = CELLFORGE_TEST_DATA "/data/cardiac/beeler_reuter_1977.cellml";
const std::string kBr77Imports =
    CELLFORGE_TEST_DATA "/data/cardiac/beeler_reuter_1977_imports.cellml";

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

TEST(CardiacCellmlVersions, Cellml2ImportsAsCellml1Does) {
    REQUIRE_CELLML();
    const std::string v1 = test::readWholeFile(kBr77);
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

// CellML 1.1 imports: beeler_reuter_1977_imports.cellml assembles the model from the
// components of beeler_reuter_1977.cellml beside it (each current bringing the gates it
// encapsulates there). Its import must be the original's, line for line, except the header:
// the same sections in the same order, the same equations, and the same '# line N' comments,
// which point into the file each statement came from.
TEST(CardiacCellmlVersions, Cellml11ImportsAssembleTheModel) {
    REQUIRE_CELLML();
    const std::string a = importCellml(test::readWholeFile(kBr77), "br77.cellml");
    const std::string b = importCellml(test::readWholeFile(kBr77Imports), kBr77Imports);
    EXPECT_NE(b.substr(0, b.find('\n')).find("(CellML 1.1)"), std::string::npos);
    const std::string note =
        b.substr(b.find('\n') + 1, b.find('\n', b.find('\n') + 1) - b.find('\n'));
    EXPECT_NE(note.find("# Assembled with CellML imports from "), std::string::npos) << note;
    EXPECT_NE(note.find("beeler_reuter_1977.cellml"), std::string::npos) << note;
    EXPECT_EQ(withoutFirstLine(a), withoutFirstLine(withoutFirstLine(b)));
}

// An import that cannot be resolved names the file, the line of the <import> and the reason.
TEST(CardiacCellmlVersions, UnresolvedImportsNameTheImport) {
    REQUIRE_CELLML();
    const std::string base = test::readWholeFile(kBr77Imports);
    struct Case {
        std::string from, to, message;
    };
    const std::string href = "xlink:href=\"beeler_reuter_1977.cellml\"";
    const std::vector<Case> cases = {
        {href, "xlink:href=\"missing.cellml\"", "missing.cellml': no such file"},
        {href, "xlink:href=\"https://models.physiomeproject.org/br77.cellml\"",
         "imports are read from files beside the model, not fetched"},
        {"component_ref=\"membrane\"", "component_ref=\"membrane_x\"",
         "imported component 'membrane_x' is not in"},
        {href, "xlink:href=\"beeler_reuter_1977_imports.cellml\"", "is circular"},
    };
    for (const Case& c : cases) {
        std::string text = base;
        text.replace(text.find(c.from), c.from.size(), c.to);
        try {
            importCellml(text, kBr77Imports);
            ADD_FAILURE() << c.message << ": imported";
        } catch (const CellmlError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("beeler_reuter_1977_imports.cellml:"), std::string::npos) << what;
            EXPECT_NE(what.find(c.message), std::string::npos) << what;
        }
    }
}

// What 2.0 adds and the language cannot hold is refused by name: a <reset> (a discontinuous
// change of a variable), as a 1.0 <reaction> is.
TEST(CardiacCellmlVersions, Cellml2ResetIsRefusedByName) {
    REQUIRE_CELLML();
    std::string v2 = asCellml2(test::readWholeFile(kBr77));
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
