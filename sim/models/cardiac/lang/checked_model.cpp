// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/checked_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sim/core/number_format.hpp"
#include "sim/models/cardiac/lang/derivative.hpp"
#include "sim/models/cardiac/lang/lookup_tables.hpp"
#include "sim/models/cardiac/lang/parser.hpp"
#include "sim/models/cardiac/lang/singularities.hpp"
#include "sim/models/cardiac/lang/unit_check.hpp"
#include "sim/models/cardiac/lang/variants.hpp"

namespace cf::cardiac {

namespace {

struct FunctionInfo {
    Op op;
    int minArgs, maxArgs;  // maxArgs -1: any odd count >= minArgs (piecewise)
};

const std::map<std::string, FunctionInfo>& functions() {
    static const std::map<std::string, FunctionInfo> table = {
        {"exp", {Op::Exp, 1, 1}},
        {"expm1", {Op::Expm1, 1, 1}},
        {"log", {Op::Log, 1, 2}},
        {"log1p", {Op::Log1p, 1, 1}},
        {"log10", {Op::Log10, 1, 1}},
        {"sqrt", {Op::Sqrt, 1, 1}},
        {"abs", {Op::Abs, 1, 1}},
        {"floor", {Op::Floor, 1, 1}},
        {"ceil", {Op::Ceil, 1, 1}},
        {"sin", {Op::Sin, 1, 1}},
        {"cos", {Op::Cos, 1, 1}},
        {"tan", {Op::Tan, 1, 1}},
        {"asin", {Op::Asin, 1, 1}},
        {"acos", {Op::Acos, 1, 1}},
        {"atan", {Op::Atan, 1, 1}},
        {"sinh", {Op::Sinh, 1, 1}},
        {"cosh", {Op::Cosh, 1, 1}},
        {"tanh", {Op::Tanh, 1, 1}},
        {"min", {Op::Min, 2, 2}},
        {"max", {Op::Max, 2, 2}},
        {"pow", {Op::Pow, 2, 2}},
        {"if", {Op::If, 3, 3}},
        {"piecewise", {Op::Piecewise, 3, -1}}};
    return table;
}

const std::map<std::string, Op>& binaryOps() {
    static const std::map<std::string, Op> table = {
        {"+", Op::Add}, {"-", Op::Sub},   {"*", Op::Mul}, {"/", Op::Div}, {"^", Op::Pow},
        {"<", Op::Lt},  {"<=", Op::Le},   {">", Op::Gt},  {">=", Op::Ge}, {"==", Op::Eq},
        {"!=", Op::Ne}, {"and", Op::And}, {"or", Op::Or}};
    return table;
}

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string shortName(const std::string& q) {
    const auto dot = q.find('.');
    return dot == std::string::npos ? q : q.substr(dot + 1);
}

class Checker {
public:
    Checker(const ModelAst& ast, const std::string& variant)
        : ast_(ast), variant_(variant), sink_(ast.file) {}

    CheckedModel run() {
        m_.file = ast_.file;
        m_.name = ast_.name;
        m_.title = ast_.title;
        m_.timeUnit = ast_.timeUnit;
        Variable time;
        time.name = "time";
        time.kind = VarKind::Time;
        time.unit = ast_.timeUnit;
        m_.time = addVariable(time);
        declare();
        applyVariants(ast_, variant_, m_, sink_);
        resolveAll();
        if (!sink_.hasErrors()) sortDefinitions();
        if (!sink_.hasErrors()) checkUnits(m_, sink_);
        bindings();
        parameterRanges();
        if (!sink_.hasErrors()) {
            removeSingularities(m_, sink_);  // before the slopes are derived from the rates
            unused();
            methods();
        }
        if (!sink_.hasErrors())
            attachLookups(ast_, m_, sink_);  // after the slopes: they read columns
        sink_.throwIfErrors();
        for (const Diagnostic& d : sink_.all())
            m_.warnings.push_back(d);
        return std::move(m_);
    }

private:
    int addVariable(Variable v) {
        const int index = static_cast<int>(m_.vars.size());
        byName_[v.name] = index;
        m_.vars.push_back(std::move(v));
        return index;
    }

