"""Imported cProfile/pstats profiles: the Python view's function table and the
`python_hotspot` finding (docs/FINDINGS.md). Pure functions over the rows
`ingest.python_profile` reads (one row per function and profile file, with `rank` and `file`).

Formulas: a function's times and calls are summed over the profiles selected; `self_share` is
its self time over the profiles' total time (pstats' `total_tt`, the sum of every function's
self time), `cumulative_share` its cumulative time over the same total; per-call times are
pstats' own (`tt / calls`, `ct / primitive_calls`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .findings import AnalysisInputs, Finding, Thresholds, evidence, severity_of

KEY = ["function", "filename", "line", "name"]
# python_hotspot: a Python function's self time over its profile's total time...


def is_builtin(filename: pd.Series, line: pd.Series) -> pd.Series:
    """C functions and methods: cProfile files them under `('~', 0, name)`."""
    return (filename == "~") & (line == 0)


def function_table(rows: pd.DataFrame, total_ns: int | None = None) -> pd.DataFrame:
    """One row per function over every profile in `rows`, most self time first: calls,
    primitive_calls, self_ns, cumulative_ns, their per-call means and shares of `total_ns`
    (default: the rows' summed self time), `builtin`, and `profiles` (files it appears in)."""
    if rows.empty:
        return pd.DataFrame(columns=[*KEY, "builtin", "calls", "primitive_calls", "self_ns",
                                     "cumulative_ns", "self_per_call_ns",
                                     "cumulative_per_call_ns", "self_share", "cumulative_share",
                                     "profiles"])  # fmt: skip
    grouped = rows.groupby(KEY, sort=False, observed=True)
    table = grouped[["calls", "primitive_calls", "self_ns", "cumulative_ns"]].sum()
    table["profiles"] = grouped.size()
    table = table.reset_index()
    total = float(table["self_ns"].sum() if total_ns is None else total_ns)
    table.insert(4, "builtin", is_builtin(table["filename"], table["line"]))
    calls = table["calls"].to_numpy(np.float64)
    primitive = table["primitive_calls"].to_numpy(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        table["self_per_call_ns"] = np.where(calls > 0, table["self_ns"] / calls, np.nan)
        table["cumulative_per_call_ns"] = np.where(
            primitive > 0, table["cumulative_ns"] / primitive, np.nan
        )
    table["self_share"] = table["self_ns"] / total if total > 0 else np.nan
    table["cumulative_share"] = table["cumulative_ns"] / total if total > 0 else np.nan
    columns = [*KEY, "builtin", "calls", "primitive_calls", "self_ns", "cumulative_ns",
               "self_per_call_ns", "cumulative_per_call_ns", "self_share", "cumulative_share",
               "profiles"]  # fmt: skip
    order = np.lexsort((table["function"].to_numpy(str), -table["self_ns"].to_numpy(np.int64)))
    return table.iloc[order][columns].reset_index(drop=True)


def python_hotspot(inputs: AnalysisInputs, t: Thresholds) -> list[Finding]:
    """A Python function (not a C builtin) that spends a large share of its rank's profiled
    time in its own code: the place where vectorizing or moving work pays off."""
    rows = inputs.python_profiles
    if rows is None or rows.empty:
        return []
    out = []
    for rank, group in rows.groupby("rank", sort=True):
        rank = int(rank)
        table = function_table(group)
        python = table[~table["builtin"]]
        total = int(group["self_ns"].sum())
        hot = python[(python["self_share"] >= t.python_hotspot_info)
                     & (python["self_ns"] >= t.python_hotspot_min_ns)]  # fmt: skip
        for row in hot.head(t.python_hotspots_per_rank).itertuples(index=False):
            severity = severity_of(row.self_share, t.python_hotspot_warning) or "info"
            place = f"{row.filename}:{row.line}"
            out.append(Finding(
                "python_hotspot", severity,
                f"{row.name} ({place}) takes {row.self_share:.0%} of rank {rank}'s profiled time",
                evidence(share=(float(row.self_share), "fraction"),
                          self_time=(int(row.self_ns), "ns"),
                          cumulative_time=(int(row.cumulative_ns), "ns"),
                          calls=(int(row.calls), ""),
                          self_per_call=(float(row.self_per_call_ns), "ns"),
                          profile_time=(total, "ns"), profiles=(int(row.profiles), "")),
                f"{row.name} at {place} runs {row.calls} times in plain Python. Replace its "
                "per-element loop with tensor or NumPy operations, cache or precompute what "
                "does not change between steps, and if it prepares data, move it into the "
                "Dataset so DataLoader workers (num_workers > 0) run it off the training loop.",
                {"tab": "python", "params": {"rank": rank, "q": row.name}},
                ranks=[rank], scope=f"{row.function}@rank{rank}",
            ))  # fmt: skip
    return out
