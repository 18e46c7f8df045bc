// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/soak_driver.hpp"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gui/main_window.hpp"
#include "gui/movie_recorder.hpp"
#include "gui/parameter_panel.hpp"
#include "render/movie_writer.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/scenario.hpp"
#include "sim/run/runner.hpp"

namespace cf::gui {

namespace {

// The full-length intervals (seconds); a soak shorter than an hour runs them faster in
// proportion, so a one-minute smoke test still edits, records and resets.
constexpr double kSampleEvery = 10.0;
constexpr double kEditEvery = 15.0;
constexpr double kRecordCycle = 180.0;  // one minute recording, two not
constexpr double kRecordFor = 60.0;
constexpr double kResetEvery = 600.0;  // populations that grow return to their start
// Memory is compared between the first and the last stretch after the warm-up (the first
// tenth of the run: caches, shader compilation, the first movie's encoder).
constexpr double kWarmupFraction = 0.1;
constexpr double kStretchFraction = 0.1;

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

}  // namespace

ProcessSample sampleProcess() {
    ProcessSample s;
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        std::istringstream in(line);
        std::string key;
        in >> key;
        if (key == "VmRSS:") {
            double kib = 0;
            in >> kib;
            s.rssMiB = kib / 1024.0;
        } else if (key == "Threads:") {
            in >> s.threads;
        }
    }
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        ++s.openFiles;
    return s;
}

