"""Rank alignment end to end on a real two-process gloo job traced with `profile_steps`,
recorded once (tests/fixtures/alignment/generate.py): run live, its collectives' spread is the
machine's load, not the alignment's error.

Both ranks run on this host, so their trace clocks are one clock: the spread of a collective's
end times there is physical (wake-up delays), and whatever alignment adds to it is its error.
Rank 1's collectors clock is skewed by the clock hook (clock sync must undo it), and a copy of
the run has rank 1's trace skewed after the fact with its clock sync removed (collectives must
undo it).
"""

from __future__ import annotations

import concurrent.futures
import gzip
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from tb_perf_plugin.analysis.align import Method, RankClockEvidence, align_ranks
from tb_perf_plugin.discovery import discover_runs
from tb_perf_plugin.pipeline import read as run_reading
from tb_perf_plugin.pipeline import steps as run_steps
from tests.collectors.clock_sync_worker import ALL_REDUCES_PER_STEP
from tests.conftest import REPO

RECORDED_JOB = REPO / "tests" / "fixtures" / "alignment" / "job"
TRACED_STEPS = 12  # as generate.py records
AFTER_THE_FACT_OFFSET_US = -1_734_567.0  # rank 1's trace, 1.7 s behind
AFTER_THE_FACT_DRIFT_PPM = 30.0


@pytest.fixture(scope="module")
def traced_job(tmp_path_factory) -> Path:
    logdir = tmp_path_factory.mktemp("alignment")
    shutil.copytree(RECORDED_JOB, logdir / "job")
    return logdir


def read(logdir: Path, name: str) -> run_reading.RunTables:
    run = discover_runs(str(logdir))[name]
    with concurrent.futures.ThreadPoolExecutor(2) as executor:
        return run_reading.read_run(
            run,
            run.signature(),
            max_file_bytes=1 << 30,
            executor=executor,
            cache_dir=None,
            on_progress=lambda _: None,
        )


def all_reduce_ends(tables: run_reading.RunTables, rank: int) -> np.ndarray:
    """End times of the rank's collectives as alignment sees them (its collectors' clock)."""
    instances = run_steps._collective_instances([t for t in tables.traces if t.rank == rank])
    assert {signature[0] for signature, _ in instances} == {"gloo:all_reduce"}
    return np.array([end for _, end in instances], dtype=np.int64)


def raw_trace_ends(tables: run_reading.RunTables, rank: int) -> np.ndarray:
    """The same end times on the trace's own clock: the host clock both ranks share."""
    (trace,) = [t for t in tables.traces if t.rank == rank]
    return all_reduce_ends(tables, rank) - trace.tables.meta.to_collectors_ns


def test_clock_sync_puts_rank_1_traces_on_rank_0_clock(traced_job, make_client):
    tables = read(traced_job, "job")
    alignment = run_steps.align_run(tables)[1]
    assert alignment.method is Method.CLOCK_SYNC
    assert abs(alignment.offset_ns + 250_000_000) < 1_000_000  # the hook put rank 1 250 ms ahead
    ends0, ends1 = all_reduce_ends(tables, 0), all_reduce_ends(tables, 1)
    assert len(ends0) == len(ends1) == TRACED_STEPS * ALL_REDUCES_PER_STEP
    physical = raw_trace_ends(tables, 1) - raw_trace_ends(tables, 0)
    aligned = alignment.apply(ends1) - ends0
    # trace times pass through the collectors' clock (trace_to_collectors_ns) and clock sync
    assert np.abs(aligned - physical).max() <= alignment.uncertainty_ns
    served = make_client(traced_job).json("timeline/meta", run="job")["ranks"][1]["alignment"]
    assert served["method"] == "clock_sync"
    assert served["uncertainty_ns"] == alignment.uncertainty_ns


def skew_trace(path: Path, offset_us: float, drift_ppm: float) -> None:
    with gzip.open(path, "rt") as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    first = min(e["ts"] for e in events if "ts" in e)
    for event in events:
        if "ts" in event:
            event["ts"] += offset_us + drift_ppm * 1e-6 * (event["ts"] - first)
    with gzip.open(path, "wt") as f:
        json.dump(trace, f)


@pytest.fixture(scope="module")
def skewed_copy(traced_job) -> Path:
    """The job with rank 1's trace skewed after the fact and no clock sync to undo it."""
    shutil.copytree(traced_job / "job", traced_job / "skewed")
    data = traced_job / "skewed" / "plugins" / "tb_perf"
    for meta_path in data.glob("*.meta.json"):
        meta = json.loads(meta_path.read_text())
        meta.pop("clock_sync")
        meta_path.write_text(json.dumps(meta))
    (trace,) = data.glob("rank1.*.pt.trace.json.gz")
    skew_trace(trace, AFTER_THE_FACT_OFFSET_US, AFTER_THE_FACT_DRIFT_PPM)
    return traced_job


def test_collectives_fitted_on_half_align_the_other_half(skewed_copy, make_client):
    original, skewed = read(skewed_copy, "job"), read(skewed_copy, "skewed")
    ends0, ends1 = all_reduce_ends(skewed, 0), all_reduce_ends(skewed, 1)
    assert len(ends0) == len(ends1) >= 20
    fitted, held_out = slice(0, None, 2), slice(1, None, 2)  # every other call
    signature = ("gloo:all_reduce", "", -1)
    alignment = align_ranks([
        RankClockEvidence(rank, collectives=[(signature, int(end)) for end in ends[fitted]])
        for rank, ends in ((0, ends0), (1, ends1))
    ])[1]  # fmt: skip
    assert alignment.method is Method.COLLECTIVES
    assert alignment.pairs + alignment.outliers == len(ends0[fitted])
    assert alignment.outliers <= len(ends0[fitted]) // 4
    physical = raw_trace_ends(original, 1) - raw_trace_ends(original, 0)
    aligned = alignment.apply(ends1) - ends0
    error = aligned[held_out] - physical[held_out]
    assert np.abs(error).max() <= alignment.uncertainty_ns, (error, alignment)
    assert alignment.uncertainty_ns < 2_000_000  # a bound that says something

    # the plugin, fitting on all of them, reports collectives for rank 1 too
    served = make_client(skewed_copy).json("timeline/meta", run="skewed")["ranks"]
    assert served[1]["alignment"]["method"] == "collectives"
    assert served[1]["alignment"]["pairs"] + served[1]["alignment"]["outliers"] == len(ends0)
    full = run_steps.align_run(skewed)[1]
    assert np.abs(full.apply(ends1) - ends0 - physical).max() <= full.uncertainty_ns