    // Pass 1: every state, parameter and defined variable gets its index.
    void declare() {
        for (const Section& s : ast_.sections)
            for (const Statement& st : s.statements) {
                if (st.kind != StatementKind::State && st.kind != StatementKind::Param &&
                    st.kind != StatementKind::Define)
                    continue;
                const std::string q = s.name + "." + st.name;
                if (const auto it = byName_.find(q); it != byName_.end()) {
                    const Variable& first = m_.vars[static_cast<std::size_t>(it->second)];
                    if (st.kind == StatementKind::Define && first.kind != VarKind::Defined)
                        sink_.error(st.pos, "E115",
                                    "'" + q + "' is a " +
                                        (first.kind == VarKind::State ? "state" : "parameter") +
                                        " and cannot be defined by an equation");
                    else
                        sink_.error(st.pos, "E111", "'" + q + "' is already defined");
                    sink_.note(first.pos, "E111", "first definition is here");
                    continue;
                }
                Variable v;
                v.name = q;
                v.pos = st.pos;
                v.unit = st.kind == StatementKind::Define ? st.inUnit : st.unit;
                if (st.kind == StatementKind::State) {
                    v.kind = VarKind::State;
                    v.initial = st.value;
                    if (!std::isfinite(st.value))
                        sink_.error(st.pos, "E170", "initial value of '" + q + "' is not finite");
                } else if (st.kind == StatementKind::Param) {
                    v.kind = VarKind::Param;
                    v.initial = st.value;
                    v.hasRange = st.hasRange;
                    v.lo = st.rangeLo;
                    v.hi = st.rangeHi;
                    v.structural = st.structural;
                } else {
                    v.kind = VarKind::Defined;
                    v.stimulus = st.binding == "stimulus";
                }
                v.description = st.description;
                const int index = addVariable(std::move(v));
                if (st.kind == StatementKind::State) {
                    StateInfo info;
                    info.var = index;
                    m_.states.push_back(info);
                    if (st.bindPotential) bind(m_.potential, index, st.pos, "potential");
                }
                if (st.kind == StatementKind::Param) m_.params.push_back(index);
                if (st.kind == StatementKind::Define && st.binding == "stimulus")
                    bind(m_.stimulus, index, st.pos, "stimulus");
            }
    }

    void bind(int& slot, int index, SourcePos pos, const char* role) {
        if (slot >= 0) {
            sink_.error(pos, "E151", std::string("'") + role + "' is bound twice");
            sink_.note(m_.vars[static_cast<std::size_t>(slot)].pos, "E151",
                       "first binding is here");
            return;
        }
        slot = index;
    }

    // Name lookup from `section`: section.x, then `use` aliases, then qualified names, then
    // the predefined inputs. -1 (with E110) when nothing matches.
    int lookup(const Section& section, const std::string& name, SourcePos pos) {
        if (name.find('.') == std::string::npos) {
            if (const auto it = byName_.find(section.name + "." + name); it != byName_.end())
                return it->second;
            const auto& aliases = aliases_[section.name];
            if (const auto it = aliases.find(name); it != aliases.end()) {
                if (const auto v = byName_.find(it->second); v != byName_.end()) return v->second;
            }
            if (name == "time") return m_.time;
        } else if (const auto it = byName_.find(name); it != byName_.end()) {
            return it->second;
        }
        undefined(section, name, pos);
        return -1;
    }

    void undefined(const Section& section, const std::string& name, SourcePos pos) {
        std::string best;
        std::size_t bestDistance = 3;
        for (const Variable& v : m_.vars) {
            const bool local = v.name.rfind(section.name + ".", 0) == 0;
            const std::string candidate =
                name.find('.') == std::string::npos && local ? shortName(v.name) : v.name;
            const std::size_t dist = editDistance(name, candidate);
            if (dist < bestDistance && candidate != name) {
                bestDistance = dist;
                best = candidate;
            }
        }
        sink_.error(pos, "E110",
                    "undefined name '" + name + "'" +
                        (best.empty() ? "" : " (did you mean '" + best + "'?)"));
    }

