// SPDX-License-Identifier: GPL-3.0-or-later
// The per-rank checkpoint file names of a distributed run (checkpoint.hpp).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <system_error>

#include "sim/core/errors.hpp"
#include "sim/io/checkpoint.hpp"

namespace cf::io {

namespace fs = std::filesystem;

namespace {

// "<digits>" at `pos` of `text` as an int (advancing `pos`), or -1.
int digitsAt(const std::string& text, std::size_t& pos) {
    const std::size_t end = text.find_first_not_of("0123456789", pos);
    const std::size_t stop = end == std::string::npos ? text.size() : end;
    if (stop == pos || stop - pos > 9) return -1;
    const int value = std::stoi(text.substr(pos, stop - pos));
    pos = stop;
    return value;
}

}  // namespace

fs::path rankCheckpointPath(const fs::path& checkpoint, int rank, int ranks) {
    char middle[48];
    std::snprintf(middle, sizeof middle, ".rank%04d-of-%04d", rank, ranks);
    fs::path out = checkpoint;
    out.replace_filename(checkpoint.stem().string() + middle + checkpoint.extension().string());
    return out;
}

std::optional<int> checkpointRanks(const fs::path& checkpoint) {
    const std::string prefix = checkpoint.stem().string() + ".rank";
    const std::string extension = checkpoint.extension().string();
    struct Set {
        std::set<int> ranks;
        fs::file_time_type newest = fs::file_time_type::min();
    };
    std::map<int, Set> sets;
    const fs::path dir = checkpoint.has_parent_path() ? checkpoint.parent_path() : fs::path(".");
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() <= prefix.size() + extension.size() ||
            name.compare(0, prefix.size(), prefix) != 0 ||
            name.compare(name.size() - extension.size(), extension.size(), extension) != 0)
            continue;
        std::size_t pos = prefix.size();
        const int rank = digitsAt(name, pos);
        if (rank < 0 || name.compare(pos, 4, "-of-") != 0) continue;
        pos += 4;
        const int ranks = digitsAt(name, pos);
        if (ranks <= 0 || rank >= ranks || pos != name.size() - extension.size()) continue;
        Set& set = sets[ranks];
        set.ranks.insert(rank);
        std::error_code timeError;
        const fs::file_time_type time = fs::last_write_time(e.path(), timeError);
        if (!timeError) set.newest = std::max(set.newest, time);
    }
    std::optional<int> best;
    bool bestComplete = false;
    fs::file_time_type bestTime = fs::file_time_type::min();
    for (const auto& [ranks, set] : sets) {
        const bool complete = static_cast<int>(set.ranks.size()) == ranks;
        if (!best || (complete && !bestComplete) ||
            (complete == bestComplete && set.newest > bestTime)) {
            best = ranks;
            bestComplete = complete;
            bestTime = set.newest;
        }
    }
    return best;
}

void checkCheckpointRanks(const fs::path& checkpoint, int ranks) {
    const std::optional<int> written = checkpointRanks(checkpoint);
    const std::string name = checkpoint.string();
    if (written) {
        if (*written == ranks) return;
        throw InputFileError(name + " was written by " + std::to_string(*written) +
                             (*written == 1 ? " rank" : " ranks") + "; resume it with mpirun -n " +
                             std::to_string(*written));
    }
    std::error_code ec;
    if (ranks > 1 && fs::is_regular_file(checkpoint, ec))
        throw InputFileError(name + " was written by one process; resume it without mpirun");
}

}  // namespace cf::io
