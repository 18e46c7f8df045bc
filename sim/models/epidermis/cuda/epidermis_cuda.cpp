// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `epidermis` (host side): device state, the per-step launch sequence of
// epidermis_model.hpp, growth with capacity doubling. The only device-to-host copies in
// the step loop are two integers at growth events (how many cells divide).
#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>

#include "sim/core/stage_profile.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/cuda/stage_timer.hpp"
#include "sim/grid/cuda/uniform_grid_cuda.cuh"
#include "sim/models/epidermis/cuda/epidermis_kernels.cuh"
#include "sim/models/epidermis/epidermis_model.hpp"
#include "sim/models/epidermis/epidermis_views.hpp"
#include "sim/models/epidermis/growth_rule.hpp"

namespace cf::epidermis {

namespace {

using cf::cuda::DeviceBuffer;

class CudaEpidermis final : public Model, public StageProfiling, public StateArrayProvider {
public:
    CudaEpidermis() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaEpidermis() override {
        dropGraphs();
        cuda::releaseParams(this);
        cudaStreamDestroy(stream_);
    }
    CudaEpidermis(const CudaEpidermis&) = delete;
    CudaEpidermis& operator=(const CudaEpidermis&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = checkedParams(params);
        inEffect_.emplace(params);
        dt_ = params.real("time.dt");
        dropGraphs();
        geometry_ = gridGeometry(p_);
        gridCurrent_ = false;
        cuda::uploadParams(p_, this, stream_);
        upload(initialState(p_, seed));
        step_ = 0;
        time_ = 0.0;
    }

    void setLiveParameters(const ParamSet& params) override {
        // Live values from `params`, structural ones as in effect (the declarations say
        // which), checked together; the grid for them is built before anything changes.
        ParamSet merged = withLiveValues(*inEffect_, params);
        const EpidermisParams next = checkedParams(merged);  // a refusal changes nothing
        const grid::GridGeometry geometry = gridGeometry(next);
        // Ordered on the stream: kernels already queued keep the old values.
        cuda::uploadParams(next, this, stream_);
        dropGraphs();  // captured launches hold dt and the method
        p_ = next;
        dt_ = merged.real("time.dt");
        inEffect_ = std::move(merged);
        geometry_ = geometry;
        gridCurrent_ = false;
    }

    void startStageProfile() override { timer_.start(); }
    std::vector<std::pair<std::string, double>> stopStageProfile() override {
        return timer_.stop();
    }

    // Runs of kGraphSteps steps without a growth event replay a captured CUDA graph: a step
    // is a dozen small launches, and at a few thousand cells launch latency is a large
    // part of the step time.
    void advance(std::uint64_t steps) override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        while (steps > 0) {
            if (warmedUp_ && !timer_.active() && steps >= kGraphSteps &&
                !growthWithin(kGraphSteps)) {
                replayGraph();
                steps -= kGraphSteps;
            } else {
                stepOnce();
                --steps;
            }
        }
    }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    std::vector<Metric> metrics() override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        const HostState h = download();
        CellCentres centres{cx_.toHost(stream_), cy_.toHost(stream_), cz_.toHost(stream_)};
        for (auto* v : {&centres.x, &centres.y, &centres.z})
            v->resize(static_cast<std::size_t>(cells_));
        return hostMetrics(p_, h, centres);
    }

    Snapshot snapshot() override { return makeSnapshot(p_, download()); }

    std::vector<StateArray> stateArrays() override {
        return stateArraysOf({capacity_, p_.maxElementsPerCell, cells_, x_.data(), y_.data(),
                              z_.data(), type_.data(), count_.data(), species_.data()},
                             MemorySpace::Device);
    }

    void restore(const Snapshot& snapshot) override {
        dropGraphs();
        upload(readSnapshot(p_, snapshot));
        step_ = snapshot.step;
        time_ = snapshot.time;
    }

