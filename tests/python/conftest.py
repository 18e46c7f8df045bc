# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared pieces of the tests of `import cellforge` (run by ctest as python_module, with
PYTHONPATH at build/<preset>/python)."""
import json
import struct

import numpy as np
import pytest

import cellforge

# One small case per bundled model: a scenario and overrides that build and step in well
# under a second on one core (test_every_model_is_covered keeps the list complete).
MODEL_CASES = {
    "brownian": ("default", {"system__count": 400}),
    "spheres": ("spheres-spheroid", {}),
    "epidermis": ("epidermis-teaching", {}),
    "lattice": ("lattice-bimolecular", {}),
    "cardiac": ("cardiac-aliev-panfilov", {}),
    "gliding": ("gliding-single-ring", {}),
}

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32,
          "u64": np.uint64, "u8": np.uint8}


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda: needs the CUDA backend (python_module_cuda)")


def small(model, **kwargs):
    scenario, overrides = MODEL_CASES[model]
    return cellforge.Simulation(scenario, backend="cpu", seed=1, **overrides, **kwargs)


def read_checkpoint(path):
    """The header and field arrays of a .cfchk file, read as sim/io/checkpoint.hpp lays it
    out: magic, u64 header length, JSON header, then each field's raw bytes."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"CFCHK001"
    (length,) = struct.unpack("<Q", data[8:16])
    header = json.loads(data[16:16 + length])
    base = 16 + length
    arrays = {}
    for field in header["fields"]:
        raw = data[base + field["offset"]:base + field["offset"] + field["size"]]
        arrays[field["name"]] = np.frombuffer(raw, dtype=DTYPES[field["type"]]).reshape(
            field["count"], field["components"])
    return header, arrays


@pytest.fixture
def brownian():
    return small("brownian", series_every=5)
