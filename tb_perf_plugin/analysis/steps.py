"""Step-time statistics. Formulas are documented in docs/HTTP_API.md (`summary`)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def nearest_rank(sorted_values: np.ndarray, fraction: float) -> int:
    """The nearest-rank percentile: the ceil(fraction × n)-th smallest value."""
    index = max(math.ceil(fraction * len(sorted_values)) - 1, 0)
    return int(sorted_values[index])


def step_time_stats(steps: pd.DataFrame) -> dict[str, int] | None:
    """mean, p50, p95, min, max and total of `t1 - t0` over completed steps (None if none)."""
    if steps.empty:
        return None
    durations = np.sort((steps["t1"] - steps["t0"]).to_numpy(np.int64))
    return {
        "mean": int(durations.sum() // len(durations)),
        "p50": nearest_rank(durations, 0.50),
        "p95": nearest_rank(durations, 0.95),
        "min": int(durations[0]),
        "max": int(durations[-1]),
        "total": int(durations.sum()),
    }


def step_series(steps: pd.DataFrame, max_points: int) -> tuple[list[int], list[int], int]:
    """Step numbers and step times, in buckets of consecutive steps if there are too many.

    Returns (first step of each bucket, mean step time of the bucket, bucket size).
    """
    ordered = steps.sort_values("step", kind="stable")
    numbers = ordered["step"].to_numpy(np.int64)
    durations = (ordered["t1"] - ordered["t0"]).to_numpy(np.int64)
    bucket = max(1, math.ceil(len(numbers) / max_points))
    if bucket == 1:
        return numbers.tolist(), durations.tolist(), 1
    starts = np.arange(0, len(numbers), bucket)
    sums = np.add.reduceat(durations, starts)
    counts = np.diff(np.append(starts, len(numbers)))
    return numbers[starts].tolist(), (sums // counts).tolist(), bucket
