// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cuda/motors_cuda.hpp"

#include <algorithm>
#include <climits>
#include <span>
#include <string>
#include <type_traits>

#include "sim/core/errors.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/models/gliding/motor_physics.hpp"
#include "sim/models/gliding/staged_gather.hpp"

namespace cf::gliding {

namespace {

constexpr std::int32_t kNoFailure = INT_MAX;  // failedTail: atomicMin over the failing tails

template <typename To, typename From>
std::vector<To> convert(const std::vector<From>& in) {
    return std::vector<To>(in.begin(), in.end());
}

}  // namespace

// motors.block_threads = 0: of the powers of two from 64 up to what the kernel accepts and the
// lanes a block can keep busy, the block size that keeps the most threads resident per SM (the
// CUDA occupancy calculator, with each size's shared memory), the smallest among equals: more,
// smaller blocks where the tail's slice is small, 1024 threads where one block fills an SM's
// shared memory (the runs mapping at 256^2 x 32^2 without launch bounds). Results do not
// depend on it (MotorLaunch).
int MotorsCuda::autoThreads(int maxThreads, std::size_t realBytes, std::size_t staticBytes,
                            int optin) const {
    const int busy = std::max(64, cuda::nextPow2Of(cuda::motorBusyLanes(tables_, launch_.mapping)));
    int best = 64;
    long bestResident = -1;
    for (int threads = 64; threads <= std::min(maxThreads, busy); threads *= 2) {
        cuda::MotorLaunch candidate = launch_;
        candidate.threads = threads;
        candidate.sliceInShared = true;
        std::size_t bytes = cuda::motorSharedBytes(tables_, realBytes, candidate);
        if (bytes + staticBytes > static_cast<std::size_t>(optin)) {
            candidate.sliceInShared = false;
            bytes = cuda::motorSharedBytes(tables_, realBytes, candidate);
        }
        const long resident =
            static_cast<long>(kernels_.subcycleBlocksPerSm(double_, candidate, bytes)) * threads;
        if (resident > bestResident) {
            best = threads;
            bestResident = resident;
        }
    }
    return best;
}

MotorsCuda::MotorsCuda(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream)
    : MotorsCuda(p, t, stream, wholeGrid(t)) {}

MotorsCuda::MotorsCuda(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream,
                       const AnchorRows& rows)
    : stream_(stream),
      kernels_(p.motorFastMath ? cuda::fastMathMotorKernels() : cuda::exactMotorKernels()),
      rows_(rows),
      double_(p.precision == static_cast<std::int32_t>(MotorPrecision::Double)),
      n_(t.n),
      ntheta_(t.ntheta),
      sliceSize_(t.sliceSize),
      ns_(t.ns),
      dx_(t.dx),
      dtheta_(t.dtheta),
      ds_(t.ds),
      params_(kernels_.paramsSymbol(), stream) {
    int device = 0;
    CF_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    CF_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    std::size_t freeBytes = 0, totalBytes = 0;
    CF_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    checkMotorMemory(p, t, freeBytes, prop.name, 0, rows.anchors());

    orbits_ = buildMotorOrbits(t);
    if (t.maxChord < 1 || t.maxChord > kMotorMaxChord)
        throw SimulationError("gliding: internal error: chord of " + std::to_string(t.maxChord) +
                              " s-cells for the CUDA motor segments");
    chords_ = cf::cuda::DeviceBuffer<Chord>(std::span<const Chord>(t.chords));
    orbit_ = cf::cuda::DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(orbits_.orbit));
    gatherStart_ =
        cf::cuda::DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(orbits_.gatherStart));
    gather_ = cf::cuda::DeviceBuffer<GatherEntry>(std::span<const GatherEntry>(orbits_.gather));
    peskin_ = cf::cuda::DeviceBuffer<PeskinStencil>(std::span<const PeskinStencil>(t.peskin));
    cosT_ = cf::cuda::DeviceBuffer<double>(std::span<const double>(t.cosT));
    sinT_ = cf::cuda::DeviceBuffer<double>(std::span<const double>(t.sinT));
    // Each slot's lane and chord length, read by the runs mapping only (motor_kernels.cuh).
    if (p.motorLaneMapping == static_cast<std::int32_t>(MotorLaneMapping::Runs)) {
        std::vector<std::int32_t> laneInfo(static_cast<std::size_t>(t.sliceSize));
        for (const Chord& c : t.chords)
            for (std::int32_t l = 0; l < c.len; ++l)
                laneInfo[static_cast<std::size_t>(c.off + l)] = l | (c.len << 16);
        laneInfo_ = cf::cuda::DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(laneInfo));
    }
    // motors.storage = lanes: slot off + l of chord c is stored at l * chords + c.
    const auto nc = static_cast<std::int32_t>(t.chords.size());
    stride_ = storedSliceSize(p, t);
    if (p.motorStorage == static_cast<std::int32_t>(MotorStorage::Lanes)) {
        storedSlot_.resize(static_cast<std::size_t>(t.sliceSize));
        for (std::int32_t c = 0; c < nc; ++c)
            for (std::int32_t l = 0; l < t.chords[static_cast<std::size_t>(c)].len; ++l)
                storedSlot_[static_cast<std::size_t>(t.chords[static_cast<std::size_t>(c)].off +
                                                     l)] = l * nc + c;
        storedSlotDevice_ =
            cf::cuda::DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(storedSlot_));
    }
    if (p.motorBoundGather == static_cast<std::int32_t>(MotorBoundGather::Staged)) {
        const StagedGather g = buildStagedGather(t, orbits_.gatherStart, orbits_.gather);
        stagedStart_ = cf::cuda::DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(g.start));
        stagedIndex_ = cf::cuda::DeviceBuffer<std::int32_t>(std::span<const std::int32_t>(g.index));
        staged_ = cf::cuda::DeviceBuffer<GatherEntry>(std::span<const GatherEntry>(g.staged));
        stagedMax_ = g.maxCount;
    }
    tables_ = {t.n,
               t.ntheta,
               t.ns,
               t.sliceSize,
               static_cast<std::int32_t>(t.chords.size()),
               cuda::nextPow2Of(t.maxChord),
               chords_.data(),
               orbit_.data(),
               gatherStart_.data(),
               gather_.data(),
               peskin_.data(),
               cosT_.data(),
               sinT_.data(),
               laneInfo_.size() > 0 ? laneInfo_.data() : nullptr,
               static_cast<std::int32_t>(stride_),
               storedSlot_.empty() ? nullptr : storedSlotDevice_.data(),
               rows.begin,
               rows.end,
               rows.w.first,
               rows.w.count,
               rows.f.first,
               rows.f.count,
               stagedMax_ > 0 ? stagedStart_.data() : nullptr,
               stagedMax_ > 0 ? staged_.data() : nullptr,
               stagedMax_ > 0 ? stagedIndex_.data() : nullptr,
               stagedMax_};

    // The sub-cycle launch: the motors.* kernel switches, checked against what the kernel of the
    // chosen build accepts (without launch bounds its registers may cap the block size).
    int optin = 0;
    CF_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const std::size_t real = double_ ? sizeof(double) : sizeof(float);
    const std::size_t staticBytes = 256;  // the kernel's own __shared__ scalars, with margin
    launch_.launchBounds = p.motorLaunchBounds;
    launch_.mapping = p.motorLaneMapping;
    launch_.threads = p.motorBlockThreads;
    const int maxThreads = kernels_.subcycleMaxThreads(double_, launch_);
    if (launch_.threads == 0) launch_.threads = autoThreads(maxThreads, real, staticBytes, optin);
    if (launch_.threads > maxThreads)
        throw ParameterError("gliding: motors.block_threads = " + std::to_string(launch_.threads) +
                             " exceeds the " + std::to_string(maxThreads) +
                             " threads per block the motor kernel (motors.launch_bounds = " +
                             (p.motorLaunchBounds ? "true" : "false") + ") can run with on " +
                             prop.name + ": use at most " + std::to_string(maxThreads));

    // Shared memory: the slice there if it fits the opt-in limit (design 2.6), else in global.
    cuda::MotorLaunch inShared = launch_, inGlobal = launch_;
    inShared.sliceInShared = true;
    inGlobal.sliceInShared = false;
    sharedFits_ = cuda::motorSharedBytes(tables_, real, inShared) + staticBytes <=
                  static_cast<std::size_t>(optin);
    launch_.sliceInShared = sharedFits_;
    if (!sharedFits_ && !storedSlot_.empty())
        throw ParameterError(
            "gliding: motors.storage = lanes needs a tail's " + std::to_string(t.sliceSize) +
            " configurations in shared memory (" +
            std::to_string(cuda::motorSharedBytes(tables_, real, inShared) + staticBytes) +
            " B), more than the " + std::to_string(optin) + " B per block of " + prop.name +
            ": use motors.storage = chords");
    if (cuda::motorSharedBytes(tables_, real, inGlobal) + staticBytes >
        static_cast<std::size_t>(optin))
        throw SimulationError(
            "gliding: the motor kernel of " + std::to_string(t.chords.size()) +
            " capture chords and " + std::to_string(t.sliceSize) + " stored configurations needs " +
            std::to_string(cuda::motorSharedBytes(tables_, real, inGlobal) + staticBytes) +
            " B of shared memory, more than the " + std::to_string(optin) + " B per block of " +
            prop.name + ": use a smaller motors.rc or grid.n, or motors.lane_mapping = segments");

    // The held tails' motors; W and F2 over the whole grid, zero outside the rows the held
    // tails reach (never written there).
    const std::size_t cells = static_cast<std::size_t>(t.n) * t.n, tails = rows.anchors();
    const std::size_t slice = tails * stride_, w = cells * t.ntheta * t.ns;
    const auto allocate = [&](auto& a) {
        a.mb.resize(slice);
        a.coarse.resize(tails);
        a.free.resize(tails);
        a.w.resize(w);
        a.w.fillZero(stream_);
    };
    if (double_)
        allocate(d_);
    else
        allocate(f_);
    force_.resize(2 * cells);
    force_.fillZero(stream_);
    if (!rows.whole()) {
        part_.resize(2 * cells);
        part_.fillZero(stream_);
    }
    substeps_.resize(tails);
    clamps_.resize(tails);
    failedTail_.resize(1);

    MotorState init;
    initMotors(p, t, init, rows);
    upload(init);
}

