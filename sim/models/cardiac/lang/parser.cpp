// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/parser.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "sim/models/cardiac/lang/lexer.hpp"

namespace cf::cardiac {

namespace {

// Thrown inside the parser to abandon a statement; caught at the statement level, which
// skips to the next line (the diagnostic is already recorded).
struct SyntaxError {};

class Parser {
public:
    Parser(std::vector<Token> tokens, DiagnosticSink& sink) : t_(std::move(tokens)), sink_(sink) {}

    ModelAst run(const std::string& file) {
        ModelAst m;
        m.file = file;
        skipNewlines();
        guarded([&] { header(m); });
        while (!at(TokenKind::End) && !sink_.full()) {
            if (isPunct("[")) {
                guarded([&] { m.sections.push_back(sectionHead()); });
                continue;
            }
            if (m.sections.empty()) {
                guarded([&] { headerItem(m); });
                continue;
            }
            guarded([&] { m.sections.back().statements.push_back(statement()); });
        }
        return m;
    }

private:
    // Runs one statement's parser; on a syntax error skips to the start of the next line.
    template <typename F>
    void guarded(F&& f) {
        try {
            f();
        } catch (const SyntaxError&) {
            while (!at(TokenKind::Newline) && !at(TokenKind::End))
                ++k_;
        }
        skipNewlines();
    }

    const Token& peek(std::size_t ahead = 0) const {
        const std::size_t i = k_ + ahead;
        return i < t_.size() ? t_[i] : t_.back();
    }
    bool at(TokenKind k) const { return peek().kind == k; }
    bool isPunct(const char* p) const { return at(TokenKind::Punct) && peek().text == p; }
    bool isWord(const char* w) const { return at(TokenKind::Identifier) && peek().text == w; }
    [[noreturn]] void expected(const std::string& what) {
        sink_.error(peek().pos, "E100", "expected " + what + ", found " + describe(peek()));
        throw SyntaxError{};
    }
    Token take() { return t_[k_++]; }
    void expectPunct(const char* p) {
        if (!isPunct(p)) expected(std::string("'") + p + "'");
        ++k_;
    }
    void expectWord(const char* w) {
        if (!isWord(w)) expected(std::string("'") + w + "'");
        ++k_;
    }
    void endOfStatement() {
        if (!at(TokenKind::Newline) && !at(TokenKind::End)) expected("end of line");
    }
    void skipNewlines() {
        while (at(TokenKind::Newline))
            ++k_;
    }
    std::string identifier(const char* what = "a name") {
        if (!at(TokenKind::Identifier)) expected(what);
        return take().text;
    }
    std::string qualifiedName() {
        std::string n = identifier();
        if (isPunct(".")) {
            ++k_;
            n += "." + identifier("a name after '.'");
        }
        return n;
    }
    // snum = [+|-] number
    double signedNumber() {
        double sign = 1;
        if (isPunct("-") || isPunct("+")) sign = take().text == "-" ? -1 : 1;
        if (!at(TokenKind::Number)) expected("a number");
        return sign * take().number;
    }
    // unit = "[" uterm { (*|/) uterm } "]"; returned as written, without the brackets.
    std::string unit() {
        expectPunct("[");
        std::string u;
        bool term = true;  // a term is expected next
        while (!isPunct("]")) {
            if (term) {
                if (at(TokenKind::Number) && peek().text == "1") {
                    u += take().text;
                } else if (at(TokenKind::Identifier)) {
                    u += take().text;
                    if (isPunct("^")) {
                        u += take().text;
                        if (isPunct("-")) u += take().text;
                        if (!at(TokenKind::Number)) expected("an integer exponent");
                        u += take().text;
                    }
                } else {
                    expected("a unit");
                }
                term = false;
            } else {
                if (!isPunct("*") && !isPunct("/")) expected("'*', '/' or ']'");
                u += take().text;
                term = true;
            }
        }
        if (term) expected("a unit");
        ++k_;
        return u;
    }

    void header(ModelAst& m) {
        m.pos = peek().pos;
        expectWord("model");
        m.name = identifier("the model's name");
        if (at(TokenKind::String)) m.title = take().text;
        endOfStatement();
    }

