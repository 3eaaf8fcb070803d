"""A run's timeline made by pool workers (pipeline/rank_timeline.py: a task per rank for its
clock facts, one per rank for its piece, stored by the worker) answers every Timeline route as
the timeline built in the serving process does, and a rank whose task fails is made there
instead. On the demo runs (real collector runs with spans, counters and traces of two ranks)
and four ranks of the scale benchmark's NCCL run (collectives, clock skew, a straggler)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tb_perf_plugin import store as store_module
from tb_perf_plugin.pipeline import rank_summary, rank_timeline
from tb_perf_plugin.store import RunStore
from tb_perf_plugin.views.timeline import (
    timeline_event,
    timeline_meta,
    timeline_search,
    timeline_tiles,
)
from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import scale  # noqa: E402

SAMPLE_RUNS = REPO / "sample_runs"


@pytest.fixture(autouse=True)
def _on_workers_from_one_rank(monkeypatch):
    """The runs here have a few ranks: their timelines are made on the workers all the same."""
    monkeypatch.setattr(rank_summary, "MIN_RANKS_ON_WORKERS", 1)


def _answers(store: RunStore, name: str) -> str:
    """The run's Timeline routes: its meta, tiles of every rank and of each rank alone at four
    zooms, a search and the details of the events it finds."""
    meta = timeline_meta(store, name, wait_s=None)
    out: dict[str, Any] = {"meta": meta}
    ranks = [str(r["rank"]) for r in meta["ranks"]]
    for picked in [",".join(ranks), *ranks]:
        for fraction in (1.0, 0.1, 0.01, 0.001):
            start = int(meta["end"] * 0.3)
            end = start + max(int(meta["end"] * fraction), 10)
            out[f"tiles {picked} {fraction}"] = timeline_tiles(
                store, name, str(start), str(end), "1500", picked, wait_s=None
            )
    found = timeline_search(store, name, "a", "20", wait_s=None)
    out["search"] = found
    for match in found["matches"][:10]:
        key = f"event {match['rank']} {match['id']}"
        out[key] = timeline_event(store, name, str(match["rank"]), str(match["id"]), wait_s=None)
    return json.dumps(out, sort_keys=True, default=str)


def _runs(tmp_path: Path) -> list[tuple[Path, str]]:
    return [(SAMPLE_RUNS, "ddp_traced"), (SAMPLE_RUNS, "ddp_pipeline"),
            (scale.generate(4, tmp_path / "scale"), "scale4")]  # fmt: skip


def test_workers_timeline_answers_as_the_serving_process(tmp_path, monkeypatch, shared_data):
    for index, (logdir, name) in enumerate(_runs(tmp_path)):
        with monkeypatch.context() as patched:
            patched.setattr(rank_summary, "MIN_RANKS_ON_WORKERS", 10**6)
            here = RunStore(str(logdir), executor="inline", cache_dir=str(tmp_path / f"h{index}"))
            try:
                expected = _answers(here, name)
            finally:
                here.close()

        def built_here(*args, **kwargs):
            raise AssertionError("a rank's clock or piece made in the serving process")

        with monkeypatch.context() as patched:  # pool workers are other processes
            patched.setattr(store_module, "build_timeline", built_here)  # the in-process build
            patched.setattr(store_module, "rank_piece", built_here)  # a piece missing, rebuilt
            patched.setattr(rank_timeline, "rank_clock", built_here)  # a failed task's rank
            patched.setattr(rank_timeline, "rank_piece", built_here)
            pooled = RunStore(
                str(logdir), executor="process", cache_dir=str(tmp_path / f"p{index}")
            )
            pooled._pieces.capacity = 0  # every piece read from what the workers stored
            try:
                assert _answers(pooled, name) == expected, name
            finally:
                pooled.close()


@pytest.mark.parametrize("lost", ["rank_clock_task", "rank_piece_task"])
def test_a_rank_whose_task_fails_is_made_here(tmp_path, monkeypatch, lost):
    """A worker lost costs time, not a rank: the failed rank's clock facts or piece are made
    in the serving process, with the same answers."""
    expected_store = RunStore(str(SAMPLE_RUNS), executor="thread", cache_dir=str(tmp_path / "a"))
    try:
        expected = _answers(expected_store, "ddp_traced")
    finally:
        expected_store.close()
    original = getattr(rank_timeline, lost)

    def dies_on_rank_1(*args, **kwargs):
        if args[3] == 1:  # (cache_dir, max_file_bytes, own, rank, ...)
            raise OSError("the worker process died")
        return original(*args, **kwargs)

    monkeypatch.setattr(rank_timeline, lost, dies_on_rank_1)
    failing = RunStore(str(SAMPLE_RUNS), executor="thread", cache_dir=str(tmp_path / "b"))
    try:
        assert _answers(failing, "ddp_traced") == expected
    finally:
        failing.close()
