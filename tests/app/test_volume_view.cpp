// SPDX-License-Identifier: GPL-3.0-or-later
// Volume views end to end: a test model's known voxels (a checkerboard of categories, a
// gradient along x, a field rising with z; tests/support/volume_model.hpp) published
// through the ViewExchange, uploaded into a VolumeGrid (host upload here, CUDA-GL texture
// interop on the GPU machine) and drawn as slices; every slice pixel inside a voxel must be
// the palette or colormap colour of that voxel; with two volumes, the chosen one's. Also the
// headless run (--volume, --volume-channel, --slices, the legend) and the slice option's
// parsing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <random>

#include "app/headless_run.hpp"
#include "app/volume_upload.hpp"
#include "render/camera.hpp"
#include "render/legend.hpp"
#include "render/png_io.hpp"
#include "render/text_annotations.hpp"
#include "sim/core/errors.hpp"
#include "sim/run/view_exchange.hpp"
#include "tests/support/gl_fixture.hpp"
#include "tests/support/top_view.hpp"
#include "tests/support/volume_model.hpp"
#if CELLFORGE_HAVE_CUDA
#include "tests/support/interop_fixture.hpp"
#endif

namespace cf::app {
namespace {

using render::test_support::colormapAt;
using render::test_support::expectColour;
using render::test_support::paletteColour;
using render::test_support::Rgb;
using render::test_support::TopView;
using test::pixel;

constexpr int kNx = 8, kNy = 6, kNz = 4;  // the test model's default grid

// The test model on `backend` offering `volumes` volumes, reset, with its views published
// once.
struct Published {
    explicit Published(Backend backend, int volumes = 1) : model(backend) {
        ParamSet params(test::volumeTable());
        params.set("grid.volumes", std::int64_t{volumes});
        model.reset(params, 1);
        exchange.publish(model);
        lease.emplace(*exchange.takeNewest());
    }
    const VolumeView& volume() const { return lease->views().volumes.at(0); }
    test::VolumeModel model;
    ViewExchange exchange;
    std::optional<ViewExchange::Lease> lease;
};

// Draws the grid's enabled slices looking straight down -z from 40 units above the box
// centre (the test model's box is centred on 0): 200 x 160 pixels, a voxel 2 units wide is
// about 12 pixels.
const TopView kTop{200, 160, 40.0f};

render::Image drawTop(const render::VolumeGrid& grid) {
    return render::test_support::renderTop(
        kTop, [&](auto view, auto proj) { grid.drawSlices(view, proj); });
}

// Calls check(col, row, i, j) for every pixel whose footprint on the plane z = c lies
// inside voxel column (i, j), more than a pixel away from its faces (where either
// neighbour may be drawn), and expects background outside the box. Returns the number of
// voxel pixels checked.
template <typename Check>
int forEachVoxelPixel(const render::Image& im, float c, Check check) {
    int checked = 0, outside = 0;
    for (int row = 0; row < kTop.height; ++row)
        for (int col = 0; col < kTop.width; ++col) {
            const glm::vec2 p = kTop.worldOfPixel(col, row, c);
            const float pixelSize = kTop.worldOfPixel(col + 1, row, c).x - p.x;
            // Voxel coordinates: 2 units per voxel from -nx and -ny.
            const float u = (p.x + kNx) / 2.0f, v = (p.y + kNy) / 2.0f;
            const float margin = pixelSize / 2.0f + 1e-3f;
            if (u < -margin || v < -margin || u > kNx + margin || v > kNy + margin) {
                const std::uint8_t* px = pixel(im, col, row);
                if (px[0] + px[1] + px[2] != 0 && ++outside <= 3)
                    ADD_FAILURE() << "not background outside the box at " << col << "," << row;
                continue;
            }
            if (std::abs(u - std::round(u)) < margin || std::abs(v - std::round(v)) < margin)
                continue;
            const int i = static_cast<int>(std::floor(u)), j = static_cast<int>(std::floor(v));
            if (i < 0 || j < 0 || i >= kNx || j >= kNy) continue;
            check(col, row, i, j);
            ++checked;
        }
    return checked;
}

// Uploads channel `channel` of the published volume with only a z slice through layer k,
// and checks every voxel pixel against `expected(i, j)` within `tolerance` levels.
template <typename Expected>
void expectZSlice(VolumeUploader& uploader, render::VolumeGrid& grid, const VolumeView& view,
                  const std::string& channel, int k, int tolerance, Expected expected) {
    uploader.upload(view, grid, channel);
    const double z = view.lo[2] + k + 0.5;  // voxel layers are 1 unit thick
    applySlices(parseSlices("off,off," + std::to_string(z)), grid);
    const render::Image im = drawTop(grid);
    const int checked =
        forEachVoxelPixel(im, static_cast<float>(z), [&](int col, int row, int i, int j) {
            expectColour(pixel(im, col, row), expected(i, j), tolerance,
                         channel + " voxel " + std::to_string(i) + "," + std::to_string(j) + "," +
                             std::to_string(k) + " at pixel " + std::to_string(col) + "," +
                             std::to_string(row));
        });
    // 48 voxels of about 12 x 12 pixels, less a pixel-wide margin round each.
    EXPECT_GT(checked, 48 * 60) << channel;
}

// Every colour check: categories exactly (tolerance 0: nearest texel, an 8-bit palette
// colour of a /255 float round-trips); scalars within 1 level (the colormap texel is
// interpolated at u * 255 up to float rounding; each voxel shows its own value).
void checkAllChannels(VolumeUploader& uploader, render::VolumeGrid& grid, const VolumeView& view) {
    for (int k = 0; k < kNz; ++k)
        expectZSlice(uploader, grid, view, "phase", k, 0,
                     [&](int i, int j) { return paletteColour(test::checkerPhase(i, j, k)); });
    // The hint [0, nx - 1] spans the colormap: voxel i shows u = i / 7.
    expectZSlice(uploader, grid, view, "gradient", 1, 1,
                 [](int i, int) { return colormapAt(render::Colormap::Viridis, i / (kNx - 1.0)); });
    // No hint: the data's range [0, nz - 1]; layer k shows u = k / 3 everywhere.
    for (int k = 0; k < kNz; ++k)
        expectZSlice(uploader, grid, view, "height", k, 1,
                     [&](int, int) { return colormapAt(render::Colormap::Viridis, k / 3.0); });
}

using VolumeViewTest = test::GlTest;

TEST_F(VolumeViewTest, HostVoxelsThroughTheExchangeShowTheirColours) {
    Published published(Backend::Cpu);
    ASSERT_EQ(published.volume().space, MemorySpace::Host);
    render::VolumeGrid grid;
    VolumeUploader uploader;
    checkAllChannels(uploader, grid, published.volume());
    EXPECT_STREQ(uploader.path(), "host upload");
    EXPECT_EQ(grid.size(), glm::ivec3(kNx, kNy, kNz));
    EXPECT_EQ(grid.lo(), glm::vec3(-8.0f, -6.0f, -2.0f));
}

TEST_F(VolumeViewTest, LegendAndChannelChoice) {
    Published published(Backend::Cpu);
    render::VolumeGrid grid;
    VolumeUploader uploader;
    uploader.upload(published.volume(), grid, "");  // the first category
    EXPECT_EQ(uploader.channel(), "phase");
    EXPECT_EQ(grid.valueFormat(), render::VolumeGrid::ValueFormat::Category);
    const render::LegendSpec& cat = uploader.legend();
    EXPECT_EQ(cat.kind, render::LegendSpec::Kind::Categorical);
    EXPECT_EQ(cat.title, "phase");
    ASSERT_EQ(cat.entries.size(), 3u);
    EXPECT_EQ(cat.entries[1].name, "even");
    EXPECT_EQ(cat.entries[2].rgb, render::categoricalPalette()[2]);

    uploader.upload(published.volume(), grid, "gradient");
    EXPECT_EQ(grid.valueFormat(), render::VolumeGrid::ValueFormat::Scalar);
    const render::LegendSpec& scalar = uploader.legend();
    EXPECT_EQ(scalar.kind, render::LegendSpec::Kind::Continuous);
    EXPECT_EQ(scalar.title, render::legendTitle("gradient", "um"));
    EXPECT_EQ(scalar.lo, 0.0);
    EXPECT_EQ(scalar.hi, 7.0);  // the hint
    uploader.upload(published.volume(), grid, "height");
    EXPECT_EQ(uploader.legend().hi, 3.0);  // the data: k in 0..3

    try {
        uploader.upload(published.volume(), grid, "density");
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("no channel 'density'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("phase, gradient, height"), std::string::npos) << msg;
    }
}

// With two volumes the one chosen by name is what reaches the grid: the plate's single
// layer (a band per row j, a ramp along y), not the lattice's checkerboard at the same place.
TEST_F(VolumeViewTest, TheChosenVolumesVoxelsReachTheGrid) {
    Published published(Backend::Cpu, 2);
    const ModelViews& views = published.lease->views();
    EXPECT_EQ(volumeViewNames(views), (std::vector<std::string>{"lattice", "plate"}));
    EXPECT_EQ(findVolumeView(views, "", "").name, "lattice");  // no name: the first
    const VolumeView& plate = findVolumeView(views, "plate", "");
    render::VolumeGrid grid;
    VolumeUploader uploader;
    // Categories exactly, scalars within 1 level (as in checkAllChannels).
    expectZSlice(uploader, grid, plate, "band", 0, 0,
                 [](int, int j) { return paletteColour(test::plateBand(j)); });
    EXPECT_EQ(grid.size(), glm::ivec3(kNx, kNy, 1));
    EXPECT_EQ(grid.lo(), glm::vec3(-8.0f, -6.0f, -0.5f));
    expectZSlice(uploader, grid, plate, "ramp", 0, 1,
                 [](int, int j) { return colormapAt(render::Colormap::Viridis, j / (kNy - 1.0)); });
    // Back to the lattice: its size and checkerboard again.
    expectZSlice(uploader, grid, findVolumeView(views, "lattice", ""), "phase", 1, 0,
                 [](int i, int j) { return paletteColour(test::checkerPhase(i, j, 1)); });
    EXPECT_EQ(grid.size(), glm::ivec3(kNx, kNy, kNz));
    try {
        findVolumeView(views, "slab", "--volume: ");
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_STREQ(e.what(), "--volume: no volume view 'slab' (there are: lattice, plate)");
    }
}

// A slice coordinate outside the box is clamped to it (the first or last layer); the
// centre of an even number of layers is the face between two, where the upper one shows.
TEST_F(VolumeViewTest, SlicePositionsPickTheirLayer) {
    Published published(Backend::Cpu);
    render::VolumeGrid grid;
    VolumeUploader uploader;
    uploader.upload(published.volume(), grid, "height");
    for (const auto& [slices, layer] :
         {std::pair{std::string("off,off,-100"), 0}, std::pair{std::string("off,off,100"), kNz - 1},
          std::pair{std::string("off,off,mid"), kNz / 2}}) {
        applySlices(parseSlices(slices), grid);
        EXPECT_FALSE(grid.sliceEnabled(0));
        EXPECT_TRUE(grid.sliceEnabled(2));
        const render::Image im = drawTop(grid);
        const std::uint8_t* centre = pixel(im, kTop.width / 2 + 3, kTop.height / 2 + 3);
        expectColour(centre, colormapAt(render::Colormap::Viridis, layer / 3.0), 1, slices);
    }
}

TEST(VolumeSlices, ParseAndFormat) {
    const SliceSettings s = parseSlices(" 12.5, mid ,off");
    EXPECT_EQ(s[0].mode, SliceSetting::Mode::At);
    EXPECT_EQ(s[0].coordinate, 12.5);
    EXPECT_EQ(s[1].mode, SliceSetting::Mode::Centre);
    EXPECT_EQ(s[2].mode, SliceSetting::Mode::Off);
    EXPECT_EQ(formatSlices(s), "12.5,mid,off");
    EXPECT_EQ(parseSlices(formatSlices(s)), s);
    EXPECT_EQ(parseSlices("-1e-3,,"), (SliceSettings{{{SliceSetting::Mode::At, -1e-3}, {}, {}}}));
    for (const char* bad : {"1,2", "1,2,3,4", "a,mid,mid", "1,nan,2", "1,2,3x"}) {
        try {
            parseSlices(bad);
            FAIL() << bad;
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find("--slices"), std::string::npos) << e.what();
        }
    }
}

// A scratch directory with a scenario of the test model, removed after the test.
class HeadlessVolume : public test::GlTest {
protected:
    void SetUp() override {
        test::GlTest::SetUp();
        if (IsSkipped()) return;
        dir_ = std::filesystem::temp_directory_path() /
               ("cellforge-volume-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(dir_);
        std::ofstream(dir_ / "volume.toml") << "model = \"volume\"\nsteps = 0\n";
        registry_.add(test::volumeDescriptor());
    }
    void TearDown() override {
        std::error_code ignored;
        if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    }
    HeadlessOptions options(const std::string& shot) const {
        HeadlessOptions o;
        o.scenario = (dir_ / "volume.toml").string();
        o.backend = "cpu";
        o.screenshot = (dir_ / shot).string();
        o.width = 320;
        o.height = 240;
        o.timestamp = false;  // scene pixels here; captions: test_scene_text.cpp
        return o;
    }
    std::filesystem::path dir_;
    ModelRegistry registry_;
};

// In a 320 x 240 headless image of the z = 0 slice, framed as the headless run frames the
// test model (frameScene: the camera fitted to the focus box), the voxel centre of every
// voxel column (i, j) projects into its footprint, which must show expected(i, j).
void expectVoxelCentres(const render::Image& im, const std::function<Rgb(int, int)>& expected) {
    ASSERT_EQ(im.width, 320);
    render::OrbitCamera camera;
    camera.fit({-8, -6, -2}, {8, 6, 2});
    const glm::mat4 vp = camera.projection(320.0f / 240.0f) * camera.view();
    int checked = 0;
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i) {
            const glm::vec4 clip = vp * glm::vec4(-kNx + 2 * i + 1, -kNy + 2 * j + 1, 0, 1);
            const int col = static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * 320));
            const int row =
                239 - static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * 240));
            ASSERT_TRUE(col >= 2 && col < 318 && row >= 2 && row < 238) << i << "," << j;
            // The 5 x 5 pixels round the centre lie inside the voxel (about 20 x 10 pixels
            // here); a box edge drawn in front of the slice may cross them (one pixel wide:
            // at most 9 of 25), so 16 must be the voxel's palette colour exactly.
            const Rgb want = expected(i, j);
            int matching = 0;
            for (int dy = -2; dy <= 2; ++dy)
                for (int dx = -2; dx <= 2; ++dx) {
                    const std::uint8_t* c = pixel(im, col + dx, row + dy);
                    matching += c[0] == want.r && c[1] == want.g && c[2] == want.b;
                }
            EXPECT_GE(matching, 16) << "voxel " << i << "," << j;
            ++checked;
        }
    EXPECT_EQ(checked, kNx * kNy);
}

