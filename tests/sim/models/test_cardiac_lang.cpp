// SPDX-License-Identifier: GPL-3.0-or-later
// The cardiac model language (docs/design/cardiac.md sections 1-2): the two examples of the
// design note parse and check; every error kind names its file, line, column and what was
// expected; gates are found by symbolic differentiation; the integrators match the hand
// oracle y' = (0.3 - y)/2, y0 = 1, dt 0.1: Rush-Larsen and GRL1 give the exact
// 0.3 + 0.7 e^-0.05, forward Euler 0.965 (double rounding: 1e-15).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/parser.hpp"
#include "sim/models/cardiac/lang/printer.hpp"
#include "sim/models/cardiac/lang/units.hpp"

namespace cf::cardiac {
namespace {

const char* kAlievPanfilov =
    R"(model aliev_panfilov_1996 "Aliev & Panfilov 1996, mapped to mV and ms"
time [ms]
method fe: *

[cell]
param k = 8 range(0, 50) "excitability"
param a = 0.15 range(0, 1) "threshold"
param eps0 = 0.002 range(0, 1)
param mu1 = 0.2 range(0, 10)
param mu2 = 0.3 range(0, 10)
param tscale = 12.9 [ms] range(0.1, 100) "ms per model time unit"
state V = -80 [mV] bind potential
state v = 0
u = (V + 80 [mV]) / 100 [mV]
i_stim = 0 [A/F] bind stimulus
dot(V) = 100 [mV] / tscale * (-k * u * (u - a) * (u - 1) - u * v) - i_stim
dot(v) = (eps0 + mu1 * v / (u + mu2)) * (-v - k * u * (u - a - 1)) / tscale
)";

const char* kBeelerReuterGates = R"(model br_gates
[membrane]
state V = -84 [mV] bind potential
dot(V) = 0 [mV/ms]

[ina]
use membrane.V
state m = 0.011
state h = 0.988
alpha_m = 1 [1/mV/ms] * (V + 47 [mV]) / (1 - exp(-0.1 [1/mV] * (V + 47 [mV])))
beta_m = 40 [1/ms] * exp(-0.056 [1/mV] * (V + 72 [mV]))
dot(m) = alpha_m * (1 - m) - beta_m * m
alpha_h = 0.126 [1/ms] * exp(-0.25 [1/mV] * (V + 77 [mV]))
beta_h = 1.7 [1/ms] / (exp(-0.082 [1/mV] * (V + 22.5 [mV])) + 1)
dot(h) = alpha_h * (1 - h) - beta_h * h
)";

// The diagnostics of compiling `source` (empty when it compiles).
std::vector<Diagnostic> errorsOf(const std::string& source) {
    try {
        compileModel(source, "m.cfm");
    } catch (const ModelError& e) {
        return e.diagnostics();
    }
    return {};
}

// The first error's formatted text, for EXPECT_EQ on the exact message and position.
std::string firstError(const std::string& source) {
    const std::vector<Diagnostic> d = errorsOf(source);
    return d.empty() ? "(compiled)" : d.front().format();
}

TEST(CardiacLanguage, DesignNoteExamplesCompile) {
    const CheckedModel ap = compileModel(kAlievPanfilov, "aliev_panfilov.cfm");
    EXPECT_EQ(ap.name, "aliev_panfilov_1996");
    EXPECT_EQ(ap.timeUnit, "ms");
    ASSERT_EQ(ap.states.size(), 2u);
    EXPECT_EQ(ap.vars[static_cast<std::size_t>(ap.potential)].name, "cell.V");
    EXPECT_EQ(ap.vars[static_cast<std::size_t>(ap.stimulus)].name, "cell.i_stim");
    EXPECT_EQ(ap.params.size(), 6u);
    const Variable& k = ap.vars[static_cast<std::size_t>(ap.params[0])];
    EXPECT_EQ(k.name, "cell.k");
    EXPECT_EQ(k.lo, 0.0);
    EXPECT_EQ(k.hi, 50.0);
    EXPECT_EQ(k.description, "excitability");
    // "method fe: *" puts every state on forward Euler; v is not a gate (quadratic in v).
    for (const StateInfo& s : ap.states)
        EXPECT_EQ(s.method, Method::ForwardEuler);
    EXPECT_FALSE(ap.states[1].gate);

    const CheckedModel br = compileModel(kBeelerReuterGates, "br.cfm");
    ASSERT_EQ(br.states.size(), 3u);
    EXPECT_TRUE(br.states[1].gate) << "m: alpha (1 - m) - beta m is affine in m";
    EXPECT_TRUE(br.states[2].gate);
    EXPECT_EQ(br.states[1].method, Method::RushLarsen);
}

