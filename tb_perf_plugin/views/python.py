"""The Python dashboard: per Python function of the run's imported cProfile/pstats files,
calls, self and cumulative time, per call and as a share of the profiles' total; the files'
totals (docs/HTTP_API.md)."""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from ..analysis.python_profile import function_table
from ..discovery import Run
from ..errors import InvalidArgument
from ..ingest.python_profile import is_python_profile_name
from ..ingest.readers import FileKind
from ..params import limit_param, shown
from ..store import INLINE_WAIT, RunStore
from ._shared import scope

MAX_PYTHON_ROWS = 5000
DEFAULT_PYTHON_ROWS = 1000
PYTHON_FILE_KEYS = ("rank", "file", "total_ns", "calls", "primitive_calls")
# the python route's sort keys; numbers sort largest first, text A to Z
PYTHON_SORTS = ("self_ns", "cumulative_ns", "calls", "primitive_calls", "self_per_call_ns",
                "cumulative_per_call_ns", "function", "name", "filename")  # fmt: skip


def python(
    store: RunStore,
    run_name: str | None,
    rank: str | None = None,
    sort: str | None = None,
    query: str | None = None,
    limit: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    if sort not in (None, "", *PYTHON_SORTS):
        raise InvalidArgument(f"sort must be one of {', '.join(PYTHON_SORTS)}, not {shown(sort)}")
    key = sort or "self_ns"
    count = limit_param(limit, MAX_PYTHON_ROWS, DEFAULT_PYTHON_ROWS)
    run = store.find_run(run_name)
    tables = store.tables(run, wait_s)
    selected = store.selected_rank(run, tables, rank)
    rows, files = tables.python_profiles, tables.python_profile_files
    if selected is not None:
        rows, files = rows[rows["rank"] == selected], files[files["rank"] == selected]
    total_ns = int(files["total_ns"].sum())
    every = function_table(rows, total_ns)
    table = every
    if query:
        table = table[table["function"].str.contains(query, case=False, regex=False)]
    numeric = key not in ("function", "name", "filename")
    table = table.sort_values(key, ascending=not numeric, kind="stable", na_position="last")
    warnings = _python_warnings(run, tables.warnings)
    empty = (
        None
        if len(table)
        else empty_reason(len(files), len(every), query, bool(warnings), selected)
    )
    return {
        "run": run.name,
        "rank": selected,
        "sort": key,
        "q": query or None,
        "total_ns": total_ns,
        "calls": int(files["calls"].sum()),
        "primitive_calls": int(files["primitive_calls"].sum()),
        "functions": len(every),
        "total_rows": len(table),
        "rows": python_rows(table.head(count)),
        "files": [
            {key: f[key] if key == "file" else int(f[key]) for key in PYTHON_FILE_KEYS}
            for f in files.sort_values(["rank", "file"]).to_dict(orient="records")
        ],
        "warnings": warnings,
        "empty_reason": empty,
    }


def python_rows(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The python route's rows: times in integer ns (per-call means rounded), shares to six
    decimals, null where a function has no calls to divide by."""
    out = []
    for row in table.itertuples(index=False):
        out.append({
            "function": row.function, "filename": row.filename, "line": int(row.line),
            "name": row.name, "builtin": bool(row.builtin), "calls": int(row.calls),
            "primitive_calls": int(row.primitive_calls), "self_ns": int(row.self_ns),
            "cumulative_ns": int(row.cumulative_ns),
            "self_per_call_ns": None if pd.isna(row.self_per_call_ns)
            else round(row.self_per_call_ns),
            "cumulative_per_call_ns": None if pd.isna(row.cumulative_per_call_ns)
            else round(row.cumulative_per_call_ns),
            "self_share": None if pd.isna(row.self_share) else round(row.self_share, 6),
            "cumulative_share": None if pd.isna(row.cumulative_share)
            else round(row.cumulative_share, 6),
            "profiles": int(row.profiles),
        })  # fmt: skip
    return out


def _python_warnings(run: Run, warnings: list[str]) -> list[str]:
    """The run's warnings about its cProfile/pstats files (unreadable, refused, in progress)."""
    names = [os.path.basename(f.path) for f in run.imported
             if f.kind is FileKind.PSTATS or is_python_profile_name(f.path)]  # fmt: skip
    return [w for w in warnings if any(name in w for name in names)]


def empty_reason(
    files: int, functions: int, query: str | None, unreadable: bool, selected: int | None
) -> str:
    """Why the python route has no rows: no (readable) profile files, none with functions, or
    none matching `query`."""
    if not files and unreadable:
        return f"No readable cProfile/pstats files in {scope(selected)}: see the warnings."
    if not files:
        return (
            f"No cProfile/pstats files in {scope(selected)} (drop .prof files into the run "
            "directory or its plugins/tb_perf/imported/, or use `tb-perf ingest`)."
        )
    if not functions:
        return "The run's cProfile/pstats files hold no functions."
    return f"No function matches {query!r}." if query else "No function matches."