    // Pass 2: `use` aliases, then every expression.
    void resolveAll() {
        for (const Section& s : ast_.sections)
            for (const Statement& st : s.statements)
                if (st.kind == StatementKind::Use)
                    for (const auto& [target, alias] : st.uses) {
                        if (byName_.find(target) == byName_.end()) {
                            undefined(s, target, st.pos);
                            continue;
                        }
                        aliases_[s.name][alias.empty() ? shortName(target) : alias] = target;
                    }
        for (const Section& s : ast_.sections)
            for (const Statement& st : s.statements) {
                if (st.kind == StatementKind::Define) {
                    const auto it = byName_.find(s.name + "." + st.name);
                    if (it == byName_.end()) continue;
                    Variable& v = m_.vars[static_cast<std::size_t>(it->second)];
                    if (v.kind != VarKind::Defined || v.pos.line != st.pos.line) continue;
                    v.expr = number(resolve(s, *st.expr));
                } else if (st.kind == StatementKind::Ode) {
                    ode(s, st);
                }
            }
        for (const StateInfo& info : m_.states)
            if (!info.rate) {
                const Variable& v = m_.vars[static_cast<std::size_t>(info.var)];
                sink_.error(v.pos, "E113",
                            "state '" + v.name + "' has no equation; write dot(" +
                                shortName(v.name) + ") = ...");
            }
    }

    void ode(const Section& s, const Statement& st) {
        const int index = lookup(s, st.name, st.pos);
        if (index < 0) return;
        const int state = m_.stateOf(index);
        if (state < 0) {
            sink_.error(st.pos, "E114", "dot(" + st.name + "): '" + st.name + "' is not a state");
            return;
        }
        StateInfo& info = m_.states[static_cast<std::size_t>(state)];
        if (info.rate) {
            sink_.error(st.pos, "E111", "'dot(" + st.name + ")' is already defined");
            sink_.note(info.ratePos, "E111", "first definition is here");
            return;
        }
        info.rate = number(resolve(s, *st.expr));
        info.ratePos = st.pos;
    }

    // A term where a number is expected (E122 when it is a condition).
    TermPtr number(TermPtr t) {
        if (t && isCondition(*t))
            sink_.error(t->pos, "E122", "expected a number, found a condition");
        return t;
    }
    TermPtr condition(TermPtr t) {
        if (t && !isCondition(*t))
            sink_.error(t->pos, "E123", "expected a condition, found a number");
        return t;
    }

    TermPtr resolve(const Section& s, const Expr& e) {
        switch (e.kind) {
            case ExprKind::Number: {
                auto t = std::make_shared<Term>(*constant(e.value));
                t->unit = e.unit;
                t->pos = e.pos;
                return t;
            }
            case ExprKind::Name: {
                const int index = lookup(s, e.text, e.pos);
                return index < 0 ? constant(0) : withPos(variable(index), e.pos);
            }
            case ExprKind::Unary: {
                TermPtr a = resolve(s, *e.args[0]);
                if (e.text == "not") return make(Op::Not, {condition(a)}, e.pos);
                a = number(a);
                return e.text == "-" ? make(Op::Neg, {a}, e.pos) : a;
            }
            case ExprKind::Binary: {
                const Op op = binaryOps().at(e.text);
                TermPtr a = resolve(s, *e.args[0]), b = resolve(s, *e.args[1]);
                if (op == Op::And || op == Op::Or) {
                    condition(a);
                    condition(b);
                } else {
                    number(a);
                    number(b);
                }
                return make(op, {a, b}, e.pos);
            }
            case ExprKind::Call:
                return callTerm(s, e);
        }
        return constant(0);
    }

