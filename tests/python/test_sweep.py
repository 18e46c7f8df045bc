# SPDX-License-Identifier: GPL-3.0-or-later
"""cellforge.sweep() and its Table, and Simulation.series_frame(): each row is the run a
Simulation built and stepped by hand gives, bit for bit (same seed, the CPU backend)."""
import math

import numpy as np
import pytest

import cellforge

# A small Brownian system: every run builds and steps in a few milliseconds.
SCENARIO = {"model": "brownian", "backend": "cpu",
            "parameters": {"system": {"count": 60, "box": 6.0}}}
GRID = {"system.count": [40, 80], "dynamics.diffusion": [0.5, 2.0]}
STEPS = 25
SEED = 11


@pytest.fixture(scope="module")
def table():
    return cellforge.sweep(SCENARIO, grid=GRID, steps=STEPS, backend="cpu", seed=SEED)


def test_grid_rows_in_order_with_the_swept_values(table):
    assert len(table) == 4
    assert table.columns[:4] == ["system.count", "dynamics.diffusion", "steps", "time"]
    assert list(table["system.count"]) == [40, 40, 80, 80]
    assert list(table["dynamics.diffusion"]) == [0.5, 2.0, 0.5, 2.0]
    assert list(table["steps"]) == [STEPS] * 4
    assert table["time"] == pytest.approx([STEPS * 1e-3] * 4)
    assert all(isinstance(table[name], np.ndarray) for name in table)
    rows = table.rows()
    assert len(rows) == 4 and rows[3]["system.count"] == 80
    assert rows[3]["dynamics.diffusion"] == 2.0


def test_each_row_is_the_same_run_made_by_hand(table):
    for row in table.rows():
        sim = cellforge.Simulation(SCENARIO, backend="cpu", seed=SEED, params={
            "system.count": row["system.count"],
            "dynamics.diffusion": row["dynamics.diffusion"]})
        sim.step(STEPS)
        assert sim.step_count == row["steps"] and sim.time == row["time"]
        assert set(sim.metrics) < set(row)
        for name, value in sim.metrics.items():
            # Bit for bit: the same seed on the deterministic CPU backend.
            assert np.float64(value).tobytes() == np.float64(row[name]).tobytes(), name
    # Two runs that differ only in the diffusion coefficient move differently.
    assert table["msd"][0] != table["msd"][1]


def test_units(table):
    declared = cellforge.model_parameters("brownian")
    sim = cellforge.Simulation(SCENARIO, backend="cpu")
    assert table.units["dynamics.diffusion"] == declared["dynamics.diffusion"].unit
    assert table.units["system.count"] == declared["system.count"].unit
    assert table.units["time"] == sim.time_unit == "s"
    for name, unit in sim.metric_units.items():
        assert table.units[name] == unit
    assert set(table.units) == set(table.columns)
    text = repr(table)
    assert "4 rows" in text and "dynamics.diffusion [um^2/s]" in text


def test_runs_chosen_metrics_until_and_progress():
    seen = []
    picked = cellforge.sweep(SCENARIO, runs=[{"dynamics.dt": 1e-3}, {"dynamics.dt": 2e-3}],
                             until=0.01, seed=SEED, backend="cpu", metrics=["msd"],
                             progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]
    assert picked.columns == ["dynamics.dt", "steps", "time", "msd"]
    assert list(picked["steps"]) == [10, 5]
    assert picked["time"] == pytest.approx([0.01, 0.01])


def test_unknown_metric_lists_the_available_ones():
    with pytest.raises(cellforge.InputError, match=r"'nope'.*msd"):
        cellforge.sweep(SCENARIO, runs=[{}], steps=1, backend="cpu", metrics=["nope"])


def test_a_refused_combination_raises_naming_it():
    runs = [{"dynamics.dt": 1e-3}, {"dynamics.dt": 5.0}]
    with pytest.raises(cellforge.ParameterError, match=r"run 2 of 2.*dynamics\.dt=5\.0") as e:
        cellforge.sweep(SCENARIO, runs=runs, steps=3, backend="cpu")
    assert "out of range" in str(e.value)


def test_a_refused_combination_is_recorded_on_request():
    runs = [{"dynamics.dt": 1e-3}, {"dynamics.dt": 5.0}]
    recorded = cellforge.sweep(SCENARIO, runs=runs, steps=3, backend="cpu",
                               on_error="record")
    assert len(recorded) == 2 and recorded.columns[-1] == "error"
    assert recorded["error"][0] == "" and "dynamics.dt" in recorded["error"][1]
    assert all(math.isfinite(recorded[m][0]) for m in ("msd", "overlapping_pairs"))
    assert all(math.isnan(recorded[m][1]) for m in ("msd", "overlapping_pairs"))
    assert list(recorded["steps"]) == [3, 0]


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="grid"):
        cellforge.sweep(SCENARIO, steps=1)
    with pytest.raises(ValueError, match="grid"):
        cellforge.sweep(SCENARIO, grid={"dynamics.dt": [1e-3]}, runs=[{}], steps=1)
    with pytest.raises(ValueError, match="until"):
        cellforge.sweep(SCENARIO, runs=[{}], steps=1, until=1.0)
    with pytest.raises(TypeError, match="dynamics.dt"):
        cellforge.sweep(SCENARIO, grid={"dynamics.dt": 1e-3}, steps=1)
    with pytest.raises(ValueError, match="on_error"):
        cellforge.sweep(SCENARIO, runs=[{}], steps=1, on_error="ignore")


def test_to_pandas_and_series_frame(table):
    pd = pytest.importorskip("pandas")
    frame = table.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == table.columns and len(frame) == 4
    assert frame.attrs["units"] == table.units
    assert np.array_equal(frame["msd"].to_numpy(), table["msd"])
    sim = cellforge.Simulation(SCENARIO, backend="cpu", seed=SEED, series_every=5)
    sim.step(10)
    series = sim.series_frame()
    assert list(series["step"]) == [0, 5, 10]
    assert list(series.columns) == list(sim.series)
    assert series.attrs["units"]["time"] == "s"
    assert series.attrs["units"]["msd"] == sim.metric_units["msd"]


def test_numpy_values_are_taken():
    grid = {"system.count": np.array([20, 30]), "dynamics.diffusion": np.linspace(0.5, 1, 2)}
    swept = cellforge.sweep(SCENARIO, grid=grid, steps=2, backend="cpu", seed=SEED)
    assert list(swept["system.count"]) == [20, 20, 30, 30]
    assert swept["system.count"].dtype == np.int64
