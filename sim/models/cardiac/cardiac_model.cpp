// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/cardiac_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "generated/sim/bundled_models.hpp"
#include "sim/core/input_file.hpp"
#include "sim/geometry/mesh_import.hpp"
#include "sim/geometry/triangle_mesh.hpp"
#include "sim/geometry/voxelize.hpp"
#include "sim/models/cardiac/cardiac_views.hpp"
#include "sim/models/cardiac/cellml/cellml_import.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"
#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/lang/lookup_tables.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

namespace cf::cardiac {

namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

}  // namespace

const std::vector<std::string>& bundledModelNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [key, text] : kBundledModels)
            out.emplace_back(key);
        return out;
    }();
    return names;
}

const std::string& bundledModelSource(const std::string& name) {
    static const std::map<std::string, std::string> models = [] {
        std::map<std::string, std::string> m;
        for (const auto& [key, text] : kBundledModels)
            m.emplace(key, text);
        return m;
    }();
    const auto it = models.find(name);
    if (it == models.end()) {
        std::string known;
        for (const auto& [key, text] : models)
            known += (known.empty() ? "" : ", ") + key;
        throw ParameterError("model.bundled: no bundled model '" + name + "' (bundled: " + known +
                             ")");
    }
    return it->second;
}

CardiacParams checkedParams(const ParamSet& params) {
    CardiacParams p = params.toStruct<CardiacParams>();
    if (p.cycleLength > 0.0 && p.duration > p.cycleLength)
        throw ParameterError("protocol.duration = " + formatValue(params.get("protocol.duration")) +
                             " ms exceeds protocol.cycle_length = " +
                             formatValue(params.get("protocol.cycle_length")) + " ms");
    const double nodes = static_cast<double>(p.nx) * p.ny * p.nz;
    if (nodes > 1.0e8)
        throw ParameterError("tissue.nx x tissue.ny x tissue.nz = " + std::to_string(nodes) +
                             " nodes, more than 10^8");
    return p;
}

TissueState carryStates(const CheckedModel& from, const TissueState& state,
                        const CheckedModel& to) {
    TissueState out;
    out.activation = state.activation;
    out.step = state.step;
    out.time = state.time;
    const std::size_t nodes = state.activation.size();
    for (const StateInfo& s : to.states) {
        const Variable& v = to.vars[static_cast<std::size_t>(s.var)];
        const int old = from.find(v.name);
        const int k = old >= 0 ? from.stateOf(old) : -1;
        if (k >= 0)
            out.columns.push_back(state.columns[static_cast<std::size_t>(k)]);
        else
            out.columns.emplace_back(nodes, v.initial);
    }
    return out;
}

namespace {

// Applies "name = value" lines of `text` to `values` (one per parameter of `m`).
void applyValues(const std::string& text, const CheckedModel& m, std::vector<double>& values) {
    std::string normalized = text;
    std::replace(normalized.begin(), normalized.end(), ';', '\n');
    std::istringstream lines(normalized);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
        ++number;
        line = trim(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        const auto eq = line.find('=');
        const std::string where = "model.parameters, line " + std::to_string(number) + ": ";
        if (eq == std::string::npos)
            throw ParameterError(where + "expected 'name = value', found '" + line + "'");
        const std::string name = trim(line.substr(0, eq));
        const std::string valueText = trim(line.substr(eq + 1));
        char* end = nullptr;
        const double value = std::strtod(valueText.c_str(), &end);
        if (valueText.empty() || end == nullptr || *end != '\0' || !std::isfinite(value))
            throw ParameterError(where + "'" + valueText + "' is not a number");
        int found = -1;
        std::string candidates;
        for (std::size_t k = 0; k < m.params.size(); ++k) {
            const std::string& q = m.vars[static_cast<std::size_t>(m.params[k])].name;
            const std::string shortName = q.substr(q.find('.') + 1);
            if (q == name || shortName == name) {
                if (found >= 0)
                    throw ParameterError(where + "'" + name +
                                         "' is ambiguous: write it with its section");
                found = static_cast<int>(k);
            }
            candidates += (candidates.empty() ? "" : ", ") + q;
        }
        if (found < 0)
            throw ParameterError(where + "the model has no parameter '" + name +
                                 "' (its parameters: " + candidates + ")");
        const Variable& v =
            m.vars[static_cast<std::size_t>(m.params[static_cast<std::size_t>(found)])];
        if (v.hasRange && (value < v.lo || value > v.hi))
            throw ParameterError(where + v.name + " = " + valueText + " is outside its range [" +
                                 std::to_string(v.lo) + ", " + std::to_string(v.hi) + "]");
        values[static_cast<std::size_t>(found)] = value;
    }
}

}  // namespace

