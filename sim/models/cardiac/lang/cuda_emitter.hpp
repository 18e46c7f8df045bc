// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Readable CUDA C for a checked cardiac model (docs/design/cardiac.md section 3.6): one
// thread per cell, the states copied into registers for the step (Lionetti et al.'s copy-to-local),
// structure-of-arrays in global memory, every model variable a named local in dependency
// order, each statement followed by a comment naming its line in the model file. The
// kernel is self-contained (no #include), so NVRTC compiles it as it is.
//
//   struct CfParams {                // the live values, in constant memory
//       real dt;                     // time step
//       real amplitude;              // stimulus-bound variable in the region during a pulse
//       real p[N];                   // the model's parameters, in its order (N >= 1: a model
//   };                               // without parameters has one unused element)
//   __constant__ CfParams cf_params;
//   struct CfProtocol { ... };       // the stimulus protocol (CfProtocol below), in double
//   __constant__ CfProtocol cf_protocol;
//   extern "C" __global__ void cf_step(CfArgs a)
//   struct CfArgs {
//       real* y;                     // state s of cell i at y[s * pitch + i]
//       const unsigned char* tissue; // tissue nodes (1; tissue.mesh), or null: every node
//       int* fail;                   // lowest cell index with a non-finite state (atomicMin)
//       double t;                    // time at the start of the step
//       unsigned n, pitch;
//       const real* lut;             // lookup table (row-major, rows x columns) or unused
//       real* v_before;              // each cell's potential at the start of the step (for
//                                    // the activation test) is written here, unless null
//       real* next;                  // scratch of split kernels (EmitOptions::parts)
//   };
// Cell i is node i of the grid (x fastest: i = x + nx (y + ny z)). A tissue node in the
// protocol's region (inStimulusRegion) has the stimulus variable cf_params.amplitude while the
// pulse is on at a.t (pulseOn), else 0; any other cell (or every cell when the model binds no
// stimulus) evaluates the stimulus variable's own expression. Both tests are evaluated per
// thread from cf_protocol with the CPU's arithmetic, in double, every product and sum rounded
// on its own (__dmul_rn and friends: no contraction into fused multiply-adds), so the CPU and
// the kernel stimulate the same nodes at the same steps. `real` is float or double.
//
// `cf_params` and `cf_protocol` are the library's own __constant__ blocks: the host finds them
// with cudaLibraryGetGlobal (GeneratedSource::parameterBlock and ::protocolBlock name them)
// and writes them with parameterBlock<Real>() and a CfProtocol before the first launch and
// after every edit, ordered on the stream (so kernels already queued keep the old values).
// Each loaded library has its own blocks.
//
// With a lookup plan (model.lookup, lookup_tables.hpp) each tabulated variable is the linear
// interpolation in `a.lut` (read through __ldg) at the cell's potential instead of its
// expression. The host fills `lut` with buildTable(model, *lookup, parameters) converted to
// `real` (lookupRows * columns values) and rebuilds it whenever a parameter changes. Without
// a plan `lut` is never read (may be null).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

enum class Precision { Float, Double };

// Where a thread keeps its cell's states during the step (Lionetti et al.'s Opt2 and Opt2S):
// Registers copies them to locals (the compiler's registers, spilling to local memory past
// its budget); Shared keeps them in the block's shared memory, kCellBlock * states reals,
// for models whose states and temporaries outgrow the registers.
enum class StateStorage { Registers, Shared };
inline constexpr unsigned kCellBlock = 128;  // threads per block of every cell kernel

struct EmitOptions {
    StateStorage states = StateStorage::Registers;
    // Terms that read only parameters and constants (invariants.hpp) become values of the
    // constant block, computed by the host in double (GeneratedSource::invariants), and a
    // division by a constant or by such a term becomes a multiplication by its reciprocal:
    // each thread then skips what is the same for every cell. The result differs from the
    // term as written by the rounding of the reciprocal (within an ulp or two of each
    // quotient).
    bool hoistInvariants = false;
    // Float kernels only: every division as PTX div.full.f32 (within 2 ulp over the full
    // range, subnormals kept) instead of the correctly rounded quotient, whose full-range
    // sequence costs several times more; exp, log and the rest stay the accurate functions
    // (unlike --use_fast_math). A defined variable that divides twice or more in a kernel (a
    // gate's time constant, in its rate and its slope) is inverted once and multiplied by.
    // Double kernels keep IEEE division.
    bool approximateDivision = false;
    // phi1(z) = (e^z - 1)/z of Rush-Larsen and GRL1 as a polynomial for |z| < 1/2 (the
    // Taylor series to the precision's half ulp) and (exp(z) - 1)/z elsewhere, instead of
    // expm1(z)/z: no expm1 and, for the small z of most steps, no division.
    bool polynomialPhi1 = false;
    // __launch_bounds__(kCellBlock, minBlocksPerSm): the compiler keeps the registers to what
    // lets that many blocks share an SM (more warps to hide latency, at the cost of spills);
    // 0: no bound, the compiler's own allocation.
    unsigned minBlocksPerSm = 0;
    // Kernel splitting (Lionetti et al.'s Opt3): the step as `parts` kernels (at most one per
    // state), cf_step_0 .. cf_step_{parts-1}, launched in that order, each updating a run of
    // consecutive states and computing only what those read, so that each needs fewer
    // registers. All but the last leave their new states in CfArgs::next (states x pitch);
    // the last writes its own into y and copies the others'. 1: one kernel, cf_step.
    unsigned parts = 1;
};

