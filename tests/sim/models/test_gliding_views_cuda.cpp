// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA views of `gliding` packed on the device (docs/design/gliding.md 5): every channel and
// vector field of views() equals hostViews (gliding_views.cpp, the CPU formulas) of the same
// model's snapshot, every view lives in device memory, and views() leaves the model's state
// alone.
//
// Why the tolerances hold: packViews evaluates hostViews' formulas in double on the same bits
// (the snapshot is the device state; the motor sums are the same float or double values), with
// the same summation order and no contraction on either side (-ffp-contract=off,
// --fmad=false), so the moments, max c, c / max c and the argmax are bitwise the host's. Only
// the library functions (hypot, atan2, cos, sin: CUDA's are within 2 ulp in double, glibc's
// within 1) differ, by ~1e-16 relative, which the rounding to float turns into at most one
// float ulp (2^-23 = 1.2e-7 relative): hence 1e-6 relative per value. A director component
// near cos(phi) = 0 is a difference of the angle's double ulp, ~1e-16 in absolute terms, so
// each value also gets 1e-12 of its channel's largest magnitude. The dominant orientation (its
// angle and the arrow's direction) is an argmax over the same doubles with the same strict
// comparison, ties included, so it must agree exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "sim/models/gliding/gliding_views.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

// The 64^2 x 16^2 ring lattice of S1 Fig. 6 at its smallest resolution, motors and fluid on.
ParamSet ringLattice(const ModelDescriptor& desc, const char* precision) {
    ParamSet params{desc.parameters()};
    for (const char* a : {"grid.n=64", "grid.ninner=16", "init.layout=ring_lattice",
                          "motors.enabled=true", "fluid.enabled=true"})
        params.setFromAssignment(a);
    params.setFromAssignment(std::string("motors.precision=") + precision);
    return params;
}

struct Comparison {
    double worstRelative = 0;  // max |device - host| / |host| over host != 0
    double scale = 0;          // max |host|
    std::size_t bitwise = 0, failures = 0, count = 0;
};

Comparison compare(const std::vector<float>& device, const std::vector<float>& host) {
    Comparison c;
    c.count = host.size();
    for (float h : host)
        c.scale = std::max(c.scale, static_cast<double>(std::fabs(h)));
    for (std::size_t i = 0; i < host.size(); ++i) {
        const double d = device[i], h = host[i], diff = std::fabs(d - h);
        if (std::memcmp(&device[i], &host[i], sizeof(float)) == 0) ++c.bitwise;
        if (h != 0) c.worstRelative = std::max(c.worstRelative, diff / std::fabs(h));
        // One float rounding of values that agree to a few double ulp (see the file comment).
        if (!(diff <= 1e-6 * std::fabs(h) + 1e-12 * c.scale)) ++c.failures;
    }
    return c;
}

void expectChannel(const char* what, const std::vector<float>& device,
                   const std::vector<float>& host, bool exact) {
    ASSERT_EQ(device.size(), host.size()) << what;
    const Comparison c = compare(device, host);
    std::printf("  %-22s max |host| %-10.4g bitwise %5zu/%zu  worst relative %.3g\n", what, c.scale,
                c.bitwise, c.count, c.worstRelative);
    if (exact)
        EXPECT_EQ(c.bitwise, c.count) << what << ": the argmax must agree exactly";
    else
        EXPECT_EQ(c.failures, 0u) << what << ": beyond 1e-6 relative (+1e-12 of max)";
    // A channel of zeros would compare trivially: the coupled run gives every one a value.
    EXPECT_GT(c.scale, 0.0) << what;
}

