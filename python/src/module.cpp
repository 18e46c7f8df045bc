// SPDX-License-Identifier: GPL-3.0-or-later
// The extension `cellforge._cellforge`: the C++ half of `import cellforge`. Conversions
// between Python and the library's types live here; python/cellforge/__init__.py adds the
// Python idiom (keyword overrides, the params mapping, series as a dict of arrays).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "python/src/simulation.hpp"
#include "python/src/state_arrays.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/scenario.hpp"

namespace py = pybind11;

namespace {

using cf::py::Simulation;

// The Python exceptions, one per type of sim/core/errors.hpp with the same hierarchy.
struct Exceptions {
    PyObject* error = nullptr;
    PyObject* input = nullptr;
    PyObject* parameter = nullptr;
    PyObject* scenario = nullptr;
    PyObject* inputFile = nullptr;
    PyObject* geometry = nullptr;
    PyObject* io = nullptr;
    PyObject* simulation = nullptr;
    PyObject* outOfDeviceMemory = nullptr;
    PyObject* cuda = nullptr;
};
Exceptions exceptions;

PyObject* addException(py::module_& m, const char* name, PyObject* base, const char* doc,
                       PyObject* extraBase = nullptr) {
    const std::string qualified = std::string("cellforge.") + name;
    py::object bases = extraBase
                           ? py::object(py::make_tuple(py::handle(base), py::handle(extraBase)))
                           : py::object(py::reinterpret_borrow<py::object>(base));
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::handle(type));
    return type;
}

void translateException(std::exception_ptr p) {
    // Most derived first: each catch also takes the types below it in errors.hpp.
    try {
        if (p) std::rethrow_exception(p);
    } catch (const cf::ParameterError& e) {
        PyErr_SetString(exceptions.parameter, e.what());
    } catch (const cf::ScenarioError& e) {
        PyErr_SetString(exceptions.scenario, e.what());
    } catch (const cf::InputFileError& e) {
        PyErr_SetString(exceptions.inputFile, e.what());
    } catch (const cf::GeometryError& e) {
        PyErr_SetString(exceptions.geometry, e.what());
    } catch (const cf::InputError& e) {
        PyErr_SetString(exceptions.input, e.what());
    } catch (const cf::IoError& e) {
        PyErr_SetString(exceptions.io, e.what());
    } catch (const cf::OutOfDeviceMemoryError& e) {
        PyErr_SetString(exceptions.outOfDeviceMemory, e.what());
    } catch (const cf::SimulationError& e) {
        PyErr_SetString(exceptions.simulation, e.what());
    } catch (const cf::CudaError& e) {
        PyErr_SetString(exceptions.cuda, e.what());
    } catch (const cf::Error& e) {
        PyErr_SetString(exceptions.error, e.what());
    }
}

