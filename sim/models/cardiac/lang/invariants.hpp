// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Terms of a cardiac model that are the same for every cell at every step: they read
// constants and parameters only (directly or through defined variables that do), never a
// state, the time or the stimulus. The CUDA generator hoists them out of the cell kernel
// (EmitOptions::hoistInvariants, docs/CARDIAC.md "Generator transformations"): the host
// evaluates them in double whenever the parameters change and the kernel reads them from its
// constant block, and a division by one becomes a multiplication by its reciprocal.
#include <unordered_map>
#include <vector>

#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

class InvariantTerms {
public:
    explicit InvariantTerms(const CheckedModel& m);
    // Whether `t` reads nothing but constants and parameters (memoised by address; the
    // model's terms must outlive this object).
    bool invariant(const Term& t) const;
    // Whether `t` is worth a slot: invariant, a number (not a condition), and more than a
    // constant or a single variable (the compiler folds constant expressions itself).
    bool hoistable(const Term& t) const;

private:
    const CheckedModel& m_;
    mutable std::unordered_map<const Term*, bool> memo_;
    mutable std::vector<signed char> variable_;  // per variable: -1 unknown, 0 no, 1 invariant
    bool variableInvariant(int v) const;
};

// The values of `terms` (each invariant in `m`) in double, with the model's parameters at
// `params` (in its parameter order): what the kernel reads from its constant block.
std::vector<double> invariantValues(const CheckedModel& m, const std::vector<TermPtr>& terms,
                                    const std::vector<double>& params);

}  // namespace cf::cardiac
