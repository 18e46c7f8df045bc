// SPDX-License-Identifier: GPL-3.0-or-later
// cellforge-render-bench: frames per second of sphere impostors at a given resolution on
// the headless context, and (CUDA builds) the CUDA-GL interop copy time per frame.
//   cellforge-render-bench [--points 1000000,4000000] [--size 1920x1080] [--frames 60]
//                          [--volume 256] [--vectors 512] [--json FILE] [--images DIR]
// --volume N times three slices through an N^3 scalar volume, --vectors N an N^2 vector
// field as arrows, then with its line-integral convolution recomputed every frame (0: skip).
// --images writes the last frame of each case as a PNG, to look at what was timed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "render/bench/vector_bench.hpp"
#include "render/bench/volume_bench.hpp"
#include "render/camera.hpp"
#include "render/headless_context.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_io.hpp"
#include "render/point_cloud.hpp"
#include "render/render_error.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "render/cuda/cuda_gl_buffer.hpp"
#endif

namespace {

struct Result {
    std::size_t points;
    const char* path;  // "raster" or "splat"
    double msPerFrame;
    double interopMs;  // < 0: not measured
};

std::vector<std::size_t> parseList(const std::string& s) {
    std::vector<std::size_t> out;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ','))
        out.push_back(static_cast<std::size_t>(std::stod(item)));
    return out;
}

