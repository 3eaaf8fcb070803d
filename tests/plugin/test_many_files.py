"""A run of many tiny files in a shared logdir (issue 40): what the server keeps of a refused
run, and of the files it refuses in a run it serves, is bounded whatever the number of files,
and the messages still say how many files were refused and why. `benchmarks/hostile.py
--scenarios many_files` measures the server's memory on 50,000 of them.

Deterministic: counts and traced bytes, never times.
"""

from __future__ import annotations

import gc
import os
import shutil
import time
import traceback
import tracemalloc
from pathlib import Path

import pytest

from tb_perf_plugin import discovery, jobs
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.pipeline.read import SHOWN_FILES, SHOWN_REASONS
from tb_perf_plugin.store import RunStore
from tests.conftest import REPO

PLUGIN = Path("plugins") / "tb_perf"
FILES = 5_000
REFUSED = "not a JSON trace (it does not start with { or [)"


def _tiny_files(run: Path, pattern: str, count: int = FILES) -> None:
    """`count` one-byte files named `pattern` (with `{i}`), dated an hour ago: left there, not
    still being written."""
    (run / PLUGIN).mkdir(parents=True, exist_ok=True)
    old = time.time() - 3600
    for i in range(count):
        path = run / pattern.format(i=i)
        path.write_bytes(b"x")
        os.utime(path, (old, old))


