// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tokens of the cardiac model language (.cfm; docs/design/cardiac.md section 1.1). Newlines
// end statements, except inside parentheses; '#' starts a comment.
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

enum class TokenKind { Identifier, Number, String, Punct, Newline, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;   // identifier, number text, string contents, or the punctuation
    double number = 0;  // for Number
    SourcePos pos;
};

// How a token reads in "expected X, found Y" messages: 'x', number 1.5, end of line, ...
std::string describe(const Token& t);

// Every token of `source`, ending with one End token. Lexical errors (E101 unknown character,
// E102 unterminated string) go to `sink`; the offending characters are skipped.
std::vector<Token> tokenize(const std::string& source, DiagnosticSink& sink);

}  // namespace cf::cardiac
