// SPDX-License-Identifier: GPL-3.0-or-later
// CellML 1.0, 1.1 and 2.0 to model-language text (cellml_import.hpp). libxml2 reads the XML without
// network access and without entity substitution; every error names the file and line.
#include "sim/models/cardiac/cellml/cellml_import.hpp"

#include <libxml/parser.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_importer.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {

namespace {

using namespace cellml;

struct DocFree {
    void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
struct ContextFree {
    void operator()(xmlParserCtxt* c) const { xmlFreeParserCtxt(c); }
};

}  // namespace

std::string importCellml(const std::string& xmlText, const std::string& fileName,
                         const CellmlImportOptions& options) {
    xmlInitParser();
    std::unique_ptr<xmlParserCtxt, ContextFree> context(xmlNewParserCtxt());
    if (!context) throw CellmlError(fileName, 1, "libxml2 could not create a parser");
    // No network, no entity substitution, no printing (errors come back through the context).
    const int flags =
        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES;
    std::unique_ptr<xmlDoc, DocFree> doc(xmlCtxtReadMemory(context.get(), xmlText.data(),
                                                           static_cast<int>(xmlText.size()),
                                                           fileName.c_str(), nullptr, flags));
    if (!doc) {
        const xmlError* e = xmlCtxtGetLastError(context.get());
        const std::string message = e && e->message ? trim(e->message) : "cannot be parsed";
        throw CellmlError(fileName, e ? e->line : 1, "not well-formed XML: " + message,
                          e ? e->int2 : 0);
    }
    xmlNode* root = xmlDocGetRootElement(doc.get());
    if (!root) throw CellmlError(fileName, 1, "the XML document has no root element");
    const std::vector<std::string> imported =
        isCellml(root) ? resolveImports(root, fileName) : std::vector<std::string>{};
    // The header's second line: where the statements of imported components come from.
    const auto noteImports = [&](std::string text) {
        if (imported.empty()) return text;
        std::string note = "# Assembled with CellML imports from";
        for (const std::string& f : imported)
            note += (f == imported.front() ? " " : ", ") + f;
        note += "; the '# line N' of an imported component's statement is a line of its file.\n";
        return text.insert(text.find('\n') + 1, note);
    };
    Importer importer(fileName, options);
    importer.read(root);
    // Unit declarations make the model language check the units; a file whose units differ
    // by silent factors would then not compile, so it is imported without units instead.
    const auto emitChecked = [&]() -> std::pair<std::string, std::optional<CheckedModel>> {
        std::string text = noteImports(importer.emit(true));
        try {
            return {text, compileModel(text, fileName + " (imported)")};
        } catch (const ModelError& e) {
            bool units = false;
            for (const Diagnostic& d : e.diagnostics())
                units = units || (d.severity == Severity::Error && d.code.rfind("E13", 0) == 0);
            if (!units) return {text, std::nullopt};  // shown where the text is compiled
        }
        text = noteImports(importer.emit(false));
        try {
            return {text, compileModel(text, fileName + " (imported)")};
        } catch (const ModelError&) {
            return {text, std::nullopt};
        }
    };
    auto [text, model] = emitChecked();
    if (!model || !importer.hasStimulus()) return text;
    // 1 A/F of depolarising amplitude must raise the potential's rate by 1 mV/ms; the units
    // give the factor, the model's own equation the sign, and where the two disagree beyond
    // rounding the file's units are inconsistent.
    const double effect = stimulusEffect(CellProgram(*model, false));
    const bool magnitudeMatters = importer.potentialIsVoltage();
    if (!std::isfinite(effect) || effect == 0)
        throw CellmlError(fileName, importer.stimulusLine(),
                          "the stimulus '" + importer.stimulusName() +
                              "' does not change the rate of '" + importer.potentialName() +
                              "' at the initial state, so a stimulus protocol cannot drive it");
    if (magnitudeMatters && std::fabs(std::fabs(effect) - 1.0) > 1e-9) {
        if (!options.stimulusByEquation)
            throw CellmlError(
                fileName, importer.stimulusLine(),
                "the units of the stimulus '" + importer.stimulusName() +
                    "' do not reconcile with the equation of '" + importer.potentialName() +
                    "': converted by its units, 1 A/F of amplitude changes that rate by " +
                    formatSignificant(std::fabs(effect), 6) +
                    " mV/ms, not 1 (the file's units are inconsistent). To scale the stimulus "
                    "by the equation instead, import with stimulusByEquation "
                    "(cellforge-sim cellml2cfm --stimulus-by-equation)");
        importer.scaleStimulus(1.0 / effect);
    } else if (effect < 0) {  // the file's stimulus depolarises when positive
        importer.scaleStimulus(-1.0);
    } else {
        return text;
    }
    std::tie(text, model) = emitChecked();
    return text;
}

}  // namespace cf::cardiac
