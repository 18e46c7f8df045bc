// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Benchmark hook for VectorField, for cellforge-render-bench (or any caller that holds a
// current GL 4.5 context, e.g. a HeadlessContext).

namespace cf::render::bench {

// Milliseconds per frame drawing an n x n vortex field on the plane z = 0 into a
// width x height offscreen target: arrows at a stride that leaves about 48 along each side,
// plus (lic) the LIC image recomputed every frame, as when the simulation updates the field
// each frame. A turning perspective camera; timed from the first to the last frame's
// completion (glFinish), after warm-up frames.
double benchVectorField(int n, int width, int height, int frames, bool lic);

}  // namespace cf::render::bench
