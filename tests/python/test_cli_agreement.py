# SPDX-License-Identifier: GPL-3.0-or-later
"""The module against `cellforge-sim run` (its path in $CELLFORGE_SIM, set by ctest): the
same state after the same steps, the same series, the same message for a refused value."""
import csv
import os
import subprocess

import numpy as np
import pytest

import cellforge
from conftest import read_checkpoint

SIM = os.environ.get("CELLFORGE_SIM")
pytestmark = pytest.mark.skipif(not SIM or not os.path.exists(SIM),
                                reason="$CELLFORGE_SIM does not name cellforge-sim")


def cli(*args):
    return subprocess.run([SIM, *args], capture_output=True, text=True, timeout=120)


def test_state_and_series_equal_the_programs(tmp_path):
    out = tmp_path / "run"
    done = cli("run", "default", "--set", "system.count=400", "--steps", "40", "--backend",
               "cpu", "--out", str(out))
    assert done.returncode == 0, done.stderr
    sim = cellforge.Simulation("default", backend="cpu", system__count=400)
    sim.step(40)
    _, written = read_checkpoint(out / "checkpoint.cfchk")
    arrays = sim.snapshot_arrays()
    assert set(arrays) == set(written)
    for name, array in arrays.items():
        assert array.tobytes() == written[name].tobytes(), name
    with open(out / "series.csv", newline="") as f:
        rows = list(csv.reader(f))
    names = [column.split(" [")[0] for column in rows[0]]
    table = np.array(rows[1:], dtype=float)
    series = sim.series
    assert list(series["step"]) == list(table[:, 0].astype(int))
    for i, name in enumerate(names[2:], start=2):
        # The CSV holds each value in the shortest text that reads back the same.
        assert np.array_equal(series[name], table[:, i]), name


def test_refusal_says_what_the_program_says(tmp_path):
    done = cli("run", "default", "--set", "dynamics.dt=5", "--steps", "1", "--backend", "cpu",
               "--out", str(tmp_path / "never"))
    assert done.returncode != 0
    sim = cellforge.Simulation("default", backend="cpu", system__count=16)
    with pytest.raises(cellforge.ParameterError) as refused:
        sim.params["dynamics.dt"] = 5
    assert f"error: {refused.value}\n" in done.stderr
