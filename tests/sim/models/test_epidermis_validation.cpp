// SPDX-License-Identifier: GPL-3.0-or-later
// Validation of the full `epidermis` model on CUDA (130,000 steps: GPU label only), with the
// growth test as fitted (growth.rule = lowest, growth.fraction calibrated on Table 3's
// 1000 cells without boundary; docs/EPIDERMIS.md, "The growth test, calibrated"):
//  - the calibration case lands on the paper's 4735 cells again with another seed;
//  - Fig. 4's 100-cell periodic start grows more than threefold and stratifies.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/models/epidermis/epidermis_model.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

ParamSet fullModel(const ModelDescriptor& desc, int cells, bool periodic) {
    ParamSet params(desc.parameters());
    const std::string size = std::to_string(0.6 * std::sqrt(static_cast<double>(cells)));
    params.setFromAssignment("init.cells=" + std::to_string(cells));
    params.setFromAssignment(std::string("domain.periodic=") + (periodic ? "true" : "false"));
    params.setFromAssignment("domain.size_x=" + size);
    params.setFromAssignment("domain.size_y=" + size);
    // The Delta of identical cells ties; the scenarios start from a little noise (A.10).
    params.setFromAssignment("init.species_noise=0.1");
    return params;
}

std::unique_ptr<Model> grown(const ModelDescriptor& desc, const ParamSet& params) {
    auto m = desc.create(Backend::Cuda);
    m->reset(params, 2010);
    const std::uint64_t total = 130000, chunk = 10000;
    for (std::uint64_t done = 0; done < total; done += chunk) {
        m->advance(chunk);
        m->checkFinite();
    }
    return m;
}

TEST(EpidermisValidationCuda, CalibratedCountHoldsForAnotherSeed) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = epidermis::descriptor();
    auto m = grown(desc, fullModel(desc, 1000, false));
    const double cells = metric(*m, "cells");
    std::cout << "epidermis calibration case: 1000 cells, no boundary -> " << cells
              << " (paper 4735)\n";
    // The fraction was fitted with seed 1 to within about 1 % (between sweep points 0.04
    // apart, 4525 and 4976 cells); another seed moves whole division rounds of a few cells
    // and the fit's rounding to two digits is worth about 1 %: 7 % holds both with room,
    // and is well below the 10-12 % a step of 0.04 in the fraction makes.
    EXPECT_NEAR(cells / 4735.0, 1.0, 0.07);
}

TEST(EpidermisValidationCuda, Fig4StartGrowsAndStratifies) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = epidermis::descriptor();
    auto m = grown(desc, fullModel(desc, 100, true));
    const double cells = metric(*m, "cells"), layers = metric(*m, "layers");
    std::cout << "epidermis Fig. 4 start: step " << m->step() << ", cells " << cells
              << " (paper: 535), layers " << layers << ", mean column layers "
              << metric(*m, "column_layers") << ", detached " << metric(*m, "detached_cells")
              << ", off the membrane " << metric(*m, "off_membrane_fraction") << "\n";
    // The paper: about three division rounds, a stratified tissue. The fit leaves this
    // start about a fifth below 535 (docs/EPIDERMIS.md); it must still more than triple.
    EXPECT_GT(cells, 300.0);
    EXPECT_GE(layers, 3.0);
    EXPECT_EQ(metric(*m, "adherent_cells"), 100.0) << "only mothers keep adhesive elements";
    EXPECT_GT(metric(*m, "off_membrane_fraction"), 0.4);
}

}  // namespace
}  // namespace cf
