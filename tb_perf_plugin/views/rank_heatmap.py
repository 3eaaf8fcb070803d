"""The rank heatmap panel: a metric per rank and step (at most MAX_COLUMNS step columns), the
outlier ranks with their steps, and the steps slow for everybody: the many-rank Overview
(docs/HTTP_API.md)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..analysis.findings import DEFAULT_THRESHOLDS
from ..analysis.ranks import (
    RankMatrix,
    RankMetric,
    bucket_columns,
    outlier_ranks,
    outlier_steps,
    rank_matrix,
)
from ..discovery import Run
from ..errors import InvalidArgument
from ..params import shown
from ..pipeline.read import RunTables
from ..store import INLINE_WAIT, RunStore


def rank_heatmap(
    store: RunStore, run_name: str | None, metric: str | None, wait_s: float | None = INLINE_WAIT
) -> dict[str, Any]:
    names = [m.value for m in RankMetric]
    if metric not in names:
        raise InvalidArgument(f"metric must be one of {', '.join(names)}, not {shown(metric)}")
    chosen = RankMetric(metric)
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)

    def build(tables: RunTables) -> dict[str, Any]:
        matrix = rank_matrix(chosen, tables.steps, tables.spans, analysis.breakdowns, tables.memory)
        return heatmap_json(run, matrix)

    return store.derived(run, f"rank_heatmap:{metric}", build, wait_s)


def heatmap_json(run: Run, matrix: RankMatrix) -> dict[str, Any]:
    """The rank_heatmap route's answer for one metric's matrix (analysis/ranks.py)."""
    limits = DEFAULT_THRESHOLDS
    columns = bucket_columns(matrix)
    finite = columns.values[np.isfinite(columns.values)]
    return {
        "run": run.name,
        "metric": matrix.metric.value,
        "unit": matrix.unit,
        "source": matrix.source,
        "reason": matrix.reason,
        "ranks": matrix.ranks.tolist(),
        "steps_total": len(matrix.steps),
        "bucket": columns.bucket,
        "first_steps": columns.first_steps,
        "last_steps": columns.last_steps,
        "values": [
            [round(v) if np.isfinite(v) else None for v in row.tolist()] for row in columns.values
        ],  # fmt: skip
        "min": round(float(finite.min())) if len(finite) else None,
        "max": round(float(finite.max())) if len(finite) else None,
        "outlier_ranks": [
            {
                "rank": o.rank,
                "median": round(o.median),
                "typical": round(o.typical),
                "z": round(o.z, 2),
                "direction": "high" if o.z > 0 else "low",
                "steps": o.steps,
            }
            for o in outlier_ranks(matrix, limits)
        ],  # fmt: skip
        "outlier_steps": outlier_steps(matrix, limits),
    }
