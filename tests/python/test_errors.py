# SPDX-License-Identifier: GPL-3.0-or-later
"""The library's typed errors as Python exceptions (sim/core/errors.hpp's hierarchy), and
Ctrl-C during step()."""
import os
import signal
import threading
import time

import pytest

import cellforge


def test_hierarchy_follows_errors_hpp():
    e = cellforge
    for sub in (e.InputError, e.IoError, e.SimulationError, e.CudaError):
        assert issubclass(sub, e.Error)
    for sub in (e.ParameterError, e.ScenarioError, e.InputFileError, e.GeometryError):
        assert issubclass(sub, e.InputError)
    assert issubclass(e.OutOfDeviceMemoryError, e.SimulationError)
    assert issubclass(e.ParameterError, ValueError)
    assert issubclass(e.Error, Exception)


@pytest.mark.parametrize("name", ["Error", "InputError", "ParameterError", "ScenarioError",
                                  "InputFileError", "GeometryError", "IoError",
                                  "SimulationError", "OutOfDeviceMemoryError", "CudaError"])
def test_each_cpp_type_reaches_python_as_its_own(name):
    with pytest.raises(getattr(cellforge, name)) as raised:
        cellforge._cellforge._throw(name, f"a {name} message")
    assert type(raised.value) is getattr(cellforge, name)
    assert str(raised.value) == f"a {name} message"


def test_bad_scenario_name():
    with pytest.raises(cellforge.ScenarioError, match="no-such-scenario"):
        cellforge.Simulation("no-such-scenario")


def test_missing_scenario_file(tmp_path):
    with pytest.raises(cellforge.InputFileError):
        cellforge.Simulation.from_file(tmp_path / "missing.toml")
    with pytest.raises(cellforge.InputFileError):
        cellforge.Simulation(str(tmp_path / "missing.toml"))


def test_malformed_scenario_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('model = "brownian"\nseed = [\n')
    with pytest.raises(cellforge.ScenarioError, match="bad.toml:"):
        cellforge.Simulation.from_file(bad)


def test_from_file_takes_keywords():
    path = cellforge.scenarios()["default"]
    sim = cellforge.Simulation.from_file(path, backend="cpu", seed=3,
                                         params={"system.count": 64})
    assert sim.seed == 3 and sim.params["system.count"] == 64


def test_bad_overrides():
    with pytest.raises(cellforge.ParameterError, match="system.cont"):
        cellforge.Simulation("default", backend="cpu", system__cont=10)
    with pytest.raises(cellforge.ParameterError, match="system.count"):
        cellforge.Simulation("default", backend="cpu", system__count=0)
    with pytest.raises(cellforge.ParameterError, match="dynamics.dt"):
        cellforge.Simulation("default", backend="cpu", params={"dynamics.dt": 2.0})
    with pytest.raises(cellforge.ParameterError, match="group__name"):
        cellforge.Simulation("default", backend="cpu", count=10)
    with pytest.raises(cellforge.ParameterError, match="backend"):
        cellforge.Simulation("default", backend="abacus")


@pytest.mark.skipif("cuda" in cellforge.backends(), reason="a CUDA device answers here")
def test_cuda_without_a_device():
    with pytest.raises(cellforge.ParameterError, match="cuda"):
        cellforge.Simulation("default", backend="cuda")


def test_checkpoint_errors(tmp_path):
    garbage = tmp_path / "garbage.cfchk"
    garbage.write_bytes(b"not a checkpoint")
    with pytest.raises(cellforge.InputFileError, match="garbage.cfchk"):
        cellforge.Simulation.resume(garbage)
    with pytest.raises(cellforge.InputFileError):
        cellforge.Simulation.resume(tmp_path / "missing.cfchk")
    sim = cellforge.Simulation("default", backend="cpu", system__count=16)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(cellforge.IoError, match="cannot create directory"):
        sim.checkpoint(blocker / "sub" / "c.cfchk")


def test_ctrl_c_stops_step_at_a_step_boundary():
    # Enough work that step() is still running when the signal comes; the thread can only
    # send it if step() released the GIL.
    sim = cellforge.Simulation("default", backend="cpu", system__count=2000, series_every=0)

    def interrupt():
        # Only once step() is running (the steps counted are its own), so the signal
        # cannot land before it is entered, however loaded the machine.
        deadline = time.monotonic() + 30
        while sim.step_count < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    sender = threading.Thread(target=interrupt)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        sender.start()
        sim.step(10**9)
    elapsed = time.monotonic() - start
    sender.join()
    assert elapsed < 30
    reached = sim.step_count
    assert 5 <= reached < 10**9
    sim.step(2)  # consistent: it goes on from where it stopped
    assert sim.step_count == reached + 2
