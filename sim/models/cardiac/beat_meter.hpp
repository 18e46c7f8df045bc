// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Per-beat measurements of one cell's potential (docs/design/cardiac.md section 8). Beat k
// is the window [t_on,k, t_on,k+1) with t_on,k = start + k x cycle length:
//  - v_rest: the potential at the last sample before t_on,k;
//  - v_peak, t_peak: the largest sample in the window;
//  - dvdt_max, t_up: the steepest rise between consecutive samples (finite difference,
//    at the midpoint);
//  - apd90 = t_90 - t_up, t_90 the first time after t_peak where V falls below
//    v_peak - 0.9 (v_peak - v_rest), interpolated between the bracketing samples;
//  - a beat whose peak stays below v_rest + 30 mV did not respond: its metrics are NaN.
#include <cstddef>
#include <vector>

namespace cf::cardiac {

struct BeatRecord {
    int beat = 0;
    double tOn = 0, vRest = 0, vPeak = 0, tPeak = 0, dvdtMax = 0, tUp = 0, apd90 = 0;
    bool responded = false;
    bool repolarized = false;  // t_90 found (apd90 valid)
};

class BeatMeter {
public:
    // start, cycle length and number of beats of the protocol (cycleLength 0: one beat from
    // start on; maxBeats 0: no limit). The last beat's window has no end.
    BeatMeter(double start, double cycleLength, int maxBeats = 0)
        : start_(start), cycle_(cycleLength), maxBeats_(maxBeats) {}

    // One sample (t increasing).
    void add(double t, double v);
    // Finished beats and the one in progress (its values so far).
    std::vector<BeatRecord> beats() const;

    // Everything the meter holds, as numbers (a snapshot's field), and back: a restored run
    // goes on measuring the beat it was in. restore() throws IoError for a malformed state.
    std::vector<double> state() const;
    void restore(const std::vector<double>& state);

private:
    int beatOf(double t) const;
    static void finish(BeatRecord& r);

    double start_, cycle_;
    int maxBeats_;
    std::vector<BeatRecord> done_;
    BeatRecord current_;
    bool inBeat_ = false;
    bool havePrevious_ = false;
    double tPrev_ = 0, vPrev_ = 0;
    // samples after the peak, kept until V crosses V90 (for the interpolation)
    std::vector<std::pair<double, double>> tail_;
};

}  // namespace cf::cardiac
