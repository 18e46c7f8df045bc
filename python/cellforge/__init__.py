# SPDX-License-Identifier: GPL-3.0-or-later
"""Cellforge's models from Python: build a simulation from a scenario, step it, edit its live
parameters, read its metrics, time series and state as NumPy arrays, checkpoint and resume.

    import cellforge
    sim = cellforge.Simulation("epidermis-teaching", backend="cpu", seed=1)
    sim.step(100)
    sim.metrics            # {"cells": 42.0, ...}; units in sim.metric_units
    sim.params["division.rate"] = 2e-5     # a live edit, checked like the window's

Errors are the library's (docs/USER-GUIDE.md, "Python"): Error and below it InputError
(ParameterError, ScenarioError, InputFileError, GeometryError), IoError and SimulationError.
The library itself prints nothing.
"""
import collections as _collections
import collections.abc as _abc
import json as _json
import math as _math
import os as _os

from ._cellforge import (  # noqa: F401  (re-exported)
    CudaError,
    Error,
    GeometryError,
    InputError,
    InputFileError,
    IoError,
    OutOfDeviceMemoryError,
    ParameterError,
    ScenarioError,
    SimulationError,
    cuda_status,
)
from . import _cellforge
from ._arrays import DeviceArray, StateArrays, StaleArrayError
from ._arrays import state_arrays as _state_arrays
from ._sweep import sweep  # noqa: F401  (re-exported)
from ._tables import Table, series_frame as _series_frame  # noqa: F401

__all__ = [
    "Simulation", "Parameter", "models", "scenarios", "backends", "cuda_status",
    "model_parameters", "describe_parameters", "Error", "InputError", "ParameterError", "ScenarioError",
    "InputFileError", "GeometryError", "IoError", "SimulationError",
    "OutOfDeviceMemoryError", "CudaError", "data_directory", "DeviceArray", "StateArrays",
    "StaleArrayError", "rendering_available", "sweep", "Table",
]


def data_directory():
    """The directory of the bundled data (scenarios/, meshes/, models/).

    $CELLFORGE_DATA_DIR when set; else found from where this package lies, as the programs
    find it from theirs: <prefix>/share/cellforge for an installed package, the repository's
    assets/ for one imported from build/<preset>/python. None when there is none."""
    given = _os.environ.get("CELLFORGE_DATA_DIR")
    if given:
        return given
    here = _os.path.dirname(_os.path.abspath(__file__))
    for _ in range(7):
        for candidate in (_os.path.join(here, "share", "cellforge"),
                          _os.path.join(here, "assets")):
            if _os.path.isfile(_os.path.join(candidate, "scenarios", "welcome.toml")):
                return candidate
        parent = _os.path.dirname(here)
        if parent == here:
            break
        here = parent
    return None


def models():
    """The bundled models: a dict of name -> one-line description."""
    return {m["name"]: m["description"] for m in _cellforge.models()}


def backends():
    """The backends this build and machine can run: ["cpu"] or ["cpu", "cuda"].
    cuda_status() says why CUDA is missing, or which device answers."""
    return _cellforge.backends()


def scenarios():
    """The bundled scenarios: a dict of name -> path of the .toml file, sorted by name.
    Any name is what Simulation() takes."""
    data = data_directory()
    if data is None:
        return {}
    folder = _os.path.join(data, "scenarios")
    return {name[:-5]: _os.path.join(folder, name)
            for name in sorted(_os.listdir(folder)) if name.endswith(".toml")}


def _scenario_path(scenario):
    """A scenario as Simulation() takes it: a path to a .toml file, or a bundled name."""
    text = _os.fspath(scenario)
    if _os.path.exists(text) or "/" in text:
        return text
    name = text[:-5] if text.endswith(".toml") else text
    known = scenarios()
    if name in known:
        return known[name]
    where = data_directory()
    raise ScenarioError(
        f"{text}: no such file, nor a bundled scenario of that name"
        + (f" in {_os.path.join(where, 'scenarios')}" if where else "")
        + " (cellforge.scenarios() lists them)")


_ParameterFields = _collections.namedtuple(
    "Parameter", ["key", "value", "unit", "range", "description", "live", "type", "default",
                  "min", "max", "choices"])


def _toml_value(value, where):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, int) or _math.isfinite(value) else (
            "nan" if value != value else ("inf" if value > 0 else "-inf"))
    if isinstance(value, str):
        return _json.dumps(value)  # a TOML basic string: JSON's escapes are TOML's
    raise ParameterError(f"{where}: a scenario value is a number, a boolean or a string, "
                         f"not {type(value).__name__}")


