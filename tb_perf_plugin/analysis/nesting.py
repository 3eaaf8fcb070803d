"""Nesting of the intervals of one thread, as profilers record them."""

from __future__ import annotations

import numpy as np


def nesting_depth(start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Depth of each interval: how many earlier intervals are still open when it starts.
    Inputs sorted by (start, -duration).

    `earlier open = earlier - earlier ended by its start`; all intervals ended by a start are
    found by one bisection, minus the zero-length ones at that very start that come after it
    in the order (they end "by" it without being earlier).
    """
    n = len(start)
    index = np.arange(n)
    ended = np.searchsorted(np.sort(end), start, side="right")
    zero = end == start
    first_same = np.searchsorted(start, start, side="left")
    last_same = np.searchsorted(start, start, side="right") - 1
    zeros_before = np.concatenate(([0], np.cumsum(zero)))
    zeros_at_start = zeros_before[last_same + 1] - zeros_before[first_same]
    # zero-length intervals sort last among those with the same start
    ended_later = np.where(zero, last_same - index + 1, zeros_at_start)
    return np.maximum(index - (ended - ended_later), 0)