void applyParameterValues(const std::string& text, CellProgram& program) {
    std::vector<double> values = program.parameters();
    applyValues(text, program.model(), values);
    program.parameters() = std::move(values);
}

std::vector<double> parameterValues(const std::string& text, const CheckedModel& m) {
    std::vector<double> values;
    values.reserve(m.params.size());
    for (int p : m.params)
        values.push_back(m.vars[static_cast<std::size_t>(p)].initial);
    applyValues(text, m, values);
    return values;
}

void applyIntegrator(Integrator integrator, CheckedModel& model) {
    if (integrator == Integrator::Declared) return;
    for (StateInfo& s : model.states) {
        switch (integrator) {
            case Integrator::ForwardEuler:
                s.method = Method::ForwardEuler;
                break;
            case Integrator::RushLarsen:
                s.method = s.gate ? Method::RushLarsen : Method::ForwardEuler;
                break;
            case Integrator::Grl1:
                s.method = Method::GeneralizedRushLarsen;
                break;
            case Integrator::BackwardEuler:
                s.method = Method::BackwardEuler;
                break;
            case Integrator::Declared:
                break;
        }
    }
}

ModelText modelText(const CardiacParams& p) {
    ModelText t;
    if (!p.modelSource.empty()) {
        t.source = p.modelSource;
        t.file = "model.source";
    } else if (p.modelFile.empty()) {
        const std::string& name = bundledModelNames().at(static_cast<std::size_t>(p.bundled));
        t.source = bundledModelSource(name);
        t.file = name + ".cfm (bundled)";
    } else {
        try {
            t.source = readInputFile(p.modelFile);
        } catch (const InputFileError& e) {
            throw ParameterError(std::string("model.file: ") + e.what());  // no such file, ...
        }
        t.file = p.modelFile;
        if (isCellmlFileName(t.file)) {  // CellML: imported to model text first
            try {
                t.source = importCellml(t.source, t.file);
            } catch (const ModelError& e) {
                throw ParameterError("model.file: the CellML model cannot be imported:\n" +
                                     std::string(e.what()));
            }
            t.file += " (imported)";
        }
    }
    return t;
}

unsigned autoKernelParts(const CardiacParams& p, const CheckedModel& m) {
    if (p.precision == 1) return 1;  // float: one kernel
    const std::size_t states = m.states.size();
    return states >= 32 ? 4 : states >= 16 ? 3 : 1;
}

EmitOptions cudaEmitOptions(const CardiacParams& p, const CheckedModel& m) {
    EmitOptions o;
    const auto choice = static_cast<StateStorageChoice>(p.stateStorage);
    const bool shared =
        choice == StateStorageChoice::Shared ||
        (choice == StateStorageChoice::Auto && m.states.size() >= kSharedStatesFrom);
    o.states = shared ? StateStorage::Shared : StateStorage::Registers;
    auto arithmetic = static_cast<Arithmetic>(p.arithmetic);
    if (arithmetic == Arithmetic::Auto)
        arithmetic = p.precision == 1 ? Arithmetic::Rewritten : Arithmetic::AsWritten;
    const bool all = arithmetic == Arithmetic::Rewritten;
    o.hoistInvariants = all || arithmetic == Arithmetic::Hoist;
    o.approximateDivision = all || arithmetic == Arithmetic::Division;
    o.polynomialPhi1 = all || arithmetic == Arithmetic::Phi1;
    o.minBlocksPerSm = static_cast<unsigned>(p.minBlocksPerSm);
    o.parts = p.kernelParts > 0 ? static_cast<unsigned>(p.kernelParts) : autoKernelParts(p, m);
    return o;
}

std::unique_ptr<CellProgram> loadCellProgram(const CardiacParams& p) {
    const ModelText text = modelText(p);
    const std::string& source = text.source;
    const std::string& file = text.file;
    std::unique_ptr<CellProgram> program;
    try {
        CheckedModel model = compileModel(source, file, p.variant);
        applyIntegrator(static_cast<Integrator>(p.integrator), model);
        if (p.lookup && !model.lookup) applyLookup(model, -100.0, 100.0, 0.01);
        program = std::make_unique<CellProgram>(std::move(model));
    } catch (const ModelError& e) {
        const auto& d = e.diagnostics();
        const bool variantOnly = !d.empty() && std::all_of(d.begin(), d.end(), [](const auto& x) {
            return x.code == "E142";
        });
        if (variantOnly)  // the model is fine; the chosen variant is not one of its own
            throw ParameterError("model.variant: " + d.front().message);
        throw ParameterError(std::string(p.modelSource.empty() ? "model.file" : "model.source") +
                             ": the model does not compile:\n" + std::string(e.what()));
    }
    applyParameterValues(p.parameterValues, *program);
    return program;
}

