// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "sim/core/errors.hpp"

namespace cf {

std::optional<std::string> inputFileProblem(const std::filesystem::path& path) {
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec);
    // A missing file, a missing directory on the way, or a link to nothing.
    if (st.type() == std::filesystem::file_type::not_found ||
        ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory)
        return "no such file";
    if (ec) return "cannot be read: " + ec.message();  // e.g. a directory on the way is closed
    if (std::filesystem::is_directory(st)) return "is a directory, not a file";
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::string("cannot be read: ") + std::strerror(errno);
    return std::nullopt;
}

void requireInputFile(const std::filesystem::path& path) {
    if (const auto problem = inputFileProblem(path))
        throw InputFileError(path.string() + ": " + *problem);
}

std::string readInputFile(const std::filesystem::path& path) {
    requireInputFile(path);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad() || !in.is_open())
        throw InputFileError(path.string() + ": cannot be read: " + std::strerror(errno));
    return text.str();
}

}  // namespace cf
