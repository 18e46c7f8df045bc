// SPDX-License-Identifier: GPL-3.0-or-later
// libxml2 node helpers of the CellML importer (cellml_internal.hpp).
#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/cellml/cellml_internal.hpp"

namespace cf::cardiac {

namespace cellml {

[[noreturn]] void fail(const std::string& file, const xmlNode* node, const std::string& message) {
    throw CellmlError(file, node ? lineOf(node) : 1, message);
}

int lineOf(const xmlNode* node) {
    return static_cast<int>(xmlGetLineNo(node));
}

std::string nameOf(const xmlNode* node) {
    return node->name ? reinterpret_cast<const char*>(node->name) : "";
}

std::string namespaceOf(const xmlNode* node) {
    return node->ns && node->ns->href ? reinterpret_cast<const char*>(node->ns->href) : "";
}

bool isCellml(const xmlNode* node) {
    const std::string ns = namespaceOf(node);
    return ns == kCellml10 || ns == kCellml11 || ns == kCellml20;
}

bool isMathml(const xmlNode* node) {
    return namespaceOf(node) == kMathml;
}

std::string owned(xmlChar* s) {
    if (!s) return "";
    std::string out = reinterpret_cast<const char*>(s);
    xmlFree(s);
    return out;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::string attribute(const xmlNode* node, const char* name) {
    return owned(xmlGetNoNsProp(node, reinterpret_cast<const xmlChar*>(name)));
}

bool hasAttribute(const xmlNode* node, const char* name) {
    return xmlHasNsProp(node, reinterpret_cast<const xmlChar*>(name), nullptr) != nullptr;
}

std::string cellmlAttribute(const xmlNode* node, const char* name) {
    for (const char* ns : {kCellml10, kCellml11, kCellml20}) {
        std::string v = owned(xmlGetNsProp(node, reinterpret_cast<const xmlChar*>(name),
                                           reinterpret_cast<const xmlChar*>(ns)));
        if (!v.empty()) return v;
    }
    return "";
}

std::string trimmedText(const xmlNode* node) {
    return trim(owned(xmlNodeGetContent(node)));
}

std::vector<const xmlNode*> elementChildren(const xmlNode* node) {
    std::vector<const xmlNode*> out;
    for (const xmlNode* c = node->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) out.push_back(c);
    return out;
}

}  // namespace cellml

}  // namespace cf::cardiac
