// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `cardiac` state shared by both backends (cardiac_state.cpp): the tissue's host state and
// the snapshot layout.
#include <cstdint>
#include <vector>

#include "sim/core/model.hpp"
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
Snapshot makeTissueSnapshot(const CardiacParams& p, const CheckedModel& m, const TissueState& s);
// The beat meter a restored run goes on with: the snapshot's (TissueState::meter), else a
// fresh one (beats measured from the next step). Throws IoError for a malformed one.
BeatMeter restoredMeter(const CardiacParams& p, const TissueState& s);
// Throws IoError (naming the field or the grid) before anything changes.
TissueState readTissueSnapshot(const CardiacParams& p, const CheckedModel& m,
                               const Snapshot& snapshot);

}  // namespace cf::cardiac
