"""The recorded windows of a timeline (pipeline/windows.py): one per recording, overlapping
recordings joined, cut at long stretches without events."""

import numpy as np
import pytest

from tb_perf_plugin.pipeline.windows import (
    GAP_FLOOR_NS,
    SPANS_SOURCE,
    gap_threshold_ns,
    recorded_windows,
)

S = 1_000_000_000
FILES = ["logdir/run/a.pt.trace.json.gz", "logdir/run/b.pt.trace.json.gz", "c.json"]


def windows(events: list[tuple[int, int, int]], gap_ns: int = 10 * S) -> list[dict]:
    """(start, dur, source) events to the windows' JSON."""
    start, dur, source = (np.array(column, dtype=np.int64) for column in zip(*events, strict=True))
    return [w.to_json() for w in recorded_windows(start, dur, source, FILES, gap_ns)]


def test_two_trace_files_minutes_apart_are_two_windows():
    found = windows([(0, S, 0), (S // 2, S // 4, 0), (400 * S, 2 * S, 1)])
    assert found == [
        {"start_ns": 0, "end_ns": S, "label": "a", "source": "trace",
         "files": ["a.pt.trace.json.gz"]},
        {"start_ns": 400 * S, "end_ns": 402 * S, "label": "b", "source": "trace",
         "files": ["b.pt.trace.json.gz"]},
    ]  # fmt: skip


def test_separate_files_are_separate_windows_even_when_close():
    """Each recording is its own window: the rule cuts between files that do not overlap,
    however short the time between them."""
    found = windows([(0, S, 0), (S + 1, S, 1)])
    assert [(w["start_ns"], w["end_ns"]) for w in found] == [(0, S), (S + 1, 2 * S + 1)]


def test_overlapping_files_of_several_ranks_are_one_window_labelled_by_the_earliest():
    found = windows([(5, S, 1), (0, S, 0), (10, 2 * S, 2)])
    assert len(found) == 1
    assert (found[0]["start_ns"], found[0]["end_ns"]) == (0, 2 * S + 10)
    assert found[0]["files"] == ["a.pt.trace.json.gz", "b.pt.trace.json.gz", "c.json"]
    assert found[0]["label"] == "a and 2 more"


def test_traces_inside_a_collector_runs_spans_are_one_window():
    spans = [(i * S, S - 1000, SPANS_SOURCE) for i in range(100)]  # 100 one-second steps
    found = windows([*spans, (20 * S, S, 0), (70 * S, S, 1)])
    assert len(found) == 1
    window = found[0]
    assert (window["start_ns"], window["end_ns"]) == (0, 100 * S - 1000)
    assert window["source"] == "spans+trace"
    assert window["label"] == "MyTimer spans and 2 trace files"


def test_a_long_stretch_without_events_cuts_a_recording():
    """Spans of a job that paused for a minute (an evaluation with no spans): two windows."""
    spans = [(0, S, SPANS_SOURCE), (S, S, SPANS_SOURCE), (62 * S, S, SPANS_SOURCE)]
    found = windows(spans)
    assert [(w["start_ns"], w["end_ns"]) for w in found] == [(0, 2 * S), (62 * S, 63 * S)]
    assert {w["source"] for w in found} == {"spans"}
    # a gap no longer than the threshold does not cut
    assert len(windows(spans, gap_ns=60 * S)) == 1


def test_events_of_another_recording_in_a_gap_keep_the_window_whole():
    """The cut is where no event of any recording runs: a file covering the spans' pause
    joins the halves."""
    spans = [(0, S, SPANS_SOURCE), (62 * S, S, SPANS_SOURCE)]
    found = windows([*spans, (S, 61 * S, 0)])
    assert [(w["start_ns"], w["end_ns"]) for w in found] == [(0, 63 * S)]


def test_no_events_no_windows():
    empty = np.zeros(0, np.int64)
    assert recorded_windows(empty, empty, empty, [], GAP_FLOOR_NS) == []


@pytest.mark.parametrize(
    ("steps", "expected"),
    [([], GAP_FLOOR_NS), ([10_000_000] * 5, GAP_FLOOR_NS), ([S, 2 * S, 3 * S], 20 * S)],
)
def test_gap_threshold_is_ten_median_steps_at_least_a_second(steps, expected):
    assert gap_threshold_ns(steps) == expected


def _gaps_by_definition(start: np.ndarray, end: np.ndarray, gap_ns: int) -> list[tuple[int, int]]:
    """The stretches longer than gap_ns no event covers, by walking the events in start order."""
    gaps, reach = [], None
    for s, e in sorted(zip(start.tolist(), end.tolist(), strict=True)):
        if reach is not None and s - reach > gap_ns:
            gaps.append((reach, s))
        reach = e if reach is None else max(reach, e)
    return gaps


def test_windows_are_cut_exactly_at_every_gap_longer_than_the_threshold():
    """Seeded random recordings, instants included, against the definition: the windows are
    the recordings' joined extents cut at exactly those gaps."""
    rng = np.random.default_rng(19)
    for _ in range(200):
        n = int(rng.integers(1, 80))
        start = rng.integers(0, 20_000, n).astype(np.int64)
        dur = (rng.integers(0, 400, n) * (rng.random(n) < 0.9)).astype(np.int64)
        source = np.full(n, SPANS_SOURCE, dtype=np.int32)  # one recording: only gaps cut it
        gap_ns = int(rng.integers(1, 600))
        found = recorded_windows(start, dur, source, [], gap_ns)
        gaps = _gaps_by_definition(start, start + dur, gap_ns)
        edges = [int(start.min()), *[t for gap in gaps for t in gap], int((start + dur).max())]
        assert [(w.start, w.end) for w in found] == list(zip(edges[::2], edges[1::2], strict=True))