SoakDriver::SoakDriver(MainWindow& window, const SoakOptions& options)
    : QObject(&window), window_(window), options_(options), random_(options.seed) {
    scale_ = std::min(1.0, options_.minutes / 60.0);
    log_.open(options_.logPath.toStdString(), std::ios::trunc);
    if (!log_) throw IoError(options_.logPath.toStdString() + ": cannot create the soak log");
    if (!movies_.isValid()) throw IoError("cannot create a temporary folder for the soak's movies");
    log_ << "seconds,step,rss_mib,threads,open_files,edits,edits_rejected,recordings,"
            "frames_recorded,resets,run_errors,errors_logged,recording\n";
    clock_.start();
    auto every = [this](double seconds, auto action) {
        auto* t = new QTimer(this);
        t->setInterval(std::max(50, static_cast<int>(seconds * scale_ * 1000.0)));
        connect(t, &QTimer::timeout, this, action);
        t->start();
    };
    every(kSampleEvery, &SoakDriver::sample);
    every(kEditEvery, &SoakDriver::editParameter);
    every(kRecordCycle, &SoakDriver::toggleRecording);
    every(kResetEvery, &SoakDriver::resetRun);
    QTimer::singleShot(static_cast<int>(options_.minutes * 60'000.0), this, &SoakDriver::finish);
    ensurePlaying();
    sample();
}

void SoakDriver::ensurePlaying() {
    if (window_.isRecording()) return;  // the recorder steps the run itself
    QAction* play = window_.action("play");
    if (play->isEnabled() && !play->isChecked()) play->trigger();
}

void SoakDriver::sample() {
    Runner* runner = window_.runner();
    // A run that stopped with an error was shown to the user (and logged); the soak counts
    // it and goes on from a reset, as a user would.
    if (runner && runner->error() && !window_.isRecording()) {
        ++runErrors_;
        resetRun();
    }
    const std::uint64_t step = runner ? runner->latestFrame()->step : 0;
    const Row row{seconds(), step, sampleProcess(), window_.isRecording()};
    rows_.push_back(row);
    log_ << row.seconds << ',' << row.step << ',' << row.process.rssMiB << ','
         << row.process.threads << ',' << row.process.openFiles << ',' << edits_ << ','
         << editsRejected_ << ',' << recordings_ << ',' << framesRecorded_ << ',' << resets_ << ','
         << runErrors_ << ',' << window_.errorsLogged() << ',' << (window_.isRecording() ? 1 : 0)
         << '\n';
    log_.flush();
    ensurePlaying();
}

void SoakDriver::editParameter() {
    const Scenario* sc = window_.scenario();
    if (!sc) return;
    // Live numbers with a non-zero default, except time steps (a larger one may break the
    // model's stability bound, which is the user's business, not the soak's).
    std::vector<const ParamSpec*> candidates;
    for (const ParamSpec& spec : sc->model->parameters().specs()) {
        if (spec.mutability != Mutability::Live) continue;
        if (spec.name == "dt" || spec.name.find("_dt") != std::string::npos) continue;
        if (spec.type == ParamType::Real && std::get<double>(spec.defaultValue) != 0.0)
            candidates.push_back(&spec);
        else if (spec.type == ParamType::Integer && std::get<std::int64_t>(spec.defaultValue) >= 10)
            candidates.push_back(&spec);
    }
    if (candidates.empty()) return;
    const ParamSpec& spec =
        *candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(random_)];
    // Within 10 % of the default, so edits never drift far from the scenario.
    const double factor = std::uniform_real_distribution<double>(0.9, 1.1)(random_);
    ParamValue value;
    if (spec.type == ParamType::Real) {
        value = std::clamp(std::get<double>(spec.defaultValue) * factor, spec.min, spec.max);
    } else {
        const double v =
            std::round(static_cast<double>(std::get<std::int64_t>(spec.defaultValue)) * factor);
        value = static_cast<std::int64_t>(std::clamp(v, spec.min, spec.max));
    }
    ++edits_;
    if (!window_.parameterPanel()->edit(spec.key(), value)) ++editsRejected_;
}

void SoakDriver::toggleRecording() {
    if (window_.isRecording()) return;
    RecordSettings s;
    movieFile_ = movies_.filePath(QString("soak-%1.mp4").arg(recordings_ + 1));
    s.path = movieFile_;
    s.width = 640;
    s.height = 360;
    s.fps = 30;
    s.stepsPerFrame = 5;
    if (!window_.startRecording(s)) return;  // the window logged why
    ++recordings_;
    QTimer::singleShot(static_cast<int>(kRecordFor * scale_ * 1000.0), this, [this] {
        if (!window_.isRecording()) return;
        window_.stopRecording();
        // The movie must be complete and readable; then it goes (an hour of movies would
        // fill the disk, which is not what this measures).
        try {
            framesRecorded_ += render::probeMovie(movieFile_.toStdString()).frames;
        } catch (const std::exception& e) {
            ++moviesUnreadable_;
            window_.log(MainWindow::Level::Error,
                        QString("soak: the movie %1 does not read back: %2")
                            .arg(movieFile_, QString::fromStdString(e.what())));
        }
        QFile::remove(movieFile_);
        ensurePlaying();
    });
}

void SoakDriver::resetRun() {
    if (window_.isRecording()) return;
    window_.resetRun();
    ++resets_;
    ensurePlaying();
}

void SoakDriver::finish() {
    if (window_.isRecording()) window_.stopRecording();
    sample();
    const double total = seconds();
    std::vector<double> first, last;
    const double warm = total * kWarmupFraction;
    // Compared while not recording: the encoder's buffers come and go with each movie.
    for (const Row& r : rows_) {
        if (r.recording) continue;
        if (r.seconds >= warm && r.seconds <= warm + total * kStretchFraction)
            first.push_back(r.process.rssMiB);
        if (r.seconds >= total * (1.0 - kStretchFraction)) last.push_back(r.process.rssMiB);
    }
    double peak = 0.0;
    for (const Row& r : rows_)
        peak = std::max(peak, r.process.rssMiB);
    const double growth = median(last) - median(first);
    const Row& start = rows_.front();
    const Row& end = rows_.back();
    const int errors = window_.errorsLogged();
    const bool pass =
        errors == 0 && growth <= options_.rssBoundMiB && recordings_ > 0 && moviesUnreadable_ == 0;
    const std::string model = window_.scenario() ? window_.scenario()->model->name : "none";

    QString jsonPath = options_.logPath;
    jsonPath = QFileInfo(jsonPath).dir().filePath(QFileInfo(jsonPath).completeBaseName() + ".json");
    std::ofstream json(jsonPath.toStdString(), std::ios::trunc);
    json << "{\n  \"model\": \"" << model << "\",\n  \"minutes\": " << total / 60.0
         << ",\n  \"last_step\": " << end.step << ",\n  \"edits\": " << edits_
         << ",\n  \"edits_rejected\": " << editsRejected_ << ",\n  \"recordings\": " << recordings_
         << ",\n  \"frames_recorded\": " << framesRecorded_
         << ",\n  \"movies_unreadable\": " << moviesUnreadable_ << ",\n  \"resets\": " << resets_
         << ",\n  \"run_errors\": " << runErrors_ << ",\n  \"errors_logged\": " << errors
         << ",\n  \"rss_start_mib\": " << start.process.rssMiB
         << ",\n  \"rss_after_warmup_mib\": " << median(first)
         << ",\n  \"rss_end_mib\": " << median(last) << ",\n  \"rss_peak_mib\": " << peak
         << ",\n  \"rss_growth_mib\": " << growth
         << ",\n  \"rss_bound_mib\": " << options_.rssBoundMiB
         << ",\n  \"threads_start\": " << start.process.threads
         << ",\n  \"threads_end\": " << end.process.threads
         << ",\n  \"open_files_start\": " << start.process.openFiles
         << ",\n  \"open_files_end\": " << end.process.openFiles
         << ",\n  \"pass\": " << (pass ? "true" : "false") << "\n}\n";
    std::fprintf(stderr,
                 "soak: %s %.1f min, step %llu, %d edits (%d rejected), %d recordings (%ld "
                 "frames), %d resets, %d run errors, %d errors logged; RSS %.0f -> %.0f MiB "
                 "after warm-up (growth %+.1f MiB, bound %.0f, peak %.0f); threads %d -> %d; "
                 "open files %d -> %d: %s\n",
                 model.c_str(), total / 60.0, static_cast<unsigned long long>(end.step), edits_,
                 editsRejected_, recordings_, framesRecorded_, resets_, runErrors_, errors,
                 median(first), median(last), growth, options_.rssBoundMiB, peak,
                 start.process.threads, end.process.threads, start.process.openFiles,
                 end.process.openFiles, pass ? "PASS" : "FAIL");
    if (errors > 0) std::fprintf(stderr, "soak: last error: %s\n", qPrintable(window_.lastError()));
    QApplication::exit(pass ? 0 : 1);
}

}  // namespace cf::gui
