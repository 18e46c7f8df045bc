// SPDX-License-Identifier: GPL-3.0-or-later
// Stands in for cellml_import.cpp in builds without libxml2 (Debian's libxml2-dev).
#include "sim/models/cardiac/cellml/cellml_import.hpp"

namespace cf::cardiac {

std::string importCellml(const std::string&, const std::string& fileName,
                         const CellmlImportOptions&) {
    throw CellmlError(fileName, 1,
                      "CellML import needs libxml2, which this build of Cellforge does not have "
                      "(install libxml2-dev and rebuild)");
}

}  // namespace cf::cardiac