TEST(CardiacLanguage, SyntaxErrorsNameLineColumnAndWhatWasExpected) {
    EXPECT_EQ(firstError("model m\n[c]\nstate V = -80 bind potential\ndot(V) = (1 + \n"),
              "m.cfm:4:10: error: '(' is not closed before the end of the file");
    EXPECT_EQ(firstError("model m\n[c]\nstate V = -80 bind potential\ndot(V) = 1 $ 2\n"),
              "m.cfm:4:12: error: unknown character '$'");
    EXPECT_EQ(firstError("model m \"unterminated\n"), "m.cfm:1:9: error: unterminated string");
    EXPECT_EQ(firstError("modle m\n"), "m.cfm:1:1: error: expected 'model', found 'modle'");
    EXPECT_EQ(firstError("model m\n[c]\nstate V = [mV]\n"),
              "m.cfm:3:11: error: expected a number, found '['");
    EXPECT_EQ(firstError("model m\n[c]\nstate V = 1 [mV\n"),
              "m.cfm:3:16: error: expected '*', '/' or ']', found end of line");
    EXPECT_EQ(firstError("model m\n[c]\nx = a < b < c\n"),
              "m.cfm:3:11: error: expected an operator other than a comparison (no chains), "
              "found '<'");
    // Every error of the file at once, not only the first.
    EXPECT_EQ(errorsOf("model m\n[c]\nstate = 1\nparam = 2\n").size(), 2u);
}

TEST(CardiacLanguage, CheckErrorsNameTheProblem) {
    const std::string head = "model m\n[c]\nstate V = -80 bind potential\n";
    EXPECT_EQ(firstError(head + "dot(V) = -Vv\n"),
              "m.cfm:4:11: error: undefined name 'Vv' (did you mean 'V'?)");
    EXPECT_EQ(firstError(head + "dot(V) = -a\na = b\nb = a\n"),
              "m.cfm:5:1: error: circular definition: c.a -> c.b -> c.a");
    EXPECT_EQ(firstError(head + "dot(V) = 0\nstate w = 1\n"),
              "m.cfm:5:1: error: state 'c.w' has no equation; write dot(w) = ...");
    EXPECT_EQ(firstError(head + "dot(V) = 0\nx = 1\ndot(x) = 2\n"),
              "m.cfm:6:1: error: dot(x): 'x' is not a state");
    EXPECT_EQ(firstError(head + "dot(V) = 0\nV = 3\n"),
              "m.cfm:5:1: error: 'c.V' is a state and cannot be defined by an equation");
    EXPECT_EQ(firstError(head + "dot(V) = 0\nx = 1\nx = 2\n"),
              "m.cfm:6:1: error: 'c.x' is already defined");
    EXPECT_EQ(firstError(head + "dot(V) = expp(V)\n"),
              "m.cfm:4:10: error: unknown function 'expp'");
    EXPECT_EQ(firstError(head + "dot(V) = exp(V, 2)\n"),
              "m.cfm:4:10: error: function 'exp' takes 1 argument(s), 2 given");
    EXPECT_EQ(firstError(head + "dot(V) = if(V, 1, 2)\n"),
              "m.cfm:4:13: error: expected a condition, found a number");
    EXPECT_EQ(firstError(head + "dot(V) = V < 2\n"),
              "m.cfm:4:12: error: expected a number, found a condition");
    EXPECT_EQ(firstError("model m\n[c]\nstate V = -80\ndot(V) = 0\n"),
              "m.cfm:1:1: error: no state is bound to the membrane potential; add 'bind "
              "potential' to one state");
    EXPECT_EQ(firstError(head + "dot(V) = 0\nparam g = 5 range(0, 1)\n"),
              "m.cfm:5:1: error: default 5 of parameter 'c.g' is outside its range [0, 1]");
    EXPECT_EQ(firstError(head + "dot(V) = -V*V\nmethod rl: V\n"),
              "m.cfm:5:1: error: method rl: 'c.V' is not a gate: its rate is not affine in "
              "'c.V'");
}

