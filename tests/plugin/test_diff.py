"""Comparing runs: the gate's statistics on recorded step times (deterministic, no live
timing), verdict boundaries, the median step's parts adding up to the median difference (on
recorded facts, the demo pair and the shared V100 pair), `tb-perf diff` exit codes and formats,
and the compare route's errors."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from collectors import RunWriter
from tb_perf_plugin.analysis.diff import (
    REST,
    RunFacts,
    compare,
    compare_step_times,
    median_step_parts,
    steps_to_settle,
    verdict,
)
from tb_perf_plugin.cli import main

# Recorded step times in ms (one training job's steps on a quiet and a loaded node).
BASE = [100.0, 100.9, 99.2, 97.3, 98.6, 97.0, 100.2, 104.0, 98.5, 98.1, 101.5, 101.1, 100.3,
        97.2, 99.9, 102.1, 96.0, 98.6, 94.3, 96.1]  # fmt: skip
SLOWER_30 = [122.8, 129.1, 125.1, 131.1, 130.6, 129.3, 120.2, 127.9, 129.8, 130.4, 124.0, 128.1,
             126.2, 126.8, 134.1, 126.9, 129.9, 133.4, 127.7, 129.6]  # fmt: skip
WOBBLE_A = [101.5, 100.0, 101.4, 100.6, 101.0, 98.4, 100.2, 100.0, 101.5, 99.4, 100.4, 98.2,
            99.6, 99.3, 98.6, 101.3, 99.5, 101.9, 100.4, 100.4, 100.6, 100.7, 98.6, 99.8, 99.0,
            99.6, 98.4, 101.9, 98.9, 100.7, 99.2, 101.5, 100.6, 98.5, 101.4, 101.8, 101.6, 100.3,
            98.6, 98.8]  # fmt: skip
WOBBLE_B = [102.7, 101.2, 99.7, 102.6, 101.6, 101.3, 100.5, 100.6, 99.9, 99.1, 102.5, 100.9,
            101.2, 100.3, 102.0, 99.1, 100.5, 99.1, 99.5, 102.9, 101.6, 100.7, 101.1, 102.5,
            100.4, 101.4, 101.7, 100.4, 101.1, 102.1, 102.7, 99.6, 102.8, 99.0, 102.0, 102.3,
            99.5, 100.7, 102.3, 99.0]  # fmt: skip
OVERLAP_A = [100.7, 95.3, 99.1, 84.0, 90.9, 102.9, 83.0, 106.8, 86.0, 106.1, 93.2, 106.2]
OVERLAP_B = [107.1, 93.0, 116.6, 118.2, 105.4, 103.7, 104.6, 97.7, 115.3, 101.4, 105.6, 99.3]


def ns(ms: list[float]) -> np.ndarray:
    return np.array(ms) * 1e6


def test_a_clear_30_percent_regression_is_slower():
    step = compare_step_times(ns(BASE), ns(SLOWER_30))
    assert step["verdict"] == "slower"
    assert 1.25 < step["ratio"] < 1.33
    assert step["ci"][0] > 1.2 and step["alpha"] == 0.01
    assert step["steps_to_settle"] is None
    faster = compare_step_times(ns(SLOWER_30), ns(BASE))
    assert faster["verdict"] == "faster" and faster["ci"][1] < 0.85


def test_a_2_percent_wobble_does_not_fire():
    step = compare_step_times(ns(WOBBLE_A), ns(WOBBLE_B))
    assert step["verdict"] == "no change"
    assert 1 < step["ratio"] < 1.02 and step["ci"][0] <= 1.05  # a 5 % gate stays quiet


def test_12_versus_12_overlapping_steps_are_inconclusive_with_steps_to_settle():
    step = compare_step_times(ns(OVERLAP_A), ns(OVERLAP_B))
    assert step["verdict"] == "inconclusive"
    low, high = step["ci"]
    assert low < 1 < high and high > 1.05
    assert step["steps_to_settle"] > 12


def test_the_interval_is_deterministic():
    first = compare_step_times(ns(OVERLAP_A), ns(OVERLAP_B))
    assert compare_step_times(ns(OVERLAP_A), ns(OVERLAP_B)) == first


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (1.0001, 1.3, "slower"),
        (1.0, 1.3, "inconclusive"),
        (0.7, 0.9999, "faster"),
        (0.7, 1.0, "inconclusive"),
        (0.95, 1.05, "no change"),
        (0.97, 1.02, "no change"),
        (0.9499, 1.02, "inconclusive"),
        (0.98, 1.0501, "inconclusive"),
    ],
)
def test_verdict_boundaries(low, high, expected):
    assert verdict(low, high) == expected


def test_steps_to_settle_scales_with_the_interval():
    # half-width 0.1 on the log scale, ratio e^0.05: the interval leaves 1 at 4x the steps
    ratio, low, high = np.exp(0.05), np.exp(-0.05), np.exp(0.15)
    assert steps_to_settle(ratio, low, high, 10) == 40
    assert steps_to_settle(1.0, 0.9, 1.1, 10) > 10  # settles as "no change"


def facts(name: str, times: dict[int, list[float]], **extra) -> RunFacts:
    steps = {rank: dict(enumerate(ns(ms).astype(int).tolist())) for rank, ms in times.items()}
    return RunFacts(name, steps, **extra)


def test_rows_statuses_findings_and_world_sizes():
    old_ops = [{"name": "mm", "calls": 40, "total_ns": 400},
               {"name": "gone", "calls": 20, "total_ns": 20}]  # fmt: skip
    new_ops = [{"name": "mm", "calls": 40, "total_ns": 800},
               {"name": "fresh", "calls": 2, "total_ns": 2}]  # fmt: skip
    finding = {"kind": "x", "severity": "info", "title": "t"}
    old = facts("a", {0: BASE, 1: BASE}, operators=old_ops, traced_steps=20.0,
                findings=[{"key": "k1", **finding}])  # fmt: skip
    new = facts("b", {0: SLOWER_30}, operators=new_ops, traced_steps=20.0,
                findings=[{"key": "k2", **finding}])  # fmt: skip
    body = compare(old, new)
    assert body["ranks"]["baseline_world"] == 2 and body["ranks"]["candidate_world"] == 1
    assert body["ranks"]["matched"] == [] and "world sizes differ" in body["ranks"]["note"]
    rows = {r["name"]: r for r in body["operators"]}
    assert rows["mm"]["delta_ns"] == 20 and rows["mm"]["status"] == "changed"
    assert rows["gone"]["status"] == "vanished" and rows["fresh"]["status"] == "new"
    assert rows["mm"]["baseline_calls"] == 2.0
    assert [f["key"] for f in body["findings"]["appeared"]] == ["k2"]
    assert [f["key"] for f in body["findings"]["disappeared"]] == ["k1"]
    assert body["step_time"]["verdict"] == "slower"


def test_headline_shows_a_speed_up_as_1_over_r_and_the_main_category():
    def parts(dataloader: float, times: list[float]) -> dict[int, dict[int, dict[str, float]]]:
        return {0: {i: {"dataloader": dataloader, "compute": ms * 1e6 - dataloader}
                    for i, ms in enumerate(times)}}  # fmt: skip

    old = facts("a", {0: SLOWER_30}, categories={"dataloader": 41e6, "compute": 80e6},
                category_source="breakdown", step_parts=parts(41e6, SLOWER_30))  # fmt: skip
    new = facts("b", {0: BASE}, categories={"dataloader": 0.0, "compute": 81e6},
                category_source="breakdown", step_parts=parts(0.0, BASE))  # fmt: skip
    body = compare(old, new)
    assert body["step_time"]["headline"] == (
        "candidate is 1.30× faster per step [1.26, 1.33], median step −30 ms, "
        "mostly DataLoader −41 ms (other parts +11 ms)"
    )
    assert_parts_add_up(body)


def test_the_median_step_parts_add_up_to_the_median():
    # odd: the middle step; the slowest rank's parts; the time no part covers is REST
    odd = RunFacts("a", {0: {0: 10, 1: 30, 2: 20}, 1: {0: 12, 1: 5, 2: 25}},
                   category_source="spans",
                   step_parts={0: {2: {"x": 15.0}}, 1: {2: {"x": 4.0, "y": 20.0}}})  # fmt: skip
    assert median_step_parts(odd) == {"x": 4.0, "y": 20.0, REST: 1.0}  # step 2 on rank 1: 25
    # even: the mean of the two middle steps; an uncovered one stood in for, scaled
    even = RunFacts("b", {0: {0: 10, 1: 20, 2: 40, 3: 100}}, category_source="spans",
                    step_parts={0: {0: {"x": 10.0}, 2: {"x": 30.0, "y": 10.0}}})  # fmt: skip
    parts = median_step_parts(even)
    assert parts == pytest.approx({"x": (20.0 + 30.0) / 2, REST: 0.0, "y": 10.0 / 2})
    assert sum(parts.values()) == pytest.approx(np.median([10, 20, 40, 100]))
    assert median_step_parts(RunFacts("c", {0: {0: 10, 1: 20}})) is None  # no parts at all


def assert_parts_add_up(body: dict) -> None:
    """The headline's statistic: the attribution's deltas sum to the median difference (within
    the rows' rounding), and the part the headline names moves the same way."""
    step, rows = body["step_time"], body["attribution"]
    delta = step["candidate"]["median_ns"] - step["baseline"]["median_ns"]
    assert abs(step["median_delta_ns"] - delta) <= 1
    assert rows and abs(sum(r["delta_ns"] for r in rows) - step["median_delta_ns"]) <= len(rows)
    for side in ("baseline", "candidate"):
        total = sum(r[f"{side}_ns"] for r in rows)
        assert abs(total - step[side]["median_ns"]) <= len(rows)
    mostly = step["headline"].split(", mostly ")[1]
    named = [r for r in rows if mostly.startswith(r["category"]) or
             mostly.startswith({"dataloader": "DataLoader"}.get(r["category"], "-"))]  # fmt: skip
    assert named and all(r["delta_ns"] * step["median_delta_ns"] > 0 for r in named)
    verdict_word = step["verdict"].split()[-1]
    assert step["headline"].lower().count(verdict_word) == 1  # not doubled


SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"


def test_demo_pair_headline_parts_agree_with_the_median(capsys):
    slow, fast = str(SAMPLE_RUNS / "ddp_slow_data"), str(SAMPLE_RUNS / "ddp_fast_data")
    assert main(["diff", slow, fast, "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    step = body["step_time"]
    assert step["verdict"] == "faster" and step["median_delta_ns"] < 0
    assert step["headline"].startswith("candidate is 3.39× faster per step")
    assert ", median step −19 ms, mostly data −15 ms" in step["headline"]
    assert_parts_add_up(body)


def test_recompiling_baseline_outliers_do_not_flip_the_main_change(capsys):
    """ddp_compiled's recompiling steps make its mean forward time large; the mean-based
    headline read "3.51× slower per step ..., mostly forward −27 ms" (issue 21)."""
    compiled, slow = str(SAMPLE_RUNS / "ddp_compiled"), str(SAMPLE_RUNS / "ddp_slow_data")
    assert main(["diff", compiled, slow, "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    headline = body["step_time"]["headline"]
    assert headline.startswith("candidate is 3.51× slower per step")
    assert headline.endswith("median step +20 ms, mostly data +20 ms")
    assert_parts_add_up(body)


# --- the shared V100 pair -------------------------------------------------------------------


def test_v100_pair_names_dataloader_as_the_main_change(resnet_logdir, make_client):
    body = make_client(resnet_logdir).json(
        "compare", baseline="resnet50_num_workers_4", candidate="resnet50_num_workers_0"
    )
    step = body["step_time"]
    assert step["baseline"]["steps"] == 12 and step["candidate"]["steps"] == 12
    assert step["ratio"] > 1  # the candidate (no loader workers) is slower per step
    top = max(body["categories"], key=lambda c: abs(c["delta_ns"]))
    assert top["category"] == "dataloader" and top["delta_ns"] > 30e6
    assert "median step +35 ms, mostly DataLoader +47 ms (other parts −12 ms)" in step["headline"]
    assert step["headline"].startswith("inconclusive: 1.28× per step")
    assert_parts_add_up(body)
    dataloader = next(r for r in body["attribution"] if r["category"] == "dataloader")
    assert dataloader["delta_ns"] > 30e6
    assert body["ranks"] == {"matched": [0], "baseline_world": 1, "candidate_world": 1,
                             "note": None}  # fmt: skip
    assert "data_loading:rank0" in {f["key"] for f in body["findings"]["appeared"]}
    assert body["links"]["baseline_step"]["run"] == "resnet50_num_workers_4"
    assert body["gpu"]["trace_utilization"]["baseline"] is not None
    assert {r["status"] for r in body["operators"]} <= {"changed", "new", "vanished"}
    # ProfilerStep#N (category Operator in this 2021 schema) is an annotation, not diffed
    assert body["operators"] and not any(
        r["name"].startswith("ProfilerStep#") for r in body["operators"]
    )
    assert all(r["short_name"] and len(r["short_name"]) <= len(r["name"]) for r in body["kernels"])


def test_v100_pair_the_other_way_round(resnet_logdir, make_client):
    body = make_client(resnet_logdir).json(
        "compare", baseline="resnet50_num_workers_0", candidate="resnet50_num_workers_4"
    )
    assert body["step_time"]["median_delta_ns"] == -35_264_000
    assert "median step −35 ms, mostly DataLoader −47 ms" in body["step_time"]["headline"]
    assert_parts_add_up(body)


def test_compare_route_errors(resnet_logdir, make_client):
    client = make_client(resnet_logdir)
    error = client.json("compare", expect=400, baseline="resnet50_num_workers_4")
    assert error["error"]["code"] == "invalid_argument"
    missing = client.json(
        "compare", expect=404, baseline="nope", candidate="resnet50_num_workers_0"
    )
    assert missing["error"]["code"] == "not_found"


# --- the CLI --------------------------------------------------------------------------------


def write_steps(run_dir: Path, times_ms: list[float], data_ms: float) -> None:
    """A collector run with the recorded step times: a top-level "data" span of `data_ms` and
    a "train" span for the rest of each step."""
    with RunWriter(run_dir, rank=0, world_size=1):
        pass
    (meta,) = (run_dir / "plugins" / "tb_perf").glob("rank0.*.meta.json")
    lines = [json.dumps({"schema": "tb_perf.timer", "version": 1})]
    t = 1_700_000_000_000_000_000
    for step, ms in enumerate(times_ms):
        end, data = t + int(ms * 1e6), t + int(data_ms * 1e6)
        lines += [json.dumps({"k": "step", "step": step, "t0": t, "t1": end}),
                  json.dumps({"k": "span", "id": 2 * step + 1, "parent": 0, "name": "data",
                              "step": step, "t0": t, "t1": data}),
                  json.dumps({"k": "span", "id": 2 * step + 2, "parent": 0, "name": "train",
                              "step": step, "t0": data, "t1": end})]  # fmt: skip
        t = end
    timer = meta.with_name(meta.name.replace(".meta.json", ".timer.jsonl"))
    timer.write_text("\n".join(lines) + "\n")


@pytest.fixture
def gate_logdir(tmp_path) -> Path:
    write_steps(tmp_path / "base", BASE, 10.0)
    write_steps(tmp_path / "slow", SLOWER_30, 40.0)
    write_steps(tmp_path / "wobble_a", WOBBLE_A, 10.0)
    write_steps(tmp_path / "wobble_b", WOBBLE_B, 10.0)
    return tmp_path


def test_cli_gate_exit_codes(gate_logdir, capsys):
    logdir = ["--logdir", str(gate_logdir)]
    assert main(["diff", "base", "slow", *logdir, "--fail-on-regression", "10"]) == 1
    assert "slower per step" in capsys.readouterr().out
    assert main(["diff", "base", "slow", *logdir, "--fail-on-regression", "40"]) == 0
    assert main(["diff", "base", "slow", *logdir]) == 0  # no gate asked for
    assert main(["diff", "wobble_a", "wobble_b", *logdir, "--fail-on-regression", "5"]) == 0
    (gate_logdir / "empty" / "plugins" / "tb_perf").mkdir(parents=True)
    write_steps(gate_logdir / "empty", [], 0.0)
    assert main(["diff", "base", "empty", *logdir, "--fail-on-regression", "5"]) == 3
    assert main(["diff", "base", "missing", *logdir]) == 2
    assert main(["diff", "base", "slow", *logdir, "--fail-on-regression", "-1"]) == 2


def test_cli_json_and_markdown(gate_logdir, capsys):
    base, slow = str(gate_logdir / "base"), str(gate_logdir / "slow")
    assert main(["diff", base, slow, "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["baseline"] == base and body["step_time"]["verdict"] == "slower"
    assert body["category_source"] == "spans"
    top = max(body["categories"], key=lambda c: abs(c["delta_ns"]))
    assert top["category"] == "data" and top["delta_ns"] == 30_000_000
    assert body["step_time"]["headline"].endswith("mostly data +30 ms")
    assert main(["diff", base, slow, "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"# diff {base} -> {slow}")
    assert "| data | 10.00 | 40.00 | +30.00 |" in text


def test_same_pair_is_answered_from_the_cache(gate_logdir, make_client):
    client = make_client(gate_logdir)
    first = client.json("compare", baseline="base", candidate="slow")
    service = client.plugin._store
    assert service._jobs.kept(("base", "compare:slow")) is not None
    assert client.json("compare", baseline="base", candidate="slow") == first
    timer = next((gate_logdir / "slow" / "plugins" / "tb_perf").glob("*.timer.jsonl"))
    os.utime(timer, ns=(1, 1))  # a new version of the run: compared again, same answer
    assert client.json("compare", baseline="base", candidate="slow") == first


def test_annotations_are_left_out_of_the_operator_deltas():
    """ProfilerStep#N is numbered differently in each run and record_function / MyTimer spans
    hold operators: neither is an operator that changed."""
    old_ops = [{"name": "mm", "calls": 40, "total_ns": 400, "annotation": False},
               {"name": "ProfilerStep#5", "calls": 1, "total_ns": 900, "annotation": True},
               {"name": "forward", "calls": 20, "total_ns": 300, "annotation": True}]  # fmt: skip
    new_ops = [{"name": "mm", "calls": 40, "total_ns": 800, "annotation": False},
               {"name": "ProfilerStep#16", "calls": 1, "total_ns": 950, "annotation": True},
               {"name": "forward", "calls": 20, "total_ns": 700, "annotation": True}]  # fmt: skip
    body = compare(
        facts("a", {0: BASE}, operators=old_ops), facts("b", {0: BASE}, operators=new_ops)
    )
    assert [r["name"] for r in body["operators"]] == ["mm"]
    assert body["operators_total"] == 1
