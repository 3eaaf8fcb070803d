"""Findings on real runs: planted faults from real CPU training loops are found with the right
kind, rank and step, clean runs stay quiet, the shared V100 samples tell data loading apart;
rules that need a GPU are checked on recorded GPU traces and on inputs built here.

The planted runs are recorded once (tests/fixtures/planted/generate.py): run live, a clean run's
steps of a few ms spread with the machine's load (a busy machine added outlier steps, a
straggler and variability), and a verdict must not depend on that.
"""

import concurrent.futures
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tb_perf_plugin.analysis.breakdown import CATEGORIES, StepBreakdown
from tb_perf_plugin.analysis.findings import (
    DEFAULT_THRESHOLDS,
    AnalysisInputs,
    host_bound,
    straggler,
    sync_point,
    variability,
)
from tb_perf_plugin.analysis.kernels import kernel_table
from tb_perf_plugin.discovery import discover_runs
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.pipeline import analyze as run_analysis
from tb_perf_plugin.pipeline import read as run_reading
from tb_perf_plugin.pipeline.rank_summary import rank_host_calls
from tests.conftest import REPO
from tests.plugin import planted_faults_worker as worker

RECORDED = REPO / "tests" / "fixtures" / "planted"
SAMPLE_RUNS = REPO / "sample_runs"
SIMPLE_ADD = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add/"
    "benchmark_result_493459_1694039959_trace.json.gz"
)
LOUD = {"warning", "critical"}
TIMING = {"step_outlier", "variability", "straggler"}  # the findings a busy machine fakes
# `slow_loader` (generate.py records it): batches of 8 samples of 1 ms from a DataLoader
LOADER_BATCHES, LOADER_BATCH, LOADER_SAMPLE_S = 40, 8, 0.001


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    """The recorded runs: single-process ones (planted_faults_worker.SCENARIOS), the gloo
    pairs (PAIR_SCENARIOS, rank 1 of `straggler` slower every step) and `slow_loader`."""
    logdir = tmp_path_factory.mktemp("planted")
    for run in (*worker.SCENARIOS, *worker.PAIR_SCENARIOS, "slow_loader"):
        shutil.copytree(RECORDED / run, logdir / run)
    return logdir


def findings(client, run: str) -> list[dict]:
    found = client.json("findings", run=run)["findings"]
    for finding in found:
        assert finding["schema_version"] == 1 and finding["recommendation"]
        assert finding["severity"] in ("info", "warning", "critical")
        assert finding["view"]["tab"] and finding["evidence"]
    return found


@pytest.mark.parametrize("run", ["clean_a", "clean_b", "clean_c"])
def test_clean_runs_stay_quiet(planted, make_client, run):
    found = findings(make_client(planted), run)
    assert [f["key"] for f in found if f["severity"] in LOUD] == []
    assert [f["key"] for f in found if f["kind"] in TIMING] == []


def _step_inputs(durations_ms: list[float]) -> AnalysisInputs:
    t0 = np.cumsum([0, *durations_ms[:-1]]) * 1e6
    steps = pd.DataFrame({"step": range(len(durations_ms)), "t0": t0.astype(np.int64),
                          "t1": (t0 + np.array(durations_ms) * 1e6).astype(np.int64)})  # fmt: skip
    return AnalysisInputs(step_times={0: steps})


def test_variability_needs_a_robust_spread_of_whole_steps():
    t = DEFAULT_THRESHOLDS
    rng = np.random.default_rng(0)
    steady = list(20 + rng.normal(0, 0.5, 40))  # 2.5 % jitter: quiet
    assert variability(_step_inputs(steady), t) == []
    one_slow = steady[:]
    one_slow[30] = 400  # one outlier is step_outlier's business, not variability's
    assert variability(_step_inputs(one_slow), t) == []
    alternating = [10 if i % 2 else 30 for i in range(40)]  # half the steps 3x the others
    (found,) = variability(_step_inputs(alternating), t)
    assert found.severity == "warning" and found.evidence["robust_cv"]["value"] >= 0.5
    tiny = [1.0 if i % 2 else 1.6 for i in range(40)]  # large relative, under 1 ms absolute
    assert variability(_step_inputs(tiny), t) == []