TEST(CardiacLanguage, UnitsAreParsedAndCompared) {
    const auto unit = [](const char* text) { return *parseUnit(text); };
    EXPECT_TRUE(unit("A/F") == unit("mV/ms")) << "A/F = V/s = mV/ms";
    EXPECT_TRUE(unit("mM") == unit("mol/m^3"));
    EXPECT_TRUE(unit("uA/cm^2").sameDimension(unit("A/m^2")));
    EXPECT_EQ(unit("uA/cm^2").power10, -2) << "1e-6 / 1e-4";
    EXPECT_EQ(unit("kg").power10, 0);
    EXPECT_FALSE(unit("mV") == unit("V"));
    EXPECT_TRUE(unit("mV").sameDimension(unit("V")));
    EXPECT_TRUE(unit("1/mV/ms") == divide(unit("1"), multiply(unit("mV"), unit("ms"))));
    std::string bad;
    EXPECT_FALSE(parseUnit("mV/hour", &bad).has_value());
    EXPECT_EQ(bad, "hour");
}

TEST(CardiacLanguage, UnitErrorsNameBothUnits) {
    const std::string head = "model m\ntime [ms]\n[c]\nstate V = -80 [mV] bind potential\n";
    EXPECT_EQ(firstError(head + "dot(V) = 0 [mV/hour]\n"),
              "m.cfm:5:10: error: unknown unit 'hour'");
    EXPECT_EQ(firstError(head + "dot(V) = (V + 1 [V]) / 1 [ms]\n"),
              "m.cfm:5:13: error: unit mismatch in '+': [mV] vs [V] (factor 1000)");
    EXPECT_EQ(firstError(head + "dot(V) = exp(V) * 1 [mV/ms]\n"),
              "m.cfm:5:10: error: unit mismatch in 'exp': [mV] vs [1]");
    EXPECT_EQ(firstError(head + "dot(V) = 0 [mV/ms]\nx = 2 [mV] in [ms]\n"),
              "m.cfm:6:1: error: 'c.x' is declared in [ms] but its expression is in [mV]");
    EXPECT_EQ(firstError(head + "dot(V) = 1 [mV]\n"),
              "m.cfm:5:1: error: dot(V) must be in [mV/ms], found [mV]");
    EXPECT_EQ(firstError(head + "dot(V) = V^0.5 * 1 [1/ms]\n"),
              "m.cfm:5:11: error: exponent of '^' must be dimensionless when the base has units, "
              "unless it is an integer literal");
    // Numbers without units adapt: this model checks.
    EXPECT_EQ(firstError(head + "dot(V) = -0.1 * (V + 80 [mV]) / 1 [ms] + 2 * V^2 / 1 [mV*ms]\n"),
              "(compiled)");
}

// Beeler-Reuter's alpha_m = (V + 47) / (1 - exp(-0.1 (V + 47))) is 0/0 at V = -47 mV, where
// its limit is 1/0.1 = 10 /ms (design note 3.3); at -46 mV it is 1/(1 - e^-0.1) =
// 10.508331944775. The straight line spans +-delta = 1e-4 / 0.1 = 1e-3 mV (|g| < 1e-4, wide
// enough for float); f = 10 (1 + g/2 + g^2/12 + ...) with g = 0.1 (V + 47) has f'' = 1/60
// per mV^2, so the line lies above the limit by f'' delta^2 / 2 = 8.33e-9 at its middle:
// tolerance 1e-8. Outside the band the quotient (with expm1) is exact to rounding.
TEST(CardiacLanguage, RemovableSingularityIsReplacedNearItsPoint) {
    const CheckedModel m = compileModel(kBeelerReuterGates, "br.cfm");
    bool noted = false;
    for (const Diagnostic& d : m.warnings)
        if (d.code == "W210" &&
            d.message.find("membrane.V = -47 [mV] in 'ina.alpha_m'") != std::string::npos)
            noted = true;
    EXPECT_TRUE(noted);
    CellProgram p(m);
    auto alphaAt = [&](double v) {
        std::vector<double> y = {v, 0.0, 0.988}, f;
        p.rates(y, 0.0, f);
        return f[1];  // dot(m) at m = 0 is alpha_m
    };
    EXPECT_NEAR(alphaAt(-47.0), 10.0, 1e-8);
    EXPECT_NEAR(alphaAt(-47.0 + 1e-9), 10.0, 1e-8);
    EXPECT_NEAR(alphaAt(-47.0 + 2e-3), 10.0 * (1.0 + 1e-4 + 4e-8 / 12.0), 1e-11);  // g = 2e-4
    EXPECT_NEAR(alphaAt(-46.0), 10.508331944775, 1e-9);
    EXPECT_TRUE(m.states[1].gate) << "the rewrite keeps m a gate";
}