    void checkFinite() override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        const std::int32_t none = INT_MAX;
        if (p_.neighborMethod == static_cast<int>(NeighborMethod::Grid)) {
            const std::int32_t bad = badRadius_.toHost(stream_)[0];
            if (bad != none) {
                const float r = radius_.toHost(stream_)[static_cast<std::size_t>(bad)];
                throw SimulationError(
                    "epidermis: cell " + std::to_string(bad) + " has radius " + std::to_string(r) +
                    " beyond mechanics.radius_bound = " + std::to_string(p_.radiusBound) +
                    " (by step " + std::to_string(step_) + "); increase mechanics.radius_bound");
            }
        }
        const std::int32_t moved = badSkin_.toHost(stream_)[0];
        if (moved != none)
            throw SimulationError(
                "epidermis: element " + std::to_string(moved % p_.maxElementsPerCell) +
                " of cell " + std::to_string(moved / p_.maxElementsPerCell) +
                " moved more than mechanics.skin/2 = " + std::to_string(0.5 * p_.skin) +
                " in half a step (by step " + std::to_string(step_) +
                "); lower time.dt or raise mechanics.skin");
        badElement_.copyFromHost(std::span<const std::int32_t>(&none, 1), stream_);
        badCell_.copyFromHost(std::span<const std::int32_t>(&none, 1), stream_);
        cuda::launchFindNonFinite(view(), badElement_.data(), badCell_.data(), stream_);
        const std::int32_t element = badElement_.toHost(stream_)[0];
        const std::int32_t cell = badCell_.toHost(stream_)[0];
        if (element != none) {
            const std::int32_t c = element / p_.maxElementsPerCell;
            throw SimulationError("epidermis: non-finite position of element " +
                                  std::to_string(element % p_.maxElementsPerCell) + " of cell " +
                                  std::to_string(c) + " at step " + std::to_string(step_) +
                                  " (try a smaller time.dt)");
        }
        if (cell != none)
            throw SimulationError(std::string("epidermis: non-finite ") + speciesName(cell % 8) +
                                  " in cell " + std::to_string(cell / 8) + " at step " +
                                  std::to_string(step_) + " (try a smaller time.dt)");
    }

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    std::vector<std::uint8_t> deviceParameterBlock() override {
        EpidermisParams onDevice{};
        cuda::bindParams(p_, this, stream_);
        cuda::downloadParams(onDevice, stream_);
        return bytesOf(onDevice);
    }

    // Packed on the device (no host copy of the state): ready for CUDA-GL interop.
    ModelViews views() override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        // The centres are current: every step, division and upload ends by computing them.
        elementOffset_.resize(static_cast<std::size_t>(capacity_));
        const std::int64_t n =
            cuda::scanElementOffsets(view(), elementOffset_.data(), scratch_, stream_);
        const auto cells = static_cast<std::size_t>(cells_);
        viewElements_.resize(4 * static_cast<std::size_t>(n));
        viewState_.resize(static_cast<std::size_t>(n));
        viewElementSpecies_.resize(kSpeciesCount * static_cast<std::size_t>(n));
        viewCells_.resize(4 * cells);
        viewCellSpecies_.resize(kSpeciesCount * cells);
        cuda::PackArgs a{view(),
                         centres(),
                         elementOffset_.data(),
                         n,
                         kElementDrawRadius,
                         viewElements_.data(),
                         viewState_.data(),
                         viewElementSpecies_.data(),
                         viewCells_.data(),
                         viewCellSpecies_.data()};
        cuda::launchPackViews(a, stream_);
        PackedViews v{viewElements_.data(),
                      viewState_.data(),
                      viewElementSpecies_.data(),
                      static_cast<std::size_t>(n),
                      viewCells_.data(),
                      viewCellSpecies_.data(),
                      cells};
        return assembleViews(p_, MemorySpace::Device, v);
    }

