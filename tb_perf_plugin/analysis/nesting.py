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


def group_start_longest_first(group: np.ndarray, start: np.ndarray, dur: np.ndarray) -> np.ndarray:
    """The order by (group, start, -dur), for groups numbered from 0 (lanes, threads). Two
    stable argsorts, the second on one int64 key that sorts like (group, start): np.lexsort
    over millions of rows is several times slower. Falls back to it where the key would not
    fit in 63 bits."""
    if not len(start):
        return np.zeros(0, dtype=np.int64)
    start = start - start.min()
    start_bits = max(int(start.max()).bit_length(), 1)
    if int(group.max()).bit_length() + start_bits > 62:
        return np.lexsort((-dur, start, group))
    by_dur = np.argsort(-dur, kind="stable")
    key = (group.astype(np.int64) << start_bits) | start
    return by_dur[np.argsort(key[by_dur], kind="stable")]
