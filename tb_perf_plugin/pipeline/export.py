"""One Chrome / Perfetto trace of a whole run: every rank aligned, pid = rank.

Written as a stream (events are formatted in batches, never held as one document), with
timestamps in microseconds relative to the run's origin (`otherData.origin_unix_ns`), which keeps
them exact in viewers that parse JSON numbers as doubles.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from typing import IO

import numpy as np

from ..ingest.tables import Kind
from .run_timeline import RunTimeline
from .timeline import KIND_NAMES, Timeline

BATCH = 50_000


def _open(path: str) -> IO[str]:
    if path.endswith(".gz"):
        return io.TextIOWrapper(gzip.open(path, "wb", compresslevel=3), encoding="utf-8")
    return open(path, "w", encoding="utf-8")


def export_trace(
    timeline: RunTimeline,
    path: str,
    ranks: set[int] | None = None,
    window: tuple[int, int] | None = None,
) -> int:
    """Write the events of `ranks` (all when None) overlapping `window` (origin-relative ns,
    the whole run when None), one rank's piece at a time. Returns the number of events
    written."""
    start, end = window if window is not None else (0, timeline.end + 1)
    chosen = timeline.ranks(ranks)
    first_lane: dict[int, int] = {}  # rank -> the index (the tid) of its first lane
    for index, lane in enumerate(timeline.lanes):
        first_lane.setdefault(lane.rank, index)

    def pieces() -> Iterator[tuple[Timeline, int, np.ndarray]]:
        """Each chosen rank's piece, its first lane's index, its events in the window."""
        for rank in chosen:
            piece = timeline.piece(rank)
            ev = piece.ev
            rows = np.flatnonzero((ev["start"] < end) & (ev["start"] + ev["dur"] >= start))
            yield piece, first_lane.get(rank, 0), rows

    flow_ids = iter(range(1, 1 << 62))
    written = 0
    with _open(path) as out:
        out.write('{"displayTimeUnit": "ms", "otherData": ')
        out.write(
            json.dumps(
                {
                    "origin_unix_ns": str(timeline.origin_ns),
                    "source": "tb-perf",
                    "alignment": {str(r): a.to_json() for r, a in timeline.alignments.items()},
                }
            )
        )
        out.write(',\n"traceEvents": [\n')
        first = True
        for chunk in (
            _metadata_events(timeline, ranks),
            (lines for piece in pieces() for lines in _slices(*piece)),
            (lines for piece in pieces() for lines in _flows(*piece, flow_ids)),
            (lines for piece, base, _ in pieces() for lines in _counters(piece, base, start, end)),
        ):
            for lines in chunk:
                if not lines:
                    continue
                out.write(("" if first else ",\n") + ",\n".join(lines))
                first = False
                written += len(lines)
        out.write("\n]}\n")
    return written


def _metadata_events(timeline: RunTimeline, ranks: set[int] | None) -> Iterator[list[str]]:
    lines = []
    for rank in sorted(timeline.alignments):
        if ranks is None or rank in ranks:
            lines.append(
                json.dumps(
                    {
                        "ph": "M",
                        "name": "process_name",
                        "pid": rank,
                        "args": {"name": f"rank {rank}"},
                    }
                )
            )
            lines.append(
                json.dumps(
                    {
                        "ph": "M",
                        "name": "process_sort_index",
                        "pid": rank,
                        "args": {"sort_index": rank},
                    }
                )
            )
    for index, lane in enumerate(timeline.lanes):
        if ranks is None or lane.rank in ranks:
            lines.append(
                json.dumps(
                    {
                        "ph": "M",
                        "name": "thread_name",
                        "pid": lane.rank,
                        "tid": index,
                        "args": {"name": lane.label},
                    }
                )
            )
            lines.append(
                json.dumps(
                    {
                        "ph": "M",
                        "name": "thread_sort_index",
                        "pid": lane.rank,
                        "tid": index,
                        "args": {"sort_index": index},
                    }
                )
            )
    yield lines


def _slices(piece: Timeline, first_lane: int, rows: np.ndarray) -> Iterator[list[str]]:
    ev, names = piece.ev, [json.dumps(n) for n in piece.names]
    kinds = {k: json.dumps(v) for k, v in KIND_NAMES.items()}
    for lo in range(0, len(rows), BATCH):
        batch = rows[lo : lo + BATCH]
        yield [
            f'{{"ph":"X","pid":{r},"tid":{lane},"ts":{s / 1000:.3f},"dur":{d / 1000:.3f},'
            f'"name":{names[n]},"cat":{kinds.get(k, kinds[Kind.OTHER])}}}'
            for r, lane, s, d, n, k in zip(
                ev["rank"][batch].tolist(),
                (ev["lane"][batch] + first_lane).tolist(),
                ev["start"][batch].tolist(),
                ev["dur"][batch].tolist(),
                ev["name"][batch].tolist(),
                ev["kind"][batch].tolist(),
                strict=True,
            )
        ]


def _flows(
    piece: Timeline, first_lane: int, rows: np.ndarray, flow_ids: Iterator[int]
) -> Iterator[list[str]]:
    """Launch -> device arrows (flow events binding to the enclosing slices), numbered from
    `flow_ids` (shared by every rank's piece)."""
    ev, partner = piece.ev, piece.partner
    launches = rows[(ev["kind"][rows] == Kind.RUNTIME) & (partner[rows] >= 0)]
    for lo in range(0, len(launches), BATCH):
        batch = launches[lo : lo + BATCH]
        lines = []
        for i, j in zip(batch.tolist(), partner[batch].tolist(), strict=True):
            flow_id = next(flow_ids)
            lines.append(
                f'{{"ph":"s","id":{flow_id},"cat":"launch","name":"launch",'
                f'"pid":{ev["rank"][i]},"tid":{ev["lane"][i] + first_lane},'
                f'"ts":{ev["start"][i] / 1000:.3f}}}'
            )
            lines.append(
                f'{{"ph":"f","bp":"e","id":{flow_id},"cat":"launch","name":"launch",'
                f'"pid":{ev["rank"][j]},"tid":{ev["lane"][j] + first_lane},'
                f'"ts":{ev["start"][j] / 1000:.3f}}}'
            )
        yield lines


def _counters(piece: Timeline, first_lane: int, start: int, end: int) -> Iterator[list[str]]:
    for index, lane in enumerate(piece.lanes, start=first_lane):
        if lane.id not in piece.counters:
            continue
        ts, values = piece.counters[lane.id]
        inside = (ts >= start) & (ts < end)
        name = json.dumps(lane.label)
        yield [
            f'{{"ph":"C","pid":{lane.rank},"tid":{index},"name":{name},'
            f'"ts":{t / 1000:.3f},"args":{{"value":{v}}}}}'
            for t, v in zip(ts[inside].tolist(), values[inside].tolist(), strict=True)
        ]
