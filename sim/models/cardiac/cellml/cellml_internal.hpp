// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared pieces of the CellML importer (cellml_import.hpp): libxml2 node helpers, the
// MathML translator and the units table. Only the importer's .cpp files include this (they
// are built only where libxml2 is found).
#include <libxml/tree.h>

#include <array>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cf::cardiac::cellml {

inline constexpr const char* kCellml10 = "http://www.cellml.org/cellml/1.0#";
inline constexpr const char* kCellml11 = "http://www.cellml.org/cellml/1.1#";
inline constexpr const char* kCellml20 = "http://www.cellml.org/cellml/2.0#";
inline constexpr const char* kMathml = "http://www.w3.org/1998/Math/MathML";

// Replaces every <import> of the model `root` (of `file`) by what it imports, read from files
// beside it (cellml_imports.cpp); returns the files read. Throws CellmlError naming the import.
std::vector<std::string> resolveImports(xmlNode* root, const std::string& file);

// Throws CellmlError at the node's line.
[[noreturn]] void fail(const std::string& file, const xmlNode* node, const std::string& message);
int lineOf(const xmlNode* node);
std::string nameOf(const xmlNode* node);  // local name
std::string namespaceOf(const xmlNode* node);
bool isCellml(const xmlNode* node);
bool isMathml(const xmlNode* node);
// An attribute without a namespace; empty when absent.
std::string attribute(const xmlNode* node, const char* name);
bool hasAttribute(const xmlNode* node, const char* name);
// An attribute in the CellML 1.0 or 1.1 namespace (cellml:units on <cn>).
std::string cellmlAttribute(const xmlNode* node, const char* name);
std::string trimmedText(const xmlNode* node);
std::vector<const xmlNode*> elementChildren(const xmlNode* node);
// A libxml2 string as std::string, freed ("" for null).
std::string owned(xmlChar* s);
std::string trim(const std::string& s);

// Precedence levels of the model language's grammar (docs/design/cardiac.md section 1.1):
// an operand is parenthesized when its level is below what its place needs.
enum Level { kOr = 1, kAnd, kNot, kCompare, kSum, kProduct, kUnary, kPower, kPrimary };

struct Printed {
    std::string text;
    int level = kPrimary;
};

struct MathContext {
    std::string file;
    // The text that reads the component's variable `name` (the ci at `node`); throws when
    // the component has no such variable.
    std::function<std::string(const std::string& name, const xmlNode* node)> reference;
    // The text that reads d(name)/d(bvar), a derivative inside an expression (the <apply>
    // at `node`); throws when `name` is not a state or `bvar` is not the time.
    std::function<std::string(const std::string& name, const std::string& bvar,
                              const xmlNode* node)>
        derivative;
    // Comments to write before the statement (approximations made while translating).
    std::vector<std::string>* notes = nullptr;
};

// A content-MathML expression as model-language text.
Printed translateMath(const xmlNode* node, const MathContext& context);
// Shortest text that reads back to the same double.
std::string formatNumber(double v);
// `v` with `digits` significant digits ("%.*g"): 15 drops the last-bit rounding of a product
// of powers of ten (1000.0000000000002), 6 is for messages.
std::string formatSignificant(double v, int digits);

// A CellML unit reduced to SI: value_SI = factor * value, with the exponents of m, kg, s, A,
// K, mol, cd. `text` is the model language's name of the unit ("mV", "uA/cm^2"), empty when
// the unit has no exact name there (multipliers, prefixes the language lacks, user base units).
struct UnitInfo {
    bool known = false;
    std::array<double, 7> dims{};
    double factor = 1;
    std::string text;
    // The language's atoms ("mV", "cm") with integer exponents; `exact` false when the unit
    // cannot be written with them.
    bool exact = true;
    std::vector<std::pair<std::string, int>> terms;
};

class UnitTable {
public:
    explicit UnitTable(std::string file) : file_(std::move(file)) {}
    // A <units> element of the model (component empty) or of a component.
    void define(const std::string& component, const xmlNode* units);
    // The unit `name` as seen from `component` (its own definitions, then the model's, then
    // the built-in ones). Throws at `at` when the name is not defined.
    UnitInfo resolve(const std::string& name, const std::string& component, const xmlNode* at);

private:
    UnitInfo build(const xmlNode* units, const std::string& component, int depth);

    std::string file_;
    std::map<std::pair<std::string, std::string>, const xmlNode*> defs_;
    std::map<std::pair<std::string, std::string>, UnitInfo> cache_;
};

}  // namespace cf::cardiac::cellml