def loud_kinds(found: list[dict]) -> list[str]:
    return sorted(f["kind"] for f in found if f["severity"] in LOUD)


def test_planted_faults_are_found_with_the_right_kind(planted, make_client):
    client = make_client(planted)
    found = findings(client, "slow_data")
    assert loud_kinds(found) == ["data_loading"]
    (slow_data,) = [f for f in found if f["kind"] == "data_loading"]
    assert slow_data["severity"] == "critical"
    assert slow_data["evidence"]["median_share"]["value"] >= 3 * 0.15
    assert slow_data["evidence"]["median_time"]["value"] >= 256 * 40_000  # 256 samples of 40 µs

    found = findings(client, "outlier_step")
    assert loud_kinds(found) == ["step_outlier"]
    (outlier,) = [f for f in found if f["kind"] == "step_outlier"]
    assert outlier["severity"] == "warning" and outlier["steps"] == [worker.OUTLIER_STEP]
    assert outlier["view"] == {
        "tab": "timeline",
        "params": {"rank": 0, "step": worker.OUTLIER_STEP},
    }
    assert outlier["evidence"]["worst_ratio"]["value"] >= 3 * 1.5
    assert outlier["evidence"]["worst_step_time"]["value"] >= worker.OUTLIER_S * 1e9

    found = findings(client, "dominant_op")
    assert loud_kinds(found) == ["hotspot"]
    hot = [f for f in found if f["kind"] == "hotspot"]
    assert [(f["key"], f["severity"]) for f in hot] == [("hotspot:aten::sort@rank0", "warning")]
    assert hot[0]["view"]["tab"] == "operators"


def test_the_slowed_rank_of_a_gloo_job_is_the_straggler(planted, make_client):
    client = make_client(planted)
    clean = findings(client, "clean_pair")
    assert [f["key"] for f in clean if f["severity"] in LOUD or f["kind"] in TIMING] == []

    found = findings(client, "straggler")
    # the straggler, and communication on rank 0: the rank that waits, not the one it waits for
    assert sorted((f["kind"], f["ranks"]) for f in found if f["severity"] in LOUD) == [
        ("communication", [0]), ("straggler", [worker.STRAGGLER]),
    ]  # fmt: skip
    assert "step_outlier" not in {f["kind"] for f in found}  # the worst step is 1.3x, not 1.5x
    (straggler,) = [f for f in found if f["kind"] == "straggler"]
    assert straggler["severity"] == "warning"
    extra = straggler["evidence"]["median_extra_wait_of_others"]["value"]
    assert extra == pytest.approx(worker.STRAGGLER_DELAY_S * 1e9, rel=0.1)
    assert straggler["evidence"]["steps_with_others_waiting"]["value"] == 1.0
    # measured over every MyTimer step (all STEPS), the traced steps confirming it
    assert straggler["steps"] == list(range(worker.STEPS))
    assert straggler["evidence"]["source"]["value"] == "collective spans"
    assert straggler["evidence"]["steps_measured"]["value"] == worker.STEPS
    traced = len(worker.PAIR_TRACED_STEPS)
    confirmed = straggler["evidence"]["confirmed_by"]["value"]
    assert confirmed == f"exposed communication ({traced} steps)"
    worst = worker.STRAGGLER_WORST_STEP  # named in the title, opened in the view
    assert straggler["evidence"]["worst_step"]["value"] == worst
    worst_wait = straggler["evidence"]["worst_step_extra_wait"]["value"]
    assert worst_wait == pytest.approx(worker.STRAGGLER_WORST_DELAY_S * 1e9, rel=0.1)
    assert f"most in steps {worst}, " in straggler["title"]
    assert straggler["view"] == {"tab": "timeline", "params": {"step": worst, "ranks": "1"}}


