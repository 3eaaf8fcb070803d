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


def nesting_parents(
    thread: np.ndarray, start: np.ndarray, end: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For events sorted by (thread, start, -duration), each one's depth (the events of its
    thread open when it starts) and the index of its direct parent (-1 at the top): the last
    event one level up that started before it and is still open when it starts."""
    n = len(start)
    depth = np.zeros(n, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    bounds = np.flatnonzero(np.concatenate(([True], thread[1:] != thread[:-1], [True])))
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        s, e = start[lo:hi], end[lo:hi]
        depth[lo:hi] = d = nesting_depth(s, e)
        for level in range(1, int(d.max(initial=0)) + 1):
            children = np.flatnonzero(d == level)
            candidates = np.flatnonzero(d == level - 1)
            # the parent is the last shallower event that started before the child
            at = np.searchsorted(candidates, children, side="right") - 1
            found = at >= 0
            p = candidates[at[found]]
            # open when the child starts (a launch timed by the driver may end a little after
            # its op: the two clocks differ by a few hundred ns)
            inside = e[p] > s[children[found]]
            parent[lo + children[found][inside]] = lo + p[inside]
    return depth, parent
