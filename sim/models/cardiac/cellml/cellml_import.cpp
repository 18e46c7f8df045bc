// SPDX-License-Identifier: GPL-3.0-or-later
// CellML 1.0, 1.1 and 2.0 to model-language text (cellml_import.hpp). libxml2 reads the XML without
// network access and without entity substitution; every error names the file and line.
#include "sim/models/cardiac/cellml/cellml_import.hpp"

#include <libxml/parser.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_importer.hpp"
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
    std::string text = noteImports(importer.emit(true));
    // Unit declarations make the model language check the units; a file whose units differ
    // by silent factors would then not compile, so it is imported without units instead.
    try {
        compileModel(text, fileName + " (imported)");
    } catch (const ModelError& e) {
        for (const Diagnostic& d : e.diagnostics())
            if (d.severity == Severity::Error && d.code.rfind("E13", 0) == 0)
                return noteImports(importer.emit(false));
    }
    return text;
}

}  // namespace cf::cardiac
