// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/bench/vector_bench.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "render/camera.hpp"
#include "render/offscreen_target.hpp"
#include "render/render_error.hpp"
#include "render/vector_field.hpp"

namespace cf::render::bench {

double benchVectorField(int n, int width, int height, int frames, bool lic) {
    if (n < 2 || frames < 1) throw RenderError("benchVectorField: n >= 2 and frames >= 1");
    // A vortex (-y, x) with a magnitude that rises and falls across the square [-1, 1]^2.
    std::vector<float> xyz(3 * static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const float x = -1.0f + 2.0f * static_cast<float>(i) / static_cast<float>(n - 1);
            const float y = -1.0f + 2.0f * static_cast<float>(j) / static_cast<float>(n - 1);
            float* v = &xyz[3 * (static_cast<std::size_t>(j) * static_cast<std::size_t>(n) +
                                 static_cast<std::size_t>(i))];
            v[0] = -y;
            v[1] = x;
            v[2] = 0.0f;
        }
    VectorField field;
    field.setPlaneZ({-1.0f, -1.0f}, {1.0f, 1.0f}, 0.0f);
    field.setVectors(xyz.data(), n, n, 1);
    field.setStride(std::max(1, n / 48));
    field.colorByMagnitude(Colormap::Viridis);
    field.showLic(lic);
    field.setLicColorByMagnitude(true);

    OffscreenTarget target(width, height);
    OrbitCamera cam;
    cam.fit({-1.0f, -1.0f, -0.2f}, {1.0f, 1.0f, 0.2f});
    cam.pitchDegrees = 60.0f;
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    target.bind();
    auto frame = [&] {
        cam.yawDegrees += 1.0f;
        target.clear(1.0f, 1.0f, 1.0f, 1.0f);
        if (lic) field.notifyVectorsChanged();  // as if the simulation wrote new vectors
        field.draw(cam.view(), cam.projection(aspect));
    };
    for (int f = 0; f < 3; ++f)  // warm-up: shader compilation, first allocations
        frame();
    glFinish();
    const auto t0 = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f)
        frame();
    glFinish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
               .count() /
           frames;
}

}  // namespace cf::render::bench
