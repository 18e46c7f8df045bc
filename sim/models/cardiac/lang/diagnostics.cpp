// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/diagnostics.hpp"

namespace cf::cardiac {

namespace {

const char* severityName(Severity s) {
    switch (s) {
        case Severity::Error:
            return "error";
        case Severity::Warning:
            return "warning";
        case Severity::Note:
            return "note";
    }
    return "error";
}

std::string joined(const std::vector<Diagnostic>& ds) {
    std::string out;
    for (const Diagnostic& d : ds) {
        if (!out.empty()) out += '\n';
        out += d.format();
    }
    return out;
}

}  // namespace

std::string Diagnostic::format() const {
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " +
           severityName(severity) + ": " + message;
}

ModelError::ModelError(std::vector<Diagnostic> diagnostics)
    : InputError(joined(diagnostics)), diagnostics_(std::move(diagnostics)) {}

void DiagnosticSink::error(SourcePos pos, std::string code, std::string message) {
    if (full()) return;
    items_.push_back({file_, pos, Severity::Error, std::move(code), std::move(message)});
    ++errors_;
}

void DiagnosticSink::warning(SourcePos pos, std::string code, std::string message) {
    items_.push_back({file_, pos, Severity::Warning, std::move(code), std::move(message)});
}

void DiagnosticSink::note(SourcePos pos, std::string code, std::string message) {
    items_.push_back({file_, pos, Severity::Note, std::move(code), std::move(message)});
}

void DiagnosticSink::throwIfErrors() const {
    if (hasErrors()) throw ModelError(items_);
}

}  // namespace cf::cardiac
