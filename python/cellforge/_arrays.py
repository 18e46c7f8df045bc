# SPDX-License-Identifier: GPL-3.0-or-later
"""The model's state arrays without copies: NumPy views of host memory (the CPU backend) and
DeviceArray for device memory (the CUDA backend), which CuPy, PyTorch and Numba read through
__cuda_array_interface__ (version 3) or DLPack, without a trip through the host.

Both are views of the memory the model steps: they hold the state at the moment they were
taken and are valid until the Simulation's next step(), run(), parameter edit, resume or
close. A DeviceArray refuses to be read after that (StaleArrayError); a NumPy view cannot
check itself, so take the arrays again after stepping (or copy with .copy()). Both are
read-only: writing would bypass the model's own bookkeeping."""
import numpy as _np

from . import _cellforge
from ._cellforge import Error


class StaleArrayError(Error):
    """A DeviceArray was read after its Simulation stepped (or was edited or closed): the
    memory may have been reused. Take Simulation.arrays again."""


class _HostView:
    """What NumPy sees through __array_interface__: the model's memory, read-only. It holds
    the Simulation, so the memory outlives the view as long as NumPy keeps this as base."""

    def __init__(self, info, owner):
        self._owner = owner
        self.__array_interface__ = {
            "shape": tuple(info["shape"]),
            "typestr": info["typestr"],
            "data": (info["address"], True),
            "strides": tuple(info["strides"]),
            "version": 3,
        }


class DeviceArray:
    """A CUDA array of the model's state, without a copy.

    name, unit, description: what it holds; shape, dtype, strides (bytes) as NumPy's;
    device: the CUDA device ordinal; field, component: the snapshot field whose values it
    holds (snapshot_arrays()[field][:, component]), or "" when its layout differs.
    cupy.asarray(a), torch.as_tensor(a, device="cuda") or torch.from_dlpack(a) read it in
    place; a.to_numpy() copies it to the host."""

    def __init__(self, info, owner, generation):
        self._info = info
        self._owner = owner  # the Python Simulation: the model lives while this does
        self._generation = generation
        self.name = info["name"]
        self.unit = info["unit"]
        self.description = info["description"]
        self.field = info["field"]
        self.component = info["component"]
        self.shape = tuple(info["shape"])
        self.strides = tuple(info["strides"])
        self.dtype = _np.dtype(info["typestr"])
        self.device = info["device"]

    def _check(self):
        if self._owner._generation != self._generation:
            raise StaleArrayError(
                f"{self.name}: this array was taken before the Simulation last changed "
                f"(a step, an edit, a resume or close); take Simulation.arrays again")

    @property
    def size(self):
        count = 1
        for extent in self.shape:
            count *= extent
        return count

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def address(self):
        """The device address of the first element (for tests and C extensions)."""
        self._check()
        return self._info["address"]

    @property
    def __cuda_array_interface__(self):
        self._check()
        packed = self.strides == _packed_strides(self.shape, self.dtype.itemsize)
        return {
            "shape": self.shape,
            "typestr": self._info["typestr"],
            "data": (self._info["address"], True),
            "strides": None if packed else self.strides,
            "version": 3,
            # The model's stream was synchronized when the array was taken: nothing to wait on.
            "stream": None,
        }

    def __dlpack__(self, stream=None):
        """A DLPack capsule over the array (the producer's work is complete: `stream` needs
        no wait)."""
        self._check()
        return _cellforge._dlpack_capsule(self._info["address"], self.device,
                                          self._info["typestr"], list(self.shape),
                                          list(self.strides), self)

    def __dlpack_device__(self):
        return (2, self.device)  # kDLCUDA

    def to_numpy(self):
        """A host copy as a NumPy array (writable, independent of the model)."""
        self._check()
        item = self.dtype.itemsize
        if self.size == 0:
            return _np.empty(self.shape, self.dtype)
        # The bytes from the first element to the last one, then the strides over them.
        extent = sum((n - 1) * s for n, s in zip(self.shape, self.strides)) + item
        raw = _cellforge._copy_to_host(self._info["address"], self.device, extent)
        raw = raw.view(self.dtype)  # strides are whole elements: the extent is too
        return _np.lib.stride_tricks.as_strided(raw, self.shape, self.strides).copy()

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        unit = "" if self.unit in ("", "1") else f" [{self.unit}]"
        return (f"<cellforge.DeviceArray {self.name}{unit} {self.dtype} {self.shape} on "
                f"cuda:{self.device}>")


def _packed_strides(shape, itemsize):
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.insert(0, step)
        step *= extent
    return tuple(strides)


class StateArrays(dict):
    """The model's state arrays by name (Simulation.arrays): NumPy arrays (host memory,
    read-only views) or DeviceArray (device memory). .units, .descriptions and .fields say
    what each holds; .to_numpy() copies them all to the host."""

    def __init__(self, arrays, units, descriptions, fields):
        super().__init__(arrays)
        self.units = units
        self.descriptions = descriptions
        self.fields = fields  # name -> (snapshot field, component) or None

    def to_numpy(self):
        """Host copies of every array: a dict of writable NumPy arrays."""
        return {name: (a.to_numpy() if isinstance(a, DeviceArray) else _np.array(a))
                for name, a in self.items()}


def state_arrays(sim, infos):
    """The StateArrays of a Simulation from the extension's descriptions."""
    arrays, units, descriptions, fields = {}, {}, {}, {}
    for info in infos:
        name = info["name"]
        if info["space"] == "cuda":
            arrays[name] = DeviceArray(info, sim, sim._generation)
        elif info["address"] == 0 or 0 in info["shape"]:
            # Nothing stored (no tracked particles, say): an empty read-only array.
            empty = _np.empty(tuple(info["shape"]), _np.dtype(info["typestr"]))
            empty.flags.writeable = False
            arrays[name] = empty
        else:
            arrays[name] = _np.asarray(_HostView(info, sim))
        units[name] = info["unit"]
        descriptions[name] = info["description"]
        fields[name] = (info["field"], info["component"]) if info["field"] else None
    return StateArrays(arrays, units, descriptions, fields)