py::object toPython(const cf::ParamValue& value) {
    return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

// A Python value for a parameter: numbers and booleans as they are (validateValue checks
// the type and the range, and takes an integer for a real), text parsed as the command
// line's --set does unless the parameter holds text.
cf::ParamValue fromPython(const cf::ParamSpec& spec, py::handle value) {
    if (PyBool_Check(value.ptr())) return value.cast<bool>();
    if (PyUnicode_Check(value.ptr())) {
        const std::string text = value.cast<std::string>();
        if (spec.type == cf::ParamType::Text || spec.type == cf::ParamType::Choice) return text;
        return cf::parseValue(spec, text);
    }
    if (PyIndex_Check(value.ptr())) return static_cast<std::int64_t>(value.cast<py::int_>());
    if (PyFloat_Check(value.ptr()) || PyObject_HasAttrString(value.ptr(), "__float__"))
        return value.cast<double>();
    throw cf::ParameterError(spec.key() + ": a value of Python type " +
                             std::string(py::str(py::type::of(value).attr("__name__"))) +
                             " cannot be given (" + spec.rangeText() + ")");
}

py::dict specDict(const cf::ParamSpec& s) {
    py::dict d;
    d["key"] = s.key();
    d["group"] = s.group;
    d["name"] = s.name;
    d["type"] = std::string(cf::toString(s.type));
    d["default"] = toPython(s.defaultValue);
    d["unit"] = s.unit;
    d["range"] = s.rangeText();
    d["description"] = s.description;
    d["live"] = s.mutability == cf::Mutability::Live;
    if (s.type == cf::ParamType::Real || s.type == cf::ParamType::Integer) {
        d["min"] = s.min;
        d["max"] = s.max;
    } else {
        d["min"] = py::none();
        d["max"] = py::none();
    }
    d["choices"] = s.choices;
    return d;
}

py::list specList(const cf::ParamTable& table) {
    py::list out;
    for (const cf::ParamSpec& s : table.specs())
        out.append(specDict(s));
    return out;
}

py::dtype dtypeOf(cf::ScalarType t) {
    switch (t) {
        case cf::ScalarType::F32:
            return py::dtype::of<float>();
        case cf::ScalarType::F64:
            return py::dtype::of<double>();
        case cf::ScalarType::I32:
            return py::dtype::of<std::int32_t>();
        case cf::ScalarType::U32:
            return py::dtype::of<std::uint32_t>();
        case cf::ScalarType::U64:
            return py::dtype::of<std::uint64_t>();
        case cf::ScalarType::U8:
            return py::dtype::of<std::uint8_t>();
    }
    throw cf::Error("unknown scalar type in a snapshot field");
}

// The scenario with the seed and the "group.name" overrides applied, file paths given here
// taken relative to the working directory (as `cellforge-sim run --set` does).
cf::Scenario withOverrides(cf::Scenario sc, std::optional<std::uint32_t> seed,
                           const py::dict& overrides) {
    if (seed) sc.seed = *seed;
    std::vector<std::string> keys;
    for (const auto& [key, value] : overrides) {
        const cf::ParamSpec& spec = sc.parameters.table().at(py::str(key).cast<std::string>());
        sc.parameters.set(spec.key(), fromPython(spec, value));
        keys.push_back(spec.key());
    }
    // Only the overrides: the scenario's own paths are already relative to its file.
    cf::ParamSet resolved = sc.parameters;
    cf::resolveFilePaths(resolved, std::filesystem::current_path());
    for (const std::string& key : keys)
        sc.parameters.set(key, resolved.get(key));
    return sc;
}

// Asked between batches while the GIL is released: Python's signal handlers run (Ctrl-C),
// and a pending exception stops the loop at the next step boundary.
cf::py::KeepGoing pythonSignals(bool& interrupted) {
    return [&interrupted] {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
            interrupted = true;
            return false;
        }
        return true;
    };
}

// Runs while the GIL is released; Python's signal handlers run in between (Ctrl-C).
bool stepReleased(Simulation& sim, std::uint64_t steps) {
    bool interrupted = false;
    bool completed;
    {
        py::gil_scoped_release release;
        completed = sim.step(steps, pythonSignals(interrupted), std::chrono::milliseconds(50));
    }
    if (interrupted) throw py::error_already_set();  // the KeyboardInterrupt, as raised
    return completed;
}

// Picture options from the Python wrapper's keywords (python/cellforge/__init__.py names
// each one, so an unknown key here is the wrapper's mistake).
cf::py::PictureOptions pictureOptions(const py::dict& given) {
    cf::py::PictureOptions o;
    for (const auto& [key, value] : given) {
        const std::string k = py::str(key);
        if (k == "width")
            o.width = value.cast<int>();
        else if (k == "height")
            o.height = value.cast<int>();
        else if (k == "color")
            o.color = value.cast<std::string>();
        else if (k == "legend")
            o.legend = value.cast<bool>();
        else if (k == "title")
            o.title = value.cast<std::string>();
        else if (k == "timestamp")
            o.timestamp = value.cast<bool>();
        else if (k == "volume")
            o.volume = value.cast<std::string>();
        else if (k == "volume_channel")
            o.volumeChannel = value.cast<std::string>();
        else if (k == "slices")
            o.slices = value.cast<std::string>();
        else if (k == "vectors")
            o.vectors = value.cast<std::string>();
        else if (k == "lic")
            o.lic = value.cast<std::string>();
        else if (k == "yaw_per_frame")
            o.yawPerFrame = value.cast<float>();
        else if (k == "transparent")
            o.transparent = value.cast<bool>();
        else if (k == "fps")
            o.fps = value.cast<int>();
        else
            throw cf::ParameterError(k + ": not a picture option");
    }
    return o;
}

