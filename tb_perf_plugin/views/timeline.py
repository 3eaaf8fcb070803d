"""The Timeline dashboard: every rank's lanes on rank 0's clock, served as tiles of a window,
one event's details, and search (docs/HTTP_API.md, timeline)."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidArgument, NotFound
from ..params import int_param, limit_param, rank_param, rank_set
from ..pipeline.timeline import MAX_WIDTH_PX
from ..store import INLINE_WAIT, RunStore
from ._shared import empty_run

MAX_SEARCH_RESULTS = 1000
DEFAULT_SEARCH_RESULTS = 100


def timeline_meta(
    store: RunStore, run_name: str | None, wait_s: float | None = INLINE_WAIT
) -> dict[str, Any]:
    run = store.find_run(run_name)
    empty = empty_run(run, store.tables(run, wait_s))
    if empty is not None:  # the store's own message, and what the run holds instead
        raise NotFound(f"run {run.name!r} has no trace events or MyTimer spans to draw. {empty[0]}")
    timeline = store.timeline(run, wait_s)
    ranks = []
    for rank in sorted(timeline.alignments):
        ranks.append(
            {
                "rank": rank,
                "alignment": timeline.alignments[rank].to_json(),
                "lanes": [lane.to_json() for lane in timeline.lanes if lane.rank == rank],
            }
        )
    return {
        "run": run.name,
        "origin_ns": str(timeline.origin_ns),
        "start": 0,
        "end": timeline.end,
        "ranks": ranks,
        "steps": timeline.steps_json(),
        "windows": [window.to_json() for window in timeline.windows],
        "events": timeline.n_events,
    }


def timeline_tiles(
    store: RunStore,
    run_name: str | None,
    start: str | None,
    end: str | None,
    width_px: str | None,
    ranks: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    run = store.find_run(run_name)
    first, last = int_param(start, "start"), int_param(end, "end")
    width = int_param(width_px, "width_px", 1, MAX_WIDTH_PX)
    if last <= first:
        raise InvalidArgument(f"end ({last}) must be greater than start ({first})")
    timeline = store.timeline(run, wait_s)
    return timeline.tiles(first, last, width, rank_set(ranks, sorted(timeline.alignments)))


def timeline_event(
    store: RunStore,
    run_name: str | None,
    rank: str | None,
    event_id: str | None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    run = store.find_run(run_name)
    identifier = int_param(event_id, "id", 0)
    timeline = store.timeline(run, wait_s)
    selected = rank_param(sorted(timeline.alignments), rank)
    event = timeline.event(selected if selected is not None else -1, identifier)
    if event is None:
        raise NotFound(f"no event {identifier} on rank {rank} of run {run.name!r}")
    return event


def timeline_search(
    store: RunStore,
    run_name: str | None,
    text: str | None,
    limit: str | None = None,
    ranks: str | None = None,
    wait_s: float | None = INLINE_WAIT,
) -> dict[str, Any]:
    run = store.find_run(run_name)
    if not text:
        raise InvalidArgument("the 'q' parameter is required")
    count = limit_param(limit, MAX_SEARCH_RESULTS, DEFAULT_SEARCH_RESULTS)
    timeline = store.timeline(run, wait_s)
    return timeline.search(text, count, rank_set(ranks, sorted(timeline.alignments)))
