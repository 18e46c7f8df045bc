// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Diagnostics of the cardiac model language (docs/design/cardiac.md section 1.3): every
// message is "FILE:LINE:COL: error|warning|note: MESSAGE" with 1-based line and column.
// A pass collects its diagnostics (up to kMaxDiagnostics errors) and throws one ModelError
// holding them all, so a user sees every mistake of a file at once.
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"

namespace cf::cardiac {

inline constexpr std::size_t kMaxDiagnostics = 50;

struct SourcePos {
    int line = 1;
    int column = 1;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
    std::string file;
    SourcePos pos;
    Severity severity = Severity::Error;
    std::string code;  // "E100", "W200", ...
    std::string message;

    std::string format() const;
};

class ModelError : public InputError {
public:
    explicit ModelError(std::vector<Diagnostic> diagnostics);
    const std::vector<Diagnostic>& diagnostics() const noexcept { return diagnostics_; }

private:
    std::vector<Diagnostic> diagnostics_;
};

// Collects diagnostics for one file; throwIfErrors() throws a ModelError holding every
// diagnostic so far when at least one is an error.
class DiagnosticSink {
public:
    explicit DiagnosticSink(std::string file) : file_(std::move(file)) {}
    void error(SourcePos pos, std::string code, std::string message);
    void warning(SourcePos pos, std::string code, std::string message);
    void note(SourcePos pos, std::string code, std::string message);
    bool hasErrors() const noexcept { return errors_ > 0; }
    bool full() const noexcept { return errors_ >= kMaxDiagnostics; }
    void throwIfErrors() const;
    const std::vector<Diagnostic>& all() const noexcept { return items_; }
    const std::string& file() const noexcept { return file_; }

private:
    std::string file_;
    std::vector<Diagnostic> items_;
    std::size_t errors_ = 0;
};

}  // namespace cf::cardiac