def test_the_straggler_is_found_from_mytimer_alone(planted, make_client):
    """The same slowed pair recorded without torch.profiler: the collective spans of every
    MyTimer step find rank 1, with its cost, and nothing else is loud."""
    found = findings(make_client(planted), "straggler_untraced")
    assert [(f["kind"], f["ranks"]) for f in found if f["severity"] in LOUD] == [
        ("straggler", [worker.STRAGGLER])
    ]
    (straggler,) = [f for f in found if f["kind"] == "straggler"]
    assert straggler["evidence"]["source"]["value"] == "collective spans"
    assert "confirmed_by" not in straggler["evidence"]  # no traced steps to confirm it
    assert straggler["impact"]["ns_per_step"] == pytest.approx(
        worker.STRAGGLER_DELAY_S * 1e9, rel=0.1
    )


def test_resnet_samples_data_loading(resnet_logdir, make_client):
    client = make_client(resnet_logdir)
    kinds = {f["kind"]: f for f in findings(client, "resnet50_num_workers_0")}
    assert kinds["data_loading"]["severity"] in LOUD
    assert "data_loading" not in {f["kind"] for f in findings(client, "resnet50_num_workers_4")}


def test_cpu_training_over_gloo_waits_on_communication(make_client):
    found = findings(make_client(SAMPLE_RUNS), "ddp_traced")
    communication = [f for f in found if f["kind"] == "communication"]
    # the same on both ranks of the pair: one finding that names them
    assert [f["ranks"] for f in communication] == [[0, 1]]
    assert communication[0]["title"].endswith(" — on all 2 ranks")
    assert communication[0]["key"] == "communication:ranks"
    # the profiler's own window start/stop steps are not reported as outliers
    assert not [f for f in found if f["kind"] == "step_outlier"]


def test_host_bound_on_a_recorded_gpu_trace(tmp_path, shared_data, make_client):
    (tmp_path / "simple_add").mkdir()
    os.symlink(shared_data / SIMPLE_ADD, tmp_path / "simple_add" / "rank0.pt.trace.json.gz")
    found = findings(make_client(tmp_path), "simple_add")
    # a benchmark's one trace: its host time is CUDA start-up (cudaDeviceGetStreamPriorityRange
    # and the like, 25 s of the runtime's time), said so at info level, not a steady cost
    (host,) = [f for f in found if f["kind"] == "host_bound"]
    assert host["evidence"]["cause"]["value"] == "initialization"
    assert host["severity"] == "info" and "one-off start-up" in host["title"]
    assert host["evidence"]["initialization_time"]["value"] > 20e9
    sync = [f for f in found if f["kind"] == "sync_point"]
    assert [f["evidence"]["cause"]["value"] for f in sync] in ([], ["blocking_copy"])


def _step(rank: int, step: int, duration: int, **ns: int) -> StepBreakdown:
    shares = {c: ns.get(c, 0) for c in CATEGORIES}
    shares["idle"] = duration - sum(shares.values())
    return StepBreakdown(rank, step, step * duration, duration, shares, 0, 0)


def _inputs(steps: list[StepBreakdown], sync_ns: dict, **calls: int) -> AnalysisInputs:
    """Rule inputs of these steps: `sync_ns` per (rank, step) as synchronize calls, and the
    same time per step in each class of runtime call named in `calls`."""
    host_calls = {
        (s.rank, s.step): {**calls, **({"sync": sync_ns[key], "synchronize_call": sync_ns[key]}
                                        if (key := (s.rank, s.step)) in sync_ns else {})}
        for s in steps
    }  # fmt: skip
    return AnalysisInputs(breakdowns=steps, kernels=kernel_table([]), host_calls=host_calls)


def test_sync_point_threshold_and_minimum_effect():
    steps = [_step(0, s, 10_000_000, compute=6_000_000, runtime=2_000_000) for s in range(6)]
    blocked = _inputs(steps, {(0, s): 1_500_000 for s in range(6)})  # 15 %, 3x the threshold
    (finding,) = sync_point(blocked, DEFAULT_THRESHOLDS)
    assert finding.kind == "sync_point" and finding.ranks == [0]
    assert finding.evidence["median_share"]["value"] == pytest.approx(0.15)
    assert sync_point(_inputs(steps, {(0, s): 100_000 for s in range(6)}), DEFAULT_THRESHOLDS) == []
    tiny = [_step(0, s, 1_000_000, compute=500_000) for s in range(6)]  # 15 % but 150 µs
    assert sync_point(_inputs(tiny, {(0, s): 150_000 for s in range(6)}), DEFAULT_THRESHOLDS) == []