    void headerItem(ModelAst& m) {
        if (isWord("time")) {
            ++k_;
            m.timeUnit = unit();
        } else if (isWord("variant")) {
            Variant v;
            v.pos = take().pos;
            v.name = identifier("the variant's name");
            expectPunct("{");
            do {
                Override o;
                o.pos = peek().pos;
                o.name = qualifiedName();
                expectPunct("=");
                o.value = signedNumber();
                if (isPunct("[")) o.unit = unit();
                v.overrides.push_back(std::move(o));
            } while (isPunct(",") && (++k_, true));
            expectPunct("}");
            m.variants.push_back(std::move(v));
        } else if (isWord("method")) {
            m.methods.push_back(methodLine());
            return;
        } else if (isWord("lookup")) {
            Lookup l;
            l.pos = take().pos;
            l.name = qualifiedName();
            expectPunct("(");
            l.lo = signedNumber();
            expectPunct(",");
            l.hi = signedNumber();
            expectPunct(",");
            l.step = signedNumber();
            expectPunct(")");
            m.lookups.push_back(l);
        } else if (isWord("option")) {
            ++k_;
            std::string key = identifier("an option name");
            expectPunct("=");
            if (!at(TokenKind::Number) && !at(TokenKind::Identifier) && !at(TokenKind::String))
                expected("an option value");
            m.options.emplace_back(std::move(key), take().text);
        } else {
            expected("'time', 'variant', 'method', 'lookup', 'option' or a section '[name]'");
        }
        endOfStatement();
    }

    Section sectionHead() {
        Section s;
        s.pos = peek().pos;
        expectPunct("[");
        s.name = identifier("a section name");
        expectPunct("]");
        endOfStatement();
        return s;
    }

    Statement methodLine() {
        Statement st;
        st.kind = StatementKind::Method;
        st.pos = take().pos;
        const std::string name = identifier("a method: fe, rl, grl1 or be");
        const Method* found = std::find_if(std::begin(kMethods), std::end(kMethods),
                                           [&](Method m) { return name == methodKeyword(m); });
        if (found == std::end(kMethods)) {
            --k_;
            expected("a method: fe, rl, grl1 or be");
        }
        st.method = *found;
        expectPunct(":");
        if (isPunct("*")) {
            st.targets.push_back(take().text);
        } else {
            st.targets.push_back(qualifiedName());
            while (isPunct(",")) {
                ++k_;
                st.targets.push_back(qualifiedName());
            }
        }
        endOfStatement();
        return st;
    }

    Statement statement() {
        if (isWord("state")) return stateOrParam(StatementKind::State);
        if (isWord("param")) return stateOrParam(StatementKind::Param);
        if (isWord("method")) return methodLine();
        if (isWord("use")) return useLine();
        Statement st;
        st.pos = peek().pos;
        if (isWord("dot") && peek(1).kind == TokenKind::Punct && peek(1).text == "(") {
            k_ += 2;
            st.kind = StatementKind::Ode;
            st.name = identifier("a state name");
            expectPunct(")");
            expectPunct("=");
            st.expr = expression();
            endOfStatement();
            return st;
        }
        st.kind = StatementKind::Define;
        st.name = identifier("a statement: state, param, dot(x) = ..., use, method or name = ...");
        expectPunct("=");
        st.expr = expression();
        if (isWord("in")) {
            ++k_;
            st.inUnit = unit();
        }
        if (isWord("bind")) {
            ++k_;
            const std::string role = identifier("'stimulus' or 'time'");
            if (role != "stimulus" && role != "time") {
                --k_;
                expected("'stimulus' or 'time'");
            }
            st.binding = role;
        }
        endOfStatement();
        return st;
    }

    Statement stateOrParam(StatementKind kind) {
        Statement st;
        st.kind = kind;
        st.pos = take().pos;
        st.name = identifier();
        expectPunct("=");
        st.value = signedNumber();
        if (isPunct("[")) st.unit = unit();
        if (kind == StatementKind::State && isWord("bind")) {
            ++k_;
            expectWord("potential");
            st.bindPotential = true;
        }
        if (kind == StatementKind::Param && isWord("range")) {
            ++k_;
            expectPunct("(");
            st.rangeLo = signedNumber();
            expectPunct(",");
            st.rangeHi = signedNumber();
            expectPunct(")");
            st.hasRange = true;
        }
        if (kind == StatementKind::Param && isWord("structural")) {
            ++k_;
            st.structural = true;
        }
        if (at(TokenKind::String)) st.description = take().text;
        endOfStatement();
        return st;
    }