    TermPtr callTerm(const Section& s, const Expr& e) {
        const auto it = functions().find(e.text);
        if (it == functions().end()) {
            sink_.error(e.pos, "E120", "unknown function '" + e.text + "'");
            return constant(0);
        }
        const FunctionInfo f = it->second;
        const int n = static_cast<int>(e.args.size());
        const bool ok =
            f.maxArgs < 0 ? (n >= f.minArgs && n % 2 == 1) : (n >= f.minArgs && n <= f.maxArgs);
        if (!ok) {
            const std::string wanted =
                f.maxArgs < 0
                    ? "an odd number (at least 3) of"
                    : (f.minArgs == f.maxArgs
                           ? std::to_string(f.minArgs)
                           : std::to_string(f.minArgs) + " or " + std::to_string(f.maxArgs));
            sink_.error(e.pos, "E121",
                        "function '" + e.text + "' takes " + wanted + " argument(s), " +
                            std::to_string(n) + " given");
            return constant(0);
        }
        std::vector<TermPtr> args;
        for (int i = 0; i < n; ++i) {
            TermPtr a = resolve(s, *e.args[static_cast<std::size_t>(i)]);
            const bool cond =
                (f.op == Op::If && i == 0) || (f.op == Op::Piecewise && i % 2 == 0 && i + 1 < n);
            args.push_back(cond ? condition(a) : number(a));
        }
        Op op = f.op;
        if (op == Op::Log && n == 2) op = Op::LogBase;
        return make(op, std::move(args), e.pos);
    }

    static TermPtr withPos(TermPtr t, SourcePos pos) {
        auto copy = std::make_shared<Term>(*t);
        copy->pos = pos;
        return copy;
    }

    // Pass 3: circular definitions (E112) and the evaluation order (depth first, in source
    // order, so the order reads like the model).
    void sortDefinitions() {
        std::vector<int> state(m_.vars.size(), 0);  // 0 new, 1 on the stack, 2 done
        std::vector<int> stack;
        for (std::size_t v = 0; v < m_.vars.size(); ++v)
            if (m_.vars[v].kind == VarKind::Defined) visit(static_cast<int>(v), state, stack);
    }

    void visit(int v, std::vector<int>& state, std::vector<int>& stack) {
        if (state[static_cast<std::size_t>(v)] == 2) return;
        if (state[static_cast<std::size_t>(v)] == 1) {
            const auto from = std::find(stack.begin(), stack.end(), v);
            std::string path;
            for (auto it = from; it != stack.end(); ++it)
                path += m_.vars[static_cast<std::size_t>(*it)].name + " -> ";
            path += m_.vars[static_cast<std::size_t>(v)].name;
            sink_.error(m_.vars[static_cast<std::size_t>(v)].pos, "E112",
                        "circular definition: " + path);
            return;
        }
        state[static_cast<std::size_t>(v)] = 1;
        stack.push_back(v);
        std::vector<int> deps;
        collect(*m_.vars[static_cast<std::size_t>(v)].expr, deps);
        for (int d : deps)
            if (m_.vars[static_cast<std::size_t>(d)].kind == VarKind::Defined)
                visit(d, state, stack);
        stack.pop_back();
        state[static_cast<std::size_t>(v)] = 2;
        m_.order.push_back(v);
    }

    static void collect(const Term& t, std::vector<int>& out) {
        if (t.op == Op::Var) out.push_back(t.var);
        for (const TermPtr& a : t.args)
            collect(*a, out);
    }

    void bindings() {
        if (m_.potential < 0)
            sink_.error(ast_.pos, "E150",
                        "no state is bound to the membrane potential; add 'bind potential' to "
                        "one state");
    }

    void parameterRanges() {
        for (int p : m_.params) {
            const Variable& v = m_.vars[static_cast<std::size_t>(p)];
            if (v.hasRange && (v.initial < v.lo || v.initial > v.hi))
                sink_.error(v.pos, "E140",
                            "default " + formatShort(v.initial) + " of parameter '" + v.name +
                                "' is outside its range [" + formatShort(v.lo) + ", " +
                                formatShort(v.hi) + "]");
        }
    }

    Definitions definitions() const {
        Definitions d(m_.vars.size());
        for (std::size_t v = 0; v < m_.vars.size(); ++v)
            if (m_.vars[v].kind == VarKind::Defined) d[v] = m_.vars[v].expr;
        return d;
    }

