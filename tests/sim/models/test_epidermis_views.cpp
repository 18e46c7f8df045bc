// SPDX-License-Identifier: GPL-3.0-or-later
// The drawing views of `epidermis` carry exactly the state of a snapshot, on every backend
// (device arrays on CUDA, copied back here only to check them).
#include <gtest/gtest.h>

#include "sim/models/epidermis/epidermis_views.hpp"
#include "tests/sim/models/epidermis_test_support.hpp"

namespace cf::epidermis {
namespace {

using EpidermisViews = test::epi::EpidermisFixture;

TEST_P(EpidermisViews, MatchTheSnapshot) {
    // Growth every 5 steps from 39 elements: cells divide, so the packing sees gaps.
    set({"init.cells=30", "init.elements_per_cell=39", "init.species_noise=0.5",
         "growth.interval=5", "growth.rule=absolute", "growth.threshold=1e6"});
    auto m = make();
    m->reset(params, 4);
    m->advance(7);
    const ModelViews v = m->views();
    m->synchronize();
    const Snapshot s = m->snapshot();
    const auto pos = s.at("position").as<float>();
    const auto state = s.at("element_state").as<std::uint8_t>();
    const auto cellOf = s.at("element_cell").as<std::int32_t>();
    const std::size_t n = state.size();

    ASSERT_EQ(v.clouds.size(), 2u);
    const PointCloudView& el = v.clouds[0];
    EXPECT_EQ(el.name, "elements");
    EXPECT_EQ(el.space, GetParam() == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host);
    ASSERT_EQ(el.count, n);
    ASSERT_GT(n, 30u * 39u);  // the divisions happened
    const auto xyzr = viewToHost(el.positions, 4 * n, el.space);
    const auto st = viewToHost(el.categories.at(0).data, n, el.space);
    for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(xyzr[4 * i], pos[3 * i]) << i;  // copies, so exactly equal
        ASSERT_EQ(xyzr[4 * i + 1], pos[3 * i + 1]) << i;
        ASSERT_EQ(xyzr[4 * i + 2], pos[3 * i + 2]) << i;
        ASSERT_EQ(xyzr[4 * i + 3], kElementDrawRadius);
        ASSERT_EQ(st[i], state[i]) << i;
    }
    ASSERT_EQ(el.scalars.size(), static_cast<std::size_t>(kSpeciesCount));
    for (int k = 0; k < kSpeciesCount; ++k) {
        const auto perCell = s.at(speciesName(k)).as<float>();
        const auto perElement =
            viewToHost(el.scalars[static_cast<std::size_t>(k)].data, n, el.space);
        EXPECT_EQ(el.scalars[static_cast<std::size_t>(k)].name, speciesName(k));
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(perElement[i], perCell[static_cast<std::size_t>(cellOf[i])]) << k << " " << i;
    }
    const PointCloudView& cells = v.clouds[1];
    EXPECT_EQ(cells.count, s.at("cell_elements").count);
    const auto centres = viewToHost(cells.positions, 4 * cells.count, cells.space);
    for (std::size_t c = 0; c < cells.count; ++c) {
        ASSERT_GE(centres[4 * c + 3], 0.0f);  // radius
        ASSERT_LT(centres[4 * c + 3], 1.0f);  // cells of 20-40 elements stay compact
        ASSERT_GE(centres[4 * c + 2], 0.0f);  // above the membrane (hard_z)
    }
    ASSERT_EQ(v.planes.size(), 1u);
    EXPECT_EQ(v.planes[0].normal[2], 1.0);
    EXPECT_EQ(v.planes[0].extent[0], params.real("domain.size_x"));
}

INSTANTIATE_TEST_SUITE_P(AllBackends, EpidermisViews, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf::epidermis
