"""The on-disk cache of derived results (pipeline/result_cache.py): a restarted server answers
every route exactly as the first one did and computes nothing; damaged, foreign and hostile
entries are computed again; live runs' results are not stored."""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tb_perf_plugin.analysis.critical_path import StepCriticalPath
from tb_perf_plugin.pipeline import cache_keys, result_cache
from tb_perf_plugin.pipeline.cache_keys import still_written
from tb_perf_plugin.pipeline.result_cache import ResultCache, result_key
from tb_perf_plugin.store import RunStore
from tests.conftest import REPO, SHARED_DATA
from tests.plugin.conftest import PluginClient
from tests.plugin.test_route_hardening import MAGMA, ROUTES, SNAPSHOT
from tests.plugin.test_route_hardening import SAMPLE_RUNS as RUN_NAMES

SAMPLE_RUNS = REPO / "sample_runs"


def _answers(client: PluginClient, routes: dict[str, dict[str, str]]) -> dict[str, object]:
    return {route: client.json(route.lstrip("/"), **params) for route, params in routes.items()}


def test_a_restarted_server_answers_every_route_the_same_without_computing(tmp_path):
    """Every route with valid parameters (the hardening test's table), on copies of the demo
    runs with a real snapshot in ddp_leak (the snapshot routes are left out without it)."""
    for name in RUN_NAMES:
        shutil.copytree(SAMPLE_RUNS / name, tmp_path / name)
    routes = ROUTES
    if (SHARED_DATA / MAGMA).is_file():
        shutil.copyfile(SHARED_DATA / MAGMA, tmp_path / "ddp_leak" / SNAPSHOT)
    else:
        routes = {r: p for r, p in ROUTES.items() if not r.startswith("/snapshot")}
    cold = PluginClient(tmp_path)
    first = _answers(cold, routes)
    cold_counts = cold.plugin._store.result_cache.counts
    # every result looked up was computed and stored, and so was each rank's piece of the
    # timeline (the routes draw ddp_traced's), stored as it is built without a lookup of its own
    store = cold.plugin._store
    pieces = len(store.timeline(store.find_run("ddp_traced")).alignments)
    assert pieces == 2 and cold_counts.misses > 0
    assert cold_counts.stored == cold_counts.misses + pieces

    warm = PluginClient(tmp_path)  # a new process's store, the same cache folder
    assert _answers(warm, routes) == first
    counts = warm.plugin._store.result_cache.counts
    assert counts.misses == 0 and counts.hits == cold_counts.stored


def test_a_stored_result_is_served_read_only_with_the_tables_read(tmp_path):
    store = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    run = store.find_run("ddp_traced")
    timeline = store.timeline(run)  # stored, then served as a restart serves it
    tables = store.tables(run)
    for rank in sorted(timeline.alignments):
        piece = timeline.piece(rank)
        assert not piece.ev["start"].flags.writeable
        # the traces are the run's own handles (not copies), opened only when a detail asks
        assert [id(t) for t in piece.traces] == [id(t) for t in tables.traces if t.rank == rank]
    store.close()


def _entry(cache_dir, kind: str, store: RunStore, run) -> str:
    tables = store.tables(run)
    key = result_key(kind, tables.signature, store.result_cache.settings)
    return os.path.join(cache_dir, "results", key)


@pytest.mark.parametrize("damage", ["truncated_buffers", "garbage_pickle", "missing_index"])
def test_a_damaged_entry_is_computed_again(tmp_path, caplog, damage):
    first = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    run = first.find_run("ddp_modules")
    expected = first.module_data(run).calls.copy()
    entry = _entry(tmp_path, "modules", first, run)
    first.close()
    if damage == "truncated_buffers":
        with open(os.path.join(entry, "buffers.bin"), "r+b") as f:
            f.truncate(os.path.getsize(f.name) // 2)
    elif damage == "garbage_pickle":
        with open(os.path.join(entry, "result.pickle"), "wb") as f:
            f.write(b"\x80\x05not a pickle")
    else:
        os.remove(os.path.join(entry, "buffers.json"))

    again = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    with caplog.at_level(logging.WARNING):
        data = again.module_data(again.find_run("ddp_modules"))
    assert data.calls.equals(expected)
    assert "cached modules result unreadable" in caplog.text
    assert again.result_cache.counts.misses == 1 and again.result_cache.counts.stored == 1
    again.close()


class _RunsACommand:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_hostile_entry_runs_nothing_and_is_computed_again(tmp_path, caplog):
    first = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    run = first.find_run("ddp_traced")
    expected = first.analysis(run).findings
    entry = _entry(tmp_path, "analysis", first, run)
    first.close()
    marker = tmp_path / "ran"
    with open(os.path.join(entry, "result.pickle"), "wb") as f:
        pickle.dump(_RunsACommand(str(marker)), f, protocol=5)

    again = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    with caplog.at_level(logging.WARNING):
        findings = again.analysis(again.find_run("ddp_traced")).findings
    assert not marker.exists()
    assert "posix.system" in caplog.text or "os.system" in caplog.text
    assert [f.kind for f in findings] == [f.kind for f in expected]
    again.close()


def test_only_listed_globals_load():
    for module, name in [("builtins", "eval"), ("pandas", "ExcelWriter"), ("numpy", "load")]:
        data = pickle.dumps(getattr(__import__(module), name), protocol=5)
        with pytest.raises(pickle.UnpicklingError, match=name):
            result_cache._ResultUnpickler(data, [], []).load()
    # nothing is imported on a pickle's say
    with pytest.raises(pickle.UnpicklingError, match="tb_perf_plugin.nowhere"):
        result_cache._ResultUnpickler(b"ctb_perf_plugin.nowhere\nX\n.", [], []).load()
    assert "tb_perf_plugin.nowhere" not in sys.modules


def test_results_of_files_still_being_written_are_not_stored(tmp_path):
    cache = ResultCache(tmp_path)
    live = (("rank0.timer.jsonl", 10, 1, True),)
    assert still_written(live) and not still_written((("a", 1, 2, False), None, ("b", 3, 4)))
    assert cache.store("kind", live, {"x": 1}, []) is None
    assert cache.store("kind", (("rank0.timer.jsonl", 10, 1, False),), {"x": 1}, [])
    found = cache.load("kind", (("rank0.timer.jsonl", 10, 1, False),), [])
    assert found is not None and found.value == {"x": 1}


def test_results_read_under_other_settings_are_not_served(tmp_path):
    """A store with another file size limit (or link policy) may read other files."""
    first = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path))
    first.module_data(first.find_run("ddp_modules"))
    first.close()
    other = RunStore(str(SAMPLE_RUNS), cache_dir=str(tmp_path), max_file_bytes=10**9)
    other.module_data(other.find_run("ddp_modules"))
    assert other.result_cache.counts.misses == 1 and other.result_cache.counts.hits == 0
    other.close()


