// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/epidermis_params.hpp"

namespace cf::epidermis {

namespace {
constexpr Mutability S = Mutability::Structural;
constexpr Mutability L = Mutability::Live;
}  // namespace

const ParamTable& parameterTable() {
    static const ParamTable table = [] {
        using P = EpidermisParams;
        ParamTableBuilder<P> b;
        // Lengths and times are the paper's dimensionless units (A.13), written L and T
        // (docs/EPIDERMIS.md, Units): V(r) multiplies a distance to give a velocity, so the
        // Morse amplitudes are rates (1/T). Species are dimensionless concentrations (1).
        b.boolean("domain", "periodic", &P::periodic, true,
                  "Periodic in x and y (minimum image); false: no boundary", S);
        b.real("domain", "size_x", &P::sizeX, 6.0, 0.1, 1.0e5, "L",
               "Period in x (and extent of the initial layout); A.7: ~10 cell diameters for "
               "100 cells, 100 in the authors' benchmark code",
               S);
        b.real("domain", "size_y", &P::sizeY, 6.0, 0.1, 1.0e5, "L", "Period in y", S);
        b.real("domain", "height", &P::height, 10.0, 0.5, 1.0e5, "L",
               "Extent in z of the neighbour grid (BOUNDARY_Z); the top stays open", S);

        b.integer("init", "cells", &P::cells, 100, 1, 10'000'000, "1", "Initial cells", S);
        b.integer("init", "elements_per_cell", &P::elementsPerCell, 20, 2, 256, "1",
                  "Elements per cell at the start (and per daughter)", S);
        b.integer("init", "adhesive_per_cell", &P::adhesivePerCell, 5, 0, 256, "1",
                  "Lowest elements of each initial cell that adhere to the basement membrane "
                  "(UNCONFIRMED, A.11)",
                  S);
        b.real("init", "half_width", &P::initHalfWidth, 0.2, 0.0, 10.0, "L",
               "Half-width of the cube the initial elements are drawn in (A.11)", S);
        b.real("init", "z_offset", &P::initZOffset, 0.5, 0.0, 100.0, "L",
               "Lowest initial element height (Z_OFFSET)", S);
        b.real("init", "z_range", &P::initZRange, 0.5, 0.0, 100.0, "L",
               "Range of initial element heights (Z_RANGE)", S);
        b.real("init", "species_noise", &P::initSpeciesNoise, 0.0, 0.0, 10.0, "1",
               "Initial species drawn uniformly in [0, noise] (0: all zero, A.10)", S);

        b.integer("capacity", "elements_per_cell", &P::maxElementsPerCell, 40, 40, 256, "1",
                  "Element slots per cell; at least growth.division_elements", S);
        b.integer("capacity", "initial_cells", &P::initialCellCapacity, 0, 0, 100'000'000, "1",
                  "Cell slots allocated at reset (0: twice init.cells); grows when full", S);

        b.real("time", "dt", &P::dt, 0.01, 1.0e-6, 1.0, "T", "Time step of RK2 (UNCONFIRMED, A.6)",
               L);

        b.real("mechanics", "intra_u0", &P::intraU0, 0.3, 0.0, 100.0, "1/T",
               "Intracellular (and membrane) repulsion amplitude U0", L);
        b.real("mechanics", "intra_xi1", &P::intraXi1, 0.12, 1.0e-4, 100.0, "L",
               "Intracellular repulsion length xi1", L);
        b.real("mechanics", "intra_w0", &P::intraW0, 0.1, 0.0, 100.0, "1/T",
               "Intracellular attraction amplitude W0", L);
        b.real("mechanics", "intra_xi2", &P::intraXi2, 0.36, 1.0e-4, 100.0, "L",
               "Intracellular attraction length xi2", L);
        b.real("mechanics", "inter_u0", &P::interU0, 0.3, 0.0, 100.0, "1/T",
               "Intercellular repulsion amplitude", L);
        b.real("mechanics", "inter_xi1", &P::interXi1, 0.12, 1.0e-4, 100.0, "L",
               "Intercellular repulsion length", L);
        b.real("mechanics", "inter_w0", &P::interW0, 0.05, 0.0, 100.0, "1/T",
               "Intercellular attraction amplitude (clipped by the positive Morse)", L);
        b.real("mechanics", "inter_xi2", &P::interXi2, 0.24, 1.0e-4, 100.0, "L",
               "Intercellular attraction length", L);
        b.real("mechanics", "inter_dist", &P::interDist, 0.6, 1.0e-3, 100.0, "L",
               "Cut-off of the intercellular force (INTER_DIST)", L);
        b.boolean("mechanics", "hard_z", &P::hardZ, true,
                  "No-flux floor: clamp z >= 0 after each RK stage (UNCONFIRMED HARD_Z, A.5)", L);
        b.choice("mechanics", "neighbor_method", &P::neighborMethod, {"naive", "center", "grid"},
                 "grid",
                 "Intercellular pair search: naive (all pairs), center (cell-centre culling), "
                 "grid (uniform grid over centres)",
                 L);
        b.choice("mechanics", "cull", &P::cullRule, {"exact", "paper"}, "exact",
                 "Cell-pair skip test of center/grid: exact (no pair lost) or paper "
                 "(centre distance > inter_dist, Algorithm 2)",
                 L);
        b.real("mechanics", "radius_bound", &P::radiusBound, 0.6, 0.01, 100.0, "L",
               "Grid method: largest element distance from its cell centre; a run stops "
               "with a message if a cell exceeds it",
               S);

        b.real("mechanics", "skin", &P::skin, 0.1, 0.0, 10.0, "L",
               "Extra reach of the exact cull: the cell pairs found at the start of a step "
               "also serve its second RK stage; an element that moves more than skin/2 in "
               "the first half step stops the run with a message",
               S);

        b.boolean("network", "enabled", &P::network, true, "Integrate the gene network", L);
        b.choice("network", "hill", &P::hillForm, {"code", "paper"}, "code",
                 "HILL form: code a+(b-a)/(1+(x/c)^h), paper a+b/(1+(c x)^h) (A.9)", L);
        b.real("network", "neighbor_dist", &P::neighborDist, 0.6, 0.0, 100.0, "L",
               "Signalling neighbours: centre distance at most this (UNCONFIRMED, A.8)", L);
        b.real("network", "ka", &P::ka, 0.0003, 0.0, 1.0e3, "1/T", "Notch-Delta binding k_a", L);
        b.real("network", "kd", &P::kd, 0.12, 0.0, 1.0e3, "1/T", "Unbinding k_d", L);
        b.real("network", "d_b", &P::dB, 0.19, 0.0, 1.0e3, "1/T", "Bound complex decay d_B", L);
        b.real("network", "d_n", &P::dN, 0.03, 0.0, 1.0e3, "1/T", "Notch decay d_N", L);
        b.real("network", "d_d", &P::dD, 0.006, 0.0, 1.0e3, "1/T", "Delta decay d_D", L);
        b.real("network", "d_o", &P::dO, 1.0, 0.0, 1.0e3, "1/T", "Ovol2 decay d_O", L);
        b.real("network", "d_v", &P::dV, 1.0, 0.0, 1.0e3, "1/T", "Ovol1 decay d_V", L);
        b.real("network", "d_m", &P::dM, 1.0, 0.0, 1.0e3, "1/T", "c-Myc decay d_M", L);
        b.real("network", "a_bn", &P::aBN, 0.01, -1.0e3, 1.0e3, "1", "HILL B->N: pmin", L);
        b.real("network", "b_bn", &P::bBN, 1.0, -1.0e3, 1.0e3, "1", "HILL B->N: pmax", L);
        b.real("network", "c_bn", &P::cBN, 1.0, 1.0e-6, 1.0e3, "1", "HILL B->N: c", L);
        b.real("network", "h_bn", &P::hBN, -2.0, -16.0, 16.0, "1", "HILL B->N: h (activation)", L);
        b.real("network", "b_on", &P::bON, 1.0, -1.0e3, 1.0e3, "1", "HILL O2->N: pmax", L);
        b.real("network", "c_on", &P::cON, 0.5, 1.0e-6, 1.0e3, "1", "HILL O2->N: c", L);
        b.real("network", "h_on", &P::hON, 2.0, -16.0, 16.0, "1", "HILL O2->N: h", L);
        b.real("network", "a_nd", &P::aND, 0.01, -1.0e3, 1.0e3, "1", "HILL N->D: pmin", L);
        b.real("network", "b_nd", &P::bND, 1.0, -1.0e3, 1.0e3, "1", "HILL N->D: pmax", L);
        b.real("network", "c_nd", &P::cND, 10.0, 1.0e-6, 1.0e3, "1", "HILL N->D: c", L);
        b.real("network", "h_nd", &P::hND, 2.0, -16.0, 16.0, "1", "HILL N->D: h", L);
        b.real("network", "a_vo", &P::aVO, 0.1, -1.0e3, 1.0e3, "1", "HILL O1->O2: pmin", L);
        b.real("network", "b_vo", &P::bVO, 2.0, -1.0e3, 1.0e3, "1", "HILL O1->O2: pmax", L);
        b.real("network", "c_vo", &P::cVO, 1.0, 1.0e-6, 1.0e3, "1", "HILL O1->O2: c", L);
        b.real("network", "h_vo", &P::hVO, 2.0, -16.0, 16.0, "1", "HILL O1->O2: h", L);
        b.real("network", "b_go", &P::bGO, 1.0, -1.0e3, 1.0e3, "1", "HILL G->O2: pmax", L);
        b.real("network", "c_go", &P::cGO, 1.0, 1.0e-6, 1.0e3, "1", "HILL G->O2: c", L);
        b.real("network", "h_go", &P::hGO, 1.0, -16.0, 16.0, "1", "HILL G->O2: h", L);
        b.real("network", "tgf_beta", &P::tgfBeta, 0.4, 0.0, 1.0e3, "1",
               "Environmental TGF-beta G (constant)", L);
        b.real("network", "b_ov", &P::bOV, 2.0, -1.0e3, 1.0e3, "1", "HILL O2->O1: pmax", L);
        b.real("network", "c_ov", &P::cOV, 1.0, 1.0e-6, 1.0e3, "1", "HILL O2->O1: c", L);
        b.real("network", "h_ov", &P::hOV, 2.0, -16.0, 16.0, "1", "HILL O2->O1: h", L);
        b.real("network", "b_av", &P::bAV, 1.0, -1.0e3, 1.0e3, "1", "HILL A->O1: pmax", L);
        b.real("network", "c_av", &P::cAV, 1.0, 1.0e-6, 1.0e3, "1", "HILL A->O1: c", L);
        b.real("network", "h_av", &P::hAV, 1.0, -16.0, 16.0, "1", "HILL A->O1: h", L);
        b.real("network", "a_om", &P::aOM, 0.1, -1.0e3, 1.0e3, "1", "HILL O2->M: pmin", L);
        b.real("network", "b_om", &P::bOM, 1.0, -1.0e3, 1.0e3, "1", "HILL O2->M: pmax", L);
        b.real("network", "c_om", &P::cOM, 1.0, 1.0e-6, 1.0e3, "1", "HILL O2->M: c", L);
        b.real("network", "h_om", &P::hOM, 1.0, -16.0, 16.0, "1", "HILL O2->M: h", L);

        b.boolean("growth", "enabled", &P::growth, true, "Cells grow and divide", L);
        b.integer("growth", "interval", &P::growthInterval, 2000, 1, 100'000'000, "steps",
                  "Steps between growth events (one element per event)", L);
        b.choice("growth", "rule", &P::growthRule, {"lateral", "absolute", "lowest"}, "lowest",
                 "Low-Delta test (UNCONFIRMED, A.12): lowest (the growth.fraction of the cells "
                 "with the lowest Delta, fitted to the paper's counts), lateral (D < neighbour "
                 "mean) or absolute (D < growth.threshold)",
                 L);
        b.real("growth", "threshold", &P::growthThreshold, 0.5, 0.0, 1.0e6, "1",
               "Delta threshold of the absolute rule", L);
        b.real("growth", "fraction", &P::growthFraction, kCalibratedGrowthFraction, 0.0, 1.0, "1",
               "Share of the cells, lowest Delta first, that grow at each growth event (rule "
               "lowest; calibrated on Table 3's 1000 cells without boundary, docs/EPIDERMIS.md)",
               L);
        b.integer("growth", "division_elements", &P::divisionElements, 40, 4, 256, "1",
                  "A cell divides into two halves when it reaches this many elements", S);

        b.real("analysis", "layer_height", &P::layerHeight, 0.5, 0.01, 100.0, "L",
               "Vertical spacing of stacked cell layers: in one column, centres more than half "
               "of it apart are in different layers (metrics)",
               L);
        b.real("analysis", "column_radius", &P::columnRadius, 0.3, 0.01, 100.0, "L",
               "Radius of the vertical column around each cell in which layers are counted "
               "(metrics; half the confluent cell pitch)",
               L);
        b.real("analysis", "contact_height", &P::contactHeight, 0.35, 0.0, 100.0, "L",
               "A cell is on the membrane while its lowest element is below this height "
               "(metrics; adhesive elements rest at 0.198)",
               L);
        return b.build();
    }();
    return table;
}

}  // namespace cf::epidermis
