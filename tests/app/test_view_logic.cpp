// SPDX-License-Identifier: GPL-3.0-or-later
// The view's pure logic, without GL: the colour-range rule (app/color_range.hpp), the
// uploaders' shared choices (app/upload_choice.hpp) and the camera's fit into a free area of
// the screen (render/camera.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "app/color_range.hpp"
#include "app/upload_choice.hpp"
#include "render/camera.hpp"
#include "sim/core/errors.hpp"

namespace cf {
namespace {

using app::ColorRange;
using app::RangeMode;
using app::RangeSetting;
using app::resolveRange;
using app::resolveRangeFromExtremes;

TEST(ColorRange, AutomaticIsTheFirstToNinetyNinthPercentileByNearestRank) {
    std::vector<float> v;
    for (int i = 0; i < 1000; ++i)
        v.push_back(static_cast<float>(i));
    const app::ColorRange r = app::resolveRange({}, v);
    // Rank ceil(0.01 * 1000) = 10 is the value 9; rank 990 is 989.
    EXPECT_EQ(r.lo, 9.0);
    EXPECT_EQ(r.hi, 989.0);
    EXPECT_FALSE(r.nearConstant);
    EXPECT_EQ(r.count, 1000u);
    EXPECT_EQ(r.below.value(), 9u);   // 0 .. 8
    EXPECT_EQ(r.above.value(), 10u);  // 990 .. 999
    EXPECT_EQ(r.dataLo, 0.0);
    EXPECT_EQ(r.dataHi, 999.0);
    EXPECT_EQ(app::rangeModeText(r), "auto 1\u201399 %");
}

TEST(ColorRange, AFewOutliersDoNotSqueezeTheRest) {
    std::vector<float> v;
    for (int i = 0; i < 990; ++i)
        v.push_back(1.0f + static_cast<float>(i) / 989.0f);  // 1 .. 2
    for (int i = 0; i < 10; ++i)
        v.push_back(1000.0f);  // 1 % far out
    const app::ColorRange r = app::resolveRange({}, v);
    EXPECT_FLOAT_EQ(static_cast<float>(r.hi), 2.0f);
    EXPECT_EQ(r.above.value(), 10u);
    const std::string note = app::outsideNote(r, "mV");
    EXPECT_NE(note.find("10 of 1000 above"), std::string::npos) << note;
    EXPECT_NE(note.find("max 1000 mV"), std::string::npos) << note;
}

TEST(ColorRange, ANearConstantFieldIsNotStretched) {
    // The epidermis delta: 28.8660 .. 28.8675, a 0.005 % spread.
    std::vector<float> v;
    for (int i = 0; i < 200; ++i)
        v.push_back(28.8660f + 0.0015f * static_cast<float>(i) / 199.0f);
    const app::ColorRange r = app::resolveRange({}, v);
    EXPECT_TRUE(r.nearConstant);
    EXPECT_EQ(app::rangeModeText(r), "auto (near-constant)");
    const double magnitude = 28.8675;
    // The range is 0.1 % of the magnitude wide (float data: 1e-6 relative), centred on the
    // data, so the data cover about 5 % of the colormap round its middle.
    EXPECT_NEAR(r.hi - r.lo, app::kNearConstantRelative * magnitude, 1e-6 * magnitude);
    EXPECT_NEAR(0.5 * (r.lo + r.hi), 28.86675, 1e-5);
    EXPECT_LT((r.dataHi - r.dataLo) / (r.hi - r.lo), 0.06);
    EXPECT_EQ(r.below.value() + r.above.value(), 0u);
    EXPECT_TRUE(app::outsideNote(r, "1").empty());
}

TEST(ColorRange, ASpreadAtTheThresholdIsStretched) {
    const app::ColorRange r = app::resolveRange({}, {100.0f, 100.25f});  // 0.25 % of the magnitude
    EXPECT_FALSE(r.nearConstant);
    EXPECT_EQ(r.lo, 100.0);
    EXPECT_EQ(r.hi, 100.25);
}

TEST(ColorRange, ConstantEmptyAndNonFiniteData) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const app::ColorRange zero = app::resolveRange({}, {0.0f, 0.0f, nan});
    EXPECT_TRUE(zero.nearConstant);
    EXPECT_EQ(zero.lo, -0.5);  // the middle colour
    EXPECT_EQ(zero.hi, 0.5);
    EXPECT_EQ(zero.count, 2u);
    const app::ColorRange seven = app::resolveRange({}, {7.0f});
    EXPECT_NEAR(seven.lo, 7.0 - 0.0035, 1e-12);
    EXPECT_NEAR(seven.hi, 7.0 + 0.0035, 1e-12);
    const app::ColorRange none =
        app::resolveRange({}, {nan, std::numeric_limits<float>::infinity()});
    EXPECT_EQ(none.lo, 0.0);
    EXPECT_EQ(none.hi, 1.0);
    EXPECT_EQ(none.count, 0u);
    EXPECT_TRUE(std::isnan(none.dataLo));
    EXPECT_TRUE(app::outsideNote(none, "").empty());
}

TEST(ColorRange, TypedAndLockedRangesAreKeptAndCountWhatFallsOutside) {
    std::vector<float> v;
    for (int i = 5; i <= 15; ++i)
        v.push_back(static_cast<float>(i));
    const app::ColorRange typed =
        app::resolveRange({app::RangeMode::Typed, 0.0, 10.0}, v, std::pair{0.0, 100.0});
    EXPECT_EQ(typed.lo, 0.0);  // the hint is for the automatic mode only
    EXPECT_EQ(typed.hi, 10.0);
    EXPECT_EQ(typed.above.value(), 5u);  // 11 .. 15
    EXPECT_EQ(app::rangeModeText(typed), "typed");
    EXPECT_EQ(app::outsideNote(typed, "um"), "5 of 11 above (max 15 \u00b5m)");
    const app::ColorRange locked = app::resolveRange({app::RangeMode::Locked, 6.0, 8.0}, v);
    EXPECT_EQ(locked.below.value(), 1u);
    EXPECT_EQ(locked.above.value(), 7u);
    EXPECT_EQ(app::rangeModeText(locked), "locked");
    EXPECT_THROW(app::resolveRange({app::RangeMode::Typed, 3.0, 3.0}, v), ParameterError);
    EXPECT_THROW(app::resolveRange({app::RangeMode::Typed, 0.0, std::nan("")}, v), ParameterError);
}

TEST(ColorRange, AHintReplacesTheAutomaticRule) {
    const app::ColorRange r = app::resolveRange({}, {0.2f, 0.4f}, std::pair{0.0, 1.0});
    EXPECT_TRUE(r.hinted);
    EXPECT_EQ(r.lo, 0.0);
    EXPECT_EQ(r.hi, 1.0);
    EXPECT_EQ(app::rangeModeText(r), "auto (model's range)");
}

TEST(ColorRange, DeviceExtremesUseTheSameRuleWithoutCounts) {
    const app::ColorRange r = app::resolveRangeFromExtremes({}, 28.8660, 28.8675);
    EXPECT_TRUE(r.nearConstant);
    EXPECT_NEAR(r.hi - r.lo, app::kNearConstantRelative * 28.8675, 1e-12);
    const app::ColorRange wide = app::resolveRangeFromExtremes({}, -2.0, 3.0);
    EXPECT_EQ(wide.lo, -2.0);
    EXPECT_EQ(wide.hi, 3.0);
    const app::ColorRange typed =
        app::resolveRangeFromExtremes({app::RangeMode::Typed, 0.0, 1.0}, -2.0, 3.0);
    EXPECT_FALSE(typed.below.has_value());
    EXPECT_EQ(app::outsideNote(typed, "1"), "values below and above the range (-2 to 3)");
    const app::ColorRange none = app::resolveRangeFromExtremes({}, 1.0, 0.0);  // no finite value
    EXPECT_EQ(none.lo, 0.0);
    EXPECT_EQ(none.hi, 1.0);
}

TEST(ColorRange, LargeArraysUseAnEvenSample) {
    std::vector<float> v(2'000'000);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(i);
    const app::ColorRange r = app::resolveRange({}, v);
    // The sample keeps every 30th value: its percentiles lie within one stride (30) plus
    // one rank step of the exact ones (19999 and 1979999).
    EXPECT_NEAR(r.lo, 19999.0, 61.0);
    EXPECT_NEAR(r.hi, 1979999.0, 61.0);
    EXPECT_EQ(r.count, v.size());  // the counts are exact
    EXPECT_NEAR(static_cast<double>(r.above.value()), 20000.0, 61.0);
}

// ---- what every uploader chooses ------------------------------------------------------

ScalarChannel scalar(const std::string& name) {
    ScalarChannel s;
    s.name = name;
    return s;
}

CategoryChannel category(const std::string& name) {
    CategoryChannel c;
    c.name = name;
    c.labels = {"a", "b"};
    return c;
}

TEST(UploadChoice, AChannelByNameElseTheFirstCategoryElseTheFirstScalar) {
    PointCloudView cloud;
    cloud.name = "cells";
    EXPECT_EQ(app::chooseChannel(cloud, "").category, nullptr);  // none: drawn uniform
    EXPECT_EQ(app::chooseChannel(cloud, "").scalar, nullptr);
    cloud.scalars = {scalar("pressure"), scalar("age")};
    EXPECT_EQ(app::chooseChannel(cloud, "").scalar, &cloud.scalars[0]);
    cloud.categories = {category("type"), category("phase")};
    const app::CloudChannel first = app::chooseChannel(cloud, "");
    EXPECT_EQ(first.category, &cloud.categories[0]);
    EXPECT_EQ(first.scalar, nullptr);
    EXPECT_EQ(app::chooseChannel(cloud, "phase").category, &cloud.categories[1]);
    const app::CloudChannel age = app::chooseChannel(cloud, "age");
    EXPECT_EQ(age.category, nullptr);
    EXPECT_EQ(age.scalar, &cloud.scalars[1]);
    try {
        app::chooseChannel(cloud, "bogus");
        ADD_FAILURE() << "no error for an unknown channel";
    } catch (const ParameterError& e) {
        EXPECT_STREQ(e.what(),
                     "view 'cells' has no channel 'bogus' (it has: type, phase, pressure, age)");
    }
}

TEST(UploadChoice, AVolumeNamesItselfInTheError) {
    VolumeView volume;
    volume.name = "lattice";
    volume.scalars.push_back({"conc", "uM", nullptr, 0.0, 1.0});
    EXPECT_EQ(app::chooseChannel(volume, "conc").scalar, &volume.scalars[0]);
    try {
        app::chooseChannel(volume, "site");
        ADD_FAILURE() << "no error for an unknown channel";
    } catch (const ParameterError& e) {
        EXPECT_STREQ(e.what(), "volume 'lattice' has no channel 'site' (it has: conc)");
    }
}

TEST(UploadChoice, HostDataTakeTheHostUploadAndSaySo) {
    app::UploadRoute route;
    EXPECT_STREQ(route.path(), "host upload");  // nothing uploaded yet
    EXPECT_EQ(route.choose(MemorySpace::Host), app::UploadPath::Host);
    EXPECT_STREQ(route.path(), "host upload");
    EXPECT_STREQ(route.reason(), "host data");
#if !CELLFORGE_HAVE_CUDA
    // Device data need a CUDA build (with one, the answer depends on the GL context: the
    // interop cases of test_volume_view and test_vector_view run on the GPU machine).
    EXPECT_EQ(route.choose(MemorySpace::Device), app::UploadPath::Host);
    EXPECT_STREQ(route.reason(), "device data, a build without CUDA");
#endif
}

// ---- fitting the camera ---------------------------------------------------------------

float fillFraction(const render::ScreenRect& r, const render::ScreenRect& area) {
    return std::max(r.width() / area.width(), r.height() / area.height());
}

TEST(CameraFit, ASheetFitsTheFreeAreaInWidthAndHeight) {
    // A sheet much wider than tall (the cardiac and gliding sheets, the N-version slab),
    // seen from the default yaw and pitch and from above.
    const std::vector<render::WorldBox> sheet{{{-100.0f, -12.0f, 0.0f}, {100.0f, 12.0f, 0.5f}}};
    for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1920, 1080}, std::pair{600, 900}})
        for (const float pitch : {30.0f, 89.0f}) {
            render::OrbitCamera camera;
            camera.pitchDegrees = pitch;
            const render::ScreenRect area{40.0f, 120.0f, static_cast<float>(w) - 200.0f,
                                          static_cast<float>(h) - 60.0f};
            ASSERT_TRUE(camera.fitOnScreen(sheet, w, h, area)) << w << "x" << h;
            const render::ScreenRect r = render::projectBoxes(camera, sheet, w, h);
            EXPECT_GE(r.x0, area.x0 - 0.5f);
            EXPECT_LE(r.x1, area.x1 + 0.5f);
            EXPECT_GE(r.y0, area.y0 - 0.5f);
            EXPECT_LE(r.y1, area.y1 + 0.5f);
            // It fills the area in its limiting direction (within 1 %), centred.
            EXPECT_GT(fillFraction(r, area), 0.99f) << w << "x" << h << " pitch " << pitch;
            EXPECT_NEAR(0.5f * (r.x0 + r.x1), 0.5f * (area.x0 + area.x1), 1.0f);
            EXPECT_NEAR(0.5f * (r.y0 + r.y1), 0.5f * (area.y0 + area.y1), 1.0f);
        }
}

