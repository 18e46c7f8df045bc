// SPDX-License-Identifier: GPL-3.0-or-later
// Values shown to users: times and lengths in the unit that reads best, "—" for values that
// do not exist yet. Exact strings: these are what the overlay, plots and time stamps show.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sim/core/quantity_format.hpp"

namespace cf {
namespace {

TEST(QuantityFormat, TimesMoveToTheUnitThatKeepsTheNumberReadable) {
    EXPECT_EQ(formatQuantity(4.19e7, "us"), "41.9 s");  // the gliding ring lattice's clock
    EXPECT_EQ(formatQuantity(11.3, "s"), "11.3 s");
    EXPECT_EQ(formatQuantity(90.0, "s"), "90 s");  // below two minutes seconds stay
    EXPECT_EQ(formatQuantity(150.0, "s"), "2.5 min");
    EXPECT_EQ(formatQuantity(90000.0, "s"), "25 h");
    EXPECT_EQ(formatQuantity(0.25, "ms"), "250 µs");
    EXPECT_EQ(formatQuantity(1500.0, "ms"), "1.5 s");
    EXPECT_EQ(formatQuantity(-3e-3, "s"), "-3 ms");
    EXPECT_EQ(formatQuantity(2.0, "µs"), "2 µs");
    EXPECT_EQ(formatQuantity(0.0, "ms"), "0 ms");  // zero keeps the declared unit
    EXPECT_EQ(formatQuantity(3.0, "h"), "3 h");
    EXPECT_EQ(formatQuantity(1e-12, "s"), "0.001 ns");  // nothing below ns
}

TEST(QuantityFormat, LengthsRescaleOtherUnitsStay) {
    EXPECT_EQ(formatQuantity(1500.0, "um"), "1.5 mm");
    EXPECT_EQ(formatQuantity(40.0, "um"), "40 µm");
    EXPECT_EQ(formatQuantity(-35.71, "mV"), "-35.7 mV");  // not a time or length: as declared
    EXPECT_EQ(formatQuantity(2198.0, "cells", 4), "2198 cells");
    EXPECT_EQ(formatQuantity(0.5, "1"), "0.5");
    EXPECT_EQ(formatQuantity(0.5, ""), "0.5");
}

TEST(QuantityFormat, MissingValuesReadAsADashNeverNan) {
    EXPECT_EQ(formatQuantity(std::numeric_limits<double>::quiet_NaN(), "mV"), "\u2014");
    EXPECT_EQ(formatQuantity(std::numeric_limits<double>::infinity(), "ms"), "\u221e ms");
    const ScaledQuantity q = scaleQuantity(std::nan(""), "us");
    EXPECT_TRUE(std::isnan(q.value));
    EXPECT_EQ(q.unit, "us");
}

TEST(QuantityFormat, ScaledValueIsTheSameQuantity) {
    for (double v : {1e-8, 3.3e-5, 0.02, 7.0, 123.0, 4.5e4, 8e6}) {
        const ScaledQuantity q = scaleQuantity(v, "s");
        const double back = q.unit == "ns"    ? q.value * 1e-9
                            : q.unit == "µs"  ? q.value * 1e-6
                            : q.unit == "ms"  ? q.value * 1e-3
                            : q.unit == "min" ? q.value * 60
                            : q.unit == "h"   ? q.value * 3600
                                              : q.value;
        EXPECT_NEAR(back, v, 1e-12 * v) << v << " became " << q.value << " " << q.unit;
    }
}

}  // namespace
}  // namespace cf