    // W200: a state no other state's rate reads (nor the potential); W201: a defined
    // variable no rate reads.
    void unused() {
        const Definitions defs = definitions();
        DependencyTest deps(defs);
        for (const StateInfo& s : m_.states) {
            if (s.var == m_.potential) continue;
            bool used = false;
            for (const StateInfo& other : m_.states)
                if (other.var != s.var && deps.dependsOn(*other.rate, s.var)) used = true;
            if (!used)
                sink_.warning(
                    m_.vars[static_cast<std::size_t>(s.var)].pos, "W200",
                    "state '" + m_.vars[static_cast<std::size_t>(s.var)].name + "' is never used");
        }
        for (int v : m_.order) {
            if (m_.vars[static_cast<std::size_t>(v)].stimulus) continue;
            bool used = false;
            for (const StateInfo& s : m_.states)
                if (deps.dependsOn(*s.rate, v)) used = true;
            if (!used)
                sink_.warning(
                    m_.vars[static_cast<std::size_t>(v)].pos, "W201",
                    "variable '" + m_.vars[static_cast<std::size_t>(v)].name + "' is never used");
        }
    }

    // Gates by symbolic differentiation, default methods, then the model's and the
    // sections' method lines in order.
    void methods() {
        const Definitions defs = definitions();
        DependencyTest deps(defs);
        for (StateInfo& s : m_.states) {
            Differentiator diff(defs, s.var);
            s.slope = diff.derivative(s.rate);
            s.gate = !deps.dependsOn(*s.slope, s.var);
            s.method = s.gate ? Method::RushLarsen : Method::ForwardEuler;
            if (s.gate) s.intercept = atZero(s.rate, defs, s.var, deps);
        }
        for (const Statement& st : ast_.methods)
            applyMethod(nullptr, st);
        for (const Section& sec : ast_.sections)
            for (const Statement& st : sec.statements)
                if (st.kind == StatementKind::Method) applyMethod(&sec, st);
    }

    void applyMethod(const Section* sec, const Statement& st) {
        for (const std::string& target : st.targets) {
            std::vector<StateInfo*> chosen;
            if (target == "*" || target == "gates") {
                for (StateInfo& s : m_.states) {
                    const std::string& name = m_.vars[static_cast<std::size_t>(s.var)].name;
                    const bool inScope = sec == nullptr || name.rfind(sec->name + ".", 0) == 0;
                    if (inScope && (target == "*" || s.gate)) chosen.push_back(&s);
                }
            } else {
                const int index =
                    sec != nullptr ? lookup(*sec, target, st.pos) : qualified(target, st.pos);
                if (index < 0) continue;
                const int state = m_.stateOf(index);
                if (state < 0) {
                    sink_.error(st.pos, "E114", "method: '" + target + "' is not a state");
                    continue;
                }
                chosen.push_back(&m_.states[static_cast<std::size_t>(state)]);
            }
            for (StateInfo* s : chosen) {
                if (st.method == Method::RushLarsen && !s->gate) {
                    if (target == "*") continue;  // "rl: *" means the gates among them
                    const std::string& name = m_.vars[static_cast<std::size_t>(s->var)].name;
                    sink_.error(st.pos, "E160",
                                "method rl: '" + name +
                                    "' is not a gate: its rate is not affine in '" + name + "'");
                    continue;
                }
                s->method = st.method;
            }
        }
    }

    int qualified(const std::string& name, SourcePos pos) {
        if (const auto it = byName_.find(name); it != byName_.end()) return it->second;
        sink_.error(pos, "E110", "undefined name '" + name + "'");
        return -1;
    }

    const ModelAst& ast_;
    const std::string& variant_;
    DiagnosticSink sink_;
    CheckedModel m_;
    std::map<std::string, int> byName_;
    std::map<std::string, std::map<std::string, std::string>> aliases_;  // section -> alias -> q
};

}  // namespace

int CheckedModel::find(const std::string& qualifiedName) const {
    for (std::size_t i = 0; i < vars.size(); ++i)
        if (vars[i].name == qualifiedName) return static_cast<int>(i);
    return -1;
}

int CheckedModel::stateOf(int var) const {
    for (std::size_t s = 0; s < states.size(); ++s)
        if (states[s].var == var) return static_cast<int>(s);
    return -1;
}

CheckedModel checkModel(const ModelAst& ast, const std::string& variant) {
    return Checker(ast, variant).run();
}

CheckedModel compileModel(const std::string& source, const std::string& file,
                          const std::string& variant) {
    return checkModel(parseModel(source, file), variant);
}

}  // namespace cf::cardiac
