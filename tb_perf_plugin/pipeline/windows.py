"""A run's recorded windows: the stretches of time its timeline has events in, so the Timeline
can open on one recording instead of stretching its axis over the minutes between them.

The rule (docs/DASHBOARDS.md, Timeline): every recording, each trace file and the MyTimer spans
of all ranks, covers its extent (first event start to last event end, on rank 0's clock);
extents that overlap are one window (one recording traced on several ranks, or traces inside a
collector run's spans); and a window is cut wherever no event of any lane runs for longer than
`gap_threshold_ns` (ten median steps, at least a second). Counter samples (MemorySampler,
GpuTracker) run between recordings too, so they neither make nor join windows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

GAP_STEPS = 10  # a gap longer than this many median steps ends a window
GAP_FLOOR_NS = 1_000_000_000  # ... and never one shorter than this
MAX_BINS = 1 << 21  # the gap search's time bins: half a gap each, 12 days at the 1 s floor
SPANS_SOURCE = -1  # the `source` of MyTimer spans in the timeline's events
_TRACE_SUFFIXES = (".pt.trace.json.gz", ".pt.trace.json", ".json.gz", ".json")


@dataclass(frozen=True)
class Window:
    """One recorded window, in ns relative to the timeline's origin."""

    start: int
    end: int
    files: tuple[str, ...]  # base names of the trace files with events in it, earliest first
    spans: bool  # whether MyTimer spans are in it
    # each file's (first start, last end), as `files`: what orders them when windows join
    file_extents: tuple[tuple[int, int], ...] = ()

    @property
    def label(self) -> str:
        if self.spans:
            traces = len(self.files)
            return "MyTimer spans" + (
                f" and {traces} trace file{'s' * (traces > 1)}" if traces else ""
            )
        more = f" and {len(self.files) - 1} more" if len(self.files) > 1 else ""
        return _stem(self.files[0]) + more

    @property
    def source(self) -> str:
        """What the window was recorded by: trace, spans or spans+trace."""
        return "spans+trace" if self.spans and self.files else "spans" if self.spans else "trace"

    def to_json(self) -> dict[str, Any]:
        return {
            "start_ns": self.start,
            "end_ns": self.end,
            "label": self.label,
            "source": self.source,
            "files": list(self.files),
        }


def _stem(file_name: str) -> str:
    for suffix in _TRACE_SUFFIXES:
        if file_name.endswith(suffix):
            return file_name[: -len(suffix)]
    return file_name


def gap_threshold_ns(step_durations_ns: list[int]) -> int:
    """How long a stretch without events must be to end a window."""
    if not step_durations_ns:
        return GAP_FLOOR_NS
    return max(GAP_STEPS * int(np.median(step_durations_ns)), GAP_FLOOR_NS)


def recorded_windows(
    start: np.ndarray,
    dur: np.ndarray,
    source: np.ndarray,
    source_files: list[str],
    gap_ns: int,
) -> list[Window]:
    """The windows of a timeline's events (`start`, `dur`: relative ns; `source`: the index
    into `source_files` of each event's trace file, SPANS_SOURCE for a MyTimer span), in time
    order."""
    if len(start) == 0:
        return []
    end = start + dur
    extents = _source_extents(start, end, source)
    pieces = _split_at_gaps(_merge_overlapping(extents), _empty_gaps(start, end, gap_ns))
    windows = []
    for lo, hi in pieces:
        inside = sorted(
            (s for s, (a, b) in extents.items() if a <= hi and b >= lo), key=extents.__getitem__
        )
        named: dict[str, tuple[int, int]] = {}  # the earliest source of each base name
        for s in inside:
            if s != SPANS_SOURCE:
                named.setdefault(source_files[s].rsplit("/", 1)[-1], extents[s])
        windows.append(Window(lo, hi, tuple(named), SPANS_SOURCE in inside, tuple(named.values())))
    return windows


def joined_windows(windows: list[Window]) -> list[Window]:
    """Windows of several timelines on one origin (the ranks' pieces) as one timeline's:
    those that overlap joined (one recording traced on several ranks), files earliest first."""
    out: list[Window] = []
    for window in sorted(windows, key=lambda w: (w.start, w.end)):
        if out and window.start <= out[-1].end:
            last = out[-1]
            pairs = [
                *zip(last.file_extents, last.files, strict=True),
                *zip(window.file_extents, window.files, strict=True),
            ]
            named: dict[str, tuple[int, int]] = {}
            for extent, name in sorted(pairs, key=lambda pair: pair[0]):
                named.setdefault(name, extent)
            out[-1] = Window(
                last.start, max(last.end, window.end), tuple(named), last.spans or window.spans,
                tuple(named.values()),
            )  # fmt: skip
        else:
            out.append(window)
    return out


def _source_extents(
    start: np.ndarray, end: np.ndarray, source: np.ndarray
) -> dict[int, tuple[int, int]]:
    """(first start, last end) of each recording."""
    order = np.argsort(source, kind="stable")
    sources = source[order]
    first = np.flatnonzero(np.concatenate(([True], sources[1:] != sources[:-1])))
    starts = np.minimum.reduceat(start[order], first)
    ends = np.maximum.reduceat(end[order], first)
    return {
        int(s): (int(a), int(b))
        for s, a, b in zip(sources[first].tolist(), starts.tolist(), ends.tolist(), strict=True)
    }


def _merge_overlapping(extents: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for lo, hi in sorted(extents.values()):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi) for lo, hi in merged]


def _empty_gaps(start: np.ndarray, end: np.ndarray, gap_ns: int) -> list[tuple[int, int]]:
    """The stretches longer than `gap_ns` in which no event runs, in time order. Linear, with
    no sort of the events: time is cut into bins of half the gap (coarser past MAX_BINS bins),
    and such a stretch holds a whole bin no event touches; its exact edges are the latest end
    in the bin before the empty ones and the earliest start in the bin after."""
    origin = int(start.min())
    bin_ns = max(gap_ns // 2, (int(end.max()) - origin) // MAX_BINS + 1)
    first, last = (start - origin) // bin_ns, (end - origin) // bin_ns
    bins = int(last.max()) + 2
    touched = np.cumsum(np.bincount(first, minlength=bins) - np.bincount(last + 1, minlength=bins))
    empty = np.flatnonzero(touched[:-1] == 0)
    if len(empty) == 0:
        return []
    runs = np.diff(empty) > 1
    before = empty[np.concatenate(([True], runs))] - 1  # the touched bin before each empty run
    after = empty[np.concatenate((runs, [True]))] + 1  # ... and the one after it
    latest_end = np.full(bins, np.iinfo(np.int64).min)
    ending = np.flatnonzero(np.isin(last, before))
    np.maximum.at(latest_end, last[ending], end[ending])
    earliest_start = np.full(bins, np.iinfo(np.int64).max)
    starting = np.flatnonzero(np.isin(first, after))
    np.minimum.at(earliest_start, first[starting], start[starting])
    gaps = zip(latest_end[before].tolist(), earliest_start[after].tolist(), strict=True)
    return [(int(a), int(b)) for a, b in gaps if b - a > gap_ns]


def _split_at_gaps(
    extents: list[tuple[int, int]], gaps: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Cut each extent where a gap lies inside it."""
    out = []
    for lo, hi in extents:
        for gap_start, gap_end in gaps:
            if lo <= gap_start and gap_end <= hi:
                out.append((lo, gap_start))
                lo = gap_end
        out.append((lo, hi))
    return out
