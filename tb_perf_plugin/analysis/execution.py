"""Execution summary: per rank, the step-time breakdown's categories as a mean per step and a
share of step time (torch-tb-profiler's Overview table; its category names: docs/ANALYSIS.md).
Pure function over StepBreakdowns."""

from __future__ import annotations

from typing import Any

from .breakdown import CATEGORIES, StepBreakdown


def execution_summary(breakdowns: list[StepBreakdown]) -> list[dict[str, Any]]:
    """Per rank with breakdowns: `steps` (windows broken down: steps, or whole traces of a
    rank without steps), `step_ns` (their mean length) and per category of CATEGORIES
    `{ns_per_step, share}`, share a fraction 0..1 of the windows' total."""
    out = []
    for rank in sorted({b.rank for b in breakdowns}):
        mine = [b for b in breakdowns if b.rank == rank]
        total = sum(b.duration_ns for b in mine)
        categories = {}
        for category in CATEGORIES:
            spent = sum(b.ns[category] for b in mine)
            categories[category] = {
                "ns_per_step": round(spent / len(mine)),
                "share": spent / total if total else 0.0,
            }
        out.append({
            "rank": rank,
            "steps": len(mine),
            "step_ns": round(total / len(mine)),
            "categories": categories,
        })  # fmt: skip
    return out
