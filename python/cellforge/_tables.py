# SPDX-License-Identifier: GPL-3.0-or-later
"""Columns of numbers with units: the Table that cellforge.sweep() returns, and a
Simulation's series as a pandas DataFrame (Simulation.series_frame()).

pandas is optional: it is imported only when a DataFrame is asked for, and its absence is
an ImportError that names the Debian package to install."""
import math as _math

import numpy as _np

__all__ = ["Table", "series_frame"]


def _pandas():
    """The pandas module, imported on first use."""
    try:
        import pandas
    except ImportError as missing:
        raise ImportError(
            "a pandas DataFrame needs pandas, which is not installed: on Debian "
            "`apt install python3-pandas` (or `pip install pandas`)") from missing
    return pandas


def _column(values):
    """One column as a NumPy array: numbers as int64/float64/bool, anything else (text,
    None) as an object array rather than fixed-width strings, so values read back as given."""
    values = list(values)
    if values and all(isinstance(v, bool) or isinstance(v, _np.bool_) for v in values):
        return _np.array(values, dtype=bool)
    if values and all(isinstance(v, (int, _np.integer)) and not isinstance(v, bool)
                      for v in values):
        return _np.array(values, dtype=_np.int64)
    if values and all(isinstance(v, (int, float, _np.integer, _np.floating))
                      and not isinstance(v, bool) for v in values):
        return _np.array(values, dtype=_np.float64)
    column = _np.empty(len(values), dtype=object)
    column[:] = values
    return column


def _cell(value):
    """The text of one value in Table's repr."""
    if isinstance(value, (float, _np.floating)):
        return "nan" if _math.isnan(value) else f"{value:.6g}"
    text = str(value)
    text = text.replace("\n", "; ")
    return text if len(text) <= 40 else text[:37] + "..."


class Table:
    """Columns of equal length, in order: a mapping of column name -> NumPy array, with
    the unit of each column in `units` ("1" when dimensionless, "" when unknown).

    As with a pandas DataFrame, iterating gives the column names and len() the number of
    rows. table["apd90"] is a column; table.rows() the rows as dicts; table.to_pandas() a
    DataFrame (units in its attrs["units"])."""

    def __init__(self, columns, units=None):
        self._columns = {}
        length = None
        for name, values in columns.items():
            array = values if isinstance(values, _np.ndarray) else _column(values)
            if array.ndim != 1:
                raise ValueError(f"Table column {name!r}: one value per row, not shape "
                                 f"{array.shape}")
            if length is not None and len(array) != length:
                raise ValueError(f"Table column {name!r} has {len(array)} rows, the columns "
                                 f"before it {length}")
            length = len(array)
            self._columns[str(name)] = array
        self._rows = length or 0
        given = dict(units or {})
        self.units = {name: given.get(name, "") for name in self._columns}

    def __getitem__(self, name):
        try:
            return self._columns[name]
        except KeyError:
            raise KeyError(f"{name!r}: no such column (the columns: "
                           f"{', '.join(self._columns)})") from None

    def __iter__(self):
        return iter(self._columns)

    def __contains__(self, name):
        return name in self._columns

    def __len__(self):
        """The number of rows."""
        return self._rows

    @property
    def columns(self):
        """The column names, in order."""
        return list(self._columns)

    def keys(self):
        return self._columns.keys()

    def values(self):
        return self._columns.values()

    def items(self):
        return self._columns.items()

    def rows(self):
        """The rows as a list of dicts of column name -> Python value (float, int, str...)."""
        return [{name: (array[i].item() if isinstance(array[i], _np.generic) else array[i])
                 for name, array in self._columns.items()} for i in range(self._rows)]

    def to_pandas(self):
        """The table as a pandas DataFrame, one column per column here; the units are in
        df.attrs["units"]. Needs pandas (Debian: python3-pandas)."""
        frame = _pandas().DataFrame({name: array for name, array in self._columns.items()})
        frame.attrs["units"] = dict(self.units)
        return frame

    def __repr__(self, limit=20):
        names = list(self._columns)
        if not names:
            return "<cellforge.Table: no columns>"
        header = [name + ("" if self.units[name] in ("", "1") else f" [{self.units[name]}]")
                  for name in names]
        shown = list(range(self._rows))
        if self._rows > limit:
            shown = shown[:limit // 2] + [None] + shown[-(limit // 2):]
        body = [["..." for _ in names] if i is None else
                [_cell(self._columns[name][i]) for name in names] for i in shown]
        widths = [max(len(h), *(len(row[c]) for row in body)) if body else len(h)
                  for c, h in enumerate(header)]
        # Numbers right-aligned, text (an object column) left-aligned.
        left = [self._columns[name].dtype == object for name in names]
        align = [(lambda t, w: t.ljust(w)) if flag else (lambda t, w: t.rjust(w))
                 for flag in left]
        lines = [
            "  ".join(a(h, w) for a, h, w in zip(align, header, widths)).rstrip()]
        lines += ["  ".join(a(cell, w) for a, cell, w in zip(align, row, widths)).rstrip()
                  for row in body]
        plural = "" if self._rows == 1 else "s"
        return f"<cellforge.Table: {self._rows} row{plural}>\n" + "\n".join(lines)


def series_frame(series, units):
    """A series dict (Simulation.series: "step", "time" and one array per metric) as a
    pandas DataFrame with one column per entry, in order; `units` (column -> unit) goes to
    df.attrs["units"]. Needs pandas (Debian: python3-pandas)."""
    frame = _pandas().DataFrame({name: _np.asarray(values) for name, values in series.items()})
    frame.attrs["units"] = {name: units.get(name, "") for name in series}
    return frame