def _toml(scenario, prefix=""):
    """The TOML text of a scenario given as a dict: top-level keys, then one table per
    nested dict ({"parameters": {"system": {"count": 100}}} -> [parameters.system])."""
    lines, tables = [], []
    for key, value in scenario.items():
        if isinstance(value, _abc.Mapping):
            tables.append((key, value))
        else:
            lines.append(f"{_json.dumps(str(key))} = {_toml_value(value, prefix + str(key))}")
    text = "\n".join(lines) + "\n"
    for key, value in tables:
        name = f"{prefix}{_json.dumps(str(key))}"
        text += f"[{name}]\n" + _toml(value, name + ".")
    return text


class Parameter(_ParameterFields):
    """One declared parameter: its value and what the declaration says about it (unit,
    range, description, whether it may change while the model runs: live), as
    `cellforge-sim params MODEL` lists them."""
    __slots__ = ()

    @classmethod
    def _of(cls, spec, value):
        return cls(spec["key"], value, spec["unit"], spec["range"], spec["description"],
                   spec["live"], spec["type"], spec["default"], spec["min"], spec["max"],
                   tuple(spec["choices"]))

    def __repr__(self):
        unit = "" if self.unit in ("", "1") else " " + self.unit
        mode = "live" if self.live else "structural"
        return f"<{self.key} = {self.value!r}{unit}: {self.range}, {mode}; {self.description}>"


def model_parameters(model):
    """The parameters a model declares: a dict of "group.name" -> Parameter (value is the
    default). describe_parameters(model) gives the same as a table of text."""
    return {s["key"]: Parameter._of(s, s["default"]) for s in _cellforge.model_parameters(model)}


def describe_parameters(model):
    """Every parameter of `model` as the table `cellforge-sim params MODEL` prints."""
    return _cellforge.describe_parameters(model)


class Params(_abc.MutableMapping):
    """The parameters of a running Simulation, keyed "group.name": params[key] is the value,
    params.info(key) (or items_info()) the whole declaration. Assigning is a live edit, all
    or nothing as in the window: a value out of range, a combination the model refuses or a
    structural parameter raises ParameterError and leaves everything as it was. Keys cannot
    be deleted."""

    def __init__(self, owner):
        self._owner = owner  # the Simulation: an edit makes its state arrays stale
        self._sim = owner._sim
        self._specs = {s["key"]: s for s in self._sim.parameter_specs()}

    def __getitem__(self, key):
        if key not in self._specs:
            raise KeyError(key)
        return self._sim.parameter_values()[key]

    def __setitem__(self, key, value):
        self._owner._changed()
        self._sim.set_parameter(key, value)

    def __delitem__(self, key):
        raise TypeError("parameters cannot be deleted (every declared one has a value)")

    def __iter__(self):
        return iter(self._specs)

    def __len__(self):
        return len(self._specs)

    def __contains__(self, key):
        return key in self._specs

    def info(self, key):
        """The Parameter record of `key` with its current value."""
        if key not in self._specs:
            raise KeyError(key)
        return Parameter._of(self._specs[key], self[key])

    def describe(self):
        """The declarations as the table `cellforge-sim params MODEL` prints."""
        return _cellforge.describe_parameters(self._sim.model)

    def items_info(self):
        """Every Parameter record, in declaration order."""
        values = self._sim.parameter_values()
        return [Parameter._of(s, values[k]) for k, s in self._specs.items()]

    def __repr__(self):
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in self.items()) + "}"


def _picture_options(**given):
    """The keywords of render() and record() as the extension takes them, checked."""
    for key in ("width", "height", "fps"):
        if key in given:
            value = given[key]
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ParameterError(f"{key}: {value!r} is not a positive whole number "
                                     "(size is (width, height) in pixels)")
    for key in ("color", "title", "volume", "volume_channel", "slices", "vectors", "lic"):
        if key in given and not isinstance(given[key], str):
            raise ParameterError(f"{key}: a text is expected, not {type(given[key]).__name__}")
    if "yaw_per_frame" in given:
        given["yaw_per_frame"] = float(given["yaw_per_frame"])
    return given


def rendering_available():
    """Whether Simulation.render() can draw in this build (the renderer is built in), and
    record() write movies: a (images, movies) pair of booleans."""
    return _cellforge.rendering_built_in(), _cellforge.movies_built_in()


class _Closed:
    """What a closed Simulation holds instead of its model."""

    def __getattr__(self, name):
        raise Error("this Simulation was closed")