template <typename MReal>
MotorsCuda::Arrays<MReal>& MotorsCuda::arrays() {
    if constexpr (std::is_same_v<MReal, double>)
        return d_;
    else
        return f_;
}

template <typename MReal>
cuda::MotorArrays<MReal> MotorsCuda::deviceArrays() {
    Arrays<MReal>& a = arrays<MReal>();
    return {a.mb.data(),      a.coarse.data(), a.free.data(),
            substeps_.data(), clamps_.data(),  failedTail_.data()};
}

// The packed motors (chord-major, S per tail) in the device's order (motors.storage), and back.
template <typename MReal>
std::vector<MReal> MotorsCuda::toStored(const std::vector<double>& mb) const {
    if (storedSlot_.empty()) return convert<MReal>(mb);
    const std::size_t S = storedSlot_.size(), tails = mb.size() / S;
    std::vector<MReal> out(tails * stride_, MReal(0));  // the padding stays 0
    for (std::size_t r = 0; r < tails; ++r)
        for (std::size_t i = 0; i < S; ++i)
            out[r * stride_ + static_cast<std::size_t>(storedSlot_[i])] =
                static_cast<MReal>(mb[r * S + i]);
    return out;
}

template <typename MReal>
std::vector<double> MotorsCuda::fromStored(const std::vector<MReal>& stored) const {
    if (storedSlot_.empty()) return convert<double>(stored);
    const std::size_t S = storedSlot_.size(), tails = stored.size() / stride_;
    std::vector<double> out(tails * S);
    for (std::size_t r = 0; r < tails; ++r)
        for (std::size_t i = 0; i < S; ++i)
            out[r * S + i] =
                static_cast<double>(stored[r * stride_ + static_cast<std::size_t>(storedSlot_[i])]);
    return out;
}

