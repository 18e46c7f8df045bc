// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/ply_check.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iterator>
#include <vector>

namespace cf::geometry {
namespace {

enum class Kind { Signed, Unsigned, Float };

struct ScalarType {
    std::string_view name;
    int bytes;
    Kind kind;
    bool integral() const { return kind != Kind::Float; }
};

constexpr ScalarType kTypes[] = {
    {"char", 1, Kind::Signed},     {"uchar", 1, Kind::Unsigned},  {"short", 2, Kind::Signed},
    {"ushort", 2, Kind::Unsigned}, {"int", 4, Kind::Signed},      {"uint", 4, Kind::Unsigned},
    {"float", 4, Kind::Float},     {"double", 8, Kind::Float},    {"int8", 1, Kind::Signed},
    {"uint8", 1, Kind::Unsigned},  {"int16", 2, Kind::Signed},    {"uint16", 2, Kind::Unsigned},
    {"int32", 4, Kind::Signed},    {"uint32", 4, Kind::Unsigned}, {"float32", 4, Kind::Float},
    {"float64", 8, Kind::Float}};

const ScalarType* findType(std::string_view name) {
    const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes),
                                  [&](const ScalarType& t) { return t.name == name; });
    return it == std::end(kTypes) ? nullptr : it;
}

struct Property {
    const ScalarType* countType = nullptr;  // set for a list
    const ScalarType* valueType = nullptr;
};

struct Element {
    std::string name;
    std::uint64_t count = 0;
    std::vector<Property> properties;
};

enum class Format { Ascii, BinaryLittleEndian, BinaryBigEndian };

std::vector<std::string_view> splitBlanks(std::string_view line) {
    std::vector<std::string_view> words;
    std::size_t at = 0;
    while (at < line.size()) {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t'))
            ++at;
        const std::size_t begin = at;
        while (at < line.size() && line[at] != ' ' && line[at] != '\t')
            ++at;
        if (at > begin) words.push_back(line.substr(begin, at - begin));
    }
    return words;
}

// Lines of the file, '\n' or "\r\n" ended, counted from 1.
struct Lines {
    std::string_view text;
    std::size_t at = 0;
    int number = 0;
    bool next(std::string_view& line) {
        if (at >= text.size()) return false;
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        line = text.substr(at, end - at);
        at = std::min(end + 1, text.size());
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        ++number;
        return true;
    }
};

// A word of the file for a message: at most 40 characters, control characters as '?'.
std::string quoted(std::string_view s) {
    std::string shown(s.substr(0, 40));
    std::replace_if(
        shown.begin(), shown.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; },
        '?');
    return "'" + shown + (s.size() > 40 ? "...'" : "'");
}

bool parseCount(std::string_view word, std::uint64_t& value) {
    const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    return error == std::errc() && end == word.data() + word.size();
}

// One ASCII value of `type`: an integer for the integral types, any decimal number otherwise.
bool isNumber(std::string_view word, const ScalarType& type) {
    if (!word.empty() && word[0] == '+') word.remove_prefix(1);  // from_chars takes no '+'
    const char* end = word.data() + word.size();
    if (type.integral()) {
        long long value = 0;
        const auto result = std::from_chars(word.data(), end, value);
        return result.ec == std::errc() && result.ptr == end;
    }
    double value = 0.0;
    const auto result = std::from_chars(word.data(), end, value);
    return result.ec == std::errc() && result.ptr == end;
}

std::string instance(const Element& e, std::uint64_t i) {
    return "'" + e.name + "' " + std::to_string(i + 1) + " of " + std::to_string(e.count);
}

// One element instance per line, every property's numbers in order.
std::optional<std::string> checkAsciiBody(Lines& lines, const std::vector<Element>& elements) {
    for (const Element& e : elements) {
        for (std::uint64_t i = 0; i < e.count; ++i) {
            std::string_view line;
            if (!lines.next(line))
                return "the PLY file ends before " + instance(e, i) + " (its ASCII body is short)";
            const std::string at = "line " + std::to_string(lines.number) + " of the PLY file: ";
            const std::vector<std::string_view> words = splitBlanks(line);
            std::size_t w = 0;
            for (const Property& p : e.properties) {
                std::uint64_t values = 1;
                if (p.countType != nullptr) {
                    if (w >= words.size() || !parseCount(words[w], values))
                        return at + instance(e, i) + " needs a list length, found " +
                               (w < words.size() ? quoted(words[w]) : "the end of the line");
                    ++w;
                }
                for (std::uint64_t v = 0; v < values; ++v, ++w) {
                    if (w >= words.size())
                        return at + instance(e, i) + " has " + std::to_string(words.size()) +
                               " numbers, fewer than its properties need";
                    if (!isNumber(words[w], *p.valueType))
                        return at + quoted(words[w]) + " in " + instance(e, i) + " is not " +
                               (p.valueType->integral() ? "an integer" : "a number");
                }
            }
            if (w != words.size())
                return at + instance(e, i) + " has " + std::to_string(words.size()) +
                       " numbers, more than its properties need (" + std::to_string(w) + ")";
        }
    }
    std::string_view line;
    while (lines.next(line))
        if (!splitBlanks(line).empty())
            return "line " + std::to_string(lines.number) +
                   " of the PLY file: more data after the last element the header declares";
    return std::nullopt;
}

