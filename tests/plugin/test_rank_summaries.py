"""The run's analysis done by pool workers (a task per rank's summary, one merging them)
answers every analysis route exactly as when the serving process computes it itself (the
path of a Dask cluster without the shared store, or an unwritable cache):
on the demo runs, the V100 ResNet-50 sample runs (kernels, GPU summaries) and four ranks of
the scale benchmark's NCCL run (collectives, a straggler); with TB_PERF_SOAK=1, its whole
256-rank run."""

from __future__ import annotations

import json
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.pipeline import analyze, rank_summary
from tb_perf_plugin.store import RunStore
from tb_perf_plugin.views import (
    breakdown,
    compare,
    distributed,
    findings,
    gpu,
    kernels,
    memory,
    operators,
    overview,
    rank_heatmap,
)
from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import scale  # noqa: E402


def _answers(store: RunStore) -> dict[str, Any]:
    """Every analysis route of every run of the store (all ranks and the first three), as
    JSON text or its error."""
    out: dict[str, Any] = {}
    names = sorted(store.discover())
    per_rank = (overview.summary, breakdown.breakdown, distributed.distributed,
                operators.operators, kernels.kernels, memory.memory, gpu.gpu)  # fmt: skip
    for name in names:
        run = store.find_run(name)
        ranks = [None, *[str(r) for r in store.ranks(run, store.tables(run))][:3]]
        calls: list[tuple[Any, tuple]] = [
            (findings.findings, (name,)),
            (rank_heatmap.rank_heatmap, (name, "step_time")),
            (compare.compare, (names[0], name)),
            *[(view, (name, rank)) for view in per_rank for rank in ranks],
        ]
        for view, args in calls:
            key = f"{view.__module__}.{view.__name__}{args}"
            try:
                out[key] = json.dumps(view(store, *args, wait_s=None), sort_keys=True, default=str)
            except Exception as exc:  # the same error either way
                out[key] = f"{type(exc).__name__}: {exc}"
    return out


SOAK = os.environ.get("TB_PERF_SOAK") == "1"


def _logdirs(tmp_path: Path, shared_data: Path, resnet_logdir: Path) -> list[Path]:
    # the soak: the benchmark's own 256-rank run (generated once, where the benchmark keeps it)
    scale_run = scale.generate(256) if SOAK else scale.generate(4, tmp_path / "scale")
    return [REPO / "sample_runs", resnet_logdir, scale_run]


@pytest.fixture(autouse=True)
def _on_workers_from_one_rank(monkeypatch):
    """The runs here have a few ranks: analysed on the workers all the same."""
    monkeypatch.setattr(rank_summary, "MIN_RANKS_ON_WORKERS", 1)


@pytest.fixture
def counted(monkeypatch):
    """How many ranks this process summarized itself (pool workers are other processes)."""
    calls = []
    original = rank_summary.summarize_rank

    def summarize_rank(*args, **kwargs):
        calls.append(args[1])
        return original(*args, **kwargs)

    monkeypatch.setattr(rank_summary, "summarize_rank", summarize_rank)
    monkeypatch.setattr(analyze, "summarize_rank", summarize_rank)
    return calls


def test_workers_summaries_answer_every_route_as_the_serving_process(
    tmp_path, shared_data, resnet_logdir, counted, monkeypatch
):
    for index, logdir in enumerate(_logdirs(tmp_path, shared_data, resnet_logdir)):
        pooled = RunStore(str(logdir), executor="process", cache_dir=str(tmp_path / f"p{index}"))
        try:
            by_workers = _answers(pooled)
        finally:
            pooled.close()
        assert counted == [], f"{logdir.name}: ranks summarized in the serving process"
        handed_over = tmp_path / f"p{index}" / rank_summary.SUMMARIES
        assert handed_over.is_dir() and not list(handed_over.iterdir())  # each taken, removed
        with monkeypatch.context() as patched:
            patched.setattr(rank_summary, "shares_store", lambda executor, location: False)
            here = RunStore(str(logdir), executor="process", cache_dir=str(tmp_path / f"h{index}"))
            try:
                by_server = _answers(here)
            finally:
                here.close()
        assert counted, f"{logdir.name}: no rank summarized in the serving process"
        counted.clear()
        assert by_workers.keys() == by_server.keys()
        different = [key for key in by_workers if by_workers[key] != by_server[key]]
        assert different == [], different[:3]
        errors = [key for key, text in by_workers.items() if not text.startswith(("{", "["))]
        assert len(errors) < len(by_workers) / 2, errors  # the routes answered, mostly


@pytest.mark.parametrize("lost", ["rank tasks", "merge task"])
def test_a_failed_task_is_done_again_elsewhere(tmp_path, shared_data, counted, monkeypatch, lost):
    """A worker lost costs time, not a rank: a rank's summary task that fails is computed by
    the merge, a merge that fails is done in the serving process, with the same answers."""
    logdir = scale.generate(4, tmp_path / "scale")
    healthy = RunStore(str(logdir), executor="process", cache_dir=str(tmp_path / "a"))
    try:
        expected = _answers(healthy)
    finally:
        healthy.close()

    def dies(*args, **kwargs):
        raise Unreadable("the worker process reading it died (out of memory?)")

    if lost == "rank tasks":
        monkeypatch.setattr(rank_summary, "stored_rank_summary", dies)
    else:
        monkeypatch.setattr(analyze, "analyze_stored", dies)
    # threads: the patched task runs in this process, the counted summaries too
    failing = RunStore(str(logdir), executor="thread", cache_dir=str(tmp_path / "b"))
    try:
        assert _answers(failing) == expected
    finally:
        failing.close()
    # each rank summarized once: by the merge when its task died; by its task when the merge
    # died (done here from the stored summaries, none computed again)
    assert sorted(counted) == [0, 1, 2, 3]


def test_the_merge_keeps_each_name_once_across_ranks(tmp_path, shared_data):
    """Summaries come from other processes, each with its own copy of every kernel name: the
    run's tables hold one string per name (a kernel name is often 200 characters)."""
    logdir = scale.generate(4, tmp_path / "scale")
    store = RunStore(str(logdir), executor="inline", cache_dir=str(tmp_path / "cache"))
    try:
        run = store.find_run("scale4")
        tables = store.tables(run)
        packed = [pickle.dumps(s) for s in rank_summary.rank_summaries(run.path, tables)]
        analysis = analyze.analyze_run(run, tables, (pickle.loads(p) for p in packed))
    finally:
        store.close()
    names = analysis.kernel_rows["name"].tolist()
    assert len(names) > len(set(names)) > 0  # each name on several ranks
    assert len({id(n) for n in names}) == len(set(names))  # one object per name
