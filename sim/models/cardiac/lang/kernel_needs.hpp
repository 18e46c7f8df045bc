// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What one kernel of a split cell step computes (cuda_emitter.hpp, EmitOptions::parts:
// Lionetti et al.'s Opt3): the defined variables and the states a part reads.
#include <cstddef>
#include <map>
#include <vector>

#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

struct KernelNeeds {
    std::vector<bool> var;    // defined variables to compute, by variable index
    std::vector<bool> state;  // states to load, by state index
    bool table = false;       // it reads the lookup table
    // Everything (one kernel for the whole step).
    static KernelNeeds all(const CheckedModel& m) {
        return {std::vector<bool>(m.vars.size(), true), std::vector<bool>(m.states.size(), true),
                true};
    }
};

// The needs of the part that updates states [begin, end): everything their rates, slopes and
// Rush-Larsen intercepts read, through defined variables (a tabulated one, a column of
// `tabulated`, reads the table and the table's key instead of its expression); the last part
// also loads the potential (it keeps V before the step).
KernelNeeds kernelNeeds(const CheckedModel& m, const std::map<int, std::size_t>& tabulated,
                        std::size_t begin, std::size_t end, bool last);

}  // namespace cf::cardiac
