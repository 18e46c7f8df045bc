// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The renderer's typed error. render/ uses simulation code only for mesh import
// (sim/geometry, whose InputFileError loadMesh() turns into MeshError), so it does not reuse
// cf::Error; applications catch std::runtime_error or this type at their boundary.
#include <stdexcept>
#include <string>

namespace cf::render {

class RenderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace cf::render
