"""The span table: calls, total, self and percentiles per span name."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

SPAN_TABLE_COLUMNS = [
    "name",
    "calls",
    "total_ns",
    "self_ns",
    "mean_ns",
    "p50_ns",
    "p95_ns",
    "gpu_total_ns",
]


def self_times(spans: pd.DataFrame) -> np.ndarray:
    """Each span's duration minus the time its direct children cover.

    Children usually follow one another; spans added whole (`MyTimer.add_span`, the Lightning
    adapter) may overlap a sibling, and the overlap is counted once. Span ids are unique per
    writer process, so children are matched on (writer, parent id).
    """
    durations = (spans["t1"] - spans["t0"]).to_numpy(np.int64)
    children = pd.DataFrame(
        {
            "writer": spans["writer"].to_numpy(),
            "id": spans["parent"].to_numpy(),
            "t0": spans["t0"].to_numpy(np.int64),
            "t1": spans["t1"].to_numpy(np.int64),
        }
    ).sort_values(["writer", "id", "t0"], kind="stable")
    group = children.groupby(["writer", "id"], sort=False)
    # the latest end among the earlier siblings (int64 throughout: ns since the epoch do not
    # fit a float): a child covers only what they did not
    latest_end = group["t1"].cummax().to_numpy(np.int64)
    covered_until = np.roll(latest_end, 1)
    covered_until[group.cumcount().to_numpy() == 0] = np.iinfo(np.int64).min
    from_ns = np.maximum(children["t0"].to_numpy(np.int64), covered_until)
    children["child_ns"] = np.maximum(children["t1"].to_numpy(np.int64) - from_ns, 0)
    child_sums = children.groupby(["writer", "id"], sort=False)["child_ns"].sum()
    keys = pd.MultiIndex.from_arrays([spans["writer"].to_numpy(), spans["id"].to_numpy()])
    child_ns = child_sums.reindex(keys, fill_value=0).to_numpy(np.int64)
    return durations - child_ns


def _group_sum(codes: np.ndarray, values: np.ndarray, n_groups: int) -> np.ndarray:
    """Exact int64 sums per group (bincount would round through float64)."""
    sums = np.zeros(n_groups, dtype=np.int64)
    np.add.at(sums, codes, values)
    return sums


def _grouped_nearest_rank(
    codes: np.ndarray, durations: np.ndarray, fraction: float, n_groups: int
) -> np.ndarray:
    order = np.lexsort((durations, codes))
    counts = np.bincount(codes, minlength=n_groups)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    ranks = np.maximum(np.ceil(fraction * counts).astype(np.int64) - 1, 0)
    picked = np.zeros(n_groups, dtype=np.int64)
    present = counts > 0
    picked[present] = durations[order][(starts + ranks)[present]]
    return picked


def span_table(spans: pd.DataFrame) -> pd.DataFrame:
    """One row per span name (SPAN_TABLE_COLUMNS), sorted by total time, largest first.

    `spans` needs columns writer, id, parent, name, t0, t1, gpu_ns.
    """
    if spans.empty:
        return pd.DataFrame(columns=SPAN_TABLE_COLUMNS)
    names = pd.Categorical(spans["name"])
    names = names.remove_unused_categories()
    codes = names.codes.astype(np.int64)
    n_groups = len(names.categories)
    durations = (spans["t1"] - spans["t0"]).to_numpy(np.int64)
    calls = np.bincount(codes, minlength=n_groups)
    total = _group_sum(codes, durations, n_groups)
    self_total = _group_sum(codes, self_times(spans), n_groups)
    gpu = spans["gpu_ns"]
    has_gpu = gpu.notna().to_numpy()
    gpu_total = _group_sum(codes[has_gpu], gpu[has_gpu].to_numpy(np.int64), n_groups)
    gpu_seen = np.bincount(codes[has_gpu], minlength=n_groups) > 0
    table = pd.DataFrame(
        {
            "name": list(names.categories),
            "calls": calls,
            "total_ns": total,
            "self_ns": self_total,
            "mean_ns": total // np.maximum(calls, 1),
            "p50_ns": _grouped_nearest_rank(codes, durations, 0.50, n_groups),
            "p95_ns": _grouped_nearest_rank(codes, durations, 0.95, n_groups),
            "gpu_total_ns": pd.array(
                [int(v) if seen else None for v, seen in zip(gpu_total, gpu_seen, strict=True)],
                dtype="Int64",
            ),
        }
    )
    return table.sort_values(["total_ns", "name"], ascending=[False, True], ignore_index=True)


def percent(part: float, whole: float) -> float | None:
    if whole <= 0 or math.isnan(whole):
        return None
    return round(100.0 * part / whole, 3)