// The headless run frames the box as every view does (frameScene: the camera fitted to the
// focus box); a voxel centre on the z slice projects into that voxel's footprint, which
// must show the voxel's colour.
TEST_F(HeadlessVolume, SlicesAndLegendInTheImage) {
    HeadlessOptions o = options("phase.png");
    o.volumeChannel = "phase";
    o.slices = "off,off,mid";  // z = 0: the face between layers 1 and 2, layer 2 shows
    o.legend = false;
    ASSERT_EQ(runHeadless(o, registry_), 0);
    expectVoxelCentres(render::readPng(*o.screenshot),
                       [](int i, int j) { return paletteColour(test::checkerPhase(i, j, 2)); });

    // With the legend: the gradient's colour bar where the image overlay puts a volume's
    // legend (bottom left, as the window does), row for row the colormap as LegendOverlay
    // draws it (tolerance 1 level: the bar is drawn over a translucent backdrop).
    HeadlessOptions withLegend = options("gradient.png");
    withLegend.volumeChannel = "gradient";
    ASSERT_EQ(runHeadless(withLegend, registry_), 0);
    const render::Image legendImage = render::readPng(*withLegend.screenshot);
    const render::LegendSpec spec =
        render::buildLegend(render::Colormap::Viridis, 0.0, 7.0, "gradient", "um");
    render::ImageOverlayContent content;
    content.volume = &spec;
    const render::LegendLayout l =
        *render::layoutImageOverlay(render::Font(), content, 320, 240).volume;
    EXPECT_LT(l.panel.right(), 160);  // left half
    EXPECT_GT(l.panel.y, 60);         // towards the bottom
    ASSERT_GT(l.bar.height, 10);
    for (int r = 0; r < l.bar.height; r += 7) {
        const auto want = render::legendBarColor(render::Colormap::Viridis, r, l.bar.height);
        expectColour(pixel(legendImage, l.bar.x + l.bar.width / 2, l.bar.y + l.bar.height - 1 - r),
                     Rgb{want[0], want[1], want[2]}, 1, "legend bar row " + std::to_string(r));
    }
}

