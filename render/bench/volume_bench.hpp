// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Volume drawing benchmarks for cellforge-render-bench. Need a current GL 4.5 context.

namespace cf::render::bench {

// Milliseconds per frame for three slices (x, y, z) through a size^3 scalar volume drawn
// into a width x height offscreen target: uploaded once, then `frames` frames timed
// between two glFinish calls (after a few untimed warm-up frames).
double benchVolumeSlices(int size, int width, int height, int frames);

}  // namespace cf::render::bench
