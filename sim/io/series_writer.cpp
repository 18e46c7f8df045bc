// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/series_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "sim/io/atomic_file.hpp"

namespace cf::io {

using detail::where;

std::string csvCell(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string formatDouble(double value) {
    char buf[64];
    // to_chars without a precision gives the shortest round-trip form.
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    if (ec != std::errc()) return "nan";
    return std::string(buf, end);
}

namespace {
std::string label(const std::string& name, const std::string& unit) {
    return unit.empty() ? name : name + " [" + unit + "]";
}
}  // namespace

SeriesWriter::SeriesWriter(std::filesystem::path csv, std::string timeUnit)
    : path_(std::move(csv)), timeUnit_(std::move(timeUnit)) {
    detail::ensureParentDirectory(path_);
    out_.open(path_, std::ios::binary | std::ios::trunc);
    if (!out_) throw IoError(where(path_, "cannot create time-series file"));
}

SeriesWriter::SeriesWriter(std::filesystem::path csv, std::string timeUnit, std::uint64_t upToStep)
    : path_(std::move(csv)), timeUnit_(std::move(timeUnit)) {
    std::vector<std::string> keep;
    {
        std::ifstream in(path_, std::ios::binary);
        std::string line;
        if (in && std::getline(in, line)) {
            expectedHeader_ = line;
            while (std::getline(in, line)) {
                std::uint64_t step = 0;
                const auto [end, ec] =
                    std::from_chars(line.data(), line.data() + line.size(), step);
                if (ec == std::errc() && end != line.data() && step <= upToStep)
                    keep.push_back(line);
            }
        }
    }
    detail::ensureParentDirectory(path_);
    out_.open(path_, std::ios::binary | std::ios::trunc);
    if (!out_) throw IoError(where(path_, "cannot open time-series file"));
    if (!expectedHeader_.empty()) {
        out_ << expectedHeader_ << '\n';
        for (const std::string& row : keep)
            out_ << row << '\n';
        flush();
        headerWritten_ = true;
    }
}

void SeriesWriter::append(std::uint64_t step, double time, const std::vector<Metric>& metrics) {
    if (!headerWritten_ || columns_.empty()) {
        std::string header = "step," + csvCell(label("time", timeUnit_));
        for (const Metric& m : metrics) {
            header += "," + csvCell(label(m.name, m.unit));
            columns_.emplace_back(m.name, m.unit);
        }
        if (!headerWritten_) {
            out_ << header << '\n';
            headerWritten_ = true;
        } else if (header != expectedHeader_) {
            throw IoError(where(path_, "cannot continue this series: its columns are '" +
                                           expectedHeader_ + "', the run now writes '" + header +
                                           "'"));
        }
    } else {
        bool same = metrics.size() == columns_.size();
        for (std::size_t i = 0; same && i < metrics.size(); ++i)
            same = metrics[i].name == columns_[i].first && metrics[i].unit == columns_[i].second;
        if (!same) {
            auto list = [](auto&& names) {
                std::string s;
                for (const auto& n : names)
                    s += (s.empty() ? "" : ", ") + n;
                return s;
            };
            std::vector<std::string> had, got;
            for (const auto& c : columns_)
                had.push_back(label(c.first, c.second));
            for (const Metric& m : metrics)
                got.push_back(label(m.name, m.unit));
            throw IoError(where(path_, "the metrics changed at step " + std::to_string(step) +
                                           ": the columns are (" + list(had) + "), got (" +
                                           list(got) + ")"));
        }
    }
    std::string row = std::to_string(step) + "," + formatDouble(time);
    for (const Metric& m : metrics)
        row += "," + formatDouble(m.value);
    // A row that does not reach the disk whole (the disk filled) is cut off again: the file
    // keeps only complete rows, so whatever reads it later never sees half a row.
    const std::streamoff complete = out_.tellp();
    out_ << row << '\n';
    out_.flush();
    if (!out_) {
        const int why = errno;
        out_.close();
        std::error_code ec;
        if (complete >= 0)
            std::filesystem::resize_file(path_, static_cast<std::uintmax_t>(complete), ec);
        throw IoError(where(path_, "cannot write the row of step " + std::to_string(step) + ": " +
                                       std::strerror(why) + "; the file keeps the rows before it"));
    }
}

void SeriesWriter::flush() {
    out_.flush();
    if (!out_) throw IoError(where(path_, "write failed (disk full?)"));
}

}  // namespace cf::io