template <typename MReal>
void MotorsCuda::uploadAs(const MotorState& m) {
    Arrays<MReal>& a = arrays<MReal>();
    const std::size_t tails = a.coarse.size();
    if (m.mb.size() != tails * static_cast<std::size_t>(sliceSize_) || m.coarse.size() != tails ||
        m.free.size() != a.free.size())
        throw SimulationError("gliding: motor state does not match the grid");
    a.mb.copyFromHost(toStored<MReal>(m.mb), stream_);
    a.coarse.copyFromHost(convert<MReal>(m.coarse), stream_);
    a.free.copyFromHost(convert<MReal>(m.free), stream_);
}

template <typename MReal>
void MotorsCuda::downloadAs(MotorState& m) {
    Arrays<MReal>& a = arrays<MReal>();
    m.mb = fromStored<MReal>(a.mb.toHost(stream_));
    m.coarse = convert<double>(a.coarse.toHost(stream_));
    m.free = convert<double>(a.free.toHost(stream_));
}

void MotorsCuda::upload(const MotorState& m) {
    if (double_)
        uploadAs<double>(m);
    else
        uploadAs<float>(m);
    clampBase_ = m.clampCount;
    clamps_.fillZero(stream_);
    substeps_.fillZero(stream_);
    const std::int32_t none = kNoFailure;
    failedTail_.copyFromHost(std::span<const std::int32_t>(&none, 1), stream_);
}

