"""What several views share: JSON-safe series and the words of their empty reasons."""

from __future__ import annotations

from typing import Any

import numpy as np

MAX_SERIES_POINTS = 2000  # points of a series in an answer (bucket means beyond)


def nullable(values: np.ndarray, digits: int | None = None) -> list[Any] | None:
    """JSON numbers (ints, or floats rounded to `digits`), null where NaN; None if all are."""
    finite = np.isfinite(values)
    if not finite.any():
        return None
    if digits is None:
        return [round(v) if ok else None for v, ok in zip(values.tolist(), finite, strict=True)]
    return [round(v, digits) if ok else None for v, ok in zip(values.tolist(), finite, strict=True)]


def scope(selected: int | None) -> str:
    """What an empty reason speaks of: the run, or the selected rank of it."""
    return "this run" if selected is None else f"rank {selected} of this run"


def its_traces(traces: int) -> str:
    return "its trace holds" if traces == 1 else f"its {traces} traces hold"
