// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/mesh_file_check.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>

#include "sim/core/errors.hpp"
#include "sim/geometry/ply_check.hpp"

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

std::optional<std::string> findMeshFileProblem(std::string_view content,
                                               std::string_view extension) {
    // Assimp picks the importer by the extension first (a ".ply" file that mentions OFF is
    // read as PLY), and by the content only when the extension names no format it knows.
    const std::string text = asText(content);
    if (extension == ".off") return checkOff(text, content.size());
    if (extension == ".ply") return findPlyProblem(content);
    if (looksLikePly(text))
        if (auto problem = findPlyProblem(content)) return problem;
    if (looksLikeOff(text)) return checkOff(text, content.size());
    return std::nullopt;
}

void checkMeshFile(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::ifstream in(path, std::ios::binary);
    if (!in) return;  // importMesh() says why it cannot open the file
    char head[64] = {};
    in.read(head, sizeof head);
    const std::string start(head, static_cast<std::size_t>(in.gcount()));
    const std::string startText = asText(start);
    if (extension != ".off" && extension != ".ply" && !looksLikeOff(startText) &&
        !looksLikePly(startText))
        return;
    // The whole file, as Assimp reads it too.
    std::string content = start + std::string(std::istreambuf_iterator<char>(in), {});
    if (const auto problem = findMeshFileProblem(content, extension))
        throw InputFileError("mesh file '" + path.string() + "': " + *problem);
}

}  // namespace cf::geometry
