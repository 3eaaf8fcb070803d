"""The Distributed dashboard: per rank and step, computation, overlapped and exposed
communication and the rest; per collective kind and process group, calls, bytes and nccl-tests'
bandwidths, per rank and across ranks; point-to-point transfers apart (docs/ANALYSIS.md,
Distributed). `distributed_brief` is the same numbers in the summary and `tb-perf analyze`."""

from __future__ import annotations

from typing import Any

from ..analysis.collectives import POINT_TO_POINT, SPLIT, collective_table, rank_splits
from ..pipeline.analyze import RunAnalysis
from ..store import INLINE_WAIT, RunStore
from ._shared import scope

# What the brief keeps of a table row (the analyze JSON's documented shape)
BRIEF_KEYS = (
    "name", "group", "calls", "bytes", "total_ns", "mean_ns", "algo_bandwidth",
    "bus_bandwidth", "slowest_rank",
)  # fmt: skip


def distributed(
    store: RunStore, run_name: str | None, rank: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    tables = store.tables(run, None)
    selected = store.selected_rank(run, tables, rank)
    ranks, collectives, point_to_point = _numbers(analysis, selected)
    total = {key: sum(r[key] for r in ranks) for key in SPLIT}
    if collectives or point_to_point:
        reason = None
    elif ranks:
        reason = f"No communication kernels in {scope(selected)}'s traces."
    else:
        reason = (
            f"No traced steps in {scope(selected)}: the Distributed view reads torch.profiler "
            "traces with device kernels."
        )
    return {
        "run": run.name,
        "rank": selected,
        "distributed": is_distributed(analysis, len(store.ranks(run, tables))),
        "ranks": ranks,
        "total": total,
        "collectives": collectives,
        "point_to_point": point_to_point,
        "empty_reason": reason,
    }


def is_distributed(analysis: RunAnalysis, ranks: int) -> bool:
    """Whether the run is worth a Distributed view: more than one rank, or any collective."""
    return ranks > 1 or len(analysis.collectives) > 0


def distributed_brief(
    analysis: RunAnalysis, ranks: int, selected: int | None
) -> dict[str, Any] | None:
    """The summary's `distributed`: per rank its totals, per collective its pooled row (no
    per-rank rows, no steps); None for a run of one rank without collectives."""
    if not is_distributed(analysis, ranks):
        return None
    splits, collectives, point_to_point = _numbers(analysis, selected)
    return {
        "ranks": [{"rank": r["rank"], **{key: r[key] for key in SPLIT}} for r in splits],
        "collectives": [{key: row[key] for key in BRIEF_KEYS} for row in collectives],
        "point_to_point": [{key: row[key] for key in BRIEF_KEYS} for row in point_to_point],
    }


def _numbers(
    analysis: RunAnalysis, selected: int | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The selected ranks' time splits, collective rows and point-to-point rows."""
    calls = analysis.collectives
    if selected is not None:
        calls = calls[calls["rank"] == selected]
    table = collective_table(calls)
    splits = rank_splits([b for b in analysis.breakdowns if selected in (None, b.rank)])
    return (
        splits,
        [row for row in table if row["name"] != POINT_TO_POINT],
        [row for row in table if row["name"] == POINT_TO_POINT],
    )
