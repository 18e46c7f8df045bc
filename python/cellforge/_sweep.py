# SPDX-License-Identifier: GPL-3.0-or-later
"""cellforge.sweep(): one Simulation per combination of parameter values, each run the
same number of steps (or to the same simulated time), their final metrics in a Table."""
import collections.abc as _abc
import itertools as _itertools
import math as _math
import numbers as _numbers

import numpy as _np

from ._cellforge import Error, InputError
from ._tables import Table, _column

__all__ = ["sweep"]


def _combinations(grid, runs):
    """The parameter names (in order) and the list of override dicts, from exactly one of
    grid and runs."""
    if (grid is None) == (runs is None):
        raise ValueError("sweep() takes exactly one of grid= (a dict 'group.name' -> list of "
                         "values, every combination) and runs= (a list of dicts of "
                         "overrides)")
    if grid is not None:
        if not isinstance(grid, _abc.Mapping):
            raise TypeError(f"sweep(grid=...): a dict 'group.name' -> list of values, not "
                            f"{type(grid).__name__}")
        axes = []
        for key, values in grid.items():
            if isinstance(values, (str, bytes)) or not isinstance(values, _abc.Iterable):
                raise TypeError(f"sweep(grid=...): grid[{key!r}] is a list of values, not "
                                f"{type(values).__name__} (write [{values!r}] for one value)")
            axes.append((str(key), list(values)))
        return [k for k, _ in axes], [dict(zip([k for k, _ in axes], combo))
                                      for combo in _itertools.product(*[v for _, v in axes])]
    if isinstance(runs, (str, bytes, _abc.Mapping)) or not isinstance(runs, _abc.Iterable):
        raise TypeError(f"sweep(runs=...): a list of dicts 'group.name' -> value, not "
                        f"{type(runs).__name__}")
    combos = []
    for i, run in enumerate(runs):
        if not isinstance(run, _abc.Mapping):
            raise TypeError(f"sweep(runs=...): runs[{i}] is a dict 'group.name' -> value, "
                            f"not {type(run).__name__}")
        combos.append({str(k): v for k, v in run.items()})
    return list(dict.fromkeys(k for combo in combos for k in combo)), combos


def _duration(steps, until):
    """Checks steps= and until=: exactly one, steps a whole number >= 0, until a finite
    time."""
    if (steps is None) == (until is None):
        raise ValueError("sweep() takes exactly one of steps= (steps per run) and until= "
                         "(simulated time per run, in the model's time unit)")
    if steps is not None:
        if isinstance(steps, bool) or not isinstance(steps, _numbers.Integral) or steps < 0:
            raise ValueError(f"sweep(steps={steps!r}): a whole number of steps >= 0")
        return int(steps), None
    if isinstance(until, bool) or not isinstance(until, _numbers.Real) or not _math.isfinite(
            until):
        raise ValueError(f"sweep(until={until!r}): a finite simulated time, in the model's "
                         "time unit")
    return None, float(until)


def _describe(combo):
    return "{" + ", ".join(f"{k}={v!r}" for k, v in combo.items()) + "}" if combo else "{}"


def _chosen_metrics(sim, metrics):
    """The metric names to record: all of the model's, or those asked for, checked."""
    available = list(sim.metric_units)
    if metrics is None:
        return available
    unknown = [m for m in metrics if m not in available]
    if unknown:
        raise InputError(f"sweep(metrics=...): {', '.join(map(repr, unknown))} "
                         f"{'is not a metric' if len(unknown) == 1 else 'are not metrics'} of "
                         f"the model {sim.model} (its metrics: {', '.join(available)})")
    return list(metrics)