std::uint64_t readUnsigned(const unsigned char* p, int bytes, bool bigEndian) {
    std::uint64_t value = 0;
    for (int b = 0; b < bytes; ++b)
        value |= static_cast<std::uint64_t>(p[bigEndian ? bytes - 1 - b : b]) << (8 * b);
    return value;
}

// Walks the binary body by the declared types and list lengths, never past its end.
std::optional<std::string> checkBinaryBody(std::string_view body,
                                           const std::vector<Element>& elements, bool bigEndian) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(body.data());
    std::uint64_t at = 0;
    for (const Element& e : elements) {
        for (std::uint64_t i = 0; i < e.count; ++i) {
            for (const Property& p : e.properties) {
                std::uint64_t values = 1;
                if (p.countType != nullptr) {
                    const auto n = static_cast<std::uint64_t>(p.countType->bytes);
                    if (at + n > body.size())
                        return "the binary body ends inside " + instance(e, i);
                    values = readUnsigned(bytes + at, p.countType->bytes, bigEndian);
                    const bool negative =
                        p.countType->kind == Kind::Signed && (values >> (8 * n - 1)) != 0;
                    if (negative)
                        return "the binary body gives " + instance(e, i) +
                               " a negative list length";
                    at += n;
                }
                const auto size = static_cast<std::uint64_t>(p.valueType->bytes);
                if (values > (body.size() - at) / size)
                    return "the binary body ends inside " + instance(e, i);
                at += values * size;
            }
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> findPlyProblem(std::string_view content) {
    Lines lines{content};
    std::vector<Element> elements;
    Format format = Format::Ascii;
    std::string_view line;
    for (;;) {
        if (!lines.next(line)) return "the PLY header has no end_header line";
        const auto bad = [&](const std::string& why) {
            return "line " + std::to_string(lines.number) + " of the PLY header " + why;
        };
        if (std::any_of(line.begin(), line.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t'; }))
            return bad("has a control character (a binary header?)");
        const std::vector<std::string_view> w = splitBlanks(line);
        const std::string_view key = w.empty() ? std::string_view() : w[0];
        if (lines.number == 1) {
            if (w.size() != 1 || key != "ply") return bad("is not 'ply'");
        } else if (lines.number == 2) {
            const bool known =
                w.size() == 3 && key == "format" && w[2] == "1.0" &&
                (w[1] == "ascii" || w[1] == "binary_little_endian" || w[1] == "binary_big_endian");
            if (!known)
                return bad("is not 'format ascii|binary_little_endian|binary_big_endian 1.0'");
            format = w[1] == "ascii"                  ? Format::Ascii
                     : w[1] == "binary_little_endian" ? Format::BinaryLittleEndian
                                                      : Format::BinaryBigEndian;
        } else if (key == "end_header") {
            if (w.size() != 1) return bad("has words after end_header");
            break;
        } else if (key == "comment" || key == "obj_info") {
        } else if (key == "element") {
            Element e;
            if (w.size() != 3 || !parseCount(w[2], e.count))
                return bad("is not 'element NAME COUNT'");
            // Every element takes at least a byte: a larger count is a corrupt header, and
            // Assimp would allocate it before reading on.
            if (e.count > content.size())
                return "the PLY header declares " + std::string(w[2]) + " '" + std::string(w[1]) +
                       "' elements, more than a file of " + std::to_string(content.size()) +
                       " bytes can hold";
            e.name = std::string(w[1]);
            elements.push_back(std::move(e));
        } else if (key == "property") {
            if (elements.empty()) return bad("has a property before any element");
            Property p;
            if (w.size() == 3) {
                p.valueType = findType(w[1]);
            } else if (w.size() == 5 && w[1] == "list") {
                p.countType = findType(w[2]);
                p.valueType = findType(w[3]);
                if (p.countType != nullptr && !p.countType->integral()) p.countType = nullptr;
                if (p.countType == nullptr) p.valueType = nullptr;
            }
            if (p.valueType == nullptr)
                return bad("is not 'property TYPE NAME' or 'property list TYPE TYPE NAME'");
            elements.back().properties.push_back(p);
        } else {
            return bad("is not a PLY header line: " + quoted(line));
        }
    }
    for (const Element& e : elements)
        if (e.count > 0 && e.properties.empty())
            return "the PLY header declares " + std::to_string(e.count) + " '" + e.name +
                   "' elements with no properties";
    if (format == Format::Ascii) return checkAsciiBody(lines, elements);
    return checkBinaryBody(content.substr(lines.at), elements, format == Format::BinaryBigEndian);
}

}  // namespace cf::geometry
