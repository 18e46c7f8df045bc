// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Waiting for the window's viewport in Qt tests. Frames come slowly under a loaded llvmpipe,
// and the viewport fits at the frame after the overlay's panels change size, so a single
// check may fall between two frames: tests wait for a settled state before they check and
// report.
#include <QTest>
#include <algorithm>
#include <functional>

#include "gui/viewport.hpp"

namespace cf::test {

// Processes events until `done` holds or `timeoutMs` passed; its last answer.
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs = 60000) {
    for (int waited = 0; waited < timeoutMs; waited += 20) {
        if (done()) return true;
        QTest::qWait(20);
    }
    return done();
}

// Whether `fitted` held at five checks 50 ms apart within `timeoutMs`.
inline bool waitFitted(const std::function<bool()>& fitted, int timeoutMs) {
    int inARow = 0;
    for (int waited = 0; waited < timeoutMs && inARow < 5; waited += 50) {
        inARow = fitted() ? inARow + 1 : 0;
        QTest::qWait(50);
    }
    return inARow >= 5;
}

// Whether the last frame showed the scene fitted: inside the free area less the fit's margin
// and filling more than `minFill` of it in its limiting direction.
inline bool fittedNow(const gui::Viewport& viewport, double minFill) {
    const QRectF scene = viewport.sceneRectOnScreen(), free = viewport.freeRect();
    const double m = gui::Viewport::kFitMarginPx - 0.5;
    return !scene.isEmpty() && free.adjusted(m, m, -m, -m).contains(scene) &&
           std::max(scene.width() / free.width(), scene.height() / free.height()) > minFill;
}

}  // namespace cf::test