class Simulation:
    """One model run, built from a scenario: a bundled name, a .toml path, or a dict of
    what a scenario file holds ({"model": "brownian", "seed": 3, "parameters": {"system":
    {"count": 500}}}; relative file paths in it are taken from the working directory).

    Simulation(scenario, backend=None, seed=None, params=None, series_every=None,
               **overrides)

    backend: "cpu", "cuda" or None (the scenario's choice, else the best available).
    seed: replaces the scenario's seed. Overrides set parameters before the model is
    built, structural ones included: as keywords group__name=value (two underscores for
    the dot) or as params={"group.name": value}. series_every: steps between the rows of
    `series` (default: the scenario's output.series_every, 10 unless it says otherwise;
    0 records none).

    Construction, step() and checkpoint() release the GIL; step() answers Ctrl-C at the
    next step boundary (about every 50 ms) with KeyboardInterrupt, the state being that of
    the last completed step."""

    def __init__(self, scenario, backend=None, seed=None, params=None, series_every=None,
                 **overrides):
        given = dict(params or {})
        for name, value in overrides.items():
            group, sep, rest = name.partition("__")
            if not sep:
                raise ParameterError(
                    f"{name}: an override is group__name=value (two underscores for the dot "
                    "of group.name), or params={'group.name': value}")
            given[f"{group}.{rest}"] = value
        if isinstance(scenario, _abc.Mapping):
            self._sim = _cellforge._Simulation("<dict>", backend, seed, given, series_every,
                                               _toml(scenario))
        else:
            self._sim = _cellforge._Simulation(_scenario_path(scenario), backend, seed, given,
                                               series_every)
        self._generation = 0
        self._params = Params(self)

    @classmethod
    def from_file(cls, path, **kwargs):
        """A Simulation of the scenario file at `path` (the same keywords as the class)."""
        if not _os.path.exists(_os.fspath(path)):
            raise InputFileError(f"{_os.fspath(path)}: no such file")
        return cls(_os.fspath(path), **kwargs)

    @classmethod
    def resume(cls, path, backend=None, series_every=10):
        """Continues the checkpoint at `path` (written by checkpoint() or by
        `cellforge-sim run`) bit-identically, on its backend unless `backend` says
        otherwise. The series starts again at the checkpoint's step."""
        self = cls.__new__(cls)
        self._sim = _cellforge._Simulation.resume(_os.fspath(path), backend, series_every)
        self._generation = 0
        self._params = Params(self)
        return self

    def step(self, n=1):
        """Advances n steps (the GIL released). Returns self."""
        if n < 0:
            raise ValueError("step(n) needs n >= 0")
        if n > 0:
            self._changed()
        self._sim.step(int(n))
        return self

    def run(self, until):
        """Steps until the simulated time reaches `until` (in time_unit; at least that, by
        less than one step). Returns self."""
        while self.time < until:
            count = self.step_count
            # Whole batches of the mean step so far, one step to learn it; the loop ends
            # with single steps when rounding leaves it short.
            dt = self.time / count if count and self.time > 0 else 0.0
            self.step(max(1, int((until - self.time) / dt)) if dt > 0 else 1)
        return self

    def close(self):
        """Stops the simulation's thread and frees its memory now, rather than when the
        object is collected; the Simulation cannot be used afterwards. A `with` block
        closes it at its end."""
        self._changed()
        self._sim = _Closed()
        self._params = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def checkpoint(self, path):
        """Writes the whole state to `path` (the project's .cfchk format); resume() continues
        it bit-identically."""
        self._sim.checkpoint(_os.fspath(path))

    @property
    def params(self):
        """The parameters as a mapping "group.name" -> value (see Params)."""
        if self._params is None:
            raise Error("this Simulation was closed")
        return self._params

    @property
    def metrics(self):
        """The model's scalar observables now: a dict of name -> float (units in
        metric_units)."""
        return {name: value for name, value, _, _ in self._sim.metrics()}

    @property
    def metric_units(self):
        """The unit of each metric ("1" when dimensionless)."""
        return {name: unit for name, _, unit, _ in self._sim.metrics()}

    @property
    def metric_descriptions(self):
        """One line per metric saying what it counts."""
        return {name: text for name, _, _, text in self._sim.metrics()}

    @property
    def series(self):
        """The metrics recorded every series_every steps, and at the step the Simulation
        started from: a dict of NumPy arrays, "step" (int64), "time" (in time_unit) and one
        float64 array per metric, all of one length. A new copy on every read."""
        return self._sim.series()

    def _changed(self):
        """The state is about to change: arrays taken before are stale."""
        self._generation += 1

    @property
    def arrays(self):
        """The model's state arrays without copies, by name: read-only NumPy views of the
        CPU backend's memory, DeviceArray (CUDA array interface, DLPack, .to_numpy()) for the
        CUDA backend's. Valid until the next step(), run(), parameter edit or close(): take
        them again afterwards (a DeviceArray raises StaleArrayError; a NumPy view cannot
        tell, so copy what you keep). .units, .descriptions and .fields say what each holds
        (fields: the snapshot_arrays() field and component with the same values, or None)."""
        return _state_arrays(self, self._sim.state_arrays())

    def to_numpy(self):
        """Host copies of every state array (Simulation.arrays): a dict of NumPy arrays."""
        return self.arrays.to_numpy()

    def snapshot(self, directory):
        """Writes the state as an HDF5 snapshot into directory/snapshots/ and (re)writes
        directory/MODEL.xmf, which ParaView opens as a time series, as `cellforge-sim run`
        does: every snapshot this Simulation writes into one directory joins the series.
        Returns the path of the .h5 file."""
        return self._sim.write_snapshot(_os.fspath(directory))

    def render(self, size=(1280, 720), color="", *, legend=True, title="", timestamp=True,
               volume="", volume_channel="", slices="mid,mid,mid", vectors="", lic="",
               transparent=False):
        """An image of the model now, drawn as `cellforge --headless` draws it (the same
        renderer, on EGL without a display; the CUDA backend's arrays go to GL without a host
        copy): a NumPy array (height, width, 3) of uint8 RGB, rows top to bottom, or RGBA
        with transparent=True (a clear background).

        size: (width, height) in pixels. color: the channel colouring the particles
        (default: the model's first). legend, title, timestamp: the overlays. volume,
        volume_channel, slices ("X,Y,Z": a coordinate, mid or off), vectors
        ("NAME[:STRIDE]"), lic: as the options of `cellforge --headless`. A name the model
        does not offer raises ParameterError listing the ones it does."""
        width, height = size
        rgba = self._sim.render(_picture_options(
            width=width, height=height, color=color, legend=legend, title=title,
            timestamp=timestamp, volume=volume, volume_channel=volume_channel, slices=slices,
            vectors=vectors, lic=lic, transparent=transparent))
        return rgba if transparent else rgba[:, :, :3].copy()

    def record(self, path, steps, every=10, *, size=(1280, 720), fps=30, color="",
               legend=True, title="", timestamp=True, volume="", volume_channel="",
               slices="mid,mid,mid", vectors="", lic="", yaw_per_frame=0.0):
        """Steps `steps` more steps and writes an MP4 movie (H.264) to `path`: a frame now
        and one every `every` steps, drawn as render() draws (same keywords), `fps` frames
        per second of movie. Ctrl-C ends it at the next frame with the movie finished and
        playable (then KeyboardInterrupt). Returns what the written file holds, read back:
        a dict of path, frames, width, height, codec, seconds and frame_rate."""
        if steps < 0:
            raise ValueError("record(steps=...) needs steps >= 0")
        width, height = size
        self._changed()
        return self._sim.record(_os.fspath(path), int(steps), int(every), _picture_options(
            width=width, height=height, fps=fps, color=color, legend=legend, title=title,
            timestamp=timestamp, volume=volume, volume_channel=volume_channel, slices=slices,
            vectors=vectors, lic=lic, yaw_per_frame=yaw_per_frame))

    def snapshot_arrays(self):
        """The model's state fields as NumPy arrays (copies), each shaped (count,
        components): positions, per-entity values, grids (flattened), internal state."""
        return self._sim.snapshot_arrays()[0]

    def snapshot_units(self):
        """The unit of each field of snapshot_arrays()."""
        return self._sim.snapshot_arrays()[1]

    def series_frame(self):
        """series as a pandas DataFrame, the units in its attrs["units"] (needs pandas)."""
        return _series_frame(self.series, {"step": "1", "time": self.time_unit,
                                           **self.metric_units})

    def take_notes(self):
        """Messages the model raised since the last call (a capacity grew, ...)."""
        return self._sim.take_notes()

    step_count = property(lambda self: self._sim.step_count,
                          doc="Steps completed since the initial state.")
    time = property(lambda self: self._sim.time, doc="Simulated time, in time_unit.")
    model = property(lambda self: self._sim.model, doc="The model's name.")
    time_unit = property(lambda self: self._sim.time_unit, doc="The unit of time.")
    backend = property(lambda self: self._sim.backend, doc='"cpu" or "cuda".')
    seed = property(lambda self: self._sim.seed, doc="The random seed.")
    series_every = property(lambda self: self._sim.series_every,
                            doc="Steps between the rows of series (0: none).")

    def __repr__(self):
        if isinstance(self._sim, _Closed):
            return "<cellforge.Simulation (closed)>"
        return (f"<cellforge.Simulation {self.model} on {self.backend}, step "
                f"{self.step_count}, t = {self.time:g} {self.time_unit}>")