def sweep(scenario, grid=None, runs=None, steps=None, until=None, backend=None, seed=None,
          metrics=None, progress=None, on_error="raise"):
    """Runs one Simulation per combination of parameter values and tabulates the final
    metrics.

    scenario: what Simulation() takes (a bundled name, a .toml path or a dict).
    grid: a dict "group.name" -> list of values; every combination is run (the Cartesian
        product, the first key varying slowest). Or runs: a list of dicts "group.name" ->
        value, one run each. Exactly one of the two.
    steps: steps per run; or until: simulated time per run (in the model's time unit, as
        Simulation.run(until) reaches it). Exactly one of the two.
    backend, seed: as for Simulation, the same for every run (one seed: the runs differ
        only by their parameters).
    metrics: the names of the metrics to record (default: all the model's); an unknown name
        raises InputError listing the available ones.
    progress: None, or a callable progress(done, total) called after each run.
    on_error: "raise" (default): a run that fails (a ParameterError for a value out of
        range or a combination the model refuses, a SimulationError while stepping) raises
        that error again, its message naming the combination. "record": the run's metrics
        are NaN and the column "error" holds its message ("" for the runs that succeeded).

    Values are given in the units `cellforge-sim params MODEL` lists; structural parameters
    are allowed, since each run builds its model. Returns a Table: one column per swept
    parameter (its value in each run), then "steps" and "time" (where each run stopped),
    then one column per metric (its final value), and "error" with on_error="record";
    table.units gives each column's unit."""
    keys, combos = _combinations(grid, runs)
    steps, until = _duration(steps, until)
    if on_error not in ("raise", "record"):
        raise ValueError(f"sweep(on_error={on_error!r}): 'raise' or 'record'")
    if progress is not None and not callable(progress):
        raise TypeError(f"sweep(progress=...): a callable progress(done, total), not "
                        f"{type(progress).__name__}")
    if metrics is not None:
        if isinstance(metrics, str):
            metrics = [metrics]
        metrics = [str(m) for m in metrics]
    from . import Simulation  # here: the package imports this module before defining it

    units = {"steps": "1"}
    names = None  # the metrics recorded, known from the first run that builds
    results = []  # per run: (parameter values, steps, time, metric dict or None, error)
    total = len(combos)
    for done, combo in enumerate(combos, start=1):
        where = f"sweep run {done} of {total}, {_describe(combo)}"
        sim, values, error = None, None, ""
        try:
            try:
                sim = Simulation(scenario, backend=backend, seed=seed, params=combo,
                                 series_every=0)
            except Error as failed:
                error = _failed(failed, where, on_error)
            if sim is not None and names is None:
                names = _chosen_metrics(sim, metrics)  # a usage error: raised as it is
                units["time"] = sim.time_unit
                units.update((k, sim.params.info(k).unit) for k in keys if k in sim.params)
                units.update((m, sim.metric_units[m]) for m in names)
            if sim is not None:
                try:
                    sim.step(steps) if steps is not None else sim.run(until)
                    values = sim.metrics
                except Error as failed:
                    error = _failed(failed, where, on_error)
            given = {k: combo[k] if k in combo else (
                sim.params[k] if sim is not None and k in sim.params else None) for k in keys}
            results.append((given, sim.step_count if sim is not None else 0,
                            sim.time if sim is not None else _math.nan, values, error))
        except Exception as failed:
            if not isinstance(failed, Error):  # not the library's: raised as it is
                failed.add_note(f"in {where}")
            raise
        finally:
            if sim is not None:
                sim.close()
        if progress is not None:
            progress(done, total)

    if names is None:  # no run built a model: the names asked for, if any
        names = list(metrics or [])
    columns = {k: _column([r[0][k] for r in results]) for k in keys}
    columns["steps"] = _np.array([r[1] for r in results], dtype=_np.int64)
    columns["time"] = _np.array([r[2] for r in results], dtype=_np.float64)
    for m in names:
        columns[m] = _np.array([_math.nan if r[3] is None else r[3][m] for r in results],
                               dtype=_np.float64)
    if on_error == "record":
        columns["error"] = _column([r[4] for r in results])
        units["error"] = ""
    return Table(columns, units)


def _failed(failed, where, on_error):
    """A run's library error: raised again naming the run, or its message to record."""
    if on_error == "raise":
        raise type(failed)(f"{where}: {failed}") from failed
    return str(failed)