py::array_t<std::uint8_t> imageArray(std::vector<std::uint8_t> rgba, int width, int height) {
    py::array_t<std::uint8_t> out({height, width, 4});
    std::memcpy(out.mutable_data(), rgba.data(), rgba.size());
    return out;
}

// Records while the GIL is released; Ctrl-C ends the movie at the next frame (finished).
py::dict recordReleased(Simulation& sim, const std::filesystem::path& path, std::uint64_t steps,
                        std::uint64_t every, const py::dict& options) {
    const cf::py::PictureOptions o = pictureOptions(options);
    bool interrupted = false;
    bool completed = true;
    cf::py::MovieSummary summary;
    {
        py::gil_scoped_release release;
        summary = sim.record(path, steps, every, o, pythonSignals(interrupted), completed);
    }
    if (interrupted) throw py::error_already_set();  // the KeyboardInterrupt, as raised
    py::dict d;
    d["path"] = summary.path;
    d["frames"] = summary.frames;
    d["width"] = summary.width;
    d["height"] = summary.height;
    d["codec"] = summary.codec;
    d["seconds"] = summary.seconds;
    d["frame_rate"] = summary.frameRate;
    return d;
}

template <typename F>
auto released(F&& f) {
    py::gil_scoped_release release;
    return f();
}

}  // namespace

