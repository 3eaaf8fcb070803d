"""Step-time breakdown: interval arithmetic, the partition on real traces, and communication
measured against a union computed here from the raw JSON."""

import gzip
import math
import os
from pathlib import Path

import msgspec
import numpy as np
import pytest

from tb_perf_plugin.analysis.breakdown import CATEGORIES, Intervals

TRACES = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
NCCL_TRACES = {
    "nccl_data": f"{TRACES}/nccl_parser_config/nccl_data.json.gz",
    "df_index_resolver": f"{TRACES}/df_index_resolver/df_index_resolver.json.gz",
    "b200": "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz",
}
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"


def test_union_and_measure_against_brute_force():
    rng = np.random.default_rng(1)
    start = rng.integers(0, 1000, 300)
    end = start + rng.integers(0, 40, 300)  # some empty, many overlapping or nested
    union = Intervals.union(start, end)
    busy = np.zeros(1100, dtype=bool)
    for s, e in zip(start, end, strict=True):
        busy[s:e] = True
    assert np.all(union.start[1:] > union.end[:-1])  # disjoint, sorted, not touching
    a = rng.integers(-50, 1100, 200)
    b = a + rng.integers(0, 300, 200)
    expected = [busy[max(x, 0) : max(y, 0)].sum() for x, y in zip(a, b, strict=True)]
    assert union.measure_within(a, b).tolist() == expected
    empty = Intervals.union(np.zeros(0, np.int64), np.zeros(0, np.int64))
    assert empty.measure_within(a, b).tolist() == [0] * len(a)


def _ns(us: float) -> int:
    """µs to ns as ingest converts them (integer part exact, fraction rounded)."""
    whole = math.floor(us)
    return whole * 1000 + round((us - whole) * 1000)


def _union_length(intervals: list[tuple[int, int]], a: int, b: int) -> int:
    total, reach = 0, a
    for s, e in sorted(intervals):
        s, e = max(s, reach), min(e, b)
        if e > s:
            total += e - s
            reach = e
    return total


@pytest.fixture
def linked(tmp_path, shared_data):
    def link(name: str, relative: str):
        (tmp_path / name).mkdir()
        os.symlink(shared_data / relative, tmp_path / name / f"{name}.pt.trace.json.gz")
        return shared_data / relative

    return link


@pytest.mark.parametrize("name", sorted(NCCL_TRACES))
def test_communication_total_is_the_union_of_nccl_kernels(name, linked, tmp_path, make_client):
    path = linked(name, NCCL_TRACES[name])
    doc = msgspec.json.decode(gzip.open(path).read())
    base = doc.get("baseTimeNanoseconds", 0)
    kernels = [
        (base + _ns(e["ts"]), base + _ns(e["ts"]) + round(e["dur"] * 1000))
        for e in doc["traceEvents"]
        if e.get("ph") == "X" and e.get("cat", "").lower() == "kernel" and "nccl" in e["name"]
    ]
    assert kernels
    answer = make_client(tmp_path).json("breakdown", run=name)
    assert answer["categories"] == list(CATEGORIES)
    (rank,) = answer["ranks"]
    for step in rank["steps"]:
        a = int(step["start_ns"])
        b = a + step["duration_ns"]
        assert sum(step["ns"].values()) == step["duration_ns"]
        assert step["communication_total_ns"] == _union_length(kernels, a, b)
        exposed = step["communication_exposed_ns"]
        assert exposed == step["ns"]["communication"] <= step["communication_total_ns"]
        assert step["overlap_ns"] == step["communication_total_ns"] - exposed
    assert any(step["communication_total_ns"] > 0 for step in rank["steps"])


def test_dataloader_share_tells_the_resnet_samples_apart(resnet_logdir, make_client):
    client = make_client(resnet_logdir)

    def dataloader_shares(name: str) -> list[float]:
        (rank,) = client.json("breakdown", run=name)["ranks"]
        # two trace files of one worker: ProfilerStep#5-10 and #16-21
        assert [s["step"] for s in rank["steps"]] == [*range(5, 11), *range(16, 22)]
        return [s["ns"]["dataloader"] / s["duration_ns"] for s in rank["steps"]]

    # measured: 21-39 % of every step without workers, at most 2.4 % with four
    assert min(dataloader_shares("resnet50_num_workers_0")) > 0.15
    assert max(dataloader_shares("resnet50_num_workers_4")) < 0.05


def test_cpu_training_communicates_through_gloo_ops(make_client):
    answer = make_client(SAMPLE_RUNS).json("breakdown", run="ddp_traced")
    assert [r["rank"] for r in answer["ranks"]] == [0, 1]
    for rank in answer["ranks"]:
        steps = rank["steps"]
        assert [s["step"] for s in steps] == [*range(7, 12), *range(15, 20)]
        for step in steps:
            assert step["ns"]["compute"] == 0 and step["ns"]["communication"] > 0
            assert step["communication_total_ns"] == step["ns"]["communication"]
            assert sum(step["ns"].values()) == step["duration_ns"]


def test_breakdown_of_one_rank_and_a_bad_rank(make_client):
    client = make_client(SAMPLE_RUNS)
    one = client.json("breakdown", run="ddp_traced", rank=1)
    assert [r["rank"] for r in one["ranks"]] == [1]
    error = client.json("breakdown", expect=400, run="ddp_traced", rank=7)
    assert "not a rank of this run" in error["error"]["message"]
    assert client.json("breakdown", run="ddp_slow_data")["ranks"] == []  # no traces
