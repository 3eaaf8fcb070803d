"""Kernel view and GPU metrics: per kernel name statistics, GPU utilization over time and the
estimated SM efficiency of kernel intervals. Formulas: docs/ANALYSIS.md.

Tensor-Core use is guessed from kernel names (tensor_cores.py). Pure functions over trace
tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..ingest.tables import Kind, TraceTables
from .breakdown import Intervals
from .operators import kernel_launchers
from .tensor_cores import uses_tensor_cores

KERNEL_COLUMNS = [
    "name", "calls", "total_ns", "mean_ns", "min_ns", "max_ns", "pct_of_kernel_time",
    "tensor_cores", "mean_blocks_per_sm", "mean_est_occupancy_pct", "est_sm_efficiency",
]  # fmt: skip
MAX_UTILIZATION_BUCKETS = 100


def trace_kernels(trace: TraceTables | None) -> pd.DataFrame:
    """A trace's kernels: name, the operator that launched it ("" where the trace does not
    say), device, start, dur, blocks_per_sm, occupancy (-1: none) and tensor_cores (the name
    guess, made once per distinct name of the trace)."""
    if trace is None:
        columns = (
            "name", "operator", "device", "start", "dur", "blocks_per_sm", "occupancy",
            "tensor_cores",
        )  # fmt: skip
        return pd.DataFrame({c: [] for c in columns})
    slices = trace.slices
    rows = np.flatnonzero(np.asarray(slices["kind"]) == Kind.KERNEL)
    name_ids = np.asarray(slices["name"])[rows]
    distinct, codes = np.unique(name_ids, return_inverse=True)
    guesses = np.array([uses_tensor_cores(trace.names[i]) for i in distinct.tolist()], bool)
    names = np.array([*trace.names, ""], dtype=object)  # launcher -1 reads as ""
    return pd.DataFrame({
        "name": names[name_ids],
        "operator": names[kernel_launchers(trace)[rows]],
        "device": np.asarray(slices["pid"])[rows],
        "start": np.asarray(slices["start"])[rows],
        "dur": np.asarray(slices["dur"])[rows],
        "blocks_per_sm": np.asarray(slices["blocks_per_sm"], dtype=np.float64)[rows],
        "occupancy": np.asarray(slices["occupancy"], dtype=np.float64)[rows],
        "tensor_cores": guesses[codes.reshape(-1)] if len(rows) else np.zeros(0, bool),
    })  # fmt: skip


def kernel_events(traces: list[TraceTables]) -> pd.DataFrame:
    """trace_kernels of the traces, one after the other."""
    if not traces:
        return trace_kernels(None)
    return pd.concat([trace_kernels(t) for t in traces], ignore_index=True)


def kernel_table(traces: list[TraceTables]) -> pd.DataFrame:
    """aggregate_kernels over the traces' kernels."""
    return aggregate_kernels(kernel_events(traces))


_WEIGHTED = ("blocks_per_sm", "occupancy", "sm_efficiency")  # duration-weighted means
_ROW_SUMS = ["calls", "total_ns", *(f"{c}_{part}" for c in _WEIGHTED for part in ("weight", "sum"))]