// Structural equality of expressions and models, positions aside.
bool sameExpr(const Expr& a, const Expr& b) {
    // A number's text may differ ("28.0" prints as "28"); its value may not.
    const bool textDiffers = a.kind != ExprKind::Number && a.text != b.text;
    if (a.kind != b.kind || textDiffers || a.unit != b.unit || a.value != b.value ||
        a.args.size() != b.args.size())
        return false;
    for (std::size_t k = 0; k < a.args.size(); ++k)
        if (!sameExpr(*a.args[k], *b.args[k])) return false;
    return true;
}

bool sameModel(const ModelAst& a, const ModelAst& b) {
    if (a.name != b.name || a.title != b.title || a.timeUnit != b.timeUnit ||
        a.sections.size() != b.sections.size() || a.methods.size() != b.methods.size())
        return false;
    for (std::size_t s = 0; s < a.sections.size(); ++s) {
        const Section& x = a.sections[s];
        const Section& y = b.sections[s];
        if (x.name != y.name || x.statements.size() != y.statements.size()) return false;
        for (std::size_t k = 0; k < x.statements.size(); ++k) {
            const Statement& p = x.statements[k];
            const Statement& q = y.statements[k];
            if (p.kind != q.kind || p.name != q.name || p.value != q.value || p.unit != q.unit ||
                p.bindPotential != q.bindPotential || p.hasRange != q.hasRange ||
                p.rangeLo != q.rangeLo || p.rangeHi != q.rangeHi ||
                p.description != q.description || p.inUnit != q.inUnit || p.binding != q.binding ||
                p.uses != q.uses || p.method != q.method || p.targets != q.targets ||
                !p.expr != !q.expr || (p.expr && !sameExpr(*p.expr, *q.expr)))
                return false;
        }
    }
    return true;
}

TEST(CardiacLanguage, PrintedModelParsesToTheSameTree) {
    for (const char* source : {kAlievPanfilov, kBeelerReuterGates}) {
        const ModelAst first = parseModel(source, "m.cfm");
        const std::string printed = printModel(first);
        const ModelAst second = parseModel(printed, "printed.cfm");
        EXPECT_TRUE(sameModel(first, second)) << printed;
        EXPECT_EQ(printModel(second), printed) << "printing is idempotent";
    }
    // Precedence and associativity: 10,000 random expressions survive print -> parse.
    std::uint64_t state = 42;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<unsigned>(state >> 33);
    };
    const char* ops[] = {"+", "-", "*", "/", "^", "<", "and", "or"};
    std::function<std::string(int)> random = [&](int depth) -> std::string {
        const unsigned r = next() % (depth > 3 ? 2 : 6);
        if (r == 0) return std::to_string(next() % 100) + "." + std::to_string(next() % 10);
        if (r == 1) return std::string(1, static_cast<char>('a' + next() % 3));
        if (r == 2) return "-" + random(depth + 1);
        if (r == 3) return "exp(" + random(depth + 1) + ")";
        return "(" + random(depth + 1) + " " + ops[next() % 8] + " " + random(depth + 1) + ")";
    };
    for (int k = 0; k < 10000; ++k) {
        const std::string text = "model r\n[c]\nx = " + random(0) + "\n";
        const ModelAst first = parseModel(text, "r.cfm");
        const ModelAst second = parseModel(printModel(first), "r.cfm");
        ASSERT_TRUE(sameModel(first, second)) << text << "printed as\n" << printModel(first);
    }
}

