# SPDX-License-Identifier: GPL-3.0-or-later
"""The Simulation class: every model built and stepped, live edits, metrics and series,
snapshot arrays, checkpoints."""
import math

import numpy as np
import pytest

import cellforge
from conftest import MODEL_CASES, read_checkpoint, small


def test_listings():
    assert set(cellforge.models()) >= {"brownian", "epidermis"}
    assert "epidermis-teaching" in cellforge.scenarios()
    assert "cpu" in cellforge.backends()
    assert isinstance(cellforge.cuda_status(), str)
    declared = cellforge.model_parameters("brownian")
    dt = declared["dynamics.dt"]
    assert dt.value == dt.default and dt.unit == "s" and dt.live and dt.min == 1e-7
    assert not declared["system.count"].live
    assert "dynamics.dt" in cellforge.describe_parameters("brownian")
    with pytest.raises(cellforge.ScenarioError, match="brownian"):
        cellforge.model_parameters("no-such-model")


def test_every_model_is_covered():
    assert set(MODEL_CASES) == set(cellforge.models())


@pytest.mark.parametrize("model", sorted(MODEL_CASES))
def test_every_model_builds_and_steps(model):
    sim = small(model)
    assert sim.model == model and sim.backend == "cpu" and sim.step_count == 0
    sim.step(3)
    assert sim.step_count == 3
    assert sim.time > 0
    metrics = sim.metrics
    # Some metrics are NaN until they mean something (a cardiac APD before the first beat).
    assert metrics and all(isinstance(v, float) for v in metrics.values())
    assert any(math.isfinite(v) for v in metrics.values())
    assert set(sim.metric_units) == set(metrics)
    assert len(sim.params) > 0
    for record in sim.params.items_info():
        assert record.description and record.range
        assert record.value == sim.params[record.key]
    arrays = sim.snapshot_arrays()
    assert arrays and all(a.ndim == 2 for a in arrays.values())


def test_live_edit_accepted_reaches_the_next_steps(brownian):
    brownian.step(2)
    t0 = brownian.time
    assert brownian.params["dynamics.dt"] == pytest.approx(1e-3)
    brownian.params["dynamics.dt"] = 4e-3
    assert brownian.params["dynamics.dt"] == 4e-3
    brownian.step(1)
    assert brownian.time == pytest.approx(t0 + 4e-3)
    # An integer where a real is declared is taken (as the command line's --set does).
    brownian.params["dynamics.diffusion"] = 2
    assert brownian.params["dynamics.diffusion"] == 2.0


def test_live_edit_refused_leaves_everything(brownian):
    brownian.step(4)
    before = brownian.snapshot_arrays()
    values = dict(brownian.params)
    with pytest.raises(cellforge.ParameterError) as refused:
        brownian.params["dynamics.dt"] = 5.0
    assert "dynamics.dt" in str(refused.value) and "[1e-07, 1]" in str(refused.value)
    with pytest.raises(cellforge.ParameterError, match="system.count is structural"):
        brownian.params["system.count"] = 10
    with pytest.raises(cellforge.ParameterError, match="dynamics.dtt"):
        brownian.params["dynamics.dtt"] = 1e-3
    with pytest.raises(cellforge.ParameterError, match="dynamics.dt"):
        brownian.params["dynamics.dt"] = "fast"
    assert dict(brownian.params) == values
    assert brownian.step_count == 4
    after = brownian.snapshot_arrays()
    assert all(np.array_equal(before[k], after[k]) for k in before)
    with pytest.raises(KeyError):
        brownian.params["no.such"]


def test_metrics_and_series_follow_the_steps(brownian):
    assert brownian.series_every == 5
    brownian.step(12)
    brownian.step(8)
    series = brownian.series
    assert list(series["step"]) == [0, 5, 10, 15, 20]
    assert series["time"] == pytest.approx(series["step"] * 1e-3)
    assert set(series) == {"step", "time"} | set(brownian.metrics)
    for name, value in brownian.metrics.items():
        assert len(series[name]) == 5
        assert series[name][-1] == value


def test_snapshot_arrays_are_the_checkpointed_state(tmp_path):
    sim = small("epidermis")
    sim.step(7)
    arrays = sim.snapshot_arrays()
    units = sim.snapshot_units()
    sim.checkpoint(tmp_path / "c.cfchk")
    header, written = read_checkpoint(tmp_path / "c.cfchk")
    assert header["model"] == "epidermis"
    assert set(written) == set(arrays) == set(units)
    for name, array in arrays.items():
        assert array.dtype == written[name].dtype and array.shape == written[name].shape
        assert array.tobytes() == written[name].tobytes(), name
    # Copies: writing into one changes nothing in the model.
    arrays["position"][:] = 0
    assert not np.array_equal(sim.snapshot_arrays()["position"], arrays["position"])
    # A second simulation stepped the same way has the same state, bit for bit.
    twin = small("epidermis")
    twin.step(7)
    for name, array in twin.snapshot_arrays().items():
        assert array.tobytes() == written[name].tobytes(), name


@pytest.mark.parametrize("model", ["brownian", "epidermis", "spheres"])
def test_checkpoint_round_trip_is_bit_identical(model, tmp_path):
    straight = small(model)
    straight.step(10)
    path = tmp_path / "half.cfchk"
    straight.checkpoint(path)
    straight.step(10)
    resumed = cellforge.Simulation.resume(path)
    assert resumed.model == model and resumed.step_count == 10 and resumed.seed == 1
    resumed.step(10)
    assert resumed.step_count == 20 and resumed.time == straight.time
    a, b = straight.snapshot_arrays(), resumed.snapshot_arrays()
    assert set(a) == set(b)
    for name in a:
        assert a[name].tobytes() == b[name].tobytes(), name
    assert resumed.metrics == straight.metrics


def test_live_edit_is_kept_by_the_checkpoint(brownian, tmp_path):
    brownian.params["dynamics.diffusion"] = 3.5
    brownian.step(2)
    brownian.checkpoint(tmp_path / "edited.cfchk")
    resumed = cellforge.Simulation.resume(tmp_path / "edited.cfchk")
    assert resumed.params["dynamics.diffusion"] == 3.5


def test_run_until_a_time_and_close():
    with small("brownian", series_every=0) as sim:
        sim.run(until=0.0125)  # dt = 1e-3
        assert sim.step_count == 13 and sim.time == pytest.approx(0.013)
        sim.run(until=0.005)  # already past: nothing
        assert sim.step_count == 13
    with pytest.raises(cellforge.Error, match="closed"):
        sim.step(1)
    with pytest.raises(cellforge.Error, match="closed"):
        sim.params["dynamics.dt"]
    assert "closed" in repr(sim)


def test_scenario_from_a_dict():
    sim = cellforge.Simulation({"model": "brownian", "seed": 3, "backend": "cpu",
                                "parameters": {"system": {"count": 50, "box": 8.0}},
                                "output": {"series_every": 2}}, dynamics__dt=2e-3)
    assert sim.model == "brownian" and sim.seed == 3 and sim.series_every == 2
    assert sim.params["system.count"] == 50 and sim.params["dynamics.dt"] == 2e-3
    assert sim.snapshot_arrays()["position"].shape == (50, 3)
    sim.step(4)
    assert list(sim.series["step"]) == [0, 2, 4]
    with pytest.raises(cellforge.ScenarioError, match="<dict>"):
        cellforge.Simulation({"model": "brownian", "parameters": {"system": {"cont": 5}}})
    with pytest.raises(cellforge.ParameterError, match="list"):
        cellforge.Simulation({"model": "brownian", "seed": [1]})
