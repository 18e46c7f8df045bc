// SPDX-License-Identifier: GPL-3.0-or-later
// The parts of the CellML importer that do not need libxml2 (built in every configuration).
#include <algorithm>
#include <cctype>

#include "sim/models/cardiac/cellml/cellml_import.hpp"

namespace cf::cardiac {

namespace {

std::string errorText(const std::string& file, int line, int column, const std::string& m) {
    return file + ":" + std::to_string(line) + (column > 0 ? ":" + std::to_string(column) : "") +
           ": error: " + m;
}

}  // namespace

CellmlError::CellmlError(const std::string& file, int line, const std::string& message, int column)
    : ModelError(
          {Diagnostic{file, {line, column > 0 ? column : 1}, Severity::Error, "E300", message}}),
      text_(errorText(file, line, column, message)) {}

bool isCellmlFileName(const std::string& path) {
    std::string lower = path;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    auto endsWith = [&](const std::string& s) {
        return lower.size() >= s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0;
    };
    return endsWith(".cellml") || endsWith(".xml");
}

}  // namespace cf::cardiac
