// SPDX-License-Identifier: GPL-3.0-or-later
// CellML 1.1 (and 2.0) imports, resolved before the model is read: every <import> of the
// model is replaced by copies of what it imports, read from the file its xlink:href names
// relative to the importing file (no network). An imported component brings the components
// it encapsulates in its own model and the connections among them, as the specification
// has it; the model-level units of its file are copied into each such component, where they
// are in scope as they were; an imported <units> is copied under its local name. Imports
// inside imported files are resolved first; a cycle is refused.
#include <libxml/parser.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/cellml/cellml_internal.hpp"

namespace cf::cardiac::cellml {

namespace {

namespace fs = std::filesystem;

constexpr const char* kXlink = "http://www.w3.org/1999/xlink";

struct DocFree {
    void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};

const xmlChar* x(const char* s) {
    return reinterpret_cast<const xmlChar*>(s);
}

xmlNode* findChild(xmlNode* parent, const std::string& tag, const std::string& name) {
    for (xmlNode* c = parent->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && isCellml(c) && nameOf(c) == tag &&
            attribute(c, "name") == name)
            return c;
    return nullptr;
}

// The components `name` encapsulates in `root`, at any depth, in document order.
void encapsulated(const xmlNode* ref, bool inside, const std::string& name,
                  std::vector<std::string>& out) {
    for (const xmlNode* c : elementChildren(ref)) {
        if (nameOf(c) != "component_ref") continue;
        const std::string n = attribute(c, "component");
        if (inside) out.push_back(n);
        encapsulated(c, inside || n == name, name, out);
    }
}

std::vector<std::string> encapsulatedBy(const xmlNode* root, const std::string& name) {
    std::vector<std::string> out;
    for (const xmlNode* g : elementChildren(root)) {
        const std::string tag = nameOf(g);
        bool encapsulation = tag == "encapsulation";
        if (tag == "group")
            for (const xmlNode* r : elementChildren(g))
                if (nameOf(r) == "relationship_ref" &&
                    attribute(r, "relationship") == "encapsulation")
                    encapsulation = true;
        if (encapsulation) encapsulated(g, false, name, out);
    }
    return out;
}

std::string href(const xmlNode* e) {
    return owned(xmlGetNsProp(e, x("href"), x(kXlink)));
}

// The components named in a connection (1.x: its map_components; 2.0: its attributes).
std::pair<std::string, std::string> connected(const xmlNode* c) {
    if (namespaceOf(c) == kCellml20)
        return {attribute(c, "component_1"), attribute(c, "component_2")};
    for (const xmlNode* k : elementChildren(c))
        if (nameOf(k) == "map_components")
            return {attribute(k, "component_1"), attribute(k, "component_2")};
    return {};
}

void renameConnection(xmlNode* c, const std::map<std::string, std::string>& names) {
    xmlNode* holder = c;
    if (namespaceOf(c) != kCellml20)
        for (xmlNode* k = c->children; k; k = k->next)
            if (k->type == XML_ELEMENT_NODE && nameOf(k) == "map_components") holder = k;
    for (const char* a : {"component_1", "component_2"})
        xmlSetProp(holder, x(a), x(names.at(attribute(holder, a)).c_str()));
}

void resolve(xmlNode* root, const std::string& file, std::vector<std::string>& chain,
             std::vector<std::string>& read);

void importFrom(xmlNode* root, xmlNode* import, const std::string& file,
                std::vector<std::string>& chain, std::vector<std::string>& read) {
    const std::string target = href(import);
    if (target.empty()) fail(file, import, "<import> without an xlink:href");
    if (target.find("://") != std::string::npos)
        fail(file, import,
             "<import> of '" + target +
                 "': imports are read from files beside the model, not fetched; save it there "
                 "and name it by a relative path");
    const fs::path path = fs::path(file).parent_path() / target;
    const std::string shown = path.lexically_normal().string();
    if (std::find(chain.begin(), chain.end(), shown) != chain.end())
        fail(file, import, "<import> of '" + shown + "' is circular: it imports itself");
    std::unique_ptr<xmlDoc, DocFree> doc(xmlReadFile(
        shown.c_str(), nullptr,
        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES));
    if (!doc)
        fail(file, import,
             "<import> of '" + shown +
                 "': " + (fs::exists(path) ? "not well-formed XML" : "no such file"));
    xmlNode* other = xmlDocGetRootElement(doc.get());
    if (other == nullptr || nameOf(other) != "model" || !isCellml(other))
        fail(file, import, "<import> of '" + shown + "': not a CellML model");
    chain.push_back(shown);
    resolve(other, shown, chain, read);
    chain.pop_back();
    if (std::find(read.begin(), read.end(), shown) == read.end()) read.push_back(shown);

    std::vector<const xmlNode*> modelUnits;
    for (const xmlNode* u : elementChildren(other))
        if (isCellml(u) && nameOf(u) == "units") modelUnits.push_back(u);
    for (const xmlNode* item : elementChildren(import)) {
        if (!isCellml(item)) continue;
        const std::string tag = nameOf(item);
        const std::string local = attribute(item, "name");
        if (tag == "units") {
            xmlNode* u = findChild(other, "units", attribute(item, "units_ref"));
            if (u == nullptr)
                fail(file, item,
                     "imported units '" + attribute(item, "units_ref") + "' are not in '" + shown +
                         "'");
            xmlNode* copy = xmlDocCopyNode(u, root->doc, 1);
            xmlSetProp(copy, x("name"), x(local.c_str()));
            xmlAddPrevSibling(import, copy);
            continue;
        }
        if (tag != "component") fail(file, item, "unknown element <" + tag + "> in <import>");
        const std::string ref = attribute(item, "component_ref");
        if (findChild(other, "component", ref) == nullptr)
            fail(file, item, "imported component '" + ref + "' is not in '" + shown + "'");
        // The component, then what it encapsulates in document order (the order the
        // components are read in, and so the order of the sections written).
        std::vector<std::pair<std::string, std::string>> order{{ref, local}};
        for (const std::string& inner : encapsulatedBy(other, ref))
            order.emplace_back(inner, inner);
        const std::map<std::string, std::string> names(order.begin(), order.end());
        for (const auto& [from, to] : order) {
            xmlNode* original = findChild(other, "component", from);
            if (original == nullptr)
                fail(file, item,
                     "component '" + from + "' encapsulated by '" + ref + "' is not in '" + shown +
                         "'");
            xmlNode* copy = xmlDocCopyNode(original, root->doc, 1);
            xmlSetProp(copy, x("name"), x(to.c_str()));
            // The file's model-level units, in scope inside the component as they were (its
            // own units of the same name come later and are found first).
            for (auto it = modelUnits.rbegin(); it != modelUnits.rend(); ++it)
                if (findChild(copy, "units", attribute(*it, "name")) == nullptr) {
                    xmlNode* u = xmlDocCopyNode(const_cast<xmlNode*>(*it), root->doc, 1);
                    if (copy->children != nullptr) {
                        xmlAddPrevSibling(copy->children, u);
                    } else {
                        xmlAddChild(copy, u);
                    }
                }
            xmlAddPrevSibling(import, copy);
        }
        for (const xmlNode* c : elementChildren(other)) {
            if (!isCellml(c) || nameOf(c) != "connection") continue;
            const auto [a, b] = connected(c);
            if (names.count(a) == 0 || names.count(b) == 0) continue;
            xmlNode* copy = xmlDocCopyNode(const_cast<xmlNode*>(c), root->doc, 1);
            renameConnection(copy, names);
            xmlAddPrevSibling(import, copy);
        }
    }
}

void resolve(xmlNode* root, const std::string& file, std::vector<std::string>& chain,
             std::vector<std::string>& read) {
    std::vector<xmlNode*> imports;
    for (xmlNode* e = root->children; e; e = e->next)
        if (e->type == XML_ELEMENT_NODE && isCellml(e) && nameOf(e) == "import")
            imports.push_back(e);
    for (xmlNode* e : imports) {
        importFrom(root, e, file, chain, read);
        xmlUnlinkNode(e);
        xmlFreeNode(e);
    }
}

}  // namespace

std::vector<std::string> resolveImports(xmlNode* root, const std::string& file) {
    std::vector<std::string> chain{fs::path(file).lexically_normal().string()}, read;
    resolve(root, file, chain, read);
    return read;
}

}  // namespace cf::cardiac::cellml