template <typename MReal>
void MotorsCuda::downloadSums(MotorState& m) {
    Arrays<MReal>& a = arrays<MReal>();
    m.coarse = convert<double>(a.coarse.toHost(stream_));
    m.free = convert<double>(a.free.toHost(stream_));
}

// Waits for the stream, throws for a failed substep, and fills the counters of m.
void MotorsCuda::downloadCounters(MotorState& m) {
    CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const std::vector<std::int32_t> failed = failedTail_.toHost(stream_);
    if (failed[0] != kNoFailure)
        throw SimulationError("gliding: motor substep at tail " + std::to_string(failed[0]) +
                              " is not positive");
    const std::vector<std::int32_t> substeps = substeps_.toHost(stream_);
    const std::vector<std::int32_t> clamps = clamps_.toHost(stream_);
    std::int64_t clampSum = 0, total = 0;
    std::int32_t most = 0;
    for (std::size_t r = 0; r < substeps.size(); ++r) {
        clampSum += clamps[r];
        total += substeps[r];
        most = std::max(most, substeps[r]);
    }
    m.clampCount = clampBase_ + clampSum;
    m.substepsMax = most;
    m.substepsMean = static_cast<double>(total) / static_cast<double>(substeps.size());
}

void MotorsCuda::download(MotorState& m) {
    downloadCounters(m);
    if (double_)
        downloadAs<double>(m);
    else
        downloadAs<float>(m);
    m.orbits = orbits_;
    m.rows = rows_;
}

void MotorsCuda::downloadSummary(MotorState& m) {
    downloadCounters(m);
    if (double_)
        downloadSums<double>(m);
    else
        downloadSums<float>(m);
}

void MotorsCuda::checkPrecision(const GlidingParams& p) const {
    const bool dbl = p.precision == static_cast<std::int32_t>(MotorPrecision::Double);
    if (dbl != double_)
        throw SimulationError(
            "gliding: motors.precision changed after the CUDA motors were built (structural)");
}

void MotorsCuda::advance(const GlidingParams& p, const double* psiDevice, double dt) {
    checkPrecision(p);
    if (!launch_.sliceInShared && !storedSlot_.empty())
        throw SimulationError(
            "gliding: motors.storage = lanes sub-cycles in shared memory only (the global-memory "
            "slice path reads the chord order)");
    params_.bind(p);  // koff, kon~, Mtot, cin
    // The CPU's expressions (motors_cpu.cpp advanceAnchor): invDs = ns, psi_c = Psi dx dx dth ds.
    const cuda::MotorStepArgs a{dt, ds_, static_cast<double>(ns_), dx_ * dx_ * dtheta_ * ds_};
    if (double_)
        kernels_.f64.subcycle(tables_, a, psiDevice, deviceArrays<double>(), launch_, stream_);
    else
        kernels_.f32.subcycle(tables_, a, psiDevice, deviceArrays<float>(), launch_, stream_);
}

void MotorsCuda::force(const GlidingParams& p, const double* psiDevice) {
    checkPrecision(p);
    params_.bind(p);  // F
    // F (dx dy dtheta ds) with the CPU's parentheses (forceGather): the kernel multiplies the
    // live F by this cell volume.
    const double cellVolume = dx_ * dx_ * dtheta_ * ds_;
    double* fx = rows_.whole() ? force_.data() : part_.data();
    double* fy = fx + force_.size() / 2;
    if (double_) {
        kernels_.f64.boundGather(tables_, psiDevice, d_.mb.data(), d_.w.data(), stream_);
        kernels_.f64.forceGather(tables_, d_.w.data(), cellVolume, fx, fy, stream_);
    } else {
        kernels_.f32.boundGather(tables_, psiDevice, f_.mb.data(), f_.w.data(), stream_);
        kernels_.f32.forceGather(tables_, f_.w.data(), cellVolume, fx, fy, stream_);
    }
}

std::vector<double> MotorsCuda::downloadW() const {
    return double_ ? d_.w.toHost(stream_) : convert<double>(f_.w.toHost(stream_));
}

void MotorsCuda::downloadForce(std::vector<double>& fx, std::vector<double>& fy) const {
    const std::vector<double> both = force_.toHost(stream_);
    const auto half = static_cast<std::ptrdiff_t>(both.size() / 2);
    fx.assign(both.begin(), both.begin() + half);
    fy.assign(both.begin() + half, both.end());
}

}  // namespace cf::gliding