TEST(CardiacLanguage, UnusedStatesAndVariablesAreWarned) {
    const CheckedModel m = compileModel(
        "model m\n[c]\nstate V = -80 bind potential\ndot(V) = -V\nstate w = 1\ndot(w) = -w\n"
        "x = 2\n",
        "m.cfm");
    ASSERT_EQ(m.warnings.size(), 2u);
    EXPECT_EQ(m.warnings[0].format(), "m.cfm:5:1: warning: state 'c.w' is never used");
    EXPECT_EQ(m.warnings[1].format(), "m.cfm:7:1: warning: variable 'c.x' is never used");
}

TEST(CardiacLanguage, IntegratorsMatchTheHandOracle) {
    const std::string src =
        "model relax\n[c]\nstate V = 0 bind potential\ndot(V) = 0\nstate y = 1\n"
        "tau = 2 [ms]\ndot(y) = (0.3 - y) / tau\nmethod {M}: y\nz = V + y\n";
    // be: one Newton iteration of implicit Euler, y + dt f / (1 - dt J) with f = -0.35 and
    // J = -0.5 (for a gate it is the implicit Euler step itself).
    for (const char* method : {"rl", "grl1", "fe", "be"}) {
        std::string s = src;
        s.replace(s.find("{M}"), 3, method);
        CellProgram p(compileModel(s, "relax.cfm"));
        ASSERT_TRUE(p.model().states[1].gate);
        std::vector<double> y = p.initialStates();
        p.step(y, 0.0, 0.1);
        const std::string m = method;
        const double expected = m == "fe"   ? 0.965
                                : m == "be" ? 1.0 - 0.035 / 1.05
                                            : 0.3 + 0.7 * std::exp(-0.05);
        EXPECT_NEAR(y[1], expected, 1e-15) << method;
    }
    // GRL1 on a non-gate linearises in the state itself: y' = -y^2 from 1, dt 0.1:
    // y + dt f phi1(J dt) with f = -1, J = -2.
    CellProgram q(compileModel(
        "model q\nmethod grl1: *\n[c]\nstate V = 0 bind potential\ndot(V) = 0\nstate y = 1\n"
        "dot(y) = -y^2 + 0 * V\n",
        "q.cfm"));
    std::vector<double> y = q.initialStates();
    q.step(y, 0.0, 0.1);
    EXPECT_NEAR(y[1], 1.0 - 0.1 * std::expm1(-0.2) / -0.2, 1e-15);
    // The same by be: 1 + dt f / (1 - dt J) = 1 - 0.1 / 1.2.
    CellProgram b(compileModel(
        "model q\nmethod be: *\n[c]\nstate V = 0 bind potential\ndot(V) = 0\nstate y = 1\n"
        "dot(y) = -y^2 + 0 * V\n",
        "q.cfm"));
    y = b.initialStates();
    b.step(y, 0.0, 0.1);
    EXPECT_NEAR(y[1], 1.0 - 0.1 / 1.2, 1e-15);
    EXPECT_NEAR(phi1(1e-6), 1.0000005000001667, 1e-16);
    EXPECT_NEAR(phi1(0.5), std::expm1(0.5) / 0.5, 1e-16);
}

// Aliev-Panfilov fires: a stimulus of 10 mV/ms for 2 ms from rest lifts V above 0 mV, and it
// returns to rest within 600 ms (forward Euler at 0.01 ms, the method the file names).
TEST(CardiacLanguage, AlievPanfilovFiresAndRecovers) {
    CellProgram p(compileModel(kAlievPanfilov, "aliev_panfilov.cfm"));
    std::vector<double> y = p.initialStates();
    const double dt = 0.01;
    double peak = -1e9;
    double t = 0.0;
    for (int n = 0; n < 60000; ++n, t += dt) {
        const double stim = t < 2.0 ? -10.0 : 0.0;  // i_stim enters as -i_stim
        p.step(y, t, dt, &stim);
        peak = std::max(peak, y[0]);
    }
    std::printf("Aliev-Panfilov: peak %.3f mV, V after 600 ms %.4f mV\n", peak, y[0]);
    EXPECT_GT(peak, 0.0);
    EXPECT_LT(peak, 30.0);
    EXPECT_NEAR(y[0], -80.0, 0.5);
}

}  // namespace
}  // namespace cf::cardiac