void matchesHostViews(const char* precision) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = gliding::descriptor();
    const ParamSet params = ringLattice(desc, precision);
    auto m = desc.create(Backend::Cuda);
    m->reset(params, 4);
    m->advance(5);
    // Views first, on a state the host has not seen: they must not need a download.
    const ModelViews v = m->views();
    m->synchronize();  // the arrays are written on the model's stream

    gliding::GlidingParams p = gliding::checkedParams(params);
    const gliding::GlidingTables t = gliding::buildTables(p);
    (void)gliding::applyTables(p, t);
    const gliding::RunState s = gliding::readSnapshot(p, t, m->snapshot());
    gliding::ViewBuffers b;
    const ModelViews h = gliding::hostViews(p, t, s, b);
    std::printf("%s motors, step %llu, t = %.6f T:\n", precision,
                static_cast<unsigned long long>(m->step()), m->time());

    ASSERT_EQ(v.volumes.size(), h.volumes.size());
    ASSERT_EQ(v.vectors.size(), h.vectors.size());
    for (std::size_t k = 0; k < h.volumes.size(); ++k) {
        const VolumeView &dv = v.volumes[k], &hv = h.volumes[k];
        EXPECT_EQ(dv.space, MemorySpace::Device) << dv.name;
        EXPECT_EQ(dv.name, hv.name);
        EXPECT_TRUE(std::equal(dv.dims, dv.dims + 3, hv.dims)) << dv.name;
        EXPECT_TRUE(std::equal(dv.hi, dv.hi + 3, hv.hi)) << dv.name;
        ASSERT_EQ(dv.scalars.size(), hv.scalars.size()) << dv.name;
        for (std::size_t c = 0; c < hv.scalars.size(); ++c) {
            const VolumeScalarChannel &dc = dv.scalars[c], &hc = hv.scalars[c];
            EXPECT_EQ(dc.name, hc.name);
            EXPECT_EQ(dc.rangeLo, hc.rangeLo);
            EXPECT_EQ(dc.rangeHi, hc.rangeHi);
            ASSERT_NE(dc.data, nullptr) << dc.name;
            const std::string what = dv.name + "/" + dc.name;
            expectChannel(what.c_str(), viewToHost(dc.data, dv.voxelCount(), dv.space),
                          viewToHost(hc.data, hv.voxelCount(), hv.space),
                          what == "filaments/orientation");
        }
    }
    for (std::size_t k = 0; k < h.vectors.size(); ++k) {
        const VectorFieldView &dv = v.vectors[k], &hv = h.vectors[k];
        EXPECT_EQ(dv.space, MemorySpace::Device) << dv.name;
        EXPECT_EQ(dv.name, hv.name);
        EXPECT_EQ(dv.directional, hv.directional);
        EXPECT_TRUE(std::equal(dv.dims, dv.dims + 3, hv.dims)) << dv.name;
        EXPECT_TRUE(std::equal(dv.lo, dv.lo + 3, hv.lo)) << dv.name;
        ASSERT_NE(dv.xyz, nullptr) << dv.name;
        const std::string what = "vectors/" + dv.name;
        expectChannel(what.c_str(), viewToHost(dv.xyz, 3 * dv.nodeCount(), dv.space),
                      viewToHost(hv.xyz, 3 * hv.nodeCount(), hv.space), dv.name == "orientation");
    }
}

TEST(GlidingViewsCuda, MatchHostViewsWithFloatMotors) {
    matchesHostViews("float");
}
TEST(GlidingViewsCuda, MatchHostViewsWithDoubleMotors) {
    matchesHostViews("double");
}

void expectSameState(const Snapshot& a, const Snapshot& b, const char* when) {
    EXPECT_EQ(a.step, b.step) << when;
    EXPECT_EQ(a.time, b.time) << when;
    ASSERT_EQ(a.fields.size(), b.fields.size()) << when;
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        EXPECT_EQ(a.fields[i].name, b.fields[i].name) << when;
        EXPECT_TRUE(a.fields[i].bytes == b.fields[i].bytes) << when << ": " << a.fields[i].name;
    }
}

// views() changes nothing: a run that draws a frame after every step is bit for bit the run
// that never draws. Separate models, because within one model a snapshot after views() would be
// the host copy cached by a snapshot before it (it could not tell). A third run without views
// checks that the CUDA run is bitwise reproducible at all (no floating-point atomics), so that a
// difference of the drawn run is the views'.
TEST(GlidingViewsCuda, ViewsLeaveTheStateAlone) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = gliding::descriptor();
    const ParamSet params = ringLattice(desc, "float");
    auto plain = desc.create(Backend::Cuda), control = desc.create(Backend::Cuda),
         drawn = desc.create(Backend::Cuda);
    for (Model* m : {plain.get(), control.get(), drawn.get()}) {
        m->reset(params, 6);
        m->advance(3);
    }
    (void)drawn->views();  // before any snapshot of `drawn`: its next one is a fresh download
    drawn->synchronize();
    const Snapshot before = plain->snapshot();
    expectSameState(before, control->snapshot(), "control at step 3");
    expectSameState(before, drawn->snapshot(), "drawn at step 3, right after views");
    plain->advance(4);
    control->advance(4);
    for (int i = 0; i < 4; ++i) {
        drawn->advance(1);
        (void)drawn->views();
    }
    drawn->synchronize();
    const Snapshot a = plain->snapshot(), b = drawn->snapshot();
    expectSameState(a, control->snapshot(), "control at step 7");
    expectSameState(a, b, "drawn at step 7, views after each step");
    std::printf("plain, control and drawn runs at step %llu, t = %.6f T: %zu fields compared\n",
                static_cast<unsigned long long>(b.step), b.time, b.fields.size());
}

}  // namespace
}  // namespace cf
