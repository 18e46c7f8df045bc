// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The record of parameter edits made in the window, kept so a run can be saved with the
// edits that shaped it. Entries are in the order they were applied: replaying every entry
// reproduces the trajectory of values; the Edit/Reset entries with undone == false are the
// net edits.
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/params.hpp"

namespace cf::gui {

struct ParamEdit {
    enum class Kind {
        Edit,   // the user changed the value (a whole slider drag is one edit)
        Reset,  // a reset-to-default button (row, group or all)
        Undo,   // an undo: oldValue is what was undone, newValue what came back
        Redo,
    };
    std::chrono::system_clock::time_point time;
    std::string key;  // "group.name"
    ParamValue oldValue;
    ParamValue newValue;
    Kind kind = Kind::Edit;
    bool undone = false;  // Edit/Reset: undone later (and not redone since)
};

std::string_view toString(ParamEdit::Kind kind);

// [{"time": "2024-05-01T12:00:00.123Z", "key": "dynamics.dt", "old": 0.001, "new": 0.002,
//   "kind": "edit", "undone": false}, ...]; reals keep every digit (shortest round trip).
std::string historyToJson(const std::vector<ParamEdit>& history);

}  // namespace cf::gui
