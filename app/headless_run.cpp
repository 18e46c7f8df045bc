// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/headless_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <utility>

#include "app/frame_renderer.hpp"
#include "render/camera_path.hpp"
#include "render/headless_context.hpp"
#include "render/movie_writer.hpp"
#include "render/png_io.hpp"
#include "render/render_error.hpp"
#include "render/text_annotations.hpp"
#include "sim/core/input_file.hpp"
#include "sim/core/interrupt.hpp"
#include "sim/core/scenario.hpp"

namespace cf::app {

namespace {
// A camera path file: bad JSON or key frames are bad input (exit 2) naming the file.
render::CameraPath loadCameraPath(const std::string& file) {
    const std::string text = readInputFile(file);
    try {
        return render::CameraPath::fromJson(text);
    } catch (const render::RenderError& e) {
        throw InputFileError(file + ": " + e.what());
    }
}
}  // namespace

int runHeadless(const HeadlessOptions& o) {
    return runHeadless(o, builtinModels());
}

int runHeadless(const HeadlessOptions& o, const ModelRegistry& registry) {
    // Input first. Errors are thrown, never printed here: main() prints each once and
    // exits 2 for bad input (InputError), 3 for anything else.
    if (const std::string problem = render::titleProblem(o.title); !problem.empty())
        throw ParameterError("--title: the title " + problem);
    const SliceSettings slices = parseSlices(o.slices);
    if (!o.vectors.empty()) parseVectorsOption(o.vectors);  // the names wait for the views
    Scenario sc = loadScenario(o.scenario, registry);
    for (const auto& a : o.sets)
        sc.parameters.setFromAssignment(a);
    resolveFilePaths(sc.parameters, std::filesystem::current_path());  // --set paths
    const Backend backend = resolveModelBackend(*sc.model, o.backend, sc.backend);
    const std::uint64_t steps = o.steps.value_or(sc.steps);
    const std::uint64_t every = std::max<std::uint64_t>(1, o.every);

    if (o.record && !render::movieSupport())
        throw ParameterError(
            "--record: this build has no movie support (FFmpeg libraries); "
            "use --screenshot, or rebuild with libavcodec-dev installed");
    for (const auto& file : {o.screenshot, o.record}) {
        if (!file) continue;
        const std::filesystem::path parent = std::filesystem::path(*file).parent_path();
        std::error_code ec;
        if (!parent.empty()) std::filesystem::create_directories(parent, ec);
        if (ec)  // a path the user gave
            throw InputFileError(parent.string() +
                                 ": cannot create output directory: " + ec.message());
    }
    installInterruptHandler();
    render::HeadlessContext context;
    std::unique_ptr<Model> model = sc.model->create(backend);
    model->reset(sc.parameters, sc.seed);

    FrameSettings settings;
    settings.modelName = sc.model->name;
    settings.timeUnit = sc.model->timeUnit;
    settings.width = o.width;
    settings.height = o.height;
    settings.fps = o.fps;
    settings.color = o.color;
    settings.yawPerFrame = o.yawPerFrame;
    if (o.cameraPath) settings.cameraPath = loadCameraPath(*o.cameraPath);
    settings.legend = o.legend;
    settings.title = o.title;
    settings.timestamp = o.timestamp;
    settings.volume = o.volume;
    settings.volumeChannel = o.volumeChannel;
    settings.slices = slices;
    settings.vectors = o.vectors;
    settings.lic = o.lic;
    FrameRenderer renderer(std::move(settings));
    std::unique_ptr<render::MovieWriter> movie;
    if (o.record)
        movie = std::make_unique<render::MovieWriter>(*o.record, o.width, o.height, o.fps);

    std::vector<std::uint8_t> pixels;
    int movieBacklog = 0;
    const bool tty = isatty(STDERR_FILENO) == 1;
    auto drawFrame = [&] {
        renderer.draw(*model, o.transparent && !movie);
        if (movie) {
            // Asynchronous readback: frame k's transfer overlaps the simulation and drawing
            // of frame k+1; the frame is encoded one frame later.
            renderer.target().queueReadback();
            if (movieBacklog++ > 0) movie->addFrame(renderer.target().takeReadback());
        }
    };

    std::fprintf(stderr, "cellforge: %s, backend %s, renderer %s\n", sc.model->name.c_str(),
                 backendLine(backend).c_str(), context.description().c_str());
    drawFrame();
    while (model->step() < steps && !interruptRequested()) {
        model->advance(std::min(every, steps - model->step()));
        model->checkFinite();
        drawFrame();
        if (tty)
            std::fprintf(stderr, "\r  step %llu/%llu  frames %d ",
                         static_cast<unsigned long long>(model->step()),
                         static_cast<unsigned long long>(steps), movie ? movie->frames() : 0);
    }
    if (tty) std::fputc('\n', stderr);
    if (movie) {
        while (renderer.target().readbackPending()) {
            pixels = renderer.target().takeReadback();
            movie->addFrame(pixels);
        }
        movie->finish();  // also on Ctrl-C: the recorded part stays playable
        // What a player will see: the written file read back, not the writer's counters.
        const render::MovieInfo probed = render::probeMovie(*o.record);
        std::printf(
            "movie: %s (%ld frames, %dx%d, %s, %.2f s at %.1f fps, via %s)\n", o.record->c_str(),
            probed.frames, probed.width, probed.height, probed.codec.c_str(), probed.seconds,
            probed.frameRate,
            renderer.showsCloud() ? renderer.cloudPath() : renderer.volumeUploader().path());
    }
    if (o.screenshot) {
        if (pixels.empty()) pixels = renderer.readPixels();
        render::writePng(*o.screenshot, render::Image{o.width, o.height, pixels},
                         !(o.transparent && !movie));
        std::printf("image: %s (%dx%d, step %llu)\n", o.screenshot->c_str(), o.width, o.height,
                    static_cast<unsigned long long>(model->step()));
        if (renderer.showsVolume())
            std::printf("volume: %s, channel %s via %s\n", renderer.volumeShown().c_str(),
                        renderer.volumeUploader().channel().c_str(),
                        renderer.volumeUploader().path());
        for (const auto& layer : renderer.vectorLayers()) {
            const auto [lo, hi] = layer->uploader.magnitudeRange();
            std::printf("vectors: %s, %s%s, stride %d, |v| in [%g, %g], via %s\n",
                        layer->settings.view.c_str(), layer->settings.arrows ? "arrows" : "",
                        layer->settings.lic ? (layer->settings.arrows ? " + LIC" : "LIC") : "",
                        layer->field.stride(), static_cast<double>(lo), static_cast<double>(hi),
                        layer->uploader.path());
        }
    }
    if (interruptRequested()) {
        std::fprintf(stderr, "cellforge: interrupted at step %llu\n",
                     static_cast<unsigned long long>(model->step()));
        return 130;
    }
    return 0;
}

}  // namespace cf::app
