// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Time series of a run's metrics as CSV: one row per sample, columns fixed by the first
// row. Every row is flushed as it is written so a crash loses nothing already sampled.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/core/model.hpp"

namespace cf::io {

class SeriesWriter {
public:
    // Creates (truncates) the file and its parent directory. `timeUnit` labels the time
    // column ("time [s]").
    explicit SeriesWriter(std::filesystem::path csv, std::string timeUnit = "s");

    // Continuing a run: keeps the existing file's header and its rows with a step <=
    // `upToStep`, drops later rows (the continued run writes them again) and appends.
    // Later rows must produce the same header, else IoError.
    SeriesWriter(std::filesystem::path csv, std::string timeUnit, std::uint64_t upToStep);

    // The first call writes the header `step,time [unit],name [unit],...`. Later rows must
    // carry the same metrics (names and units, in order); otherwise IoError.
    void append(std::uint64_t step, double time, const std::vector<Metric>& metrics);
    void flush();

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
    std::string timeUnit_;
    std::ofstream out_;
    bool headerWritten_ = false;
    std::string expectedHeader_;                                // when continuing an existing file
    std::vector<std::pair<std::string, std::string>> columns_;  // name, unit
};

// Quotes a CSV cell when it holds a comma, a quote or a line break (RFC 4180).
std::string csvCell(const std::string& text);
// The shortest text that reads back to exactly `value` ("0.1", "1e-300", "inf", "nan").
std::string formatDouble(double value);

}  // namespace cf::io
