// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Symbolic partial derivatives over a model's terms (docs/design/cardiac.md section 2.3): the
// slope d rate / d state that decides whether a state is a gate (its rate is affine in it)
// and that Rush-Larsen and GRL1 integrate with. Defined variables are differentiated through
// their expressions (chain rule, memoised per variable); conditions keep their branches.
#include <map>
#include <vector>

#include "sim/models/cardiac/lang/term.hpp"

namespace cf::cardiac {

// The expressions of defined variables, by variable index (nullptr for states, parameters
// and time): what differentiation and dependency tests look through.
using Definitions = std::vector<TermPtr>;

class Differentiator {
public:
    Differentiator(const Definitions& definitions, int wrt)
        : definitions_(definitions), wrt_(wrt) {}
    // d t / d (variable wrt), simplified (zeros and ones folded).
    TermPtr derivative(const TermPtr& t);

private:
    const Definitions& definitions_;
    int wrt_;
    std::map<int, TermPtr> memo_;  // defined variable -> its derivative
};

// Does `t` depend on variable `index`, directly or through defined variables?
class DependencyTest {
public:
    explicit DependencyTest(const Definitions& definitions) : definitions_(definitions) {}
    bool dependsOn(const Term& t, int index);

private:
    const Definitions& definitions_;
    std::map<std::pair<int, int>, bool> memo_;  // (defined variable, index) -> result
};

// `t` with variable `wrt` replaced by 0, looking through the defined variables that depend on
// it, with the folding builders below: for a gate's rate a + b y this is the intercept a with
// no term of the form (something) * y left, so an infinite rate constant times y = 0 cannot
// give NaN (beta * y folds to 0 before it is evaluated).
TermPtr atZero(const TermPtr& t, const Definitions& definitions, int wrt, DependencyTest& deps);

// Arithmetic builders that fold constants and the identities x+0, x*1, x*0, --x.
TermPtr add(TermPtr a, TermPtr b);
TermPtr sub(TermPtr a, TermPtr b);
TermPtr mul(TermPtr a, TermPtr b);
TermPtr div(TermPtr a, TermPtr b);
TermPtr neg(TermPtr a);

}  // namespace cf::cardiac
