// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/beat_meter.hpp"

#include <cmath>
#include <limits>

#include "sim/core/errors.hpp"

namespace cf::cardiac {

int BeatMeter::beatOf(double t) const {
    if (t < start_) return -1;
    if (cycle_ <= 0.0) return 0;
    const int k = static_cast<int>(std::floor((t - start_) / cycle_));
    return maxBeats_ > 0 && k >= maxBeats_ ? maxBeats_ - 1 : k;
}

void BeatMeter::add(double t, double v) {
    const int k = beatOf(t);
    if (k >= 0 && (!inBeat_ || k != current_.beat)) {
        if (inBeat_) {
            finish(current_);
            done_.push_back(current_);
        }
        current_ = BeatRecord{};
        current_.beat = k;
        current_.tOn = start_ + (cycle_ > 0.0 ? k * cycle_ : 0.0);
        current_.vRest = havePrevious_ ? vPrev_ : v;
        current_.vPeak = -std::numeric_limits<double>::infinity();
        current_.dvdtMax = -std::numeric_limits<double>::infinity();
        inBeat_ = true;
        tail_.clear();
    }
    if (inBeat_) {
        BeatRecord& r = current_;
        if (havePrevious_ && t > tPrev_) {
            const double slope = (v - vPrev_) / (t - tPrev_);
            if (slope > r.dvdtMax) {
                r.dvdtMax = slope;
                r.tUp = 0.5 * (t + tPrev_);
            }
        }
        if (v > r.vPeak) {
            r.vPeak = v;
            r.tPeak = t;
            r.repolarized = false;
            tail_.clear();
        }
        tail_.emplace_back(t, v);
        if (!r.repolarized && tail_.size() >= 2) {
            const double v90 = r.vPeak - 0.9 * (r.vPeak - r.vRest);
            const auto [t0, v0] = tail_[tail_.size() - 2];
            if (v < v90 && v0 >= v90) {
                const double t90 = t0 + (t - t0) * (v90 - v0) / (v - v0);
                r.apd90 = t90 - r.tUp;
                r.repolarized = true;
            }
        }
        if (tail_.size() > 2) tail_.erase(tail_.begin(), tail_.end() - 2);
    }
    havePrevious_ = true;
    tPrev_ = t;
    vPrev_ = v;
}

void BeatMeter::finish(BeatRecord& r) {
    r.responded = r.vPeak >= r.vRest + 30.0;
    if (!r.responded || !r.repolarized) r.apd90 = std::numeric_limits<double>::quiet_NaN();
    if (!r.responded) {
        r.dvdtMax = std::numeric_limits<double>::quiet_NaN();
        r.vPeak = std::numeric_limits<double>::quiet_NaN();
    }
}

std::vector<BeatRecord> BeatMeter::beats() const {
    std::vector<BeatRecord> out = done_;
    if (inBeat_) {
        BeatRecord r = current_;
        finish(r);
        out.push_back(r);
    }
    return out;
}

namespace {

constexpr double kStateVersion = 1.0;
constexpr std::size_t kRecordSize = 10;

void put(std::vector<double>& out, const BeatRecord& r) {
    out.insert(out.end(), {static_cast<double>(r.beat), r.tOn, r.vRest, r.vPeak, r.tPeak, r.dvdtMax,
                           r.tUp, r.apd90, r.responded ? 1.0 : 0.0, r.repolarized ? 1.0 : 0.0});
}

BeatRecord take(const double* x) {
    BeatRecord r;
    r.beat = static_cast<int>(x[0]);
    r.tOn = x[1];
    r.vRest = x[2];
    r.vPeak = x[3];
    r.tPeak = x[4];
    r.dvdtMax = x[5];
    r.tUp = x[6];
    r.apd90 = x[7];
    r.responded = x[8] != 0.0;
    r.repolarized = x[9] != 0.0;
    return r;
}

}  // namespace

// Layout: version, beats done, tail samples, inBeat, havePrevious, tPrev, vPrev, the current
// record, the done records, the tail's (t, v) pairs.
std::vector<double> BeatMeter::state() const {
    std::vector<double> out = {kStateVersion,
                               static_cast<double>(done_.size()),
                               static_cast<double>(tail_.size()),
                               inBeat_ ? 1.0 : 0.0,
                               havePrevious_ ? 1.0 : 0.0,
                               tPrev_,
                               vPrev_};
    put(out, current_);
    for (const BeatRecord& r : done_)
        put(out, r);
    for (const auto& [t, v] : tail_)
        out.insert(out.end(), {t, v});
    return out;
}

void BeatMeter::restore(const std::vector<double>& x) {
    const auto bad = [] { return IoError("cardiac: the snapshot's beat meter is malformed"); };
    if (x.size() < 7 + kRecordSize || x[0] != kStateVersion) throw bad();
    const double doneCount = x[1], tailCount = x[2];
    if (!(doneCount >= 0 && tailCount >= 0 && doneCount < 1e9 && tailCount < 1e9)) throw bad();
    const auto done = static_cast<std::size_t>(doneCount);
    const auto tail = static_cast<std::size_t>(tailCount);
    if (x.size() != 7 + kRecordSize * (1 + done) + 2 * tail) throw bad();
    inBeat_ = x[3] != 0.0;
    havePrevious_ = x[4] != 0.0;
    tPrev_ = x[5];
    vPrev_ = x[6];
    const double* at = x.data() + 7;
    current_ = take(at);
    at += kRecordSize;
    done_.clear();
    for (std::size_t k = 0; k < done; ++k, at += kRecordSize)
        done_.push_back(take(at));
    tail_.clear();
    for (std::size_t k = 0; k < tail; ++k, at += 2)
        tail_.emplace_back(at[0], at[1]);
}

}  // namespace cf::cardiac
