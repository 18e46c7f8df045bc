// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `cardiac` state shared by both backends (cardiac_state.cpp): the tissue's host state and
// the snapshot layout.
#include <cstdint>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/state_arrays.hpp"
#include "sim/models/cardiac/beat_meter.hpp"
#include "sim/models/cardiac/cardiac_params.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

// The tissue's state on the host, per state a column over the nodes (x fastest), as both
// backends exchange it with snapshots.
struct TissueState {
    std::vector<std::vector<double>> columns;  // [state][node]
    std::vector<double> activation;            // ms; -1 before the first crossing
    std::vector<double> meter;                 // BeatMeter::state(); empty: none saved
    std::uint64_t step = 0;
    double time = 0.0;
};
inline constexpr double kNotActivated = -1.0;

// Snapshot: one grid field per state (named as in the model, "cell.V"), and
// "activation_time" [ms]; box = the tissue.
// The state arrays of either backend: one per state variable (named and in the units of the
// model; node `n` of state `k` at y[k * stateStride + n * nodeStride]), then the activation
// times (ms, -1 before the first upstroke).
template <typename Real>
std::vector<StateArray> tissueStateArrays(const CheckedModel& m, std::size_t nodes, const Real* y,
                                          std::size_t stateStride, std::size_t nodeStride,
                                          const double* activation, MemorySpace space) {
    std::vector<StateArray> out;
    for (std::size_t k = 0; k < m.states.size(); ++k) {
        const Variable& v = m.vars[static_cast<std::size_t>(m.states[k].var)];
        StateArray a = stateArray(v.name, v.unit.empty() ? "1" : v.unit,
                                  "State variable of the cell model, per node", y + k * stateStride,
                                  nodes, space);
        a.stride = nodeStride;
        out.push_back(a.holds(v.name));
    }
    out.push_back(stateArray("activation_time", "ms",
                             "Time of the node's first upstroke (-1: not yet)", activation, nodes,
                             space)
                      .holds("activation_time"));
    return out;
}

Snapshot makeTissueSnapshot(const CardiacParams& p, const CheckedModel& m, const TissueState& s);
// The beat meter a restored run goes on with: the snapshot's (TissueState::meter), else a
// fresh one (beats measured from the next step). Throws IoError for a malformed one.
BeatMeter restoredMeter(const CardiacParams& p, const TissueState& s);
// Throws IoError (naming the field or the grid) before anything changes.
TissueState readTissueSnapshot(const CardiacParams& p, const CheckedModel& m,
                               const Snapshot& snapshot);

}  // namespace cf::cardiac
