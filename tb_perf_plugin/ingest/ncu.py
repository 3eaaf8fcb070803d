"""Nsight Compute CSV (`ncu --csv`) to one row of per-kernel metrics per profiled launch.

Two layouts are read. `--page details` (the default) is long: one row per (launch, metric) with
"ID", "Kernel Name", "Section Name", "Metric Name", "Metric Unit", "Metric Value". `--page raw`
is wide: one row per launch with one column per metric, and a second row of units. Either may
follow lines of program output and `==PROF==` progress, which are skipped up to the header.

Metrics are found by their raw names (`--metrics`, raw page) or their section display names
(details page), in either case only with a unit they can be converted from. Values may carry
thousands separators ("8,192"); "n/a" reads as missing.
"""

from __future__ import annotations

import csv
import math
import os
import re
from typing import TYPE_CHECKING

from ..errors import Unreadable
from .files import Head, Verdict, open_input

if TYPE_CHECKING:
    import pandas as pd

NCU_COLUMNS = [
    "id", "kernel", "grid", "block", "device", "duration_ns", "sm_throughput_pct",
    "memory_throughput_pct", "achieved_occupancy_pct", "theoretical_occupancy_pct",
    "registers_per_thread",
]  # fmt: skip
METRIC_COLUMNS = NCU_COLUMNS[5:]

# Raw metric names and details-page display names (current and 2019-2021 ncu) per column.
_METRIC_NAMES = {
    "duration_ns": ("gpu__time_duration.sum", "Duration"),
    "sm_throughput_pct": (
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "Compute (SM) Throughput",
        "SM Throughput",
        "SM [%]",
    ),
    "memory_throughput_pct": (
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "Memory Throughput",
        "Memory [%]",
    ),
    "achieved_occupancy_pct": (
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "Achieved Occupancy",
    ),
    "theoretical_occupancy_pct": (
        "sm__maximum_warps_per_active_cycle_pct",
        "Theoretical Occupancy",
    ),
    "registers_per_thread": ("launch__registers_per_thread", "Registers Per Thread"),
}
_COLUMN_OF_METRIC = {name: column for column, names in _METRIC_NAMES.items() for name in names}
# Each column's units and their factor to the column's unit (ns, %, registers).
_TIME_UNITS = {
    "nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6,
    "second": 1e9, "s": 1e9,
}  # fmt: skip
_PERCENT_UNITS = {"%": 1.0}
_UNITS = {
    "duration_ns": _TIME_UNITS,
    "sm_throughput_pct": _PERCENT_UNITS,
    "memory_throughput_pct": _PERCENT_UNITS,
    "achieved_occupancy_pct": _PERCENT_UNITS,
    "theoretical_occupancy_pct": _PERCENT_UNITS,
    "registers_per_thread": {"register/thread": 1.0, "": 1.0},
}
_LAUNCH_SHAPE = {"launch__grid_size": "grid", "launch__block_size": "block"}
_TUPLE = re.compile(r"^\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$")


def read_ncu_csv(path: str, max_bytes: int) -> pd.DataFrame:
    """NCU_COLUMNS, one row per profiled launch in file order. `id` is ncu's launch ID,
    `grid`/`block` the launch shape as "[x, y, z]" (the form Kineto traces use; ncu's scalar
    block / grid count where the file has only `launch__*_size`, "" where neither), `device`
    -1 where the file does not say; metrics are floats, NaN where the file lacks them.
    Raises Unreadable for a file over `max_bytes`, not an NCU CSV, or missing columns."""
    name = os.path.basename(path)
    try:
        with open_input(path, max_bytes, "Nsight Compute CSV") as handle:
            lines = handle.read().decode("utf-8", "replace").splitlines()
    except OSError as exc:
        raise Unreadable(f"{name}: cannot read ({exc.strerror or exc})") from None
    start = _header_line(lines)
    if start is None:
        raise Unreadable(
            f'{name}: not an Nsight Compute CSV (no header line starting with "ID" and naming '
            '"Kernel Name"; export with ncu --csv --page details or --page raw)'
        )
    try:
        rows = list(csv.reader(lines[start:]))
    except csv.Error as exc:
        raise Unreadable(f"{name}: malformed CSV ({exc})") from None
    header = rows[0]
    if "Metric Name" in header or "Metric Value" in header:
        launches = _long_form(name, header, rows[1:])
    else:
        launches = _wide_form(header, rows[1:])
    import pandas as pd  # here: sniffing (every file of a run) needs no pandas

    table = pd.DataFrame(launches, columns=NCU_COLUMNS)
    table["id"] = table["id"].astype("int64")
    table["device"] = table["device"].astype("int64")
    table[METRIC_COLUMNS] = table[METRIC_COLUMNS].astype("float64")
    return table