private:
    bool gridMethod() const { return p_.neighborMethod == static_cast<int>(NeighborMethod::Grid); }

    // The neighbour grid for `p`: none for the other methods (they need none, and may not
    // fit one).
    static grid::GridGeometry gridGeometry(const EpidermisParams& p) {
        if (p.neighborMethod != static_cast<int>(NeighborMethod::Grid)) return {};
        const float reach = p.cullRule == static_cast<int>(CullRule::Exact)
                                ? p.interDist + 2.0f * p.radiusBound + p.skin
                                : p.interDist;
        const float cutoff = std::max(reach, p.neighborDist);
        const float lo[3] = {0.0f, 0.0f, 0.0f};
        const float hi[3] = {p.sizeX, p.sizeY, std::max(p.height, cutoff)};
        const bool periodic[3] = {p.periodic, p.periodic, false};
        // No boundary: cells may wander outside the initial extent; the open grid clamps
        // them into its edge cells, which stays correct (only slower when many do).
        return grid::makeGridGeometry(lo, hi, cutoff, periodic);
    }

    cuda::StateView view() {
        return {x_.data(),     y_.data(),       z_.data(), type_.data(),
                count_.data(), species_.data(), capacity_, p_.maxElementsPerCell,
                cells_};
    }
    cuda::CentreView centres() {
        return {cx_.data(), cy_.data(), cz_.data(), radius_.data(), badRadius_.data()};
    }

    void allocate(std::int32_t capacity) {
        const auto slots = static_cast<std::size_t>(capacity) * p_.maxElementsPerCell;
        for (auto* b : {&x_, &y_, &z_, &x1_, &y1_, &z1_, &xn_, &yn_, &zn_})
            b->resize(slots);
        type_.resize(slots);
        count_.resize(static_cast<std::size_t>(capacity));
        species_.resize(static_cast<std::size_t>(capacity) * kSpeciesCount);
        for (auto* b : {&cx_, &cy_, &cz_, &radius_, &avgN_, &avgD_, &avgB_})
            b->resize(static_cast<std::size_t>(capacity));
        divides_.resize(static_cast<std::size_t>(capacity));
        list_.resize(static_cast<std::size_t>(capacity) * cuda::kMaxNeighbours);
        listCount_.resize(static_cast<std::size_t>(capacity));
        offsets_.resize(static_cast<std::size_t>(capacity));
        badRadius_.resize(1);
        badElement_.resize(1);
        badCell_.resize(1);
        badSkin_.resize(1);
        capacity_ = capacity;
    }

    void upload(const HostState& h) {
        allocate(h.capacity);
        cells_ = h.cells;
        x_.copyFromHost(h.x, stream_);
        y_.copyFromHost(h.y, stream_);
        z_.copyFromHost(h.z, stream_);
        type_.copyFromHost(h.type, stream_);
        count_.copyFromHost(h.count, stream_);
        species_.copyFromHost(h.species, stream_);
        avgN_.fillZero(stream_);
        avgD_.fillZero(stream_);
        avgB_.fillZero(stream_);
        const std::int32_t none = INT_MAX;
        badRadius_.copyFromHost(std::span<const std::int32_t>(&none, 1), stream_);
        badSkin_.copyFromHost(std::span<const std::int32_t>(&none, 1), stream_);
        computeCentres(gridMethod());
    }

    HostState download() {
        HostState h;
        h.capacity = capacity_;
        h.slotsPerCell = p_.maxElementsPerCell;
        h.cells = cells_;
        h.x = x_.toHost(stream_);
        h.y = y_.toHost(stream_);
        h.z = z_.toHost(stream_);
        h.type = type_.toHost(stream_);
        h.count = count_.toHost(stream_);
        h.species = species_.toHost(stream_);
        h.step = step_;
        h.time = time_;
        return h;
    }

    // Centres of the current positions X (and the grid over them when needed).
    void computeCentres(bool checkBound) {
        cuda::launchCentres(view(), x_.data(), y_.data(), z_.data(), centres(), checkBound,
                            stream_);
        gridCurrent_ = false;
    }

    void ensureGrid() {
        if (!gridMethod() || gridCurrent_) return;
        grid_.build(geometry_, grid::PointsView{cx_.data(), cy_.data(), cz_.data(), cells_},
                    stream_);
        gridCurrent_ = true;
    }

    // Candidate cells for the next force stage (centres and grid must be current).
    void buildCellLists() {
        if (p_.neighborMethod == static_cast<int>(NeighborMethod::Naive)) return;
        cuda::CellListArgs l{view(), centres(), gridMethod() ? grid_.view() : grid::GridView{},
                             list_.data(), listCount_.data()};
        cuda::launchCellLists(l, stream_);
    }

    cuda::ForceStageArgs stageArgs(const float* ex, const float* ey, const float* ez, float h,
                                   float* ox, float* oy, float* oz, bool checkSkin) {
        cuda::ForceStageArgs a{};
        a.state = view();
        a.evalX = ex;
        a.evalY = ey;
        a.evalZ = ez;
        a.centres = centres();
        a.grid = gridMethod() ? grid_.view() : grid::GridView{};
        a.list = list_.data();
        a.listCount = listCount_.data();
        a.badSkin = badSkin_.data();
        a.checkSkin = checkSkin;
        a.h = h;
        a.outX = ox;
        a.outY = oy;
        a.outZ = oz;
        return a;
    }

    bool growthWithin(std::uint64_t steps) const {
        if (!p_.growth) return false;
        const auto interval = static_cast<std::uint64_t>(p_.growthInterval);
        return (step_ + steps) / interval != step_ / interval;
    }

    void stepOnce() {
        timer_.beginStep(stream_);
        deviceStep();
        timer_.endStep();
        ++step_;
        time_ += dt_;
        // The first plain step has grown every scratch buffer to this size: capture is safe.
        warmedUp_ = true;
        if (p_.growth && step_ % static_cast<std::uint64_t>(p_.growthInterval) == 0) grow();
    }

    // Replays (capturing first when needed) kGraphSteps steps. The buffers swap once per
    // step, so a graph is tied to which buffer holds X when it starts: one graph per parity.
    void replayGraph() {
        Graph& g = graphs_[x_.data() == graphBase_ ? 0 : 1];
        if (g.exec == nullptr || g.x != x_.data()) {
            if (g.exec != nullptr) cudaGraphExecDestroy(g.exec);
            g = Graph{};
            if (graphBase_ == nullptr) graphBase_ = x_.data();
            g.x = x_.data();
            gridCurrent_ = false;  // the graph rebuilds the grid first, every time
            CF_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
            try {
                for (std::uint64_t k = 0; k < kGraphSteps; ++k)
                    deviceStep();
            } catch (...) {
                cudaGraph_t broken = nullptr;
                cudaStreamEndCapture(stream_, &broken);
                if (broken != nullptr) cudaGraphDestroy(broken);
                throw;
            }
            cudaGraph_t graph = nullptr;
            CF_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
            const cudaError_t err = cudaGraphInstantiate(&g.exec, graph, 0);
            cudaGraphDestroy(graph);
            CF_CUDA_CHECK(err);
            // Capturing recorded the steps without running them; the buffer roles and grid
            // flag now describe the state after the replay below.
        } else {
            for (std::uint64_t k = 0; k < kGraphSteps; ++k)
                swapPositions();
            gridCurrent_ = p_.network && gridMethod();
        }
        CF_CUDA_CHECK(cudaGraphLaunch(g.exec, stream_));
        step_ += kGraphSteps;
        // Step by step, as stepOnce() does, so the clock is bit-identical either way.
        for (std::uint64_t k = 0; k < kGraphSteps; ++k)
            time_ += dt_;
    }

    void swapPositions() {
        std::swap(x_, xn_);
        std::swap(y_, yn_);
        std::swap(z_, zn_);
    }

    void dropGraphs() {
        for (Graph& g : graphs_) {
            if (g.exec != nullptr) cudaGraphExecDestroy(g.exec);
            g = Graph{};
        }
        graphBase_ = nullptr;
        warmedUp_ = false;
    }

    // The device work of one step (no host waits), so it can be captured into a graph.
    void deviceStep() {
        const bool check = gridMethod();
        const auto dt = static_cast<float>(dt_);
        // Steps 1-3 (epidermis_model.hpp): the centres of X are current since the previous
        // step; candidate cells once per step; X1 = X + dt/2 f(X).
        ensureGrid();
        timer_.mark("centre grid", stream_);
        buildCellLists();
        timer_.mark("candidate cells", stream_);
        const bool skin = p_.cullRule == static_cast<int>(CullRule::Exact) &&
                          p_.neighborMethod != static_cast<int>(NeighborMethod::Naive);
        cuda::launchForceStage(stageArgs(x_.data(), y_.data(), z_.data(), 0.5f * dt, x1_.data(),
                                         y1_.data(), z1_.data(), skin),
                               stream_);
        timer_.mark("forces, stage 1", stream_);
        // Step 4: X' = X + dt f(X1) with the same candidates.
        cuda::launchForceStage(stageArgs(x1_.data(), y1_.data(), z1_.data(), dt, xn_.data(),
                                         yn_.data(), zn_.data(), false),
                               stream_);
        timer_.mark("forces, stage 2", stream_);
        swapPositions();
        computeCentres(check);
        timer_.mark("centres", stream_);
        if (p_.network) {
            ensureGrid();
            timer_.mark("centre grid", stream_);
            cuda::NetworkArgs n{};
            n.state = view();
            n.centres = centres();
            n.grid = gridMethod() ? grid_.view() : grid::GridView{};
            n.avgN = avgN_.data();
            n.avgD = avgD_.data();
            n.avgB = avgB_.data();
            n.dt = dt;
            cuda::launchNetwork(n, stream_);
            timer_.mark("gene network", stream_);
        }
    }

    void grow() {
        dropGraphs();  // cell count and maybe capacity change
        const GrowthCut cut = growthCut(p_, deltaForGrowth());
        cuda::GrowthArgs g{view(), centres(), avgD_.data(), divides_.data(), offsets_.data(), cut};
        cuda::launchGrowth(g, stream_);
        const std::int32_t dividing = cuda::scanDivisions(g, scratch_, stream_);
        if (dividing > 0) {
            if (cells_ + dividing > capacity_)
                growCapacity(std::max(2 * capacity_, cells_ + dividing));
            g = cuda::GrowthArgs{view(),          centres(),       avgD_.data(),
                                 divides_.data(), offsets_.data(), cut};
            cuda::launchDivision(g, stream_);
            cells_ += dividing;
        }
        computeCentres(gridMethod());
    }

    // Every cell's Delta as the growth test reads it (0 without the network); the rank rule
    // needs all of them, so this event copies one float per cell to the host.
    std::vector<float> deltaForGrowth() {
        std::vector<float> delta(static_cast<std::size_t>(cells_), 0.0f);
        if (p_.network && cells_ > 0 && p_.growthRule != static_cast<int>(GrowthRule::Lateral)) {
            CF_CUDA_CHECK(cudaMemcpyAsync(
                delta.data(), species_.data() + static_cast<std::size_t>(kDelta) * capacity_,
                delta.size() * sizeof(float), cudaMemcpyDeviceToHost, stream_));
            CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        }
        return delta;
    }

    // Reallocates every per-cell array, keeping the active cells (growth never drops one).
    void growCapacity(std::int32_t capacity) {
        const std::int32_t old = capacity_;
        const auto E = static_cast<std::size_t>(p_.maxElementsPerCell);
        const auto activeSlots = static_cast<std::size_t>(cells_) * E;
        auto grown = [&](auto& buffer, std::size_t newSize, std::size_t keep) {
            using T = typename std::remove_reference_t<decltype(buffer)>::value_type;
            DeviceBuffer<T> next(newSize);
            if (keep > 0)
                CF_CUDA_CHECK(cudaMemcpyAsync(next.data(), buffer.data(), keep * sizeof(T),
                                              cudaMemcpyDeviceToDevice, stream_));
            buffer = std::move(next);
        };
        const auto cap = static_cast<std::size_t>(capacity);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        for (auto* b : {&x_, &y_, &z_})
            grown(*b, cap * E, activeSlots);
        for (auto* b : {&x1_, &y1_, &z1_, &xn_, &yn_, &zn_})
            grown(*b, cap * E, 0);
        grown(type_, cap * E, activeSlots);
        grown(count_, cap, static_cast<std::size_t>(cells_));
        for (auto* b : {&avgN_, &avgD_, &avgB_})
            grown(*b, cap, static_cast<std::size_t>(cells_));
        for (auto* b : {&cx_, &cy_, &cz_, &radius_})
            grown(*b, cap, static_cast<std::size_t>(cells_));
        grown(divides_, cap, static_cast<std::size_t>(cells_));
        grown(list_, cap * cuda::kMaxNeighbours, 0);
        grown(listCount_, cap, 0);
        grown(offsets_, cap, static_cast<std::size_t>(cells_));
        // Species rows are k * capacity + cell: copy row by row into the wider pitch.
        DeviceBuffer<float> species(cap * kSpeciesCount);
        CF_CUDA_CHECK(cudaMemcpy2DAsync(species.data(), cap * sizeof(float), species_.data(),
                                        static_cast<std::size_t>(old) * sizeof(float),
                                        static_cast<std::size_t>(cells_) * sizeof(float),
                                        kSpeciesCount, cudaMemcpyDeviceToDevice, stream_));
        species_ = std::move(species);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        capacity_ = capacity;
        note("cell capacity grew from " + std::to_string(old) + " to " + std::to_string(capacity) +
             " cells (" + std::to_string(cells_) + " in use)");
    }

    cudaStream_t stream_ = nullptr;
    EpidermisParams p_{};
    double dt_ = 0.0;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
    std::int32_t capacity_ = 0;
    std::int32_t cells_ = 0;
    DeviceBuffer<float> x_, y_, z_, x1_, y1_, z1_, xn_, yn_, zn_;
    DeviceBuffer<std::uint8_t> type_;
    DeviceBuffer<std::int32_t> count_;
    DeviceBuffer<float> species_;
    DeviceBuffer<float> cx_, cy_, cz_, radius_, avgN_, avgD_, avgB_;
    DeviceBuffer<std::int32_t> divides_, offsets_, badRadius_, badElement_, badCell_;
    DeviceBuffer<std::int32_t> list_, listCount_, badSkin_, elementOffset_;
    DeviceBuffer<float> viewElements_, viewElementSpecies_, viewCells_, viewCellSpecies_;
    DeviceBuffer<std::uint8_t> viewState_;
    DeviceBuffer<unsigned char> scratch_;  // CUB temporary storage
    grid::GridGeometry geometry_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    grid::CudaUniformGrid grid_;
    cf::cuda::StageTimer timer_;
    bool gridCurrent_ = false;

    static constexpr std::uint64_t kGraphSteps = 10;  // even: the buffers end where they began
    struct Graph {
        cudaGraphExec_t exec = nullptr;
        const float* x = nullptr;  // x_ when captured
    };
    Graph graphs_[2];
    const float* graphBase_ = nullptr;
    bool warmedUp_ = false;
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<CudaEpidermis>();
}

}  // namespace cf::epidermis
