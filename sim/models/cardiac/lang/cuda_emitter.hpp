// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Readable CUDA C for a checked cardiac model (docs/design/cardiac.md section 3.6): one
// thread per cell, the states copied into registers for the step (the seed's copy-to-local),
// structure-of-arrays in global memory, every model variable a named local in dependency
// order, each statement followed by a comment naming its line in the model file. The
// kernel is self-contained (no #include), so NVRTC compiles it as it is.
//
//   extern "C" __global__ void cf_step(CfArgs a)
//   struct CfArgs {
//       real* y;                     // state s of cell i at y[s * pitch + i]
//       const real* p;               // parameters, in the model's order
//       const unsigned char* region; // stimulated cells (1), or null: every cell
//       int* fail;                   // lowest cell index with a non-finite state (atomicMin)
//       double t;                    // time at the start of the step
//       real dt;
//       real stimulus;               // value of the stimulus-bound variable in the region
//       unsigned n, pitch;
//       const real* lut;             // lookup table (row-major, rows x columns) or unused
//   };
// A cell outside the region (or every cell when the model binds no stimulus) evaluates the
// stimulus variable's own expression. `real` is float or double.
//
// With a lookup plan (model.lookup, lookup_tables.hpp) each tabulated variable is the linear
// interpolation in `a.lut` (read through __ldg) at the cell's potential instead of its
// expression. The host fills `lut` with buildTable(model, *lookup, parameters) converted to
// `real` (lookupRows * columns values) and rebuilds it whenever a parameter changes. Without
// a plan `lut` is never read (may be null).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

enum class Precision { Float, Double };

struct GeneratedSource {
    std::string code;
    // For line L of `code` (1-based, index L - 1): the model line it came from, 0 for
    // boilerplate. Used to show a compile error with the model line.
    std::vector<int> modelLine;
    std::string kernelName = "cf_step";
    // The table the kernel reads from CfArgs::lut: absent when it reads none.
    std::optional<LookupPlan> lookup;
    std::size_t lookupRows = 0;  // the table holds lookupRows * lookup->columns.size() reals
};

GeneratedSource emitCuda(const CheckedModel& model, Precision precision);

// The host-side mirror of CfArgs for one precision (the generated struct has the same
// members in the same order; a static_assert in the generated code checks its size).
template <typename Real>
struct CfArgs {
    Real* y;
    const Real* p;
    const unsigned char* region;
    int* fail;
    double t;
    Real dt;
    Real stimulus;
    unsigned n, pitch;
    const Real* lut;  // last: aggregate initialisers that stop before it leave it null
};

}  // namespace cf::cardiac
