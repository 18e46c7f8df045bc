// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/lexer.hpp"

#include <cstdlib>
#include <utility>

namespace cf::cardiac {

namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}
// ASCII letters, '_' and any non-ASCII byte (so 'µ' reads as a letter of a unit prefix).
bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

class Lexer {
public:
    Lexer(const std::string& s, DiagnosticSink& sink) : s_(s), sink_(sink) {}

    std::vector<Token> run() {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '#') {
                while (i_ < s_.size() && s_[i_] != '\n')
                    advance();
            } else if (c == '\n') {
                if (depth_ == 0) push(TokenKind::Newline, "\n", pos());
                advance();
            } else if (c == ' ' || c == '\t' || c == '\r') {
                advance();
            } else if (isDigit(c) || (c == '.' && i_ + 1 < s_.size() && isDigit(s_[i_ + 1]))) {
                number();
            } else if (isLetter(c)) {
                identifier();
            } else if (c == '"') {
                string();
            } else {
                punct();
            }
        }
        if (!open_.empty())
            sink_.error(open_.front().second, "E100",
                        std::string("'") + open_.front().first +
                            "' is not closed before the end of the file");
        push(TokenKind::Newline, "\n", pos());
        push(TokenKind::End, "", pos());
        return std::move(out_);
    }

private:
    SourcePos pos() const { return {line_, column_}; }
    void advance() {
        const char c = s_[i_++];
        if (c == '\n') {
            ++line_;
            column_ = 1;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++column_;  // count code points, not UTF-8 continuation bytes
        }
    }
    void push(TokenKind k, std::string text, SourcePos at, double value = 0) {
        out_.push_back({k, std::move(text), value, at});
    }
    void number() {
        const SourcePos at = pos();
        const std::size_t start = i_;
        while (i_ < s_.size() && isDigit(s_[i_]))
            advance();
        if (i_ < s_.size() && s_[i_] == '.') {
            advance();
            while (i_ < s_.size() && isDigit(s_[i_]))
                advance();
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            std::size_t j = i_ + 1;
            if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
            if (j < s_.size() && isDigit(s_[j])) {
                while (i_ < j)
                    advance();
                while (i_ < s_.size() && isDigit(s_[i_]))
                    advance();
            }
        }
        const std::string text = s_.substr(start, i_ - start);
        push(TokenKind::Number, text, at, std::strtod(text.c_str(), nullptr));
    }
    void identifier() {
        const SourcePos at = pos();
        const std::size_t start = i_;
        while (i_ < s_.size() && (isLetter(s_[i_]) || isDigit(s_[i_])))
            advance();
        push(TokenKind::Identifier, s_.substr(start, i_ - start), at);
    }
    void string() {
        const SourcePos at = pos();
        advance();
        const std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n')
            advance();
        if (i_ >= s_.size() || s_[i_] != '"') {
            sink_.error(at, "E102", "unterminated string");
            return;
        }
        push(TokenKind::String, s_.substr(start, i_ - start), at);
        advance();
    }
    void punct() {
        const SourcePos at = pos();
        const char c = s_[i_];
        const char next = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
        if ((c == '<' || c == '>' || c == '=' || c == '!') && next == '=') {
            advance();
            advance();
            push(TokenKind::Punct, std::string{c, '='}, at);
            return;
        }
        static const std::string single = "()[]{},.:=+-*/^<>";
        if (single.find(c) == std::string::npos) {
            sink_.error(at, "E101", std::string("unknown character '") + c + "'");
            advance();
            return;
        }
        // Newlines inside parentheses, and inside a variant's braces, continue the statement
        // (units stay on one line).
        if (c == '(' || c == '{') {
            ++depth_;
            open_.emplace_back(c, at);
        }
        if ((c == ')' || c == '}') && depth_ > 0) {
            --depth_;
            open_.pop_back();
        }
        advance();
        push(TokenKind::Punct, std::string(1, c), at);
    }

    const std::string& s_;
    DiagnosticSink& sink_;
    std::size_t i_ = 0;
    int line_ = 1, column_ = 1, depth_ = 0;
    std::vector<Token> out_;
    std::vector<std::pair<char, SourcePos>> open_;  // unclosed '(' and '{'
};

}  // namespace

std::string describe(const Token& t) {
    switch (t.kind) {
        case TokenKind::Identifier:
            return "'" + t.text + "'";
        case TokenKind::Number:
            return "number " + t.text;
        case TokenKind::String:
            return "string \"" + t.text + "\"";
        case TokenKind::Punct:
            return "'" + t.text + "'";
        case TokenKind::Newline:
            return "end of line";
        case TokenKind::End:
            return "end of file";
    }
    return "'" + t.text + "'";
}

std::vector<Token> tokenize(const std::string& source, DiagnosticSink& sink) {
    return Lexer(source, sink).run();
}

}  // namespace cf::cardiac
