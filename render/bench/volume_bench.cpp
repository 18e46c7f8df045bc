// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/bench/volume_bench.hpp"

#include <chrono>
#include <cmath>
#include <vector>

#include "render/camera.hpp"
#include "render/offscreen_target.hpp"
#include "render/render_error.hpp"
#include "render/volume_grid.hpp"

namespace cf::render::bench {

double benchVolumeSlices(int size, int width, int height, int frames) {
    if (size < 1 || frames < 1) throw RenderError("benchVolumeSlices: size and frames >= 1");
    const auto n = static_cast<std::size_t>(size);
    // A smooth field (every texel distinct), so nothing is constant-folded or compressed.
    std::vector<float> values(n * n * n);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t i = 0; i < n; ++i)
                values[(k * n + j) * n + i] = std::sin(0.1f * static_cast<float>(i)) +
                                              std::cos(0.07f * static_cast<float>(j)) +
                                              0.01f * static_cast<float>(k);
    OffscreenTarget target(width, height);
    VolumeGrid volume;
    volume.setBox(glm::vec3(0.0f), glm::vec3(static_cast<float>(size)));
    volume.setScalars(values.data(), size, size, size);
    volume.colorByScalar(Colormap::Viridis, -2.0f, 2.0f + 0.01f * static_cast<float>(size));
    OrbitCamera camera;
    camera.fit(volume.lo(), volume.hi());
    const glm::mat4 view = camera.view();
    const glm::mat4 projection =
        camera.projection(static_cast<float>(width) / static_cast<float>(height));
    target.bind();
    const auto frame = [&] {
        target.clear(0.1f, 0.1f, 0.12f, 1.0f);
        volume.drawSlices(view, projection);
    };
    for (int i = 0; i < 3; ++i)
        frame();
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < frames; ++i)
        frame();
    glFinish();
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    return elapsed.count() / frames;
}

}  // namespace cf::render::bench
