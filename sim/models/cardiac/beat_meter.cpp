// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/beat_meter.hpp"

#include <cmath>
#include <limits>

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

}  // namespace cf::cardiac
