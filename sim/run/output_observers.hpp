// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Step observers that write a run's output: CSV time series, HDF5 snapshots and periodic
// checkpoints. Shared by the headless runner and the desktop application.
#include <filesystem>
#include <memory>
#include <optional>

#include "sim/run/runner.hpp"

namespace cf {

namespace io {
class SeriesWriter;
class SnapshotWriter;
}  // namespace io

// Calls observe() at every multiple of `every` (never at step 0 unless asked for).
class PeriodicObserver : public StepObserver {
public:
    explicit PeriodicObserver(std::uint64_t every) : every_(every) {}
    std::uint64_t nextStep(std::uint64_t current) const override;

private:
    std::uint64_t every_;
};

class SeriesObserver final : public PeriodicObserver {
public:
    // `continueAfter`: continuing a run from that step keeps the file's earlier rows.
    SeriesObserver(const std::filesystem::path& csv, std::uint64_t every, std::string timeUnit,
                   std::optional<std::uint64_t> continueAfter = std::nullopt);
    ~SeriesObserver() override;
    void observe(Model& model) override;
    // Writes the row for the current state (the initial state, typically).
    void record(Model& model);

private:
    std::unique_ptr<io::SeriesWriter> writer_;
};

class SnapshotObserver final : public PeriodicObserver {
public:
    SnapshotObserver(const std::filesystem::path& dir, const std::string& modelName,
                     std::uint64_t every,
                     std::optional<std::uint64_t> continueAfter = std::nullopt);
    ~SnapshotObserver() override;
    void observe(Model& model) override;
    void record(Model& model) { observe(model); }
    std::filesystem::path xdmfPath() const;
    // The grid's own .xmf beside the particles' one (spheres with a substance), when written.
    std::optional<std::filesystem::path> gridXdmfPath() const;
    std::size_t count() const;

private:
    std::unique_ptr<io::SnapshotWriter> writer_;
};

// Saves a checkpoint to a fixed path every `every` steps (atomically replaced).
class CheckpointObserver final : public PeriodicObserver {
public:
    CheckpointObserver(const Runner& runner, std::filesystem::path path, std::uint64_t every);
    void observe(Model& model) override;

private:
    const Runner& runner_;
    std::filesystem::path path_;
};

}  // namespace cf