def test_a_change_of_the_code_misses(tmp_path, monkeypatch):
    cache = ResultCache(tmp_path)
    signature = (("f", 1, 2, False),)
    cache.store("kind", signature, [1, 2], [])
    monkeypatch.setattr(cache_keys, "code_fingerprint", lambda: "other code")
    assert cache.load("kind", signature, []) is None


def test_an_unwritable_cache_still_answers(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    store = RunStore(str(SAMPLE_RUNS), cache_dir=str(blocked))
    run = store.find_run("ddp_modules")
    assert len(store.module_data(run).calls)
    assert store.result_cache.counts.stored == 0
    store.close()


def test_entries_past_the_size_cap_are_evicted_once_out_of_use(tmp_path):
    """Entries used in the last 10 minutes stay past the cap (a run bigger than the cache,
    being shown: its pieces would be built again at every use); older ones are evicted."""
    cache = ResultCache(tmp_path, max_bytes=3_000_000)

    def entries() -> list[Path]:
        return [p for p in (tmp_path / "results").iterdir() if not p.name.startswith(".")]

    for i in range(4):
        cache.store("kind", ((f"f{i}", i, i, False),), np.arange(200_000), [])  # 1.6 MB each
    assert len(entries()) == 4
    an_hour_ago = time.time() - 3600
    for entry in entries():
        os.utime(entry, (an_hour_ago, an_hour_ago))
    cache.store("kind", (("f4", 4, 4, False),), np.arange(200_000), [])
    assert len(entries()) == 1
    assert cache.load("kind", (("f4", 4, 4, False),), []) is not None
    shutil.rmtree(tmp_path / "results")


def test_large_frames_and_string_lists_round_trip_exactly(tmp_path):
    """Columns of strings and objects, and dataclasses' long lists of strings, are stored
    coded (distinct values and codes): they come back equal, of the same dtypes, None as
    None and NaN as NaN; an unhashable column is pickled as usual."""
    n = 5000
    rng = np.random.default_rng(3)
    names = [f"aten::op{i}" for i in rng.integers(0, 40, n)]
    mixed: list[object] = [None if i % 7 == 0 else float("nan") if i % 11 == 0 else f"x{i % 5}"
                           for i in range(n)]  # fmt: skip
    frame = pd.DataFrame({
        "name": pd.array(names, dtype="str"),
        "maybe": pd.array([None if i % 3 == 0 else s for i, s in enumerate(names)], dtype="str"),
        "mixed": pd.Series(mixed, dtype=object),
        "dims": pd.Series([[i % 3, 2] for i in range(n)], dtype=object),  # unhashable
        "start": rng.integers(0, 10**12, n),
        "count": pd.array([None if i % 5 == 0 else i for i in range(n)], dtype="Int64"),
        "flag": rng.random(n) < 0.5,
    })  # fmt: skip
    path = StepCriticalPath(
        rank=0, step=1, start_ns=0, duration_ns=n, length_ns=n, rows=np.arange(n),
        ns=np.ones(n, np.int64), category=["cpu", "compute"] * (n // 2), kind=["work"] * n,
        at_ns=np.arange(n), names=names, dropped_edges=0,
    )  # fmt: skip
    cache = ResultCache(tmp_path)
    found = cache.store("kind", (("f", 1, 1, False),), {"frame": frame, "path": path}, [])
    assert found is not None
    back = found.value
    pd.testing.assert_frame_equal(back["frame"], frame, check_exact=True)
    assert [type(v) for v in back["frame"]["mixed"]] == [type(v) for v in mixed]
    restored = back["path"]
    assert isinstance(restored, StepCriticalPath)
    for field in ("category", "kind", "names", "rank", "length_ns"):
        assert getattr(restored, field) == getattr(path, field), field
    assert np.array_equal(restored.rows, path.rows)
