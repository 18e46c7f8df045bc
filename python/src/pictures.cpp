// SPDX-License-Identifier: GPL-3.0-or-later
#include "python/src/pictures.hpp"

#include "sim/core/errors.hpp"

#if CELLFORGE_PYTHON_RENDER
#include "app/frame_renderer.hpp"
#include "app/volume_settings.hpp"
#include "render/headless_context.hpp"
#include "render/movie_writer.hpp"
#endif

namespace cf::py {

#if CELLFORGE_PYTHON_RENDER

namespace {
app::FrameSettings frameSettings(const std::string& modelName, const std::string& timeUnit,
                                 const PictureOptions& o) {
    if (o.width < 16 || o.height < 16 || o.width > 16384 || o.height > 16384)
        throw ParameterError("size: " + std::to_string(o.width) + " x " + std::to_string(o.height) +
                             " pixels is outside 16 to 16384 on each side");
    app::FrameSettings s;
    s.modelName = modelName;
    s.timeUnit = timeUnit;
    s.width = o.width;
    s.height = o.height;
    s.fps = o.fps;
    s.color = o.color;
    s.yawPerFrame = o.yawPerFrame;
    s.legend = o.legend;
    s.title = o.title;
    s.timestamp = o.timestamp;
    s.volume = o.volume;
    s.volumeChannel = o.volumeChannel;
    s.slices = app::parseSlices(o.slices);
    s.vectors = o.vectors;
    s.lic = o.lic;
    // Python's keyword names in messages.
    s.titleOption = "title";
    s.colorOption = "color";
    s.volumeOption = "volume";
    s.volumeChannelOption = "volume_channel";
    s.vectorsOption = "vectors";
    return s;
}
}  // namespace

struct Pictures::State {
    render::HeadlessContext context;
    std::unique_ptr<app::FrameRenderer> movieFrames;  // the movie's, kept for its camera
    std::unique_ptr<render::MovieWriter> movie;
    std::filesystem::path moviePath;
};

Pictures::Pictures() = default;

Pictures::~Pictures() {
    if (state_) state_->context.makeCurrent();  // GL objects go with their context
}

std::vector<std::uint8_t> Pictures::render(Model& model, const std::string& modelName,
                                           const std::string& timeUnit, const PictureOptions& o) {
    if (!state_) state_ = std::make_unique<State>();
    state_->context.makeCurrent();
    app::FrameRenderer frame(frameSettings(modelName, timeUnit, o));
    frame.draw(model, o.transparent);
    return frame.readPixels();
}

void Pictures::beginMovie(const std::filesystem::path& path, const std::string& modelName,
                          const std::string& timeUnit, const PictureOptions& o) {
    if (!render::movieSupport())
        throw ParameterError("record: this build has no movie support (FFmpeg libraries)");
    if (!state_) state_ = std::make_unique<State>();
    state_->context.makeCurrent();
    auto frames = std::make_unique<app::FrameRenderer>(frameSettings(modelName, timeUnit, o));
    state_->movie = std::make_unique<render::MovieWriter>(path, o.width, o.height, o.fps);
    state_->movieFrames = std::move(frames);
    state_->moviePath = path;
}

void Pictures::addMovieFrame(Model& model) {
    if (!recording()) throw Error("record: no movie is being written");
    state_->context.makeCurrent();
    state_->movieFrames->draw(model, false);
    state_->movie->addFrame(state_->movieFrames->readPixels());
}

MovieSummary Pictures::finishMovie() {
    if (!recording()) throw Error("record: no movie is being written");
    state_->movie->finish();  // also after an interruption: what was recorded plays
    state_->movie.reset();
    state_->movieFrames.reset();
    // What a player will see: the written file read back, not the writer's counters.
    const render::MovieInfo probed = render::probeMovie(state_->moviePath);
    return {state_->moviePath, probed.frames,  probed.width,    probed.height,
            probed.codec,      probed.seconds, probed.frameRate};
}

bool Pictures::recording() const {
    return state_ && state_->movie;
}

bool renderingBuiltIn() {
    return true;
}
bool moviesBuiltIn() {
    return render::movieSupport();
}

#else  // a build without the renderer (CELLFORGE_RENDER off)

struct Pictures::State {};
Pictures::Pictures() = default;
Pictures::~Pictures() = default;

namespace {
[[noreturn]] void noRenderer() {
    throw Error("this build of cellforge has no renderer (CELLFORGE_RENDER is off)");
}
}  // namespace

std::vector<std::uint8_t> Pictures::render(Model&, const std::string&, const std::string&,
                                           const PictureOptions&) {
    noRenderer();
}
void Pictures::beginMovie(const std::filesystem::path&, const std::string&, const std::string&,
                          const PictureOptions&) {
    noRenderer();
}
void Pictures::addMovieFrame(Model&) {
    noRenderer();
}
MovieSummary Pictures::finishMovie() {
    noRenderer();
}
bool Pictures::recording() const {
    return false;
}
bool renderingBuiltIn() {
    return false;
}
bool moviesBuiltIn() {
    return false;
}

#endif

}  // namespace cf::py