def test_sync_point_names_its_cause_and_the_fix_for_it():
    steps = [_step(0, s, 10_000_000, compute=6_000_000, runtime=2_000_000) for s in range(6)]
    inputs = _inputs(steps, {})
    for key in inputs.host_calls:
        inputs.host_calls[key].update(sync=1_500_000, blocking_copy=1_200_000,
                                      synchronize_call=300_000)  # fmt: skip
    (finding,) = sync_point(inputs, DEFAULT_THRESHOLDS)
    assert finding.evidence["cause"]["value"] == "blocking_copy"
    assert finding.title.endswith("(blocking copy)")
    assert "pinned memory with non_blocking=True" in finding.recommendation
    assert finding.view["params"]["q"] == "Memcpy"


@pytest.mark.parametrize(
    ("ns", "calls", "cause"),
    [
        ({"runtime": 5_000_000}, {"launch": 4_000_000}, "launch_overhead"),
        ({"runtime": 5_000_000}, {"allocator": 4_000_000, "launch": 500_000}, "allocator"),
        ({"cpu": 6_000_000, "runtime": 500_000}, {"launch": 400_000}, "cpu_ops"),
        ({"runtime": 7_000_000}, {"initialization": 6_500_000}, "initialization"),
    ],
)
def test_host_bound_names_the_largest_host_cost_as_its_cause(ns, calls, cause):
    steps = [_step(0, s, 10_000_000, compute=2_000_000, **ns) for s in range(4)]
    (finding,) = host_bound(_inputs(steps, {}, **calls), DEFAULT_THRESHOLDS)
    assert finding.evidence["cause"]["value"] == cause
    # one-off set-up is said so, at info: fixing it saves no steady step time
    assert finding.severity == ("info" if cause == "initialization" else "warning")


def test_host_bound_needs_an_idle_gpu_and_a_busy_runtime():
    starved = [_step(0, s, 10_000_000, compute=2_000_000, runtime=5_000_000) for s in range(4)]
    (finding,) = host_bound(_inputs(starved, {}), DEFAULT_THRESHOLDS)
    assert finding.evidence["median_device_busy"]["value"] == pytest.approx(0.2)
    busy = [_step(0, s, 10_000_000, compute=8_000_000, runtime=1_500_000) for s in range(4)]
    assert host_bound(_inputs(busy, {}), DEFAULT_THRESHOLDS) == []
    cpu_only = [_step(0, s, 10_000_000, cpu=9_000_000) for s in range(4)]
    assert host_bound(_inputs(cpu_only, {}), DEFAULT_THRESHOLDS) == []


def test_sync_time_is_the_union_of_sync_calls_in_a_gpu_trace(tmp_path, shared_data):
    (tmp_path / "simple_add").mkdir()
    os.symlink(shared_data / SIMPLE_ADD, tmp_path / "simple_add" / "rank0.pt.trace.json.gz")
    run = discover_runs(str(tmp_path))["simple_add"]
    with concurrent.futures.ThreadPoolExecutor(1) as executor:
        tables = run_reading.read_run(
            run, run.signature(), max_file_bytes=1 << 30, executor=executor, cache_dir=None,
            on_progress=lambda _: None,
        )  # fmt: skip
    (window,) = run_analysis.step_breakdowns(tables)  # no steps: the whole trace
    measured = rank_host_calls(0, tables.traces, [window])[(0, None)]["sync"]
    trace = read_trace(str(shared_data / SIMPLE_ADD))
    names = [trace.names[i] for i in trace.slices["name"]]
    sync_names = {"cudaStreamSynchronize", "cudaDeviceSynchronize", "Stream Sync", "Context Sync"}
    # its 16 cudaMemcpyAsync copy to pageable memory ("Memcpy DtoH (Device -> Pageable)"): they
    # block the host as a synchronous copy would
    pageable = {
        int(c)
        for n, c in zip(names, trace.slices["correlation"], strict=True)
        if n.startswith("Memcpy") and "Pageable" in n
    }
    assert len(pageable) == 16
    intervals = sorted(
        (int(s), int(s + d))
        for n, s, d, c in zip(names, trace.slices["start"], trace.slices["dur"],
                              trace.slices["correlation"], strict=True)
        if n in sync_names or (n == "cudaMemcpyAsync" and int(c) in pageable)
    )  # fmt: skip
    total, reach = 0, 0
    for start, end in intervals:
        start = max(start, reach)
        if end > start:
            total, reach = total + end - start, end
    assert measured == total > 0