struct GeneratedSource {
    std::string code;
    // For line L of `code` (1-based, index L - 1): the model line it came from, 0 for
    // boilerplate. Used to show a compile error with the model line.
    std::vector<int> modelLine;
    std::string kernelName = "cf_step";
    // Every kernel of the step, in launch order (one, kernelName, unless split).
    std::vector<std::string> kernelNames;
    // The __constant__ CfParams block and its size in `real` values (parameterBlockReals).
    std::string parameterBlock = "cf_params";
    std::size_t parameterBlockReals = 0;
    // The hoisted terms (EmitOptions::hoistInvariants), in the block's order after the
    // parameters (CfParams::k): invariantValues(model, invariants, parameters) gives them.
    std::vector<TermPtr> invariants;
    std::size_t realBytes = sizeof(double);  // sizeof(real): 4 for float, 8 for double
    // The __constant__ CfProtocol block (sizeof(CfProtocol) bytes in either precision).
    std::string protocolBlock = "cf_protocol";
    // The table the kernel reads from CfArgs::lut: absent when it reads none.
    std::optional<LookupPlan> lookup;
    std::size_t lookupRows = 0;  // the table holds lookupRows * lookup->columns.size() reals
    // Dynamic shared memory of one launch (StateStorage::Shared), 0 otherwise.
    std::size_t sharedBytes = 0;
};

GeneratedSource emitCuda(const CheckedModel& model, Precision precision,
                         const EmitOptions& options = {});

// The number of `real` values in the generated CfParams of a model with `parameters`
// parameters and `invariants` hoisted terms: dt, the amplitude, max(1, parameters), then
// the invariants.
constexpr std::size_t parameterBlockReals(std::size_t parameters, std::size_t invariants = 0) {
    return 2 + (parameters > 0 ? parameters : 1) + invariants;
}

// The bytes of CfParams for one precision: dt, the stimulus amplitude, then `values` (the
// model's parameters in its order; a 0 in place of none), then `invariants` (the hoisted
// terms' values, invariantValues), each converted to Real.
template <typename Real>
std::vector<Real> parameterBlock(double dt, double amplitude, const std::vector<double>& values,
                                 const std::vector<double>& invariants = {}) {
    std::vector<Real> block;
    block.reserve(parameterBlockReals(values.size(), invariants.size()));
    block.push_back(static_cast<Real>(dt));
    block.push_back(static_cast<Real>(amplitude));
    for (double v : values)
        block.push_back(static_cast<Real>(v));
    if (values.empty()) block.push_back(Real(0));
    for (double v : invariants)
        block.push_back(static_cast<Real>(v));
    return block;
}

// The stimulus protocol as the generated kernel's second constant block holds it: the same
// members in the same order in the generated struct (a static_assert there checks its size),
// doubles then 32-bit integers, no implicit padding. The live protocol values (protocol.*)
// and what the region test needs of the grid (structural). Every byte is a member, so the
// block's bytes are a function of the values.
struct CfProtocol {
    double start;             // ms: the first pulse
    double cycleLength;       // ms between pulses (0: a single pulse)
    double duration;          // ms: the length of a pulse
    double regionSize;        // mm
    double dx;                // mm: node spacing (structural)
    std::int32_t beats;       // pulses (0: no limit)
    std::int32_t region;      // StimulusRegion
    std::int32_t nx, ny, nz;  // the whole grid (structural)
    // The slab of the grid this kernel's cells are (tissue_slab.hpp; one rank: the whole
    // grid, slabAxis 2, slabBegin 0, slabCount nz): cell i is node i of the slab's box, whose
    // planes along slabAxis start at plane slabBegin of the whole grid.
    std::int32_t slabAxis, slabBegin, slabCount;
};
static_assert(sizeof(CfProtocol) == 72, "CfProtocol: 5 doubles and 8 int32s, no padding");
static_assert(offsetof(CfProtocol, dx) == 32 && offsetof(CfProtocol, beats) == 40 &&
                  offsetof(CfProtocol, slabCount) == 68,
              "CfProtocol's layout is the generated struct's");

// The end of a step done by the cell kernel itself where nothing follows it in the step (no
// diffusion): what endOfStepKernel (cuda/tissue_kernels.cu) does otherwise, with the same
// arithmetic (tissue_stencil.hpp's crossesUpward and activationAfter). `activation` null: the
// step ends in that kernel instead.
template <typename Real>
struct CfStepEnd {
    double* activation;        // per node [ms], < 0 until the node activates
    Real* trace;               // the probe's potential after the step, or null
    long long* failStep;       // set to `step` by the first non-finite state (from -1)
    long long step;            // the step just made, counted from 1
    unsigned long long probe;  // the traced node (>= n: none)
    double threshold, dt;      // mV, ms (TissueLive)
};

// The host-side mirror of CfArgs for one precision (the generated struct has the same
// members in the same order; a static_assert in the generated code checks its size).
template <typename Real>
struct CfArgs {
    Real* y;
    const unsigned char* tissue;  // tissue nodes (tissueMask), or null: every node
    int* fail;
    double t;
    unsigned n, pitch;
    const Real* lut;  // aggregate initialisers that stop before it leave it null
    Real* vBefore;    // the potential at the start of the step, written when not null
    Real* next;       // split kernels (EmitOptions::parts > 1): states x pitch of scratch
    CfStepEnd<Real> end;
};

}  // namespace cf::cardiac
