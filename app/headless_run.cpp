// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/headless_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/cloud_upload.hpp"
#include "app/vector_upload.hpp"
#include "app/volume_upload.hpp"
#include "render/camera.hpp"
#include "render/camera_path.hpp"
#include "render/guides.hpp"
#include "render/headless_context.hpp"
#include "render/legend.hpp"
#include "render/movie_writer.hpp"
#include "render/offscreen_target.hpp"
#include "render/png_io.hpp"
#include "render/render_error.hpp"
#include "render/text_annotations.hpp"
#include "render/volume_grid.hpp"
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

    render::OffscreenTarget target(o.width, o.height);
    render::PointCloud cloud;
    render::Guides guides;
    CloudUploader uploader;
    std::unique_ptr<render::VolumeGrid> volume;  // made for the volume view drawn (--volume)
    VolumeUploader volumeUploader;
    std::string volumeShown;  // its name
    // One per vector view drawn, made at the first frame from --vectors and --lic.
    std::vector<std::unique_ptr<VectorLayer>> vectorLayers;
    bool vectorsResolved = false;
    bool showCloud = false;
    std::unique_ptr<render::MovieWriter> movie;
    if (o.record)
        movie = std::make_unique<render::MovieWriter>(*o.record, o.width, o.height, o.fps);

    render::OrbitCamera camera;
    std::optional<render::CameraPath> cameraPath;
    if (o.cameraPath) cameraPath = loadCameraPath(*o.cameraPath);
    render::LegendOverlay legend;
    int frameIndex = 0;
    bool framed = false;
    std::vector<std::uint8_t> pixels;
    int movieBacklog = 0;
    const bool tty = isatty(STDERR_FILENO) == 1;
    auto drawFrame = [&] {
        const ModelViews views = model->views();
        model->synchronize();
        if (!vectorsResolved) {  // bad names or a LIC of a non-planar view: bad input
            for (const VectorSettings& s : resolveVectorOptions(o.vectors, o.lic, views)) {
                vectorLayers.push_back(std::make_unique<VectorLayer>());
                vectorLayers.back()->settings = s;
            }
            vectorsResolved = true;
        }
        if (views.clouds.empty() && views.volumes.empty() && vectorLayers.empty())
            throw render::RenderError("model '" + sc.model->name + "' offers nothing to draw");
        for (auto& layer : vectorLayers)
            layer->uploader.upload(findVectorView(views, layer->settings.view, "--vectors: "),
                                   layer->field, layer->settings);
        showCloud = !views.clouds.empty();
        if (!o.color.empty() && views.clouds.empty())
            throw ParameterError("--color: model '" + sc.model->name +
                                 "' offers no point cloud (for a volume: --volume-channel)");
        if (showCloud) {
            try {
                uploader.upload(views.clouds.front(), cloud, o.color);
            } catch (const ParameterError& e) {  // a --color the cloud lacks: its channels
                throw ParameterError(std::string("--color: ") + e.what());
            }
        }
        for (const auto& [option, value] :
             {std::pair{"--volume", &o.volume}, std::pair{"--volume-channel", &o.volumeChannel}})
            if (!value->empty() && views.volumes.empty())
                throw ParameterError(std::string(option) + ": model '" + sc.model->name +
                                     "' offers no volume view");
        if (!views.volumes.empty()) {
            // A bad name is bad input (exit 2) listing the volumes there are.
            const VolumeView& shown = findVolumeView(views, o.volume, "--volume: ");
            volumeShown = volumeName(shown);
            if (!volume) volume = std::make_unique<render::VolumeGrid>();
            try {
                volumeUploader.upload(shown, *volume, o.volumeChannel);
            } catch (const ParameterError& e) {
                if (o.volumeChannel.empty()) throw;
                throw ParameterError(std::string("--volume-channel: ") + e.what());
            }
            applySlices(slices, *volume);
        }
        if (!framed) {
            frameScene(views, guides, &camera);
            framed = true;
        }
        if (cameraPath) camera = cameraPath->evaluate(frameIndex / static_cast<double>(o.fps));
        target.bind();
        if (o.transparent && !movie)
            target.clear(0.0f, 0.0f, 0.0f, 0.0f);
        else
            target.clear(0.12f, 0.12f, 0.14f, 1.0f);
        const glm::mat4 proj =
            camera.projection(static_cast<float>(o.width) / static_cast<float>(o.height));
        guides.drawLines(proj * camera.view());
        if (showCloud) cloud.draw(camera.view(), proj);
        if (volume) volume->drawSlices(camera.view(), proj);  // opaque, before the planes
        for (auto& layer : vectorLayers)                      // opaque too (LIC, arrows)
            layer->field.draw(camera.view(), proj);
        guides.drawPlanes(proj * camera.view());
        // Legends in the window's corners, captions top left (render/text_annotations.hpp).
        render::ImageOverlayContent overlay;
        if (o.legend) {
            if (showCloud) overlay.cloud = &uploader.legend();
            if (volume) overlay.volume = &volumeUploader.legend();
            if (!vectorLayers.empty()) overlay.vectors = &vectorLayers.front()->uploader.legend();
        }
        overlay.title = o.title;
        if (o.timestamp)
            overlay.timestamp =
                render::formatTimestamp(model->time(), sc.model->timeUnit, model->step());
        render::drawImageOverlay(legend, overlay, o.width, o.height);
        if (movie) {
            // Asynchronous readback: frame k's transfer overlaps the simulation and drawing
            // of frame k+1; the frame is encoded one frame later.
            target.queueReadback();
            if (movieBacklog++ > 0) movie->addFrame(target.takeReadback());
        }
        camera.yawDegrees += o.yawPerFrame;
        ++frameIndex;
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
        while (target.readbackPending()) {
            pixels = target.takeReadback();
            movie->addFrame(pixels);
        }
        movie->finish();  // also on Ctrl-C: the recorded part stays playable
        // What a player will see: the written file read back, not the writer's counters.
        const render::MovieInfo probed = render::probeMovie(*o.record);
        std::printf("movie: %s (%ld frames, %dx%d, %s, %.2f s at %.1f fps, via %s)\n",
                    o.record->c_str(), probed.frames, probed.width, probed.height,
                    probed.codec.c_str(), probed.seconds, probed.frameRate,
                    showCloud ? uploader.path() : volumeUploader.path());
    }
    if (o.screenshot) {
        if (pixels.empty()) pixels = target.readPixels();
        render::writePng(*o.screenshot, render::Image{o.width, o.height, pixels},
                         !(o.transparent && !movie));
        std::printf("image: %s (%dx%d, step %llu)\n", o.screenshot->c_str(), o.width, o.height,
                    static_cast<unsigned long long>(model->step()));
        if (volume)
            std::printf("volume: %s, channel %s via %s\n", volumeShown.c_str(),
                        volumeUploader.channel().c_str(), volumeUploader.path());
        for (const auto& layer : vectorLayers) {
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