// Pictures for a person to look at (CELLFORGE_VOLUME_SHOTS names a directory): the three
// default slices of each channel, framed as the headless run frames them.
TEST_F(HeadlessVolume, PicturesForReview) {
    const char* shots = std::getenv("CELLFORGE_VOLUME_SHOTS");
    if (shots == nullptr) GTEST_SKIP() << "set CELLFORGE_VOLUME_SHOTS to a directory";
    for (const char* channel : {"phase", "gradient", "height"}) {
        HeadlessOptions o = options(std::string(channel) + ".png");
        o.volumeChannel = channel;
        o.screenshot =
            (std::filesystem::path(shots) / ("volume_" + std::string(channel) + ".png")).string();
        ASSERT_EQ(runHeadless(o, registry_), 0);
    }
}

// --volume draws the volume named (the model's second here), --volume-channel applies to
// it; without --volume the first is drawn, as before.
TEST_F(HeadlessVolume, TheVolumeNamedIsDrawn) {
    HeadlessOptions o = options("plate.png");
    o.sets = {"grid.volumes=2"};
    o.volume = "plate";
    o.volumeChannel = "band";  // the lattice has no such channel
    o.slices = "off,off,mid";  // the plate's one layer, z = 0
    o.legend = false;
    ASSERT_EQ(runHeadless(o, registry_), 0);
    expectVoxelCentres(render::readPng(*o.screenshot),
                       [](int, int j) { return paletteColour(test::plateBand(j)); });
    o.volume.clear();
    o.volumeChannel.clear();
    ASSERT_EQ(runHeadless(o, registry_), 0);
    expectVoxelCentres(render::readPng(*o.screenshot),
                       [](int i, int j) { return paletteColour(test::checkerPhase(i, j, 2)); });
}

