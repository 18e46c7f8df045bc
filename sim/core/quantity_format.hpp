// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Values with their units as a person reads them, for every place that shows one to a user
// (the window's overlay, time stamps in images and movies, plots): a time or a length is
// rescaled to the unit that keeps the number between 1 and 1000 where it can
// ("4.19e+07 us" reads "41.9 s", "90000 s" reads "25 h"); other units are kept as declared.
// A value that does not exist yet (NaN: an action potential not yet measured) reads as
// an em dash, never "nan".
#include <string>
#include <string_view>

namespace cf {

struct ScaledQuantity {
    double value = 0.0;
    std::string unit;  // as given when the unit is not a time or a length
};

// Rescales `value` in `unit` among ns, us, ms, s, min, h (times) or nm, um, mm, m (lengths);
// "µs" and "µm" are read as "us" and "um", and the result spells micro as "µ". Non-finite
// values and other units come back unchanged.
ScaledQuantity scaleQuantity(double value, std::string_view unit);

// "41.9 s", "1.5 mV", "120 cells": printf's %g with `significant` digits (at least 1), so
// no trailing zeros ("2 s"). A unit of "" or "1" (dimensionless) prints the number alone. NaN
// prints "—" (U+2014); infinities "∞" / "-∞".
std::string formatQuantity(double value, std::string_view unit, int significant = 3);

}  // namespace cf