    Statement useLine() {
        Statement st;
        st.kind = StatementKind::Use;
        st.pos = take().pos;
        do {
            std::string target = qualifiedName();
            std::string alias;
            if (isWord("as")) {
                ++k_;
                alias = identifier("an alias");
            }
            st.uses.emplace_back(std::move(target), std::move(alias));
        } while (isPunct(",") && (++k_, true));
        endOfStatement();
        return st;
    }

    // ---- expressions ----------------------------------------------------------------
    ExprPtr node(ExprKind kind, SourcePos pos, std::string text, std::vector<ExprPtr> args) {
        auto e = std::make_shared<Expr>();
        e->kind = kind;
        e->pos = pos;
        e->text = std::move(text);
        e->args = std::move(args);
        return e;
    }
    ExprPtr expression() { return orExpr(); }
    ExprPtr orExpr() {
        ExprPtr l = andExpr();
        while (isWord("or")) {
            const SourcePos p = take().pos;
            l = node(ExprKind::Binary, p, "or", {l, andExpr()});
        }
        return l;
    }
    ExprPtr andExpr() {
        ExprPtr l = notExpr();
        while (isWord("and")) {
            const SourcePos p = take().pos;
            l = node(ExprKind::Binary, p, "and", {l, notExpr()});
        }
        return l;
    }
    ExprPtr notExpr() {
        if (isWord("not")) {
            const SourcePos p = take().pos;
            return node(ExprKind::Unary, p, "not", {notExpr()});
        }
        return comparison();
    }
    ExprPtr comparison() {
        ExprPtr l = sum();
        for (const char* op : {"<", "<=", ">", ">=", "==", "!="})
            if (isPunct(op)) {
                const SourcePos p = take().pos;
                l = node(ExprKind::Binary, p, op, {l, sum()});
                for (const char* again : {"<", "<=", ">", ">=", "==", "!="})
                    if (isPunct(again)) expected("an operator other than a comparison (no chains)");
                return l;
            }
        return l;
    }
    ExprPtr sum() {
        ExprPtr l = product();
        while (isPunct("+") || isPunct("-")) {
            const Token op = take();
            l = node(ExprKind::Binary, op.pos, op.text, {l, product()});
        }
        return l;
    }
    ExprPtr product() {
        ExprPtr l = unary();
        while (isPunct("*") || isPunct("/")) {
            const Token op = take();
            l = node(ExprKind::Binary, op.pos, op.text, {l, unary()});
        }
        return l;
    }
    ExprPtr unary() {
        if (isPunct("-") || isPunct("+")) {
            const Token op = take();
            return node(ExprKind::Unary, op.pos, op.text, {unary()});
        }
        return power();
    }
    ExprPtr power() {
        ExprPtr base = primary();
        if (isPunct("^")) {
            const SourcePos p = take().pos;
            return node(ExprKind::Binary, p, "^", {base, unary()});
        }
        return base;
    }
    ExprPtr primary() {
        const SourcePos p = peek().pos;
        if (at(TokenKind::Number)) {
            auto e = std::make_shared<Expr>();
            e->kind = ExprKind::Number;
            e->pos = p;
            e->text = peek().text;
            e->value = take().number;
            if (isPunct("[")) e->unit = unit();
            return e;
        }
        if (isPunct("(")) {
            ++k_;
            ExprPtr inner = expression();
            expectPunct(")");
            return inner;
        }
        if (at(TokenKind::Identifier)) {
            if (peek(1).kind == TokenKind::Punct && peek(1).text == "(") {
                const std::string f = take().text;
                ++k_;
                std::vector<ExprPtr> args;
                if (!isPunct(")")) {
                    args.push_back(expression());
                    while (isPunct(",")) {
                        ++k_;
                        args.push_back(expression());
                    }
                }
                expectPunct(")");
                return node(ExprKind::Call, p, f, std::move(args));
            }
            return node(ExprKind::Name, p, qualifiedName(), {});
        }
        expected("an expression");
    }

    std::vector<Token> t_;
    DiagnosticSink& sink_;
    std::size_t k_ = 0;
};

}  // namespace

ModelAst parseModel(const std::string& source, const std::string& file) {
    DiagnosticSink sink(file);
    std::vector<Token> tokens = tokenize(source, sink);
    ModelAst m = Parser(std::move(tokens), sink).run(file);
    sink.throwIfErrors();
    return m;
}

}  // namespace cf::cardiac