def test_data_loading_rests_on_timed_loader_waits(planted, make_client):
    found = findings(make_client(planted), "slow_loader")
    assert loud_kinds(found) == ["data_loading"]
    (finding,) = [f for f in found if f["kind"] == "data_loading"]
    assert finding["evidence"]["source"]["value"] == "MyTimer data-loading spans"
    assert finding["evidence"]["num_workers"]["value"] == 0
    assert finding["recommendation"].startswith("The DataLoader has num_workers=0")
    assert finding["evidence"]["median_share"]["value"] > 0.9  # 8 ms waits, a sum() of 32 floats
    assert finding["evidence"]["median_time"]["value"] >= LOADER_BATCH * LOADER_SAMPLE_S * 1e9


def test_a_straggler_in_every_step_is_found_when_the_few_traced_steps_miss_it():
    """60 MyTimer steps in which rank 1 makes rank 0 wait 15 ms, and 6 traced steps (a busy
    machine's) in which both waited alike: the steps the traces do not cover still tell, the
    traced ones do not veto them."""
    steps = 60
    step_ns = 50_000_000
    step_times = {
        rank: pd.DataFrame({"step": range(steps), "t0": [s * step_ns for s in range(steps)],
                            "t1": [(s + 1) * step_ns for s in range(steps)]})
        for rank in (0, 1)
    }  # fmt: skip
    waits = {0: pd.Series(15_000_000 + 100_000 * (np.arange(steps) % 3)),
             1: pd.Series(200_000, index=range(steps))}  # fmt: skip
    traced = [
        _step(rank, s, step_ns, compute=30_000_000, communication=5_000_000)
        for rank in (0, 1) for s in range(20, 26)
    ]  # fmt: skip
    inputs = AnalysisInputs(
        breakdowns=traced, step_times=step_times, collective_waits=waits, kernels=kernel_table([])
    )
    (found,) = straggler(inputs, DEFAULT_THRESHOLDS)
    assert found.ranks == [1]
    assert found.evidence["source"]["value"] == "collective spans"
    assert found.evidence["steps_measured"]["value"] == steps
    assert "confirmed_by" not in found.evidence  # the traced steps saw no straggler
    assert found.evidence["median_extra_wait_of_others"]["value"] == pytest.approx(14.9e6, rel=0.01)


@pytest.mark.parametrize(
    "run", ["straggler", "slow_data", "slow_loader", "outlier_step", "dominant_op"]
)
def test_every_finding_says_what_its_fix_would_save(planted, make_client, run):
    """`impact` on every finding: a step time and its share where the rule measured one (the
    planted cost, within what the rule's own measure allows), else None and why; findings
    ordered by it."""
    found = findings(make_client(planted), run)
    assert found
    for finding in found:
        impact = finding["impact"]
        assert set(impact) == {"ns_per_step", "share_of_step", "basis"} and impact["basis"]
        if impact["ns_per_step"] is not None:
            assert impact["ns_per_step"] > 0 and 0 < impact["share_of_step"] <= 1
    causes = [f for f in found if not f["explained_by"]]  # each symptom follows its cause
    saved = [f["impact"]["ns_per_step"] for f in causes if f["impact"]["ns_per_step"] is not None]
    assert saved == sorted(saved, reverse=True)
    if run == "straggler":  # the planted delay: STRAGGLER_DELAY_S a step
        (cause,) = [f for f in found if f["kind"] == "straggler"]
        assert cause["impact"]["ns_per_step"] == pytest.approx(
            worker.STRAGGLER_DELAY_S * 1e9, rel=0.1
        )