#if CELLFORGE_HAVE_CUDA
// Median time of a device-to-device copy of the positions into the GL buffer (map, copy,
// unmap), timed with CUDA events.
double interopCopyMs(cf::render::PointCloud& cloud, const std::vector<float>& xyzr) {
    if (!cf::render::cudaGlInteropAvailable()) return -1.0;
    void* device = nullptr;
    const std::size_t bytes = xyzr.size() * sizeof(float);
    if (cudaMalloc(&device, bytes) != cudaSuccess) return -1.0;
    cudaMemcpy(device, xyzr.data(), bytes, cudaMemcpyHostToDevice);
    cudaStream_t stream = nullptr;
    cudaStreamCreate(&stream);
    cf::render::CudaGlBuffer interop;
    interop.attach(cloud.positionBuffer(), cloud.storageId());
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    std::vector<float> times;
    for (int r = 0; r < 50; ++r) {
        cudaEventRecord(start, stream);
        interop.copyFromDevice(device, bytes, stream);
        cudaEventRecord(stop, stream);
        cudaEventSynchronize(stop);
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, start, stop);
        if (r >= 5) times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(stream);
    cudaFree(device);
    return times[times.size() / 2];
}
#endif

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> counts = {1'000'000, 4'000'000};
    int width = 1920, height = 1080, frames = 60, volume = 256, vectors = 512;
    std::string json, images;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--points")
            counts = parseList(value);
        else if (key == "--size" && std::sscanf(value.c_str(), "%dx%d", &width, &height) == 2) {
        } else if (key == "--frames")
            frames = std::max(1, std::stoi(value));
        else if (key == "--json")
            json = value;
        else if (key == "--volume")
            volume = std::max(0, std::stoi(value));
        else if (key == "--vectors")
            vectors = std::max(0, std::stoi(value));
        else if (key == "--images")
            images = value;
        else {
            std::fprintf(stderr, "cellforge-render-bench: unknown option %s\n", key.c_str());
            return 2;
        }
    }
    try {
        cf::render::HeadlessContext context;
        std::printf("renderer: %s, %dx%d, %d frames\n", context.description().c_str(), width,
                    height, frames);
        cf::render::OffscreenTarget target(width, height);
        std::vector<Result> results;
        for (std::size_t n : counts) {
            // Random spheres at the epidermis' density: radius 0.1, ~20 per unit volume.
            const float side = std::cbrt(static_cast<float>(n) / 20.0f);
            std::mt19937 gen(1);
            std::uniform_real_distribution<float> u(0.0f, side);
            std::vector<float> xyzr(4 * n), scalar(n);
            for (std::size_t i = 0; i < n; ++i) {
                xyzr[4 * i] = u(gen);
                xyzr[4 * i + 1] = u(gen);
                xyzr[4 * i + 2] = u(gen);
                xyzr[4 * i + 3] = 0.1f;
                scalar[i] = xyzr[4 * i + 2] / side;
            }
            cf::render::PointCloud cloud;
            cloud.setPoints(xyzr.data(), n);
            cloud.setScalars(scalar.data(), n);
            cloud.colorByScalar(cf::render::Colormap::Viridis, 0.0f, 1.0f);
            cf::render::OrbitCamera cam;
            cam.fit({0, 0, 0}, {side, side, side});
            const float aspect = static_cast<float>(width) / static_cast<float>(height);
            target.bind();
            using Path = cf::render::PointCloud::DrawPath;
            std::vector<std::pair<const char*, double>> perPath;
            std::vector<std::vector<std::uint8_t>> lastFrames;  // per path, same camera
            for (const auto& [name, path] :
                 {std::pair{"raster", Path::Raster}, std::pair{"splat", Path::Splat}}) {
                cloud.setDrawPath(path);
                cam.yawDegrees = -60.0f;       // every path sees the same frames
                for (int f = 0; f < 5; ++f) {  // warm-up
                    target.clear(1, 1, 1, 1);
                    cloud.draw(cam.view(), cam.projection(aspect));
                }
                glFinish();
                const auto t0 = std::chrono::steady_clock::now();
                for (int f = 0; f < frames; ++f) {
                    cam.yawDegrees += 1.0f;  // a turning camera, as in a movie
                    target.clear(1, 1, 1, 1);
                    cloud.draw(cam.view(), cam.projection(aspect));
                }
                glFinish();
                perPath.emplace_back(name, std::chrono::duration<double, std::milli>(
                                               std::chrono::steady_clock::now() - t0)
                                                   .count() /
                                               frames);
                lastFrames.push_back(target.readPixels());
                if (!images.empty())
                    cf::render::writePng(std::filesystem::path(images) /
                                             ("spheres-" + std::to_string(n) + "-" + name + ".png"),
                                         {width, height, lastFrames.back()});
            }
            // The paths must draw the same picture: pixels off by more than 24 levels.
            std::size_t off = 0;
            for (std::size_t p = 0; p + 3 < lastFrames[0].size(); p += 4)
                for (int c = 0; c < 3; ++c)
                    if (std::abs(lastFrames[0][p + c] - lastFrames[1][p + c]) > 24) {
                        ++off;
                        break;
                    }
            std::printf("%10zu spheres: splat and raster frames differ in %.3f%% of pixels\n", n,
                        100.0 * static_cast<double>(off) / (lastFrames[0].size() / 4.0));
            double interop = -1.0;
#if CELLFORGE_HAVE_CUDA
            interop = interopCopyMs(cloud, xyzr);
#endif
            for (const auto& [name, ms] : perPath) {
                results.push_back({n, name, ms, interop});
                std::printf("%10zu spheres, %-6s: %8.3f ms/frame (%7.1f fps); interop copy %s\n", n,
                            name, ms, 1000.0 / ms,
                            interop < 0 ? "n/a" : (std::to_string(interop) + " ms").c_str());
            }
        }
        double volumeMs = -1.0;
        if (volume > 0) {
            volumeMs = cf::render::bench::benchVolumeSlices(volume, width, height, frames);
            std::printf("%7d^3 volume, 3 slices: %8.3f ms/frame (%7.1f fps)\n", volume, volumeMs,
                        1000.0 / volumeMs);
        }
        double arrowsMs = -1.0, licMs = -1.0;
        if (vectors > 0) {
            arrowsMs = cf::render::bench::benchVectorField(vectors, width, height, frames, false);
            licMs = cf::render::bench::benchVectorField(vectors, width, height, frames, true);
            std::printf("%7d^2 vector field, arrows: %8.3f ms/frame (%7.1f fps)\n", vectors,
                        arrowsMs, 1000.0 / arrowsMs);
            std::printf("%7d^2 vector field, arrows + LIC each frame: %8.3f ms/frame (%7.1f fps)\n",
                        vectors, licMs, 1000.0 / licMs);
        }
        if (!json.empty()) {
            std::ofstream out(json);
            out << "{\"renderer\": \"" << context.description() << "\", \"width\": " << width
                << ", \"height\": " << height << ", \"frames\": " << frames << ", \"results\": [";
            for (std::size_t i = 0; i < results.size(); ++i)
                out << (i ? ", " : "") << "{\"points\": " << results[i].points << ", \"path\": \""
                    << results[i].path << "\""
                    << ", \"ms_per_frame\": " << results[i].msPerFrame
                    << ", \"fps\": " << 1000.0 / results[i].msPerFrame
                    << ", \"interop_copy_ms\": " << results[i].interopMs << "}";
            out << "], \"volume\": {\"size\": " << volume << ", \"ms_per_frame\": " << volumeMs
                << "}, \"vectors\": {\"size\": " << vectors
                << ", \"arrows_ms_per_frame\": " << arrowsMs
                << ", \"arrows_lic_ms_per_frame\": " << licMs << "}}\n";
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cellforge-render-bench: %s\n", e.what());
        return 3;
    }
    return 0;
}