// A bad volume name is bad input (main() exits 2) listing the volumes there are.
TEST_F(HeadlessVolume, BadVolumeNameListsTheVolumes) {
    HeadlessOptions o = options("x.png");
    o.sets = {"grid.volumes=2"};
    o.volume = "slab";
    try {
        runHeadless(o, registry_);
        FAIL() << "expected ParameterError (main() exits 2)";
    } catch (const ParameterError& e) {
        EXPECT_STREQ(e.what(), "--volume: no volume view 'slab' (there are: lattice, plate)");
    }
    // The channel is looked up in the chosen volume: the plate has no 'phase'.
    o.volume = "plate";
    o.volumeChannel = "phase";
    try {
        runHeadless(o, registry_);
        FAIL() << "expected ParameterError (main() exits 2)";
    } catch (const ParameterError& e) {
        EXPECT_STREQ(e.what(),
                     "--volume-channel: volume 'plate' has no channel 'phase' (it has: "
                     "band, ramp)");
    }
}

TEST_F(HeadlessVolume, BadChannelOrSlicesAreBadInput) {
    HeadlessOptions o = options("x.png");
    o.volumeChannel = "density";
    try {
        runHeadless(o, registry_);
        FAIL() << "expected ParameterError (main() exits 2)";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("--volume-channel: volume 'lattice' has no channel "
                                             "'density' (it has: phase, gradient, height)"),
                  std::string::npos)
            << e.what();
    }
    o.volumeChannel.clear();
    o.slices = "mid,mid";
    EXPECT_THROW(runHeadless(o, registry_), ParameterError);
}

