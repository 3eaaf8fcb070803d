"""A run's timeline kept per rank, so that serving it costs what is shown, not the job's size.

Each rank's events are a `Timeline` of their own (a *piece*: its lanes, levels, names, event
details), built one rank at a time on the run's origin and stored apart (the store keeps the
pieces in its result cache and a few in memory). What every rank shares — lanes, steps,
recorded windows, clock alignments, the run's names — is the `TimelineOutline`, small (ranks
x lanes and steps). `RunTimeline` answers the Timeline's routes from the outline and the
pieces of the ranks asked for: tiles merge the wanted ranks' pieces (timeline.tiles), details
read one rank's piece, search reads only the pieces whose names match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..analysis.align import Alignment
from .timeline import Lane, Timeline, tiles
from .windows import Window, joined_windows


@dataclass
class TimelineOutline:
    """What the Timeline shows of every rank, without their events."""

    origin_ns: int
    gap_ns: int  # a stretch without events this long ends a recorded window (windows.py)
    end: int  # relative to the origin
    alignments: dict[int, Alignment]
    lanes: list[Lane]  # every rank's, in display order
    rank_steps: dict[int, list[tuple[int, int, int]]]  # (step, start, end) on rank 0's clock
    windows: list[Window]
    n_events: int
    names: list[str] = field(default_factory=list)  # every rank's event names, once each
    rank_names: dict[int, np.ndarray] = field(default_factory=dict)  # rank -> its ids in names

    def steps_json(self) -> list[dict[str, int]]:
        """Each step's extent over all ranks, relative to the origin."""
        merged: dict[int, list[int]] = {}
        for steps in self.rank_steps.values():
            for step, s, e in steps:
                bounds = merged.setdefault(step, [s, e])
                bounds[0], bounds[1] = min(bounds[0], s), max(bounds[1], e)
        return [
            {"step": step, "start": s - self.origin_ns, "end": e - self.origin_ns}
            for step, (s, e) in sorted(merged.items())
        ]


@dataclass
class PieceOutline:
    """A rank's share of the outline: what `outline` takes of its piece (a worker that builds
    the piece sends this, not the piece)."""

    rank: int
    end: int
    alignments: dict[int, Alignment]
    lanes: list[Lane]
    rank_steps: dict[int, list[tuple[int, int, int]]]
    windows: list[Window]
    n_events: int
    names: list[str]

    @classmethod
    def of(cls, rank: int, piece: Timeline) -> PieceOutline:
        return cls(rank, piece.end, piece.alignments, piece.lanes, piece.rank_steps,
                   piece.windows, piece.n_events, piece.names)  # fmt: skip


def outline(origin_ns: int, gap_ns: int, shares: Iterable[PieceOutline]) -> TimelineOutline:
    """The outline of pieces built on one origin and gap, from their shares in rank order
    (consumed one at a time: each piece may be dropped once its share is taken)."""
    found = TimelineOutline(origin_ns, gap_ns, 0, {}, [], {}, [], 0)
    ids: dict[str, int] = {}
    for share in shares:
        found.end = max(found.end, share.end)
        found.alignments.update(share.alignments)
        found.lanes += share.lanes
        found.rank_steps.update(share.rank_steps)
        found.windows += share.windows
        found.n_events += share.n_events
        found.rank_names[share.rank] = np.array(
            [ids.setdefault(name, len(ids)) for name in share.names], dtype=np.int32
        )
    found.names = list(ids)
    found.windows = joined_windows(found.windows)
    return found


class RunTimeline:
    """The Timeline's answers for a run: its outline, and each rank's piece from `piece`."""

    def __init__(
        self,
        outline: TimelineOutline,
        piece: Callable[[int], Timeline],
        ready: Callable[[list[int]], None] = lambda ranks: None,
    ) -> None:
        """`ready`: called with the ranks a tile is about to take the pieces of (a store at a
        URL fetches those it lacks together, not one rank after another)."""
        self.outline = outline
        self.piece = piece
        self.ready = ready
        self.origin_ns = outline.origin_ns
        self.end = outline.end
        self.alignments = outline.alignments
        self.lanes = outline.lanes
        self.windows = outline.windows
        self.n_events = outline.n_events

    def ranks(self, wanted: set[int] | None) -> list[int]:
        return [r for r in sorted(self.alignments) if wanted is None or r in wanted]

    def steps_json(self) -> list[dict[str, int]]:
        return self.outline.steps_json()

    def tiles(
        self, start: int, end: int, width_px: int, ranks: set[int] | None = None
    ) -> dict[str, Any]:
        wanted = self.ranks(ranks)
        self.ready(wanted)
        return tiles([self.piece(r) for r in wanted], start, end, width_px)

    def event(self, rank: int, event_id: int) -> dict[str, Any] | None:
        if rank not in self.alignments:
            return None
        return self.piece(rank).event(rank, event_id)

    def search(self, text: str, limit: int, ranks: set[int] | None = None) -> dict[str, Any]:
        """Matches of every wanted rank in time order: only the pieces holding a matching
        name are read."""
        needle = text.lower()
        names = self.outline.names
        matching = np.array([i for i, n in enumerate(names) if needle in n.lower()], np.int32)
        total, matches = 0, []
        for rank in self.ranks(ranks):
            if not np.isin(self.outline.rank_names.get(rank, matching[:0]), matching).any():
                continue
            found = self.piece(rank).search(text, limit)
            total += found["total"]
            matches += found["matches"]
        matches.sort(key=lambda m: m["start"])
        return {"total": total, "matches": matches[:limit]}