PYBIND11_MODULE(_cellforge, m) {
    m.doc() = "Cellforge's simulation library (the C++ half of the `cellforge` package)";

    exceptions.error = addException(m, "Error", PyExc_Exception,
                                    "Base of every error the simulation library raises.");
    exceptions.input = addException(m, "InputError", exceptions.error,
                                    "The input is wrong (a scenario, parameter or file): fixing "
                                    "the input fixes it.");
    exceptions.parameter = addException(m, "ParameterError", exceptions.input,
                                        "A parameter name, type or value is wrong; the message "
                                        "names the parameter, the value and the allowed range.",
                                        PyExc_ValueError);
    exceptions.scenario =
        addException(m, "ScenarioError", exceptions.input, "A scenario is malformed or not found.");
    exceptions.inputFile = addException(m, "InputFileError", exceptions.input,
                                        "A file the input names cannot be used (missing, "
                                        "unreadable or refused: a scenario, mesh, checkpoint).");
    exceptions.geometry =
        addException(m, "GeometryError", exceptions.input, "A geometry cannot be used as asked.");
    exceptions.io = addException(m, "IoError", exceptions.error,
                                 "A file could not be written, or read back while working.");
    exceptions.simulation = addException(m, "SimulationError", exceptions.error,
                                         "The simulation failed while running (a non-finite "
                                         "value, an overflowing buffer).");
    exceptions.outOfDeviceMemory = addException(
        m, "OutOfDeviceMemoryError", exceptions.simulation,
        "The device has no memory for the next step; the state is that of the last step.");
    exceptions.cuda =
        addException(m, "CudaError", exceptions.error, "A CUDA call or kernel launch failed.");
    py::register_exception_translator(&translateException);

    // For the tests of the mapping above (tests/python/test_errors.py): throws the C++ error
    // named, as the library would, so that each type's way to Python is checked, also those
    // no CPU run reaches on purpose (a CUDA failure, a device out of memory).
    m.def("_throw", [](const std::string& type, const std::string& message) {
        if (type == "Error") throw cf::Error(message);
        if (type == "InputError") throw cf::InputError(message);
        if (type == "ParameterError") throw cf::ParameterError(message);
        if (type == "ScenarioError") throw cf::ScenarioError(message);
        if (type == "InputFileError") throw cf::InputFileError(message);
        if (type == "GeometryError") throw cf::GeometryError(message);
        if (type == "IoError") throw cf::IoError(message);
        if (type == "SimulationError") throw cf::SimulationError(message);
        if (type == "OutOfDeviceMemoryError") throw cf::OutOfDeviceMemoryError(message);
        if (type == "CudaError") throw cf::CudaError(2, message, "cudaMalloc(&p, n)", "here:1");
        throw std::invalid_argument("no error type " + type);
    });
    m.def(
        "models",
        [] {
            py::list out;
            for (const cf::ModelDescriptor& d : cf::py::registry().all()) {
                py::dict e;
                e["name"] = d.name;
                e["description"] = d.description;
                e["time_unit"] = d.timeUnit;
                std::vector<std::string> backends;
                for (cf::Backend b : d.backends)
                    if (d.offers(b)) backends.emplace_back(cf::toString(b));
                e["backends"] = backends;
                out.append(e);
            }
            return out;
        },
        "Every bundled model: name, description, time unit and backends, as dicts.");
    m.def(
        "model_parameters",
        [](const std::string& model) {
            return specList(cf::py::registry().at(model).parameters());
        },
        py::arg("model"), "The parameter declarations of `model`, as dicts.");
    m.def(
        "describe_parameters",
        [](const std::string& model) {
            return cf::describeParameters(cf::py::registry().at(model).parameters());
        },
        py::arg("model"), "The table of `cellforge-sim params MODEL`.");
    m.def(
        "backends",
        [] {
            std::vector<std::string> out;
            for (cf::Backend b : cf::availableBackends())
                out.emplace_back(cf::toString(b));
            return out;
        },
        "The backends this build and machine can run (\"cpu\", and \"cuda\" when a device "
        "answers).");
    m.def("rendering_built_in", &cf::py::renderingBuiltIn,
          "Whether this build can draw images (the renderer on EGL).");
    m.def("movies_built_in", &cf::py::moviesBuiltIn,
          "Whether this build can write movies (FFmpeg).");
    m.def("cuda_status", &cf::cudaStatus,
          "Why CUDA is unavailable, or the device's name when it is available.");
    m.def(
        "scenario_info",
        [](const std::filesystem::path& path) {
            const cf::Scenario sc = cf::loadScenario(path, cf::py::registry());
            py::dict d;
            d["model"] = sc.model->name;
            d["seed"] = sc.seed;
            d["steps"] = sc.steps;
            d["backend"] = sc.backend ? py::cast(std::string(cf::toString(*sc.backend)))
                                      : py::object(py::none());
            d["title"] = sc.about.title;
            d["demonstrates"] = sc.about.demonstrates;
            d["series_every"] = sc.output.seriesEvery;
            return d;
        },
        py::arg("path"), "What the scenario file at `path` holds: model, seed, steps, title.");

    cf::py_arrays::bindArrayFunctions(m);

    py::class_<Simulation>(m, "_Simulation")
        .def(
            py::init([](const std::filesystem::path& path, std::optional<std::string> backend,
                        std::optional<std::uint32_t> seed, const py::dict& params,
                        std::optional<std::uint64_t> seriesEvery, std::optional<std::string> text) {
                // `text`: a scenario's TOML made from a dict, its relative paths taken
                // from the working directory; else the file at `path`.
                const cf::Scenario sc =
                    withOverrides(text ? cf::parseScenario(*text, path.string(), cf::py::registry(),
                                                           std::filesystem::current_path())
                                       : cf::loadScenario(path, cf::py::registry()),
                                  seed, params);
                const std::uint64_t every = seriesEvery.value_or(sc.output.seriesEvery);
                return released([&] { return std::make_unique<Simulation>(sc, backend, every); });
            }),
            py::arg("path"), py::arg("backend"), py::arg("seed"), py::arg("params"),
            py::arg("series_every"), py::arg("text") = py::none())
        .def_static(
            "resume",
            [](const std::filesystem::path& path, std::optional<std::string> backend,
               std::uint64_t seriesEvery) {
                return released([&] { return Simulation::resume(path, backend, seriesEvery); });
            },
            py::arg("path"), py::arg("backend"), py::arg("series_every"))
        .def("step", &stepReleased, py::arg("steps"))
        .def_property_readonly(
            "step_count", [](Simulation& s) { return released([&] { return s.stepCount(); }); })
        .def_property_readonly("time",
                               [](Simulation& s) { return released([&] { return s.time(); }); })
        .def_property_readonly("model", [](const Simulation& s) { return s.descriptor().name; })
        .def_property_readonly("time_unit",
                               [](const Simulation& s) { return s.descriptor().timeUnit; })
        .def_property_readonly(
            "backend", [](const Simulation& s) { return std::string(cf::toString(s.backend())); })
        .def_property_readonly("seed", &Simulation::seed)
        .def_property_readonly("series_every", &Simulation::seriesEvery)
        .def("metrics",
             [](Simulation& s) {
                 const std::vector<cf::Metric> metrics = released([&] { return s.metrics(); });
                 py::list out;
                 for (const cf::Metric& x : metrics)
                     out.append(py::make_tuple(x.name, x.value, x.unit, x.description));
                 return out;
             })
        .def("series",
             [](const Simulation& s) {
                 const cf::py::SeriesColumns c = s.series();
                 py::dict out;
                 out["step"] = py::array_t<std::int64_t>(
                     static_cast<py::ssize_t>(c.steps.size()),
                     reinterpret_cast<const std::int64_t*>(c.steps.data()));
                 out["time"] =
                     py::array_t<double>(static_cast<py::ssize_t>(c.times.size()), c.times.data());
                 for (std::size_t i = 0; i < c.names.size(); ++i)
                     out[py::str(c.names[i])] = py::array_t<double>(
                         static_cast<py::ssize_t>(c.values[i].size()), c.values[i].data());
                 return out;
             })
        .def("snapshot_arrays",
             [](Simulation& s) {
                 const cf::Snapshot snap = released([&] { return s.snapshot(); });
                 py::dict arrays;
                 py::dict units;
                 for (const cf::Field& f : snap.fields) {
                     py::array a(dtypeOf(f.type),
                                 std::vector<py::ssize_t>{static_cast<py::ssize_t>(f.count),
                                                          static_cast<py::ssize_t>(f.components)});
                     if (!f.bytes.empty())
                         std::memcpy(a.mutable_data(), f.bytes.data(), f.bytes.size());
                     arrays[py::str(f.name)] = a;
                     units[py::str(f.name)] = f.unit;
                 }
                 return py::make_tuple(arrays, units, snap.step, snap.time);
             })
        .def("state_arrays",
             [](Simulation& s) {
                 const std::vector<cf::StateArray> arrays =
                     released([&] { return s.stateArrays(); });
                 return cf::py_arrays::describeArrays(arrays);
             })
        .def(
            "checkpoint",
            [](Simulation& s, const std::filesystem::path& path) {
                released([&] { s.checkpoint(path); });
            },
            py::arg("path"))
        .def(
            "render",
            [](Simulation& s, const py::dict& options) {
                const cf::py::PictureOptions o = pictureOptions(options);
                std::vector<std::uint8_t> rgba = released([&] { return s.render(o); });
                return imageArray(std::move(rgba), o.width, o.height);
            },
            py::arg("options"))
        .def("record", &recordReleased, py::arg("path"), py::arg("steps"), py::arg("every"),
             py::arg("options"))
        .def(
            "write_snapshot",
            [](Simulation& s, const std::filesystem::path& directory) {
                return released([&] { return s.writeSnapshot(directory); });
            },
            py::arg("directory"))
        .def("parameter_specs",
             [](const Simulation& s) { return specList(s.descriptor().parameters()); })
        .def("parameter_values",
             [](const Simulation& s) {
                 py::dict out;
                 const cf::ParamSet parameters = s.parameters();
                 for (const auto& [key, value] : parameters.values())
                     out[py::str(key)] = toPython(value);
                 return out;
             })
        .def(
            "set_parameter",
            [](Simulation& s, const std::string& key, py::handle value) {
                const cf::ParamSpec& spec = s.descriptor().parameters().at(key);
                const cf::ParamValue v = fromPython(spec, value);
                released([&] { s.setParameter(spec.key(), v); });
            },
            py::arg("key"), py::arg("value"))
        .def("take_notes", &Simulation::takeNotes);
}
