"""The timeline kept per rank (pipeline/run_timeline.py): its pieces answer as one timeline of
every rank would, windows of several ranks join, what is loaded stays bounded, and a piece
lost from the cache is built again the same. On the demo runs (real collector runs with
traces of two ranks)."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from tb_perf_plugin.analysis.align import Alignment, Method
from tb_perf_plugin.pipeline.lanes import build_timeline, rank_clock, rank_input, run_clock
from tb_perf_plugin.pipeline.result_cache import result_key
from tb_perf_plugin.pipeline.run_timeline import RunTimeline
from tb_perf_plugin.pipeline.steps import align_run
from tb_perf_plugin.pipeline.timeline import Timeline, step_durations, tiles
from tb_perf_plugin.pipeline.windows import Window, gap_threshold_ns, joined_windows
from tb_perf_plugin.store import PieceCache, RunStore

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
RUNS = ("ddp_traced", "ddp_pipeline", "ddp_compiled")


def _inputs(tables):
    alignments = align_run(tables)
    return {
        rank: rank_input(tables, rank, alignments.get(rank, Alignment(rank, Method.NONE)))
        for rank in tables.ranks
    }


def _without_ids(tile):
    """A tile's boxes and flows without event ids (one timeline of every rank numbers its
    events across ranks; the pieces within each rank) and with names as text."""
    names = tile["names"]
    lanes = [
        {
            "id": lane["id"],
            **{k: v for k, v in lane["boxes"].items() if k not in ("id", "name")},
            "names": [names[n] for n in lane["boxes"]["name"]],
        }
        for lane in tile["lanes"]
    ]
    flows = sorted((f["from_lane"], f["to_lane"], f["start"], f["end"]) for f in tile["flows"])
    return lanes, tile["counters"], flows, tile["ns_per_px"]


@pytest.mark.parametrize("run_name", RUNS)
def test_pieces_answer_as_one_timeline_of_every_rank(tmp_path, run_name):
    store = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    try:
        tables = store.tables(store.find_run(run_name))
        inputs = _inputs(tables)
        whole = Timeline(list(inputs.values()))  # every rank in one, as the timeline once was
        kept: dict[int, Timeline] = {}
        outline = build_timeline(tables, kept.__setitem__)
    finally:
        store.close()
    assert len(kept) == len(inputs) >= 2
    run = RunTimeline(outline, kept.__getitem__)
    assert (run.origin_ns, run.end, run.n_events) == (whole.origin_ns, whole.end, whole.n_events)
    assert [lane.to_json() for lane in run.lanes] == [lane.to_json() for lane in whole.lanes]
    assert run.steps_json() == outline.steps_json() and outline.rank_steps == whole.rank_steps
    assert [w.to_json() for w in run.windows] == [w.to_json() for w in whole.windows]
    for fraction in (1.0, 0.1, 0.01, 0.001):
        start = int(whole.end * 0.3)
        end = start + max(int(whole.end * fraction), 10)
        merged = run.tiles(start, end, 1500)
        assert merged["lanes"], (run_name, fraction)
        assert _without_ids(merged) == _without_ids(tiles([whole], start, end, 1500))
    # search and details: the pieces' ids count within each rank
    needle = whole.names[int(whole.ev["name"][-1])].lower()  # a name the last rank has
    named = np.isin(whole.ev["name"], [i for i, n in enumerate(whole.names) if needle in n.lower()])
    assert run.search(needle, 10)["total"] == int(named.sum()) > 0
    for rank in sorted(inputs):
        found = run.search(needle, 1000, {rank})
        assert found["total"] == int((named & (whole.ev["rank"] == rank)).sum())
        for match in found["matches"][:5]:
            event = run.event(rank, match["id"])
            assert event is not None and event["name"] == match["name"]
            assert (event["start"], event["lane"]) == (match["start"], match["lane"])
    assert run.event(max(inputs) + 1, 0) is None


def test_origin_and_gap_are_found_without_building_the_pieces(tmp_path):
    """The ranks' clock facts (a few numbers and their collectives, what a worker sends for
    its rank) give the alignments, the run's origin and the window gap of the whole
    timeline."""
    store = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    try:
        tables = store.tables(store.find_run("ddp_traced"))
    finally:
        store.close()
    inputs = _inputs(tables)
    alignments, origin, gap = run_clock(
        rank_clock(tables, rank, traces) for rank, traces in tables.rank_traces()
    )
    whole = Timeline(list(inputs.values()))
    assert alignments == align_run(tables) == whole.alignments
    assert origin == whole.origin_ns
    assert gap == gap_threshold_ns(step_durations(whole.rank_steps))
    assert [Timeline([i], origin, gap).origin_ns for i in inputs.values()] == [origin] * 2


def test_windows_of_several_ranks_join_with_their_files_earliest_first():
    rank0 = [Window(0, 100, ("a0", "b0"), False, ((0, 50), (60, 100))), Window(500, 600, (), True)]
    rank1 = [Window(40, 120, ("a1",), False, ((40, 120),))]
    joined = joined_windows([*rank0, *rank1])
    assert [(w.start, w.end, w.files, w.spans) for w in joined] == [
        (0, 120, ("a0", "a1", "b0"), False),
        (500, 600, (), True),
    ]


def test_the_piece_cache_keeps_at_most_its_capacity():
    cache = PieceCache(capacity=2)
    loads: list[str] = []

    def loader(name: str):
        return lambda: loads.append(name) or name

    for key in ("a", "b", "a", "c", "b"):  # "b" was the least recently used when "c" came
        cache.get((key,), loader(key))
    assert loads == ["a", "b", "c", "b"]


def test_a_piece_lost_from_the_cache_is_built_again_the_same(tmp_path):
    logdir = tmp_path / "logdir"
    shutil.copytree(SAMPLE_RUNS / "ddp_traced", logdir / "ddp_traced")
    cache = tmp_path / "cache"
    first = RunStore(str(logdir), cache_dir=str(cache))
    run = first.find_run("ddp_traced")
    timeline = first.timeline(run)
    before = timeline.tiles(0, timeline.end, 2000)
    signature, settings = first.tables(run).signature, first.result_cache.settings
    first.close()
    for rank in sorted(timeline.alignments):  # one piece per rank
        shutil.rmtree(cache / "results" / result_key(f"timeline:{rank}", signature, settings))
    restarted = RunStore(str(logdir), cache_dir=str(cache))
    try:
        again = restarted.timeline(restarted.find_run("ddp_traced"))
        assert again.tiles(0, again.end, 2000) == before
        assert restarted.result_cache.counts.stored == 2  # the two pieces, built again
    finally:
        restarted.close()


def test_a_store_deleted_under_a_running_server_is_built_again(tmp_path, caplog):
    """The run's whole store (parsed traces and stored pieces) removed while the server runs,
    nothing of it kept in memory: the Timeline answers the same, from the tables still mapped
    (the pieces built again), with no error and no warning."""
    logdir = tmp_path / "logdir"
    shutil.copytree(SAMPLE_RUNS / "ddp_traced", logdir / "ddp_traced")
    cache = tmp_path / "cache"
    store = RunStore(str(logdir), cache_dir=str(cache))
    store._pieces = PieceCache(capacity=0)  # every piece read from the store when shown
    try:
        run = store.find_run("ddp_traced")
        timeline = store.timeline(run)
        before = timeline.tiles(0, timeline.end, 2000)
        shutil.rmtree(cache / "results")
        shutil.rmtree(cache / "traces")
        misses = store.result_cache.counts.misses
        again = store.timeline(run)
        assert again.tiles(0, again.end, 2000) == before
        assert store.result_cache.counts.misses == misses + 2  # both ranks' pieces, built again
        assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]
    finally:
        store.close()
