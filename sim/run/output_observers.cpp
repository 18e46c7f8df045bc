// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/run/output_observers.hpp"

#include "sim/io/checkpoint.hpp"
#include "sim/io/series_writer.hpp"
#include "sim/io/snapshot_writer.hpp"

namespace cf {

std::uint64_t PeriodicObserver::nextStep(std::uint64_t current) const {
    if (every_ == 0) return UINT64_MAX;
    return (current / every_ + 1) * every_;
}

SeriesObserver::SeriesObserver(const std::filesystem::path& csv, std::uint64_t every,
                               std::string timeUnit, std::optional<std::uint64_t> continueAfter)
    : PeriodicObserver(every),
      writer_(continueAfter
                  ? std::make_unique<io::SeriesWriter>(csv, std::move(timeUnit), *continueAfter)
                  : std::make_unique<io::SeriesWriter>(csv, std::move(timeUnit))) {}

SeriesObserver::~SeriesObserver() = default;

void SeriesObserver::observe(Model& model) {
    record(model);
}

void SeriesObserver::record(Model& model) {
    writer_->append(model.step(), model.time(), model.metrics());
}

SnapshotObserver::SnapshotObserver(const std::filesystem::path& dir, const std::string& modelName,
                                   std::uint64_t every, std::optional<std::uint64_t> continueAfter)
    : PeriodicObserver(every), writer_(std::make_unique<io::SnapshotWriter>(dir, modelName)) {
    if (continueAfter) writer_->adoptExisting(*continueAfter);
}

SnapshotObserver::~SnapshotObserver() = default;

void SnapshotObserver::observe(Model& model) {
    writer_->write(model.snapshot());
}

std::filesystem::path SnapshotObserver::xdmfPath() const {
    return writer_->xdmfPath();
}

std::optional<std::filesystem::path> SnapshotObserver::gridXdmfPath() const {
    std::error_code ec;
    const auto path = writer_->gridXdmfPath();
    if (std::filesystem::exists(path, ec)) return path;
    return std::nullopt;
}

std::size_t SnapshotObserver::count() const {
    return writer_->files().size();
}

CheckpointObserver::CheckpointObserver(const Runner& runner, std::filesystem::path path,
                                       std::uint64_t every)
    : PeriodicObserver(every), runner_(runner), path_(std::move(path)) {}

void CheckpointObserver::observe(Model& model) {
    io::Checkpoint cp{runner_.descriptor().name,  runner_.seed(),    runner_.backend(),
                      runner_.activeParameters(), runner_.history(), model.snapshot()};
    io::writeCheckpoint(path_, cp);
}

}  // namespace cf