def _traced_after(call, times: int) -> tuple[int, int]:
    """Bytes still traced after `call()` ran `times` times (its errors swallowed), and the
    peak while it ran."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(times):
            try:
                call()
            except Unreadable:
                pass
        gc.collect()
        now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return now - before, peak - before


def test_a_refused_run_of_many_files_keeps_almost_nothing(tmp_path):
    _tiny_files(tmp_path / "logs" / "attack", str(PLUGIN / "rank{i}.h.{i}.steps1-1.pt.trace.json"))
    store = RunStore(str(tmp_path / "logs"), executor="thread", cache_dir=str(tmp_path / "cache"))
    try:
        run = store.find_run("attack")  # discovery keeps a path a file: not counted below
        assert len(run.traces) == FILES
        _, peak = _traced_after(lambda: store.tables(run), 1)
        # the run's signature and its files' cache keys, a few hundred bytes a file (874 B
        # when written); every file's task submitted at once held 13 kB a file more (on this
        # thread executor) until the last one ended: 50,000 one-byte traces took 400 MB
        assert peak < 2_000 * FILES, peak

        with pytest.raises(Unreadable) as refused:
            store.tables(run)
        message = refused.value.message  # how many and why, in a bounded message
        more = FILES - 5
        assert f"and {more:,} more file(s) unreadable: {more:,} files refused: {REFUSED}" in message
        assert message.count("rank") == 5 and len(message) < 1_000

        # asked again and again (a client's panels poll it), the refusal keeps nothing more:
        # its error used to keep every request's frames, and their signature of the run, a
        # tuple a file (about 110 B a file a request)
        kept, _ = _traced_after(lambda: store.tables(run), 20)
        assert kept < 20_000, kept
        # the failed job remembers the run's version by a digest, not a tuple a file
        job = store._jobs._jobs[(run.name, "tables")]
        assert job.signature is None and job.digest is not None
    finally:
        store.close()


def test_a_served_run_keeps_a_bounded_number_of_warnings(tmp_path):
    logdir = tmp_path / "logs"
    shutil.copytree(REPO / "sample_runs" / "ddp_traced", logdir / "good")
    _tiny_files(logdir / "good", "w{i}.pt.trace.json")  # torch-tb-profiler's names, no rank
    _tiny_files(logdir / "good", "rank{i}.sqlite", 200)  # dropped in: misnamed
    store = RunStore(str(logdir), executor="thread", cache_dir=str(tmp_path / "cache"))
    try:
        tables = store.tables(store.find_run("good"))
        assert len(tables.traces) == 4  # the run's own
        refused = [w for w in tables.warnings if "more file" in w]
        assert len(tables.warnings) <= SHOWN_FILES + SHOWN_REASONS + 2
        # the not-importable files come first, 20 of them named, then the counts by reason
        assert refused == [
            "180 more files not imported: named .sqlite but holds no SQLite database (text of "
            "no known kind) (docs/IMPORT.md)",
            f"{FILES:,} more files refused: {REFUSED}",
        ]
        # every listing of the runs asks each trace's rank: numbered once for the run
        run = store.find_run("good")
        assert run.ranks == list(range(FILES + 2))  # rank0, rank1 sort first
        index = run._index
        w0 = next(p for p in run.traces if p.endswith("/w0.pt.trace.json"))
        assert run.rank_from_trace_name(w0) == 2 and run._index is index
    finally:
        store.close()


def test_a_failed_job_raises_a_fresh_error_for_each_caller():
    """One error object raised again and again gathers every caller's frames on its
    traceback, and with them what they hold."""
    pool = jobs.JobPool(on_executor_lost=lambda: None)

    def work(job):
        raise Unreadable("refused")

    try:
        raised = []
        for _ in range(5):
            with pytest.raises(Unreadable, match="refused") as caught:
                pool.result(("run", "kind"), ("v1", 1), 1, work, None)
            raised.append(caught.value)
        depths = {len(traceback.extract_tb(error.__traceback__)) for error in raised[1:]}
        assert len(depths) == 1 and len({id(error) for error in raised}) == 5
        job = pool._jobs[("run", "kind")]
        assert job.signature is None and job.reads(("v1", 1)) and not job.reads(("v2", 1))
    finally:
        pool.close()


def test_discovery_keeps_one_object_a_file_from_one_discovery_to_the_next(tmp_path):
    run = tmp_path / "logs" / "r"
    _tiny_files(run, "rank{i}.sqlite", 100)
    _tiny_files(run, str(PLUGIN / "rank{i}.h.{i}.steps1-1.pt.trace.json"), 100)
    first = discovery.discover(str(tmp_path / "logs"))
    again = discovery.discover(str(tmp_path / "logs"), earlier=first)
    before, after = first.runs["r"], again.runs["r"]
    assert after.traces == before.traces
    assert all(a is b for a, b in zip(after.traces, before.traces, strict=True))
    assert all(a is b for a, b in zip(after.imported, before.imported, strict=True))
    # one verdict object for every file judged alike (its reason text once, not once a file)
    assert len({id(f.reason) for f in after.imported}) == 1


def test_refused_files_are_counted_past_the_first_of_each_reason(tmp_path, monkeypatch):
    logdir = tmp_path / "logs"
    (logdir / "r" / PLUGIN).mkdir(parents=True)
    (logdir / "nowhere").mkdir()
    for i in range(200):  # FIFOs: left out by discovery, of a run and of none
        os.mkfifo(logdir / "r" / PLUGIN / f"rank{i:03}.h.1.steps1-1.pt.trace.json")
        os.symlink(tmp_path / "gone", logdir / "nowhere" / f"link{i:03}.pt.trace.json")
    monkeypatch.setattr(discovery, "LEFT_OUT", 50)
    found = discovery.discover(str(logdir))
    run = found.runs["r"]
    assert len(run.refused) == discovery.SHOWN_REFUSED and sum(run.refused_more.values()) == 190
    (warning,) = run.refusal_warnings()
    assert warning.startswith("not read: plugins/tb_perf/rank000.h.1.steps1-1.pt.trace.json")
    assert warning.endswith(" and 190 more: a FIFO, not a regular file")
    assert len(found.left_out) == 50 and found.left_out_more == 150

    store = RunStore(str(logdir))
    monkeypatch.setattr(discovery, "LEFT_OUT", 50)
    left_out, total = store.left_out_counted()
    assert len(left_out) == 50 and total == 200


def test_requests_get_the_last_runs_while_one_walks_the_logdir(tmp_path, monkeypatch):
    """The walk (a second for 50,000 files) runs outside the store's lock: a request that
    comes meanwhile gets the runs found last at once, not after the walk."""
    import threading

    from tb_perf_plugin import store as store_module

    (tmp_path / "a" / "plugins" / "tb_perf").mkdir(parents=True)
    service = RunStore(str(tmp_path), discovery_ttl_s=0.0)
    assert set(service.discover()) == {"a"}
    walking, release = threading.Event(), threading.Event()
    walk = store_module.discover

    def slow_walk(*args, **kwargs):
        walking.set()
        release.wait(60)
        return walk(*args, **kwargs)

    monkeypatch.setattr(store_module, "discover", slow_walk)
    (tmp_path / "b" / "plugins" / "tb_perf").mkdir(parents=True)
    walker = threading.Thread(target=service.discover)
    walker.start()
    try:
        assert walking.wait(60)
        assert set(service.discover()) == {"a"}  # not blocked: the last runs
    finally:
        release.set()
        walker.join()
    assert set(service.discover()) >= {"a", "b"}
    service.close()