def sniff(head: Head) -> Verdict | None:
    """Nsight Compute `--csv` output (details and raw pages): its header line, possibly after
    the profiled program's own output and ncu's `==PROF==` notes."""
    if _header_line(head.lines) is not None:
        return Verdict(True, "Nsight Compute CSV")
    return None


def _header_line(lines: list[str]) -> int | None:
    for index, line in enumerate(lines):
        if line.startswith('"ID",') and '"Kernel Name"' in line:
            return index
    return None


def _new_launch(launch_id: int, fields: dict[str, str]) -> dict:
    launch: dict = dict.fromkeys(METRIC_COLUMNS, math.nan)
    device = fields.get("Device", "")
    launch.update(
        id=launch_id,
        kernel=fields.get("Kernel Name", ""),
        grid=_shape(fields.get("Grid Size", "")),
        block=_shape(fields.get("Block Size", "")),
        device=int(device) if _is_number(device) else -1,
    )
    return launch


def _long_form(name: str, header: list[str], rows: list[list[str]]) -> list[dict]:
    missing = [c for c in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")
               if c not in header]  # fmt: skip
    if missing:
        raise Unreadable(f"{name}: an Nsight Compute CSV without the column(s) {missing}")
    launches: dict[int, dict] = {}
    for row in rows:
        fields = dict(zip(header, row, strict=False))
        launch_id = _launch_id(fields)
        if launch_id is None:
            continue
        launch = launches.get(launch_id)
        if launch is None:
            launch = launches[launch_id] = _new_launch(launch_id, fields)
        _set_metric(launch, fields.get("Metric Name", ""), fields.get("Metric Unit", ""),
                    fields.get("Metric Value", ""))  # fmt: skip
    return list(launches.values())


def _wide_form(header: list[str], rows: list[list[str]]) -> list[dict]:
    units: list[str] = []
    if rows and rows[0][:1] == [""]:  # the units row of --page raw
        units, rows = rows[0], rows[1:]
    launches = []
    for row in rows:
        fields = dict(zip(header, row, strict=False))
        launch_id = _launch_id(fields)
        if launch_id is None:
            continue
        launch = _new_launch(launch_id, fields)
        for index, column in enumerate(header):
            if index < len(row) and (column in _COLUMN_OF_METRIC or column in _LAUNCH_SHAPE):
                unit = units[index] if index < len(units) else ""
                _set_metric(launch, column, unit, row[index])
        launches.append(launch)
    return launches


def _launch_id(fields: dict[str, str]) -> int | None:
    text = fields.get("ID", "").replace(",", "").strip()
    return int(text) if _is_number(text) else None


def _is_number(text: str) -> bool:
    """Digits of a non-negative int64 (ids, devices; longer ones are not ncu's)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _set_metric(launch: dict, metric: str, unit: str, text: str) -> None:
    """Store one metric value if it feeds a column and its unit converts; the first value of a
    column wins (a display name and its raw metric may both be present)."""
    shape_column = _LAUNCH_SHAPE.get(metric)
    if shape_column is not None:
        if not launch[shape_column]:
            launch[shape_column] = text.replace(",", "").strip()
        return
    column = _COLUMN_OF_METRIC.get(metric)
    if column is None or not math.isnan(launch[column]):
        return
    factor = _UNITS[column].get(unit.strip())
    value = _number(text)
    if factor is not None and value is not None:
        launch[column] = value * factor


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").strip())
    except ValueError:  # "n/a", empty, or text values such as "PolicySpread"
        return None


def _shape(text: str) -> str:
    """ncu's "(x, y, z)" as Kineto's "[x, y, z]"; other text as it is."""
    match = _TUPLE.match(text.strip())
    return f"[{match[1]}, {match[2]}, {match[3]}]" if match else text.strip()