def kernel_rows(kernels: pd.DataFrame) -> pd.DataFrame:
    """The kernels summed per (name, operator), in order of first launch: calls, total, min,
    max, the Tensor-Core guess and the duration-weighted sums the means need. Rows of several
    ranks, one after the other, merge into the same table as their kernels would
    (`merge_kernel_rows`), so a run keeps these instead of every kernel."""
    keys = ["name", "operator"]
    if kernels.empty:  # typed, so that a rank without kernels keeps the run's columns numeric
        return pd.DataFrame({
            "name": pd.Series(dtype=object), "operator": pd.Series(dtype=object),
            **{c: pd.Series(dtype=np.int64 if c in ("calls", "total_ns") else np.float64)
               for c in _ROW_SUMS},
            "min_ns": pd.Series(dtype=np.int64), "max_ns": pd.Series(dtype=np.int64),
            "tensor_cores": pd.Series(dtype=bool),
        })  # fmt: skip
    kernels = kernels.assign(sm_efficiency=kernels["blocks_per_sm"].clip(upper=1.0))
    dur = kernels["dur"].to_numpy(np.float64)
    weighted = {}
    for column in _WEIGHTED:
        known = kernels[column].to_numpy() >= 0
        kernels[f"{column}_weight"] = np.where(known, dur, 0.0)
        kernels[f"{column}_sum"] = np.where(known, kernels[column].to_numpy() * dur, 0.0)
        weighted[f"{column}_weight"] = (f"{column}_weight", "sum")
        weighted[f"{column}_sum"] = (f"{column}_sum", "sum")
    table = kernels.groupby(keys, sort=False).agg(
        calls=("dur", "size"),
        total_ns=("dur", "sum"),
        min_ns=("dur", "min"),
        max_ns=("dur", "max"),
        tensor_cores=("tensor_cores", "first"),
        **weighted,
    )
    return table.reset_index()


def merge_kernel_rows(rows: pd.DataFrame, by_operator: bool = False) -> pd.DataFrame:
    """KERNEL_COLUMNS per kernel name (and, `by_operator`, per launching operator: an
    `operator` column after the name), by total time, from `kernel_rows` (of one or more
    ranks). Blocks per SM, occupancy and SM efficiency are duration-weighted means over the
    kernels that report them (>= 0), NaN where none do."""
    keys = ["name", "operator"] if by_operator else ["name"]
    columns = [*keys, *KERNEL_COLUMNS[1:]]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    table = rows.groupby(keys, sort=False).agg(
        **{column: (column, "sum") for column in _ROW_SUMS},
        min_ns=("min_ns", "min"),
        max_ns=("max_ns", "max"),
        tensor_cores=("tensor_cores", "first"),
    )
    table = table.reset_index()
    table["mean_ns"] = table["total_ns"] // table["calls"]
    grand_total = table["total_ns"].sum()
    table["pct_of_kernel_time"] = 100.0 * table["total_ns"] / grand_total if grand_total else 0.0
    table["tensor_cores"] = table["tensor_cores"].astype(bool)
    for column, output in zip(
        _WEIGHTED, ("mean_blocks_per_sm", "mean_est_occupancy_pct", "est_sm_efficiency"),
        strict=True,
    ):  # fmt: skip
        weight = table[f"{column}_weight"]
        table[output] = (table[f"{column}_sum"] / weight).where(weight > 0)
    table = table.sort_values("total_ns", ascending=False, kind="stable")
    return table[columns].reset_index(drop=True)


def aggregate_kernels(kernels: pd.DataFrame, by_operator: bool = False) -> pd.DataFrame:
    """`merge_kernel_rows` of the kernels' own rows."""
    return merge_kernel_rows(kernel_rows(kernels), by_operator)


@dataclass(frozen=True)
class Piecewise:
    """A value constant on disjoint ranges [start, end) in time order, 0 elsewhere: arrays,
    not a list of tuples (a trace of 1e6 kernels has as many ranges)."""

    start: np.ndarray  # int64 ns
    end: np.ndarray
    value: np.ndarray  # float64

    def integral_to(self, t: np.ndarray) -> np.ndarray:
        """The integral from before the first range to each time of `t`: the whole ranges
        before it and the part of the one it falls in."""
        start, end, value = self.start, self.end, self.value
        if not len(start):
            return np.zeros(len(t))
        before = np.concatenate(([0.0], np.cumsum((end - start) * value)))
        i = np.searchsorted(start, t, "right") - 1  # the last range starting at or before t
        at = np.maximum(i, 0)
        inside = np.clip(t - start[at], 0, (end - start)[at])
        return np.where(i >= 0, before[at] + value[at] * inside, 0.0)

    def bucket_means(self, edges: np.ndarray) -> np.ndarray:
        """The time-weighted mean per bucket [edges[k], edges[k+1])."""
        return np.diff(self.integral_to(edges)) / np.diff(edges)


