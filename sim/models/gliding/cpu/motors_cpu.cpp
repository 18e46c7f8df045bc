// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cpu/motors_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/parallel.hpp"
#include "sim/models/gliding/motor_physics.hpp"

namespace cf::gliding {

namespace {

int wrap(int i, int n) {
    const int r = i % n;
    return r < 0 ? r + n : r;
}

// Sum of value(c) over all chords in orbit order: ((c0 + c2) + (c1 + c3)) per orbit. A quarter
// turn of the state shifts each orbit's values cyclically, which leaves every orbit's sum
// bitwise unchanged (IEEE addition is commutative).
template <typename Value>
double orbitSum(const std::vector<std::int32_t>& orbit, const Value& value) {
    double total = 0.0;
    for (std::size_t q = 0; q + 3 < orbit.size(); q += 4)
        total +=
            (value(orbit[q]) + value(orbit[q + 2])) + (value(orbit[q + 1]) + value(orbit[q + 3]));
    return total;
}

// The 4 x 4 Peskin block in quarter-turn orbits about its centre: (ix, iy) -> (3 - iy, ix),
// which is how the stencil of (j + ntheta/4, k) relates to that of (j, k) (tables 2.1).
// Orbit representatives (0,0), (1,0), (2,0), (1,1); each row is one orbit a, R a, R^2 a, R^3 a.
constexpr int kStencilOrbits[4][4][2] = {
    {{0, 0}, {3, 0}, {3, 3}, {0, 3}},
    {{1, 0}, {3, 1}, {2, 3}, {0, 2}},
    {{2, 0}, {3, 2}, {1, 3}, {0, 1}},
    {{1, 1}, {2, 1}, {2, 2}, {1, 2}},
};

// Mb,coarse = sum_c psi_c sum_l M_cl in orbit order (design M7); chordSum is scratch per chord.
double coarseSum(const GlidingTables& t, const MotorOrbits& o, const std::vector<double>& psiC,
                 const double* slice, std::vector<double>& chordSum) {
    for (std::size_t c = 0; c < t.chords.size(); ++c) {
        const Chord& ch = t.chords[c];
        double sum = 0.0;
        for (int l = 0; l < ch.len; ++l)
            sum += slice[ch.off + l];
        chordSum[c] = psiC[c] * sum;
    }
    return orbitSum(o.orbit, [&](std::int32_t c) { return chordSum[c]; });
}

// The cap of design M7 (rule 7) and Mf = M - Mb,coarse.
void capAndFree(double mtot, int sliceSize, double* slice, double& coarse, double& mf) {
    if (coarse > mtot) {
        const double scale = mtot / coarse;
        for (int i = 0; i < sliceSize; ++i)
            slice[i] *= scale;
        coarse = mtot;
    }
    mf = mtot - coarse;
}

}  // namespace

MotorOrbits buildMotorOrbits(const GlidingTables& t) {
    MotorOrbits o;
    const int nc = static_cast<int>(t.chords.size());
    const int quarter = t.ntheta / 4;
    int omax = 0;
    for (const Chord& c : t.chords)
        omax = std::max({omax, std::abs(c.ox), std::abs(c.oy)});
    const int side = 2 * omax + 1;
    // Dense lookup (ox, oy, j) -> chord index, -1 where the (o, j) interval is empty.
    std::vector<std::int32_t> index(static_cast<std::size_t>(side) * side * t.ntheta, -1);
    const auto at = [&](int ox, int oy, int j) -> std::int32_t& {
        return index[(static_cast<std::size_t>(oy + omax) * side + (ox + omax)) * t.ntheta + j];
    };
    for (int c = 0; c < nc; ++c)
        at(t.chords[c].ox, t.chords[c].oy, t.chords[c].j) = c;
    const auto fail = [](const std::string& what) {
        throw SimulationError(
            "gliding: internal error: the capture chords are not closed under "
            "a quarter turn (" +
            what + ")");
    };
    o.chordTurn.resize(nc);
    for (int c = 0; c < nc; ++c) {
        const Chord& ch = t.chords[c];
        const int ox = -ch.oy, oy = ch.ox, j = (ch.j + quarter) % t.ntheta;
        const std::int32_t r = (std::abs(ox) <= omax && std::abs(oy) <= omax) ? at(ox, oy, j) : -1;
        if (r < 0 || t.chords[r].ka != ch.ka || t.chords[r].len != ch.len)
            fail("chord " + std::to_string(c));
        o.chordTurn[c] = r;
    }
    std::vector<char> seen(nc, 0);
    for (int c = 0; c < nc; ++c) {
        if (seen[c]) continue;
        std::int32_t m = c;
        for (int q = 0; q < 4; ++q) {
            if (seen[m]) fail("orbit of chord " + std::to_string(c));
            seen[m] = 1;
            o.orbit.push_back(m);
            m = o.chordTurn[m];
        }
        if (m != c) fail("orbit of chord " + std::to_string(c));
    }

    // Gather lists: (j, k) with j in the first quadrant as in the tables; the other quadrants
    // as the entry-by-entry quarter turns of those.
    const int nk = t.ns;
    std::vector<std::vector<GatherEntry>> lists(static_cast<std::size_t>(t.ntheta) * nk);
    for (int j0 = 0; j0 < quarter; ++j0)
        for (int k = 0; k < nk; ++k) {
            const int b = j0 * nk + k;
            for (int e = t.gatherStart[b]; e < t.gatherStart[b + 1]; ++e) {
                const GatherEntry& g = t.gather[e];
                std::int32_t c = at(g.ox, g.oy, j0);
                if (c < 0) fail("gather entry of orientation " + std::to_string(j0));
                const std::int32_t lane = g.slot - t.chords[c].off;
                for (int q = 0; q < 4; ++q) {
                    const Chord& ch = t.chords[c];
                    lists[static_cast<std::size_t>(ch.j) * nk + k].push_back(
                        {ch.ox, ch.oy, ch.off + lane});
                    c = o.chordTurn[c];
                }
            }
        }
    o.gatherStart.assign(static_cast<std::size_t>(t.ntheta) * nk + 1, 0);
    for (std::size_t b = 0; b < lists.size(); ++b) {
        o.gatherStart[b] = static_cast<std::int32_t>(o.gather.size());
        if (lists[b].size() != static_cast<std::size_t>(t.gatherStart[b + 1] - t.gatherStart[b]))
            fail("gather list " + std::to_string(b));
        o.gather.insert(o.gather.end(), lists[b].begin(), lists[b].end());
    }
    o.gatherStart.back() = static_cast<std::int32_t>(o.gather.size());
    return o;
}

void initMotors(const GlidingParams& p, const GlidingTables& t, MotorState& m) {
    initMotors(p, t, m, wholeGrid(t));
}

void initMotors(const GlidingParams& p, const GlidingTables& t, MotorState& m,
                const AnchorRows& rows) {
    const std::size_t cells = rows.anchors();
    m.rows = rows;
    m.mb.assign(cells * t.sliceSize, 0.0);
    m.coarse.assign(cells, 0.0);
    m.free.assign(cells, p.mtot);
    m.clampCount = 0;
    m.substepsMax = 0;
    m.substepsMean = 0;
    m.orbits = buildMotorOrbits(t);
}

AnchorStep advanceAnchor(const GlidingParams& p, const GlidingTables& t, const MotorOrbits& orbits,
                         const HostState& s, std::int32_t r0, double dt, double* slice,
                         double& coarse, double& mf) {
    const int n = t.n;
    const int ix = r0 % n, iy = r0 / n;
    const std::size_t nc = t.chords.size();
    // psi_c = Psi(r0 + o, theta_j) dx dy dtheta ds, loaded once per outer step (design M7).
    const double cellVolume = t.dx * t.dx * t.dtheta * t.ds;
    std::vector<double> psiC(nc), chordSum(nc);
    for (std::size_t c = 0; c < nc; ++c) {
        const Chord& ch = t.chords[c];
        psiC[c] = s.at(wrap(ix + ch.ox, n), wrap(iy + ch.oy, n), ch.j) * cellVolume;
    }
    const double capacity = orbitSum(orbits.orbit, [&](std::int32_t c) {
        return psiC[c] * static_cast<double>(t.chords[c].len);
    });
    const double hmax = motorMaxSubstep(p.courantIn, t.ds, p.koff, p.konTilde, capacity);
    if (!(hmax > 0.0) || !std::isfinite(hmax))
        throw SimulationError("gliding: motor substep " + std::to_string(hmax) + " at tail " +
                              std::to_string(r0) + " is not positive");
    double hLast = 0.0;
    const int substeps = motorSubsteps(dt, hmax, &hLast);

    // Psi has changed since the last advance: Mb,coarse, the cap and Mf for the new Psi.
    coarse = coarseSum(t, orbits, psiC, slice, chordSum);
    capAndFree(p.mtot, t.sliceSize, slice, coarse, mf);

    AnchorStep out;
    out.substeps = substeps;
    const double invDs = static_cast<double>(t.ns);
    for (int i = 0; i < substeps; ++i) {
        const double h = i + 1 < substeps ? hmax : hLast;
        const double source = p.konTilde * mf;  // frozen over the substep (design M13)
        for (const Chord& ch : t.chords)
            motorChordRk2(slice + ch.off, ch.len, h, source, p.koff, invDs);
        // Superbee is TVD per Euler stage; the midpoint RK2 is not SSP, so count (design M13).
        for (int l = 0; l < t.sliceSize; ++l)
            if (slice[l] < 0.0) {
                slice[l] = 0.0;
                ++out.clamps;
            }
        coarse = coarseSum(t, orbits, psiC, slice, chordSum);
        capAndFree(p.mtot, t.sliceSize, slice, coarse, mf);
    }
    return out;
}

void advanceMotors(const GlidingParams& p, const GlidingTables& t, const HostState& s, double dt,
                   MotorState& m) {
    const std::size_t cells = static_cast<std::size_t>(t.n) * t.n;
    const std::size_t tails = m.rows.anchors(), first = m.rows.firstAnchor();
    if (s.psi.size() != cells * t.ntheta || m.mb.size() != tails * t.sliceSize || m.rows.n != t.n)
        throw SimulationError("gliding: motor state does not match the grid");
    std::vector<AnchorStep> steps(tails);
    parallelFor(
        tails,
        [&](std::size_t a) {
            steps[a] = advanceAnchor(p, t, m.orbits, s, static_cast<std::int32_t>(first + a), dt,
                                     m.mb.data() + a * t.sliceSize, m.coarse[a], m.free[a]);
        },
        16);
    std::int64_t clamps = 0, total = 0;
    std::int32_t most = 0;
    for (const AnchorStep& a : steps) {
        clamps += a.clamps;
        total += a.substeps;
        most = std::max(most, a.substeps);
    }
    m.clampCount += clamps;
    m.substepsMax = most;
    m.substepsMean = static_cast<double>(total) / static_cast<double>(tails);
}

void boundGather(const GlidingParams& /*p*/, const GlidingTables& t, const HostState& s,
                 const MotorState& m, std::vector<double>& w) {
    const int n = t.n, nt = t.ntheta, nk = t.ns;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const std::size_t S = static_cast<std::size_t>(t.sliceSize);
    const AnchorRows& rows = m.rows;
    // Rows outside the band are never written: zero once, when W is made.
    if (w.size() != cells * nt * nk) w.assign(cells * nt * nk, 0.0);
    const MotorOrbits& o = m.orbits;
    const bool all = rows.whole();
    parallelFor(
        static_cast<std::size_t>(rows.w.count) * n,
        [&](std::size_t i) {
            const int ix = static_cast<int>(i % n);
            const int iy = (rows.w.first + static_cast<int>(i / n)) % n;
            const std::size_t y = static_cast<std::size_t>(iy) * n + ix;
            for (int j = 0; j < nt; ++j) {
                const double psi = s.psi[y * nt + j];
                for (int k = 0; k < nk; ++k) {
                    const int b = j * nk + k;
                    double sum = 0.0;
                    for (int e = o.gatherStart[b]; e < o.gatherStart[b + 1]; ++e) {
                        const GatherEntry& g = o.gather[e];
                        const int row = wrap(iy - g.oy, n);
                        if (!all && (row < rows.begin || row >= rows.end)) continue;
                        const std::size_t tail = static_cast<std::size_t>(row - rows.begin) * n +
                                                 static_cast<std::size_t>(wrap(ix - g.ox, n));
                        sum += m.mb[tail * S + g.slot];
                    }
                    w[(y * nt + j) * nk + k] = psi * sum;
                }
            }
        },
        16);
}

void forceGather(const GlidingParams& p, const GlidingTables& t, const std::vector<double>& w,
                 std::vector<double>& fx, std::vector<double>& fy, RowBand rows) {
    const int n = t.n, nt = t.ntheta, nk = t.ns, quarter = nt / 4;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    if (w.size() != cells * nt * nk)
        throw SimulationError("gliding: force source W does not match the grid");
    if (rows.count == 0) rows = {0, n};
    // Rows outside the band are never written: zero once, when F2 is made.
    if (fx.size() != cells) fx.assign(cells, 0.0);
    if (fy.size() != cells) fy.assign(cells, 0.0);
    // F dx dy dtheta ds (design M8 with delta_h = phi phi / (dx dy), design 2.7).
    const double scale = p.force * (t.dx * t.dx * t.dtheta * t.ds);
    parallelFor(
        static_cast<std::size_t>(rows.count) * n,
        [&](std::size_t i) {
            const int gx = static_cast<int>(i % n);
            const int gy = (rows.first + static_cast<int>(i / n)) % n;
            const std::size_t g = static_cast<std::size_t>(gy) * n + gx;
            // The sum over the 4 x 4 block of phi_x phi_y W(g - m, j, k) in stencil orbits.
            const auto block = [&](int j, int k) {
                const PeskinStencil& st = t.peskin[j * nk + k];
                const auto term = [&](const int(&a)[2]) {
                    const int yx = wrap(gx - (st.m0[0] + a[0]), n);
                    const int yy = wrap(gy - (st.m0[1] + a[1]), n);
                    const std::size_t y = static_cast<std::size_t>(yy) * n + yx;
                    return (st.w[0][a[0]] * st.w[1][a[1]]) * w[(y * nt + j) * nk + k];
                };
                double sum = 0.0;
                for (const auto& orb : kStencilOrbits)
                    sum += (term(orb[0]) + term(orb[2])) + (term(orb[1]) + term(orb[3]));
                return sum;
            };
            double sx = 0.0, sy = 0.0;
            for (int k = 0; k < nk; ++k)
                for (int j0 = 0; j0 < quarter; ++j0) {
                    double bx[4], by[4];
                    for (int q = 0; q < 4; ++q) {
                        const int j = j0 + q * quarter;
                        const double b = block(j, k);
                        bx[q] = t.cosT[j] * b;
                        by[q] = t.sinT[j] * b;
                    }
                    sx += (bx[0] + bx[2]) + (bx[1] + bx[3]);
                    sy += (by[0] + by[2]) + (by[1] + by[3]);
                }
            fx[g] = scale * sx;
            fy[g] = scale * sy;
        },
        16);
}

}  // namespace cf::gliding
