// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/mesh_header_check.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <vector>

#include "sim/core/errors.hpp"

namespace cf::geometry {
namespace {

// Characters skipped between tokens. A superset of what Assimp skips: where Assimp stops
// earlier, it reads a count of 0 and refuses the file itself.
bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == '\0';
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
           });
}

// Text as Assimp's TextFileToBuffer hands it to the OFF parser: without a byte-order mark,
// and UTF-16/32 text narrowed by dropping its NUL bytes (the letters and digits that matter
// here are ASCII, whose wide forms are the byte and NULs).
std::string asText(std::string_view content) {
    const auto bom = [&](std::string_view mark) { return content.substr(0, mark.size()) == mark; };
    using namespace std::string_view_literals;
    if (bom("\xEF\xBB\xBF"sv)) return std::string(content.substr(3));
    if (bom("\xFF\xFE"sv) || bom("\xFE\xFF"sv) || bom("\x00\x00\xFE\xFF"sv)) {
        std::string narrow;
        std::copy_if(content.begin(), content.end(), std::back_inserter(narrow),
                     [](char c) { return c != '\0'; });
        return narrow.substr(std::min<std::size_t>(narrow.size(), 2));  // the mark's bytes
    }
    return std::string(content);
}

struct Cursor {
    std::string_view text;
    std::size_t at = 0;
    char peek(std::size_t ahead = 0) const {
        return at + ahead < text.size() ? text[at + ahead] : '\0';
    }
    // Assimp's OFF NextToken: blanks, and whole lines that begin with '#'.
    void nextToken() {
        for (;;) {
            while (at < text.size() && isBlank(text[at]))
                ++at;
            if (peek() != '#') return;
            while (at < text.size() && text[at] != '\n' && text[at] != '\r')
                ++at;
        }
    }
    void skipBlanksOnLine() {
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t'))
            ++at;
    }
};

// The digits at the cursor, as written and as a value that saturates where Assimp's
// strtoul10 wraps (refusing on the larger value is the safe side).
struct Count {
    std::string_view written;
    std::uint64_t value = 0;
};

Count readCount(Cursor& c) {
    const std::size_t begin = c.at;
    Count count;
    while (c.at < c.text.size() && c.text[c.at] >= '0' && c.text[c.at] <= '9') {
        const std::uint64_t digit = static_cast<std::uint64_t>(c.text[c.at] - '0');
        count.value =
            count.value > (UINT64_MAX - digit) / 10 ? UINT64_MAX : count.value * 10 + digit;
        ++c.at;
    }
    count.written = c.text.substr(begin, c.at - begin);
    return count;
}

std::string written(const Count& count) {
    return std::string(count.written.substr(0, 32)) + (count.written.size() > 32 ? "..." : "");
}

std::optional<std::string> impossible(const Count& count, std::uint64_t fileBytes,
                                      const std::string& format, const std::string& what) {
    if (count.value <= fileBytes) return std::nullopt;
    return "the " + format + " header declares " + written(count) + " " + what +
           ", more than a file of " + std::to_string(fileBytes) + " bytes can hold";
}

// The header as Assimp's OFF importer reads it: [ST][C][N][4][n]OFF, the dimension after
// nOFF, then the vertex and face counts (the header word may be missing).
std::optional<std::string> checkOff(std::string_view text, std::uint64_t fileBytes) {
    Cursor c{text};
    c.nextToken();
    if (c.peek() == 'S' && c.peek(1) == 'T') c.at += 2;
    if (c.peek() == 'C') ++c.at;
    if (c.peek() == 'N') ++c.at;
    if (c.peek() == '4') ++c.at;
    const bool hasDimension = c.peek() == 'n';
    if (hasDimension) ++c.at;
    if (c.peek() == 'O' && c.peek(1) == 'F' && c.peek(2) == 'F') c.at += 3;
    c.nextToken();
    if (hasDimension) {
        readCount(c);
        c.nextToken();
    }
    const Count vertices = readCount(c);
    c.nextToken();
    const Count faces = readCount(c);
    if (auto bad = impossible(vertices, fileBytes, "OFF", "vertices")) return bad;
    return impossible(faces, fileBytes, "OFF", "faces");
}

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

bool isPlyType(std::string_view type) {
    static constexpr std::string_view kTypes[] = {
        "char", "uchar", "short", "ushort", "int",   "uint",   "float",   "double",
        "int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"};
    return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
}

