# SPDX-License-Identifier: GPL-3.0-or-later
"""Simulation.arrays: the model's state without copies. Host arrays are NumPy views of the
model's own memory (the address the library reports, values equal to the snapshot's copy);
device arrays are read in place through the CUDA array interface and DLPack (CuPy, where
installed), and copied with to_numpy(). The CUDA cases skip where no device answers."""
import numpy as np
import pytest

import cellforge
from conftest import MODEL_CASES

# The CUDA cases carry the `cuda` mark: ctest runs them as python_module_cuda (label gpu).
BACKENDS = ["cpu", pytest.param("cuda", marks=pytest.mark.cuda)]


def make(model, backend):
    if backend not in cellforge.backends():
        pytest.skip(f"no {backend} backend here: {cellforge.cuda_status()}")
    scenario, overrides = MODEL_CASES[model]
    return cellforge.Simulation(scenario, backend=backend, seed=1, **overrides)


def snapshot_values(snapshot, field, component):
    values = snapshot[field]
    return values.reshape(-1) if component < 0 else values[:, component]


def host_values(array):
    return array.to_numpy() if isinstance(array, cellforge.DeviceArray) else np.asarray(array)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("model", sorted(MODEL_CASES))
def test_arrays_hold_the_snapshot_values(model, backend):
    sim = make(model, backend)
    sim.step(3)
    arrays = sim.arrays
    snapshot = sim.snapshot_arrays()
    assert arrays, f"{model} on {backend} offers no state arrays"
    compared = 0
    for name, array in arrays.items():
        assert arrays.units[name] and arrays.descriptions[name]
        held = arrays.fields[name]
        if held is None:
            continue
        field, component = held
        expected = snapshot_values(snapshot, field, component)
        got = host_values(array).reshape(-1)
        # Exact: the snapshot is a copy of these very values (float widened to double).
        np.testing.assert_array_equal(got.astype(np.float64), expected.astype(np.float64),
                                      err_msg=f"{model}/{backend}: {name} vs {field}")
        compared += 1
    assert compared > 0, f"{model}: no array matches a snapshot field"


@pytest.mark.parametrize("model", sorted(MODEL_CASES))
def test_host_arrays_are_the_model_memory(model):
    sim = make(model, "cpu")
    sim.step(2)
    arrays = sim.arrays
    reported = {info["name"]: info["address"] for info in sim._sim.state_arrays()}
    for name, array in arrays.items():
        assert isinstance(array, np.ndarray)
        assert not array.flags.writeable, f"{name} must be read-only"
        # No copy: the array's first element is where the library says the model keeps it.
        if array.size and reported[name]:
            assert array.__array_interface__["data"][0] == reported[name], name


def test_host_view_aliases_the_state_as_it_steps():
    # Brownian keeps fixed-size position arrays, so a view taken before a step shows the
    # values after it: it is the model's memory, not a copy. (The documented contract is
    # stricter, valid until the next step, since other models may reallocate.)
    sim = make("brownian", "cpu")
    x = sim.arrays["position.x"]
    before = x.copy()
    sim.step(2)
    after = sim.snapshot_arrays()["position"][:, 0]
    assert not np.array_equal(before, after)
    np.testing.assert_array_equal(x, after)


def test_epidermis_slots_match_the_packed_snapshot():
    # Element positions are kept per cell in E slots; the snapshot packs the used ones.
    sim = make("epidermis", "cpu")
    sim.step(2)
    arrays = sim.arrays
    counts = arrays["cell_elements"]
    packed = sim.snapshot_arrays()["position"]
    slots = np.stack([arrays["element.x"], arrays["element.y"], arrays["element.z"]], axis=-1)
    used = np.concatenate([slots[c, :counts[c]] for c in range(len(counts))])
    np.testing.assert_array_equal(used, packed)


def test_to_numpy_copies_everything():
    sim = make("spheres", "cpu")
    sim.step(1)
    copies = sim.to_numpy()
    assert set(copies) == set(sim.arrays)
    for name, copy in copies.items():
        assert copy.flags.writeable and copy.flags.owndata, name


@pytest.mark.cuda
@pytest.mark.parametrize("model", sorted(MODEL_CASES))
def test_device_arrays_without_a_host_trip(model):
    sim = make(model, "cuda")
    sim.step(3)
    arrays = sim.arrays
    snapshot = sim.snapshot_arrays()
    cupy = pytest.importorskip("cupy", reason="CuPy reads device arrays in place")
    for name, array in arrays.items():
        assert isinstance(array, cellforge.DeviceArray), name
        interface = array.__cuda_array_interface__
        assert interface["version"] == 3 and interface["data"][0] == array.address
        in_place = cupy.asarray(array)
        assert in_place.data.ptr == array.address, f"{name}: CuPy copied it"
        assert in_place.shape == array.shape and in_place.dtype == array.dtype
        from_dlpack = cupy.from_dlpack(array)
        assert from_dlpack.data.ptr == array.address, f"{name}: DLPack copied it"
        np.testing.assert_array_equal(cupy.asnumpy(in_place), array.to_numpy())
        held = arrays.fields[name]
        if held is not None:
            np.testing.assert_array_equal(
                cupy.asnumpy(in_place).reshape(-1).astype(np.float64),
                snapshot_values(snapshot, *held).astype(np.float64), err_msg=name)


@pytest.mark.cuda
def test_device_arrays_refuse_to_be_read_after_a_step():
    sim = make("brownian", "cuda")
    array = sim.arrays["position.x"]
    assert array.to_numpy().shape == (400,)
    sim.step(1)
    with pytest.raises(cellforge.StaleArrayError, match="position.x"):
        array.to_numpy()
    with pytest.raises(cellforge.StaleArrayError):
        array.__cuda_array_interface__