bool pulseOn(const CardiacParams& p, double t) {
    if (t < p.start || p.duration <= 0.0) return false;
    double k = 0.0, since = t - p.start;
    if (p.cycleLength > 0.0) {
        k = std::floor(since / p.cycleLength);
        since -= k * p.cycleLength;
    } else if (since >= p.duration) {
        return false;
    }
    if (p.beats > 0 && k >= static_cast<double>(p.beats)) return false;
    return since < p.duration;
}

bool inStimulusRegion(const CardiacParams& p, int i, int j, int k) {
    const double x = i * p.dx, y = j * p.dx, z = k * p.dx;
    const double s = p.regionSize + 1e-9;
    switch (static_cast<StimulusRegion>(p.region)) {
        case StimulusRegion::LeftEdge:
            return x <= s;
        case StimulusRegion::Corner:
            return x <= s && y <= s && z <= s;
        case StimulusRegion::Centre: {
            const double c[3] = {0.5 * (p.nx - 1) * p.dx, 0.5 * (p.ny - 1) * p.dx,
                                 0.5 * (p.nz - 1) * p.dx};
            return std::fabs(x - c[0]) <= s && std::fabs(y - c[1]) <= s && std::fabs(z - c[2]) <= s;
        }
        case StimulusRegion::All:
            return true;
    }
    return false;
}

// The generated kernel spells the regions as these numbers (cuda_emitter.cpp).
static_assert(static_cast<int>(StimulusRegion::LeftEdge) == 0 &&
              static_cast<int>(StimulusRegion::Corner) == 1 &&
              static_cast<int>(StimulusRegion::Centre) == 2 &&
              static_cast<int>(StimulusRegion::All) == 3);

CfProtocol protocolBlock(const CardiacParams& p) {
    CfProtocol b{};
    b.start = p.start;
    b.cycleLength = p.cycleLength;
    b.duration = p.duration;
    b.regionSize = p.regionSize;
    b.dx = p.dx;
    b.beats = p.beats;
    b.region = p.region;
    b.nx = p.nx;
    b.ny = p.ny;
    b.nz = p.nz;
    b.slabAxis = 2;
    b.slabBegin = 0;
    b.slabCount = p.nz;
    return b;
}

CfProtocol protocolBlock(const CardiacParams& p, int slabAxis, int slabBegin, int slabCount) {
    CfProtocol b = protocolBlock(p);
    b.slabAxis = slabAxis;
    b.slabBegin = slabBegin;
    b.slabCount = slabCount;
    return b;
}

std::vector<unsigned char> stimulusRegionMask(const CardiacParams& p,
                                              const std::vector<unsigned char>& tissue) {
    std::vector<unsigned char> mask(static_cast<std::size_t>(p.nx) * p.ny * p.nz);
    std::size_t m = 0;
    for (int k = 0; k < p.nz; ++k)
        for (int j = 0; j < p.ny; ++j)
            for (int i = 0; i < p.nx; ++i, ++m)
                mask[m] = inStimulusRegion(p, i, j, k) && (tissue.empty() || tissue[m] != 0);
    return mask;
}

namespace {

// The closed surface tissue.mesh names (not empty). Throws ParameterError naming it.
geometry::TriangleMesh tissueMesh(const CardiacParams& p) {
    try {
        geometry::TriangleMesh mesh = geometry::loadTriangleMesh(p.mesh);
        geometry::requireClosed(mesh, p.mesh);
        return mesh;
    } catch (const Error& e) {
        throw ParameterError("tissue.mesh: " + std::string(e.what()));
    }
}

}  // namespace

