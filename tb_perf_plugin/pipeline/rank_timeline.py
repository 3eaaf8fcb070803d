"""Each rank's share of a run's timeline, made where its traces are: a worker of the executor
maps them from the store and makes the rank's clock facts (`lanes.RankClock`: a few numbers
and its collectives), then, once the serving process has aligned every rank's clock from
those, the rank's piece, which the worker stores in the result cache as the serving process
would and answers with the piece's share of the outline (`run_timeline.PieceOutline`). The
serving process never builds a piece nor maps a rank's events while the timeline is made; a
rank whose task fails is made there instead.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from ..analysis.align import Alignment
from ..errors import OverLimit
from ..executor import submitted_ahead
from ..ingest.cache import TraceCache
from .lanes import RankClock, rank_clock, rank_input, rank_piece, run_clock
from .rank_summary import TraceRef, opened, trace_refs
from .read import RunTables, TraceFile
from .result_cache import ResultCache
from .run_timeline import PieceOutline, TimelineOutline, outline
from .timeline import Timeline

logger = logging.getLogger(__name__)

T = TypeVar("T")


def rank_clock_task(
    cache_dir: str, max_file_bytes: int, own: RunTables, rank: int, refs: list[TraceRef]
) -> RankClock:
    """On a worker: the rank's clock facts from its records (`own`, `RunTables.of_rank`) and
    its traces (`refs`), mapped from the store."""
    traces = opened(TraceCache(cache_dir), rank, refs, max_file_bytes)
    try:
        return rank_clock(dataclasses.replace(own, traces=traces), rank, traces)
    finally:  # the worker's next task is another rank's
        for trace in traces:
            trace.release_pages()


def rank_piece_task(
    cache_dir: str,
    max_file_bytes: int,
    own: RunTables,
    rank: int,
    refs: list[tuple[int, TraceRef]],
    placed: tuple[Alignment, int, int],
    entry: str,
) -> PieceOutline:
    """On a worker: the rank's piece of the timeline, aligned and on the run's origin and gap
    (`placed`), stored in the result cache as its `entry` (`result_key`, which the serving
    process looks it up by; its traces named by their index in the run, `refs`); the piece's
    share of the outline."""
    traces = opened(TraceCache(cache_dir), rank, [ref for _, ref in refs], max_file_bytes)
    try:
        alignment, origin, gap = placed
        tables = dataclasses.replace(own, traces=traces)
        piece = rank_piece(rank_input(tables, rank, alignment), origin, gap)
        indexed = {index: trace for (index, _), trace in zip(refs, traces, strict=True)}
        if not ResultCache(cache_dir).store_as(entry, f"timeline:{rank}", piece, indexed):
            raise OSError(f"rank {rank}'s timeline piece could not be stored")
        return PieceOutline.of(rank, piece)
    finally:
        for trace in traces:
            trace.release_pages()


def build_timeline_on(
    executor: concurrent.futures.Executor,
    tables: RunTables,
    cache_dir: str,
    max_file_bytes: int,
    entry: Callable[[int], str],
    keep: Callable[[int, Timeline], None],
) -> TimelineOutline:
    """The run's timeline made by `executor`'s workers (they write the store in `cache_dir`):
    one task per rank for its clock facts, then one per rank for its piece, stored as
    `entry(rank)`, each submitted a window of ranks ahead (`submitted_ahead`); the outline
    merged here from the pieces' shares, in rank order. A rank
    whose task fails is made here (its piece handed to `keep`, as `lanes.build_timeline`
    does)."""
    ranks = tables.ranks
    traces: dict[int, list[tuple[int, TraceFile]]] = {rank: [] for rank in ranks}
    for index, trace in enumerate(tables.traces):
        traces[trace.rank].append((index, trace))

    def own(rank: int) -> list[TraceFile]:
        return [trace for _, trace in traces[rank]]

    def indexed_refs(rank: int) -> list[tuple[int, TraceRef]]:
        indices = [index for index, _ in traces[rank]]
        return list(zip(indices, trace_refs(own(rank)), strict=True))

    clock_tasks = submitted_ahead(executor, (
        (rank_clock_task, (cache_dir, max_file_bytes, tables.of_rank(rank), rank,
                           trace_refs(own(rank))))
        for rank in ranks
    ))  # fmt: skip

    alignments, origin, gap = run_clock(
        done_or_here(ranks, clock_tasks, "clock", lambda rank: rank_clock(tables, rank, own(rank)))
    )
    piece_tasks = submitted_ahead(executor, (
        (rank_piece_task, (cache_dir, max_file_bytes, tables.of_rank(rank), rank,
                           indexed_refs(rank), (alignments[rank], origin, gap), entry(rank)))
        for rank in ranks
    ))  # fmt: skip

    def piece_here(rank: int) -> PieceOutline:
        piece = rank_piece(rank_input(tables, rank, alignments[rank]), origin, gap)
        keep(rank, piece)
        return PieceOutline.of(rank, piece)

    shares = done_or_here(ranks, piece_tasks, "timeline", piece_here)
    return outline(origin, gap, shares)


def done_or_here(
    ranks: list[int],
    tasks: Iterable[concurrent.futures.Future[T]],
    what: str,
    here: Callable[[int], T],
) -> Iterator[T]:
    """Each rank's task's result, in rank order; a rank whose task failed (its worker lost,
    say) made by `here` instead, with a log line."""
    for rank, task in zip(ranks, tasks, strict=True):
        try:
            yield task.result()
        except OverLimit:  # made here it would take the serving process' time instead
            raise
        except Exception as exc:  # made here: a bug of ours raises here too
            logger.warning("tb_perf: rank %d's %s task failed (%s)", rank, what, exc)
            yield here(rank)
