// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The short form numbers take in messages and generated names: printf's %g with a chosen
// number of significant digits ("0.05", "3.3e-05", "-35.7143").
#include <cstdio>
#include <string>

namespace cf {

inline std::string formatShort(double v, int significant = 6) {
    char text[48];
    std::snprintf(text, sizeof text, "%.*g", significant, v);
    return text;
}

}  // namespace cf
