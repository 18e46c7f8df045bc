// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/model.hpp"

#include <algorithm>
#include <cmath>

namespace cf {

void ModelRegistry::add(ModelDescriptor descriptor) {
    if (find(descriptor.name) != nullptr)
        throw Error("model '" + descriptor.name + "' is registered twice");
    if (!descriptor.validate)
        throw Error("model '" + descriptor.name +
                    "' declares no cross-parameter check (ModelDescriptor::validate)");
    if (descriptor.parameters == nullptr)
        throw Error("model '" + descriptor.name + "' declares no parameter table");
    for (const ModelCommand& c : descriptor.commands) {
        if (c.name.empty() || !c.run)
            throw Error("model '" + descriptor.name +
                        "' declares a command without a name or body");
        for (const ModelDescriptor& other : models_)
            for (const ModelCommand& taken : other.commands)
                if (taken.name == c.name)
                    throw Error("command '" + c.name + "' of model '" + descriptor.name +
                                "' is already declared by model '" + other.name + "'");
    }
    models_.push_back(std::move(descriptor));
}

const ModelDescriptor* ModelRegistry::find(std::string_view name) const {
    for (const ModelDescriptor& d : models_)
        if (d.name == name) return &d;
    return nullptr;
}

const ModelDescriptor& ModelRegistry::at(std::string_view name) const {
    if (const ModelDescriptor* d = find(name)) return *d;
    std::string known;
    for (const ModelDescriptor& d : models_)
        known += (known.empty() ? "" : ", ") + d.name;
    throw ScenarioError("unknown model '" + std::string(name) + "' (known models: " + known + ")");
}

namespace {
template <typename T>
void checkField(const Field& f, const Snapshot& s, const char* modelName) {
    const std::vector<T> values = f.as<T>();
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            const std::size_t entity = i / static_cast<std::size_t>(f.components);
            throw SimulationError(std::string(modelName) + ": non-finite value (" +
                                  std::to_string(values[i]) + ") in field '" + f.name +
                                  "' of entity " + std::to_string(entity) + ", component " +
                                  std::to_string(i % static_cast<std::size_t>(f.components)) +
                                  ", at step " + std::to_string(s.step));
        }
    }
}
}  // namespace

void checkSnapshotFinite(const Snapshot& snapshot, const char* modelName) {
    for (const Field& f : snapshot.fields) {
        if (f.type == ScalarType::F32)
            checkField<float>(f, snapshot, modelName);
        else if (f.type == ScalarType::F64)
            checkField<double>(f, snapshot, modelName);
    }
}

bool ModelDescriptor::offers(Backend b) const {
    return std::find(backends.begin(), backends.end(), b) != backends.end();
}

Backend resolveModelBackend(const ModelDescriptor& model,
                            const std::optional<std::string>& requested,
                            std::optional<Backend> preferred) {
    const bool chosen = requested.has_value() || preferred.has_value();
    Backend b = resolveBackend(requested, preferred);
    if (model.offers(b)) return b;
    if (!chosen && model.offers(Backend::Cpu)) return Backend::Cpu;  // "best" for this model
    if (b == Backend::Cuda && !model.cudaUnavailableReason.empty())
        throw ParameterError("model '" + model.name + "' cannot run on cuda here: " +
                             model.cudaUnavailableReason + " (use --backend cpu)");
    throw ParameterError("model '" + model.name + "' has no " + std::string(toString(b)) +
                         " backend yet (use --backend cpu)");
}

std::unique_ptr<Model> createOnBackend(const std::string& model, Backend backend, ModelFactory cpu,
                                       ModelFactory cuda) {
    if (backend == Backend::Cpu) return cpu();
    if (!isAvailable(Backend::Cuda) || cuda == nullptr)
        throw Error(model + ": the CUDA backend is unavailable: " + cudaStatus());
    return cuda();
}

}  // namespace cf
