// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `cardiac` model: shared host code. A cell model in the model language (lang/) runs at
// every node of a regular grid (one node: a single cell); the potential diffuses
// (monodomain, explicit finite differences with mirrored no-flux boundaries, Godunov
// splitting: the cell step over dt, then as many diffusion sub-steps as stability needs);
// a stimulus protocol drives the model's stimulus-bound variable in a region; each node
// records when its potential first rises through the activation threshold, interpolated
// in time (docs/design/cardiac.md sections 8-9).
#include <memory>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/cardiac/beat_meter.hpp"
#include "sim/models/cardiac/cardiac_params.hpp"
#include "sim/models/cardiac/cardiac_state.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"

namespace cf::cardiac {

ModelDescriptor descriptor();

// The bundled models (assets/models/*.cfm, embedded at build time), by name
// ("aliev_panfilov", "beeler_reuter_1977", ...), in the order of model.bundled's choices.
const std::vector<std::string>& bundledModelNames();
// The source of a bundled model; throws ParameterError for an unknown name.
const std::string& bundledModelSource(const std::string& name);

// The checked struct, after the checks single ranges cannot express.
CardiacParams checkedParams(const ParamSet& params);

// The model text `p` selects (model.source, else model.file, CellML imported, else the
// bundled model) and the name its diagnostics use. Throws ParameterError naming model.file.
struct ModelText {
    std::string source, file;
};
ModelText modelText(const CardiacParams& p);
// The cell program `p` names (its file, or the bundled default) with the parameter values
// of `p.parameterValues` applied. Throws ParameterError naming model.file or
// model.parameters, with the model's own diagnostics (file:line:col) in the message.
std::unique_ptr<CellProgram> loadCellProgram(const CardiacParams& p);
// The generator's options for model `m` under `p`: model.state_storage, auto resolved by the
// model's state count: shared memory from kSharedStatesFrom states on. Measured on an H200
// (docs/CARDIAC.md, "State storage"), registers won at every size of the collection, up to
// 67 states (2-9 %), so auto keeps registers below a size no measured model reaches. And
// model.arithmetic: auto is every rewrite in float, none in double.
inline constexpr std::size_t kSharedStatesFrom = 256;
EmitOptions cudaEmitOptions(const CardiacParams& p, const CheckedModel& m);
// model.kernel_parts = 0: in double, 4 kernels from 32 states and 3 from 16 (measured on an
// H200, docs/CARDIAC.md "Generator transformations": 1.6-2.9x for 39-67 states with 4, 1.8x
// for ten Tusscher 2006 with 3); in float one kernel (splitting lost for 3 of the 4 models
// measured, won 2x for O'Hara-Rudy CiPA alone).
unsigned autoKernelParts(const CardiacParams& p, const CheckedModel& m);
// Sets every state's method for `integrator` (Declared leaves the model's own).
void applyIntegrator(Integrator integrator, CheckedModel& model);
// Applies "name = value" lines to `program`'s parameters (throws ParameterError naming
// model.parameters and the line; the program is then unchanged).
void applyParameterValues(const std::string& text, CellProgram& program);
// The parameter values of model `m` that model.parameters = `text` gives (a live edit): every
// parameter at its default, then `text` applied. Throws ParameterError as
// applyParameterValues; changes nothing.
std::vector<double> parameterValues(const std::string& text, const CheckedModel& m);

// The state of model `to` from `state` of model `from`: states of the same qualified name
// keep their values, new ones start from their initial values (a hot reload).
TissueState carryStates(const CheckedModel& from, const TissueState& state, const CheckedModel& to);

// Whether the stimulus is on at time t (pulse k of the protocol), computed in double.
bool pulseOn(const CardiacParams& p, double t);
// Whether node (i, j, k) lies in the stimulated region.
bool inStimulusRegion(const CardiacParams& p, int i, int j, int k);
struct CfProtocol;
// The protocol of `p` (and the grid the region test needs) as the generated kernel's
// constant block cf_protocol holds it (cuda_emitter.hpp): the kernel evaluates pulseOn and
// inStimulusRegion from it.
CfProtocol protocolBlock(const CardiacParams& p);
// The same for the kernel of one rank's slab (tissue_slab.hpp): its cells are the nodes of
// planes [slabBegin, slabBegin + slabCount) along slabAxis.
CfProtocol protocolBlock(const CardiacParams& p, int slabAxis, int slabBegin, int slabCount);
// 1 for every tissue node (x fastest) in the stimulated region, else 0; rebuilt when the
// protocol changes, read by every step. `tissue`: tissueMask (empty: every node).
std::vector<unsigned char> stimulusRegionMask(const CardiacParams& p,
                                              const std::vector<unsigned char>& tissue = {});
// 1 for the nodes inside tissue.mesh (voxel centres, by ray parity), else 0; empty without a
// mesh. Throws ParameterError naming tissue.mesh (no such file, not closed, no node inside,
// with the grid's and the mesh's extents).
std::vector<unsigned char> tissueMask(const CardiacParams& p);

// Diffusion sub-steps per step for the explicit scheme to be stable (at most 0.9 of the
// stability limit dt_d = 1 / (2 sum_a D_a / dx^2) over the axes with more than one node).
int diffusionSubsteps(const CardiacParams& p);

// The domain: node (i, j, k) at (i dx, j dx, k dx) is the centre of its voxel.
void tissueBox(const CardiacParams& p, double lo[3], double hi[3]);

// Metrics: v_mean, v_centre [mV], activated (fraction), last_activation [ms], of the
// centre cell's latest beat (beat_meter.hpp; NaN before the first): beats, v_rest, v_peak
// [mV], dvdt_max [mV/ms], apd90 [ms]; and trace.<name>.V [mV] per trace point.
// Only tissue nodes count (`tissue`: tissueMask, empty: all).
std::vector<Metric> tissueMetrics(const CardiacParams& p, const std::vector<double>& potential,
                                  const std::vector<double>& activation, const BeatMeter& meter,
                                  const std::vector<unsigned char>& tissue = {});
// A point of trace.points: metric trace.<name>.V.
struct TracePoint {
    std::string name;
    double x = 0, y = 0, z = 0;  // mm
};
// trace.points parsed ("name x y z" per line or ';'); throws ParameterError naming the line
// (a malformed line, a repeated name, a point outside the tissue).
std::vector<TracePoint> tracePoints(const CardiacParams& p);
// Trilinear interpolation of a node field (x fastest, dims n, spacing dx) at a point in mm,
// clamped to the grid. `negativeIsMissing`: NaN when a contributing node is negative (an
// activation map's "not yet"). `tissue` (tissueMask data, or null): nodes outside the tissue
// take no part (the others' weights renormalised; NaN when none is tissue).
double sampleNodes(const std::vector<double>& field, const int n[3], double dx, const double x[3],
                   bool negativeIsMissing = false, const unsigned char* tissue = nullptr);
// The node whose potential v_centre and the beat metrics follow.
// With a tissue mask, the tissue node nearest to the grid's centre.
std::size_t centreNode(const CardiacParams& p, const std::vector<unsigned char>& tissue = {});
// The first error message of a non-finite state.
std::string nonFiniteMessage(const CardiacParams& p, const CheckedModel& m, std::size_t node,
                             std::size_t state, double value, std::uint64_t step, double time);

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // CUDA builds only

std::vector<BenchCase> benchCases();
// `cellforge-sim nversion` and `cellml2cfm` (cardiac_commands.cpp).
std::vector<ModelCommand> commands();

}  // namespace cf::cardiac
