// SPDX-License-Identifier: GPL-3.0-or-later
// The legend's category colours are the drawn ones (issue 24: the lattice legend said
// cytoplasm red while cytoplasm was drawn see-through, and species and site types both used
// red, blue and yellow). Every bundled model's category channels go through the uploaders the
// window and the headless run use; the legend's entries must be the colours the point cloud
// or the volume grid was given, which are the model's declared ones. For the lattice's site
// types the slice is drawn and read back: each voxel's pixel is its legend colour, and the
// see-through cytoplasm shows the background (and is not in the legend).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "app/cloud_upload.hpp"
#include "app/volume_upload.hpp"
#include "render/colormap.hpp"
#include "render/legend.hpp"
#include "render/point_cloud.hpp"
#include "render/volume_grid.hpp"
#include "sim/core/model.hpp"
#include "sim/core/scenario.hpp"
#include "tests/support/gl_fixture.hpp"
#include "tests/support/top_view.hpp"

namespace cf::app {
namespace {

using render::test_support::expectColour;
using render::test_support::Rgb;
using render::test_support::TopView;
using test::pixel;

const std::filesystem::path kScenarios = CELLFORGE_ASSETS_DIR "/scenarios";

struct Loaded {
    std::unique_ptr<Model> model;
    ModelViews views;
};

Loaded load(const std::string& name) {
    static const ModelRegistry registry = builtinModels();
    const Scenario sc = loadScenario(kScenarios / (name + ".toml"), registry);
    Loaded l{sc.model->create(Backend::Cpu), {}};
    l.model->reset(sc.parameters, sc.seed);
    l.model->advance(1);
    l.views = l.model->views();
    return l;
}

Rgb rgb8(const std::array<float, 3>& c) {
    return {static_cast<int>(std::lround(255.0f * c[0])),
            static_cast<int>(std::lround(255.0f * c[1])),
            static_cast<int>(std::lround(255.0f * c[2]))};
}

class CategoryColorTest : public test::GlTest {};

TEST_F(CategoryColorTest, LegendsShowTheDeclaredColoursTheCloudsAndSlicesAreDrawnIn) {
    int checked = 0;
    for (const char* name : {"epidermis-teaching", "lattice-conversion-cell", "welcome"}) {
        SCOPED_TRACE(name);
        const Loaded l = load(name);
        for (const PointCloudView& view : l.views.clouds)
            for (const CategoryChannel& c : view.categories) {
                SCOPED_TRACE(view.name + "/" + c.name);
                render::PointCloud cloud;
                CloudUploader uploader;
                uploader.upload(view, cloud, c.name);
                const render::LegendSpec& legend = uploader.legend();
                ASSERT_EQ(legend.kind, render::LegendSpec::Kind::Categorical);
                ASSERT_EQ(legend.entries.size(), c.labels.size());
                for (std::size_t i = 0; i < c.labels.size(); ++i) {
                    EXPECT_EQ(legend.entries[i].name, c.labels[i]);
                    EXPECT_EQ(legend.entries[i].rgb, cloud.categoryColors()[i]) << "drawn";
                    EXPECT_EQ(legend.entries[i].rgb, render::rgbOf(c.colors.at(i))) << "declared";
                    ++checked;
                }
            }
        for (const VolumeView& view : l.views.volumes)
            for (const VolumeCategoryChannel& c : view.categories) {
                SCOPED_TRACE(view.name + "/" + c.name);
                render::VolumeGrid grid;
                VolumeUploader uploader;
                uploader.upload(view, grid, c.name);
                const render::LegendSpec& legend = uploader.legend();
                const std::size_t first = c.emptyTransparent ? 1 : 0;
                ASSERT_EQ(legend.entries.size(), c.labels.size() - first);
                EXPECT_EQ(grid.emptyCategoryTransparent(), c.emptyTransparent);
                for (std::size_t i = first; i < c.labels.size(); ++i) {
                    const render::LegendEntry& e = legend.entries[i - first];
                    EXPECT_EQ(e.name, c.labels[i]);
                    EXPECT_EQ(e.rgb, grid.categoryColors()[i]) << "drawn";
                    EXPECT_EQ(e.rgb, render::rgbOf(c.colors.at(i))) << "declared";
                    ++checked;
                }
                if (c.emptyTransparent) {
                    EXPECT_NE(legend.title.find("see-through"), std::string::npos)
                        << "the legend says what category 0 looks like: " << legend.title;
                }
            }
    }
    EXPECT_GE(checked, 3 + 2 + 3 + 12);  // epidermis, lattice species and site types, clones
}

// The lattice-conversion-cell's spherical cell (32^3 sites): a z slice through voxel layer 16
// seen from above. Pixels well inside a voxel (a fifth of a voxel from its faces) are that
// voxel's legend colour (slices are unlit: exact up to rounding, tolerance 2 of 255), the
// cytoplasm the black background.
TEST_F(CategoryColorTest, LatticeSiteTypeSlicePixelsAreTheLegendColours) {
    const Loaded l = load("lattice-conversion-cell");
    ASSERT_EQ(l.views.volumes.size(), 1u);
    VolumeView view = l.views.volumes.front();
    // Centred on the origin, as the top view looks there.
    for (int a = 0; a < 3; ++a) {
        const double half = 0.5 * (view.hi[a] - view.lo[a]);
        view.lo[a] = -half;
        view.hi[a] = half;
    }
    render::VolumeGrid grid;
    VolumeUploader uploader;
    uploader.upload(view, grid, "site type");
    const int nx = view.dims[0], ny = view.dims[1], nz = view.dims[2], k = nz / 2;
    const float dz = static_cast<float>((view.hi[2] - view.lo[2]) / nz);
    const float sliceZ = static_cast<float>(view.lo[2]) + (static_cast<float>(k) + 0.5f) * dz;
    grid.setSlice(2, sliceZ);
    render::test_support::onlySlice(grid, 2);
    const TopView top{320, 320, static_cast<float>(3.5 * view.hi[0])};
    const render::Image im =
        render::test_support::renderTop(top, [&](auto v, auto p) { grid.drawSlices(v, p); });

    const VolumeCategoryChannel& types = view.categories.front();
    const auto data = viewToHost(types.data, view.voxelCount(), view.space);
    std::map<std::string, Rgb> legend;
    for (const render::LegendEntry& e : uploader.legend().entries)
        legend[e.name] = rgb8(e.rgb);
    std::map<int, int> seen;  // category -> pixels checked
    const double vx = (view.hi[0] - view.lo[0]) / nx, vy = (view.hi[1] - view.lo[1]) / ny;
    for (int row = 2; row < top.height; row += 3)
        for (int col = 2; col < top.width; col += 3) {
            const glm::vec2 w = top.worldOfPixel(col, row, sliceZ);
            const double fx = (w.x - view.lo[0]) / vx, fy = (w.y - view.lo[1]) / vy;
            if (fx < 0 || fy < 0 || fx >= nx || fy >= ny) continue;
            const double ex = fx - std::floor(fx), ey = fy - std::floor(fy);
            if (ex < 0.2 || ex > 0.8 || ey < 0.2 || ey > 0.8) continue;
            const auto i = static_cast<std::size_t>(fx), j = static_cast<std::size_t>(fy);
            const int category =
                data[i + static_cast<std::size_t>(nx) *
                             (j + static_cast<std::size_t>(ny) * static_cast<std::size_t>(k))];
            const std::string where = "voxel (" + std::to_string(i) + ", " + std::to_string(j) +
                                      ") " + types.labels.at(static_cast<std::size_t>(category));
            const Rgb want = category == 0 && types.emptyTransparent
                                 ? Rgb{0, 0, 0}
                                 : legend.at(types.labels.at(static_cast<std::size_t>(category)));
            expectColour(pixel(im, col, row), want, 2, where);
            ++seen[category];
        }
    // The slice through the cell's middle cuts cytoplasm, membrane and outside.
    EXPECT_GT(seen[0], 50);
    EXPECT_GT(seen[2], 10);
    EXPECT_GT(seen[3], 50);
}

}  // namespace
}  // namespace cf::app