std::vector<unsigned char> tissueMask(const CardiacParams& p) {
    if (p.mesh.empty()) return {};
    const geometry::TriangleMesh mesh = tissueMesh(p);
    // Node (i, j, k) at (i, j, k) dx is the centre of the voxel the voxelizer calls site
    // (i, j, k) of a frame whose corner is at -dx/2.
    geometry::LatticeFrame frame;
    frame.n = {p.nx, p.ny, p.nz};
    frame.spacing = static_cast<float>(p.dx);
    const float half = static_cast<float>(-0.5 * p.dx);
    frame.origin = {half, half, half};
    geometry::RegionTypes types;
    types.inside = 1;
    types.membrane = 1;
    types.outside = 0;
    std::vector<unsigned char> mask;
    try {
        const std::vector<std::uint8_t> regions =
            geometry::voxelizeRegions(mesh, frame, 0.0f, types);
        mask.assign(regions.begin(), regions.end());
    } catch (const Error& e) {
        throw ParameterError("tissue.mesh: " + std::string(e.what()));
    }
    std::size_t inside = 0;
    for (unsigned char t : mask)
        inside += t;
    if (inside == 0) {
        const geometry::Bounds b = geometry::boundingBox(mesh);
        char text[256];
        std::snprintf(text, sizeof text,
                      "tissue.mesh: no node of the %d x %d x %d grid (0 to %g x %g x %g mm) lies "
                      "inside '%s', which spans (%g, %g, %g) to (%g, %g, %g) mm",
                      p.nx, p.ny, p.nz, (p.nx - 1) * p.dx, (p.ny - 1) * p.dx, (p.nz - 1) * p.dx,
                      p.mesh.c_str(), b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]);
        throw ParameterError(text);
    }
    return mask;
}

int diffusionSubsteps(const CardiacParams& p) {
    const int n[3] = {p.nx, p.ny, p.nz};
    double rate = 0.0;
    for (int a = 0; a < 3; ++a)
        if (n[a] > 1)
            rate += (a == p.fibreAxis ? p.diffusionLong : p.diffusionTrans) / (p.dx * p.dx);
    if (rate <= 0.0) return 1;
    const double limit = 1.0 / (2.0 * rate);
    return std::max(1, static_cast<int>(std::ceil(p.dt / (0.9 * limit))));
}

void tissueBox(const CardiacParams& p, double lo[3], double hi[3]) {
    const int n[3] = {p.nx, p.ny, p.nz};
    for (int a = 0; a < 3; ++a) {
        lo[a] = -0.5 * p.dx;
        hi[a] = (n[a] - 0.5) * p.dx;
    }
}

ModelDescriptor descriptor() {
    ModelDescriptor d;
    d.name = "cardiac";
    d.description = "Cardiac cell models in a model language, as single cells or monodomain tissue";
    d.timeUnit = "ms";
    d.parameters = &parameterTable;
    d.backends = {Backend::Cpu};
    // The CUDA backend compiles the model with NVRTC: without it the CPU still runs, and the
    // description says why CUDA is not offered.
    if (isAvailable(Backend::Cuda)) {
        if (nvrtcAvailable())
            d.backends.push_back(Backend::Cuda);
        else {
            d.cudaUnavailableReason = "its CUDA backend compiles with NVRTC: " + nvrtcStatus();
            d.description += " (CUDA backend unavailable: " + nvrtcStatus() + ")";
        }
    }
    d.create = [](Backend b) {
        return createOnBackend("cardiac", b, &makeCpuModel, CF_CUDA_FACTORY(makeCudaModel));
    };
    // The model file and the parameter values are checked in the caller's thread before an
    // edit reaches a running model.
    d.validate = [](const ParamSet& params) {
        const CardiacParams p = checkedParams(params);
        const std::unique_ptr<CellProgram> program = loadCellProgram(p);
        viewStates(p, program->model());
        tracePoints(p);
        // The mesh loads and is closed (a sweep checks every point with this before
        // anything runs); whether it covers a node depends on the grid, checked at reset.
        if (!p.mesh.empty()) tissueMesh(p);
    };
    d.benchCases = benchCases();
    d.commands = commands();
    d.editableText.parameter = "model.source";
    d.editableText.language = "cell model (.cfm)";
    d.editableText.current = [](const ParamSet& params) {
        return modelText(checkedParams(params)).source;
    };
    d.editableText.generated = [](const ParamSet& params) {
        const CardiacParams p = checkedParams(params);
        const std::unique_ptr<CellProgram> program = loadCellProgram(p);
        const EmitOptions options = cudaEmitOptions(p, program->model());
        const GeneratedSource g = emitCuda(
            program->model(), p.precision == 1 ? Precision::Float : Precision::Double, options);
        return "// CUDA C generated from " + program->model().file + " (" +
               (p.precision == 1 ? "float" : "double") + (p.fastMath ? ", --use_fast_math" : "") +
               ", states in " +
               (options.states == StateStorage::Shared ? "shared memory" : "registers") +
               "), compiled at run time by NVRTC\n" + g.code;
    };
    return d;
}

}  // namespace cf::cardiac