#if CELLFORGE_HAVE_CUDA
// On the GPU machine: device voxels go through the exchange (device to device) and into
// the 3D texture by CUDA-GL interop, with the same pixels as the host upload.
using VolumeViewInteropCuda = test::CudaGlInteropTest;

TEST_F(VolumeViewInteropCuda, DeviceVoxelsReachTheTextureWithoutTheHost) {
    Published published(Backend::Cuda);
    ASSERT_EQ(published.volume().space, MemorySpace::Device);
    render::VolumeGrid grid;
    VolumeUploader uploader;
    checkAllChannels(uploader, grid, published.volume());
    EXPECT_STREQ(uploader.path(), "interop");
    // The scalar range without a hint was reduced on the device: layers 0..3.
    uploader.upload(published.volume(), grid, "height");
    EXPECT_EQ(uploader.legend().lo, 0.0);
    EXPECT_EQ(uploader.legend().hi, 3.0);
    // A different size re-registers the new texture.
    ParamSet bigger(test::volumeTable());
    bigger.set("grid.nx", std::int64_t{16});
    published.lease.reset();
    published.model.reset(bigger, 1);
    published.exchange.publish(published.model);
    published.lease.emplace(*published.exchange.takeNewest());
    uploader.upload(published.volume(), grid, "gradient");
    EXPECT_EQ(grid.size(), glm::ivec3(16, kNy, kNz));
    uploader.release();
}
#endif

}  // namespace
}  // namespace cf::app
