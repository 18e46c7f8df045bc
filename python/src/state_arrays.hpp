// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model's state arrays for Python (python/src/state_arrays.cpp).
#include <pybind11/pybind11.h>

#include <vector>

#include "sim/core/state_arrays.hpp"

namespace cf::py_arrays {

// One dict per array: name, unit, description, field, component, typestr, itemsize, shape,
// strides (bytes), address, device (-1: host), space ("cpu" or "cuda").
pybind11::list describeArrays(const std::vector<StateArray>& arrays);

// _dlpack_capsule and _copy_to_host on the extension module.
void bindArrayFunctions(pybind11::module_& m);

}  // namespace cf::py_arrays