// The PLY header, line by line, against the format's grammar (ply; format; element, property,
// comment and obj_info lines; end_header). Assimp 5.2's PLY parser loops forever on a header
// without a proper end_header and reads past its buffer on some malformed property lines
// (both found by fuzz_mesh), so only a well-formed header reaches it.
std::optional<std::string> checkPly(std::string_view content, std::uint64_t fileBytes) {
    std::size_t at = 0;
    bool inElement = false;
    for (int lineNumber = 1;; ++lineNumber) {
        if (at >= content.size()) return "the PLY header has no end_header line";
        std::size_t end = content.find('\n', at);
        if (end == std::string_view::npos) end = content.size();
        std::string_view line = content.substr(at, end - at);
        at = end + 1;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const auto bad = [&](const std::string& why) {
            return "line " + std::to_string(lineNumber) + " of the PLY header " + why;
        };
        if (std::any_of(line.begin(), line.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t'; }))
            return bad("has a control character (a binary header?)");
        const std::vector<std::string_view> w = splitBlanks(line);
        const std::string_view key = w.empty() ? std::string_view() : w[0];
        if (lineNumber == 1) {
            if (w.size() != 1 || key != "ply") return bad("is not 'ply'");
        } else if (lineNumber == 2) {
            if (w.size() != 3 || key != "format" ||
                (w[1] != "ascii" && w[1] != "binary_little_endian" &&
                 w[1] != "binary_big_endian") ||
                w[2] != "1.0")
                return bad("is not 'format ascii|binary_little_endian|binary_big_endian 1.0'");
        } else if (key == "end_header") {
            if (w.size() != 1) return bad("has words after end_header");
            return std::nullopt;
        } else if (key == "comment" || key == "obj_info") {
        } else if (key == "element") {
            if (w.size() != 3 || w[2].find_first_not_of("0123456789") != std::string_view::npos)
                return bad("is not 'element NAME COUNT'");
            Cursor digits{w[2]};
            const Count count = readCount(digits);
            if (count.value > fileBytes)
                return "the PLY header declares " + written(count) + " '" + std::string(w[1]) +
                       "' elements, more than a file of " + std::to_string(fileBytes) +
                       " bytes can hold";
            inElement = true;
        } else if (key == "property") {
            if (!inElement) return bad("has a property before any element");
            const bool scalar = w.size() == 3 && isPlyType(w[1]);
            const bool list = w.size() == 5 && w[1] == "list" && isPlyType(w[2]) && isPlyType(w[3]);
            if (!scalar && !list)
                return bad("is not 'property TYPE NAME' or 'property list TYPE TYPE NAME'");
        } else {
            return bad("is not a PLY header line: '" + std::string(line.substr(0, 40)) +
                       (line.size() > 40 ? "...'" : "'"));
        }
    }
}

bool looksLikeOff(std::string_view text) {
    Cursor c{text};
    c.nextToken();
    const std::string_view token = text.substr(c.at, 12);  // e.g. STCN4nOFF
    return token.find("OFF") != std::string_view::npos;
}

bool looksLikePly(std::string_view text) {
    Cursor c{text};
    c.nextToken();
    return startsWithNoCase(text.substr(c.at), "ply");
}

}  // namespace

std::optional<std::string> findHeaderProblem(std::string_view content, std::string_view extension,
                                             std::uint64_t fileBytes) {
    const std::string text = asText(content);
    if (extension == ".off" || looksLikeOff(text)) return checkOff(text, fileBytes);
    if (extension == ".ply" || looksLikePly(text)) return checkPly(content, fileBytes);
    return std::nullopt;
}

void checkMeshHeader(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::ifstream in(path, std::ios::binary);
    if (!in) return;  // Assimp says why it cannot open the file
    char head[64] = {};
    in.read(head, sizeof head);
    const std::string_view start(head, static_cast<std::size_t>(in.gcount()));
    const bool off = extension == ".off" || looksLikeOff(asText(start));
    const bool ply = extension == ".ply" || looksLikePly(asText(start));
    if (!off && !ply) return;
    // OFF: Assimp reads the whole file into memory as well. PLY: the header is text that
    // ends at end_header; a binary body need not be read.
    std::string content(start);
    in.clear();
    std::string line;
    while (std::getline(in, line)) {
        content += line;
        content += '\n';
        if (ply && !off && startsWithNoCase(line, "end_header")) break;
    }
    std::error_code error;
    const std::uint64_t fileBytes = std::filesystem::file_size(path, error);
    if (error) return;
    if (const auto problem = findHeaderProblem(content, extension, fileBytes))
        throw IoError("mesh file '" + path.string() + "': " + *problem);
}

}  // namespace cf::geometry