@dataclass
class DeviceMetrics:
    """GPU metrics of one device over one trace window."""

    device: int
    window: tuple[int, int]
    bucket_ns: int
    utilization: list[tuple[int, float]]  # (bucket start, busy fraction), then (window end, 0)
    # the estimate's time-weighted mean per bucket of `utilization` (kept per bucket, not per
    # kernel: a run's analysis then grows with its ranks, not with its kernels)
    sm_efficiency: list[float]
    tensor_core_pct: float  # of kernel time, by name heuristics


def trace_window(trace: TraceTables) -> tuple[int, int]:
    """The profiler's window annotation ("PyTorch Profiler (N)") if the trace has one, else
    the span of its events."""
    starts, durs = np.asarray(trace.slices["start"]), np.asarray(trace.slices["dur"])
    marker_ids = [i for i, n in enumerate(trace.names) if n.startswith("PyTorch Profiler (")]
    rows = np.flatnonzero(np.isin(np.asarray(trace.slices["name"]), marker_ids))
    if len(rows):
        return int(starts[rows].min()), int((starts[rows] + durs[rows]).max())
    return int(starts.min()), int((starts + durs).max())


def _bucket_ns(span_ns: int) -> int:
    """A power of ten of microseconds giving at most MAX_UTILIZATION_BUCKETS buckets."""
    bucket_us = 1
    while span_ns / 1000 / bucket_us > MAX_UTILIZATION_BUCKETS:
        bucket_us *= 10
    return bucket_us * 1000


def device_metrics(trace: TraceTables, kernels: pd.DataFrame | None = None) -> list[DeviceMetrics]:
    """Per device of the trace: utilization and SM efficiency per bucket. `kernels`: the
    trace's trace_kernels, if already made."""
    kernels = trace_kernels(trace) if kernels is None else kernels
    if kernels.empty:
        return []
    first, last = trace_window(trace)
    bucket = _bucket_ns(last - first)
    count = max(int((last - first) / bucket), 1)
    edges = first + bucket * np.arange(count + 1, dtype=np.int64)
    edges[-1] = last  # the last bucket takes the remainder
    out = []
    for device, group in kernels.groupby("device", sort=True):
        start = group["start"].to_numpy(np.int64)
        end = start + group["dur"].to_numpy(np.int64)
        busy = Intervals.union(start, end).measure_within(edges[:-1], edges[1:])
        fractions = busy / np.diff(edges)
        utilization = [(int(t), float(f)) for t, f in zip(edges[:-1], fractions, strict=True)]
        utilization.append((int(last), 0.0))
        blocks = group["blocks_per_sm"].to_numpy(np.float64)
        known = blocks > 0
        dur = group["dur"].to_numpy(np.int64)
        tensor = group["tensor_cores"].to_numpy(bool)
        out.append(DeviceMetrics(
            int(device), (first, last), bucket, utilization,
            sm_efficiency_ranges(start[known], end[known], blocks[known])
            .bucket_means(edges)
            .tolist(),
            100.0 * dur[tensor].sum() / dur.sum() if dur.sum() else 0.0,
        ))  # fmt: skip
    return out


def sm_efficiency_ranges(
    start: np.ndarray, end: np.ndarray, blocks_per_sm: np.ndarray
) -> Piecewise:
    """Est. SM efficiency over time: where kernels run, the blocks per SM of all running
    kernels summed, capped at 1 (every SM has at least one block)."""
    if not len(start):
        return Piecewise(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    times = np.concatenate([start, end])
    deltas = np.concatenate([blocks_per_sm, -blocks_per_sm])
    is_end = np.concatenate([np.zeros(len(start), bool), np.ones(len(end), bool)])
    order = np.lexsort((is_end, times))  # a start before an end at the same time
    times, level = times[order], np.cumsum(deltas[order])
    keep = np.flatnonzero((times[1:] > times[:-1]) & (level[:-1] > 1e-12))
    return Piecewise(times[keep], times[keep + 1], np.minimum(level[keep], 1.0))