TEST(CameraFit, NothingToFitLeavesTheCamera) {
    render::OrbitCamera camera;
    const render::OrbitCamera before = camera;
    EXPECT_FALSE(camera.fitOnScreen({}, 800, 600, {0, 0, 800, 600}));
    const std::vector<render::WorldBox> invalid{{{1, 1, 1}, {0, 0, 0}}};
    EXPECT_FALSE(camera.fitOnScreen(invalid, 800, 600, {0, 0, 800, 600}));
    EXPECT_EQ(camera.distance, before.distance);
    EXPECT_TRUE(render::projectBoxes(camera, {}, 800, 600).empty());
}

TEST(FreeRect, AvoidsEveryPanelAndSuitsTheSceneShape) {
    const render::ScreenRect screen{0, 0, 1280, 720};
    const std::vector<render::ScreenRect> panels{{8, 8, 300, 300},         // HUD
                                                 {1100, 8, 1272, 40},      // Quick, folded
                                                 {1150, 500, 1272, 712}};  // legend
    for (const float aspect : {4.0f, 1.0f, 0.25f, 0.0f}) {
        const render::ScreenRect f = render::largestFreeRect(screen, panels, aspect);
        ASSERT_FALSE(f.empty());
        EXPECT_TRUE(screen.contains(f));
        for (const auto& p : panels)
            EXPECT_FALSE(p.x0 < f.x1 && p.x1 > f.x0 && p.y0 < f.y1 && p.y1 > f.y0)
                << "aspect " << aspect;
    }
    // A wide scene: the best rectangle holds a 4:1 scene at least 200 px tall (the band
    // between the HUD and the legend, or the column right of the HUD, both give 200).
    const render::ScreenRect wide = render::largestFreeRect(screen, panels, 4.0f);
    EXPECT_GE(std::min(wide.width() / 4.0f, wide.height()), 200.0f);
    // No panels: the whole screen.
    const render::ScreenRect all = render::largestFreeRect(screen, {}, 1.0f);
    EXPECT_TRUE(all.contains(screen) && screen.contains(all));
}

}  // namespace
}  // namespace cf
