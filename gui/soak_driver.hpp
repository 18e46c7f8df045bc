// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The soak: the window left running a scenario for a long time (an hour by default) while
// a script does what a user does, so that slow leaks and rare failures show. It edits a
// live parameter through the parameter panel now and then, records movies on and off,
// resets the run, and samples the process's memory, threads and open files. A CSV row per
// sample; at the end a summary (JSON and one line on stderr) and the verdict as the exit
// code: 0 when nothing was logged as an error and memory grew less than the bound.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <fstream>
#include <random>
#include <vector>

namespace cf::gui {

class MainWindow;

struct SoakOptions {
    double minutes = 60.0;
    QString logPath;  // the CSV; the summary goes next to it as .json
    // Resident memory (median while not recording) may grow by at most this much from the
    // first to the last tenth after the warm-up (MiB).
    double rssBoundMiB = 32.0;
    std::uint32_t seed = 1;
};

// Process figures from /proc/self (Linux).
struct ProcessSample {
    double rssMiB = 0.0;
    int threads = 0;
    int openFiles = 0;
};
ProcessSample sampleProcess();

class SoakDriver : public QObject {
    Q_OBJECT
public:
    // Starts at once: plays the window's scenario and schedules the actions. Quits the
    // application with the verdict when the time is up. Throws Error when the log cannot
    // be created.
    SoakDriver(MainWindow& window, const SoakOptions& options);

private:
    void sample();
    void editParameter();
    void toggleRecording();
    void resetRun();
    void finish();
    void ensurePlaying();
    double seconds() const { return clock_.elapsed() / 1000.0; }

    MainWindow& window_;
    SoakOptions options_;
    double scale_ = 1.0;  // intervals shrink for runs shorter than an hour (smoke tests)
    QElapsedTimer clock_;
    std::ofstream log_;
    std::mt19937 random_;
    QTemporaryDir movies_;

    struct Row {
        double seconds;
        std::uint64_t step;
        ProcessSample process;
        bool recording;  // the encoder holds tens of MiB while a movie is recorded
    };
    std::vector<Row> rows_;
    int edits_ = 0;
    int editsRejected_ = 0;
    int recordings_ = 0;
    long framesRecorded_ = 0;
    int moviesUnreadable_ = 0;
    int resets_ = 0;
    int runErrors_ = 0;  // runs that stopped with an error (then reset to go on)
    QString movieFile_;
};

}  // namespace cf::gui
