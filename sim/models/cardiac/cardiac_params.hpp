// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `cardiac`: a cell model written in the model language (lang/), run as one cell or as
// monodomain tissue on a regular grid (docs/design/cardiac.md sections 8-9). Lengths in mm,
// time in ms, potentials in mV, currents per capacitance in A/F (= mV/ms).
#include <cstdint>
#include <string>

#include "sim/core/params.hpp"

namespace cf::cardiac {

enum class StimulusRegion : std::int32_t { LeftEdge = 0, Corner = 1, Centre = 2, All = 3 };
enum class FibreAxis : std::int32_t { X = 0, Y = 1, Z = 2 };
// How the cell model's states are integrated: as the model file declares them (gates
// Rush-Larsen, the rest forward Euler, unless `method` lines say otherwise), or one method
// for every state (Rush-Larsen: gates only, the others forward Euler).
enum class Integrator : std::int32_t {
    Declared = 0,
    ForwardEuler = 1,
    RushLarsen = 2,
    Grl1 = 3,
    BackwardEuler = 4
};

// model.state_storage: the generated kernel's states in registers or shared memory
// (cuda_emitter.hpp StateStorage), or chosen by the model's size (cudaEmitOptions).
enum class StateStorageChoice : std::int32_t { Auto = 0, Registers = 1, Shared = 2 };

// model.arithmetic: which of the generator's arithmetic rewrites (cuda_emitter.hpp
// EmitOptions: hoistInvariants, approximateDivision, polynomialPhi1) the kernel gets; Auto
// resolves by precision (cudaEmitOptions).
enum class Arithmetic : std::int32_t {
    Auto = 0,
    AsWritten = 1,
    Hoist = 2,
    Division = 3,
    Phi1 = 4,
    Rewritten = 5
};

struct CardiacParams {
    // the cell model
    std::int32_t bundled;         // structural; the bundled model used without file or source
    std::string modelFile;        // structural; empty: the bundled model
    std::string modelSource;      // live; model text used instead of the file when set
    std::string variant;          // structural; one of the model's variants, empty: defaults
    std::string parameterValues;  // live; "name = value" lines overriding the model's
    std::int32_t precision;       // structural; 0 double, 1 float (CUDA; the CPU is double)
    bool fastMath;                // structural; NVRTC --use_fast_math
    std::int32_t integrator;      // structural; Integrator
    bool lookup;                  // structural; tables over V for models without a lookup line
    std::int32_t stateStorage;    // structural; StateStorageChoice: where CUDA keeps the states
    std::int32_t arithmetic;      // structural; Arithmetic: the kernel's arithmetic rewrites
    std::int32_t minBlocksPerSm;  // structural; __launch_bounds__ of the kernel (0: none)
    std::int32_t kernelParts;     // structural; kernels per step (Opt3), 0: by the model's size
    // time
    double dt;
    // tissue (a single node is a single cell)
    std::int32_t nx, ny, nz;
    double dx;
    std::string mesh;                      // structural; closed surface: the tissue's shape
    double diffusionLong, diffusionTrans;  // mm^2/ms, live
    std::int32_t fibreAxis;                // FibreAxis, live
    // stimulus protocol (live)
    double start, cycleLength, duration, amplitude;
    std::int32_t beats;
    std::int32_t region;         // StimulusRegion
    double regionSize;           // mm
    double activationThreshold;  // mV
    // views and traces (live)
    std::string viewStates;   // states shown as extra volume channels
    std::string tracePoints;  // "name x y z" (mm) per line: metrics trace.<name>.V
};

const ParamTable& parameterTable();

}  // namespace cf::cardiac
