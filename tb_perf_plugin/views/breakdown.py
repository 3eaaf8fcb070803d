"""The breakdown panel: each traced step's time partitioned by category, per rank
(docs/ANALYSIS.md)."""

from __future__ import annotations

from typing import Any

from ..analysis.breakdown import CATEGORIES
from ..store import INLINE_WAIT, RunStore


def breakdown(
    store: RunStore, run_name: str | None, rank: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:  # fmt: skip
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    selected = store.selected_rank(run, store.tables(run, None), rank)
    steps = [b for b in analysis.breakdowns if selected is None or b.rank == selected]
    ranks = sorted({b.rank for b in steps})
    return {
        "run": run.name,
        "categories": list(CATEGORIES),
        "ranks": [{"rank": r, "steps": [b.to_json() for b in steps if b.rank == r]} for r in ranks],
    }
