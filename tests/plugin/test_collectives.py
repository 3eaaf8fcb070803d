"""The Distributed view's numbers (docs/ANALYSIS.md, Distributed) recomputed from the raw JSON
of the shared NCCL/RCCL traces: bytes are nelems × dtype size of each communication kernel's
args, time its device duration, bus bandwidth nccl-tests' algorithm bandwidth × factor."""

from __future__ import annotations

import gzip
import json
import os
from collections import defaultdict

import pytest

from tb_perf_plugin.analysis.collectives import (
    POINT_TO_POINT,
    UNKNOWN,
    bus_factor,
    collective_kind,
)
from tb_perf_plugin.cli import main
from tests.conftest import write_training_run

HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
TRACES = {  # HTA @f4d0062c and TraceLens @4c20ff10 / @203e0328 (shared/data/SOURCES.md)
    "a100": f"{HTA}/nccl_parser_config/nccl_data.json.gz",
    "b200": "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz",
    "mi300": "traces/AMD-AGI__TraceLens/tests/traces/mi300/resnet_act_checkpoint.json.gz",
}
P2P_RANKS = [f"{HTA}/trace_filter/sampled_rank-{rank}.json.gz" for rank in (0, 1)]
# Written out here, not imported: the test's own reading of the trace args
ELEMENT_BYTES = {"Float": 4, "BFloat16": 2, "Long": 8}
KINDS = {"allreduce": "all_reduce", "broadcast": "broadcast", "_allgather_base": "all_gather"}
# (kind, group) -> calls and bytes, as counted by hand from the raw events
EXPECTED = {
    "a100": {("all_reduce", "0"): (15, 306684384), ("broadcast", "0"): (6, 638712)},
    "b200": {("all_gather", "3"): (1, 8 * 25136 * 2)},
    "mi300": {("all_reduce", "0"): (6, 70137072), ("broadcast", "0"): (6, 58080)},
}
BRIEF = {"name", "group", "calls", "bytes", "total_ns", "mean_ns", "algo_bandwidth",
         "bus_bandwidth", "slowest_rank"}  # fmt: skip


def _raw_collectives(path) -> dict[tuple[str, str], dict[str, int]]:
    """Per (kind, group), from the raw kernel events with a `Collective name`: calls, bytes
    (the gathered output for all-gather, the input otherwise, as nccl-tests sizes them),
    device ns and the group size."""
    with gzip.open(path) as handle:
        events = json.load(handle)["traceEvents"]
    out: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for e in events:
        args = e.get("args") or {}
        if e.get("cat") != "kernel" or "Collective name" not in args:
            continue
        kind = KINDS[args["Collective name"]]
        nelems = args["Out msg nelems"] if kind == "all_gather" else args["In msg nelems"]
        row = out[(kind, args["Process Group Name"])]
        row["calls"] += 1
        row["bytes"] += nelems * ELEMENT_BYTES[args["dtype"]]
        row["ns"] += round(e["dur"] * 1000)
        row["ranks"] = args["Group size"]
    return out


def _nccl_tests_bus_factor(kind: str, n: int) -> float:
    """nccl-tests' docs/PERFORMANCE.md, per collective."""
    return {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "broadcast": 1.0}[kind]


@pytest.mark.parametrize("trace", sorted(TRACES))
def test_bytes_and_bus_bandwidth_match_the_raw_events(trace, tmp_path, shared_data, make_client):
    (tmp_path / "run").mkdir()
    os.symlink(shared_data / TRACES[trace], tmp_path / "run" / "rank0.pt.trace.json.gz")
    answer = make_client(tmp_path).json("distributed", run="run")
    assert answer["distributed"] and answer["point_to_point"] == []
    rows = {(r["name"], r["group"]): r for r in answer["collectives"]}
    raw = _raw_collectives(shared_data / TRACES[trace])
    assert {key: (r["calls"], r["bytes"]) for key, r in raw.items()} == EXPECTED[trace]
    for key, expected in raw.items():
        row = rows[key]
        assert (row["calls"], row["bytes"]) == (expected["calls"], expected["bytes"])
        assert row["bytes_per_call"] == expected["bytes"] // expected["calls"]
        assert row["total_ns"] == pytest.approx(expected["ns"], abs=expected["calls"])
        assert row["mean_ns"] == row["total_ns"] // row["calls"]
        algo = expected["bytes"] / expected["ns"] * 1e9  # bytes per second
        bus = algo * _nccl_tests_bus_factor(key[0], expected["ranks"])
        assert row["algo_bandwidth"] == pytest.approx(algo, rel=1e-4)
        assert row["bus_bandwidth"] == pytest.approx(bus, rel=1e-4)
        assert row["group_size"] == expected["ranks"] and row["slowest_rank"] == 0
        (own,) = row["per_rank"]
        assert own["rank"] == 0 and own["bus_bandwidth"] == row["bus_bandwidth"]
    # the RCCL trace's 5 ncclDevKernel_Generic kernels without args: kept, sizes unknown
    unknown = [r for r in answer["collectives"] if r["name"] == UNKNOWN]
    assert [(r["calls"], r["bytes"], r["bus_bandwidth"]) for r in unknown] == (
        [(5, None, None)] if trace == "mi300" else []
    )


def test_split_adds_up_to_the_breakdown(tmp_path, shared_data, make_client):
    """Two ranks of one 128-rank job with only SendRecv kernels (no args): point-to-point,
    apart from the collectives; each step's split adds up to its breakdown."""
    (tmp_path / "run").mkdir()
    for path in P2P_RANKS:
        os.symlink(shared_data / path, tmp_path / "run" / os.path.basename(path))
    client = make_client(tmp_path)
    answer = client.json("distributed", run="run")
    assert answer["collectives"] == [] and answer["empty_reason"] is None
    (p2p,) = answer["point_to_point"]
    assert (p2p["name"], p2p["calls"], p2p["ranks"], p2p["bytes"]) == (POINT_TO_POINT, 20, 2, None)
    slowest = max(p2p["per_rank"], key=lambda r: r["total_ns"])
    assert p2p["slowest_rank"] == slowest["rank"]
    assert p2p["total_ns"] == sum(r["total_ns"] for r in p2p["per_rank"])
    breakdown = client.json("breakdown", run="run")
    for rank, steps in zip(answer["ranks"], breakdown["ranks"], strict=True):
        assert rank["rank"] == steps["rank"]
        for split, step in zip(rank["steps"], steps["steps"], strict=True):
            assert split["step"] == step["step"]
            assert sum(split[k] for k in ("computation_ns", "overlap_ns", "exposed_ns",
                                          "other_ns")) == step["duration_ns"]  # fmt: skip
            assert split["overlap_ns"] == step["overlap_ns"]
            assert split["exposed_ns"] == step["communication_exposed_ns"]
            assert split["computation_ns"] == step["ns"]["compute"] - step["overlap_ns"]
    assert answer["total"]["exposed_ns"] == sum(r["exposed_ns"] for r in answer["ranks"])
    one = client.json("distributed", run="run", rank="1")
    assert [r["rank"] for r in one["ranks"]] == [1] and one["point_to_point"][0]["calls"] == 10


def test_analyze_json_has_the_distributed_shape(tmp_path, shared_data, capsys):
    run = tmp_path / "run"
    run.mkdir()
    os.symlink(shared_data / TRACES["a100"], run / "rank0.pt.trace.json.gz")
    assert main(["analyze", str(run), "--format", "json"]) == 0
    distributed = json.loads(capsys.readouterr().out)["distributed"]
    assert set(distributed) == {"ranks", "collectives", "point_to_point"}
    (rank,) = distributed["ranks"]
    assert set(rank) == {"rank", "computation_ns", "overlap_ns", "exposed_ns", "other_ns"}
    assert [set(row) for row in distributed["collectives"]] == [BRIEF, BRIEF]
    assert distributed["collectives"][0]["name"] == "all_reduce"  # most time first
    assert main(["analyze", str(run), "--format", "md"]) == 0
    text = capsys.readouterr().out
    assert "## Distributed" in text and "| all_reduce | 0 | 15 | 292.48 MiB |" in text


def test_compare_gives_each_collectives_bandwidth_in_both_runs(tmp_path, shared_data, make_client):
    for run in ("a100", "mi300"):
        (tmp_path / run).mkdir()
        os.symlink(shared_data / TRACES[run], tmp_path / run / "rank0.pt.trace.json.gz")
    client = make_client(tmp_path)
    sides = {run: client.json("distributed", run=run)["collectives"] for run in ("a100", "mi300")}
    diff = client.json("compare", baseline="a100", candidate="mi300")
    rows = {(r["name"], r["group"]): r for r in diff["collectives"]}
    assert diff["collectives_total"] == len(rows) == 3
    for side, run in (("baseline", "a100"), ("candidate", "mi300")):
        for row in sides[run]:
            compared = rows[(row["name"], row["group"])]
            assert compared["calls"][side] == row["calls"]
            for key in ("mean_ns", "algo_bandwidth", "bus_bandwidth"):
                assert compared[key][side] == row[key], (run, key)
    all_reduce = rows[("all_reduce", "0")]
    assert all_reduce["status"] == "changed"
    assert all_reduce["bus_bandwidth"]["delta"] == (
        all_reduce["bus_bandwidth"]["candidate"] - all_reduce["bus_bandwidth"]["baseline"]
    )
    assert rows[("unknown", None)]["status"] == "new"  # RCCL's Generic kernels without args
    assert rows[("unknown", None)]["bus_bandwidth"] == {
        "baseline": None, "candidate": None, "delta": None}  # fmt: skip


def test_only_runs_of_many_ranks_or_with_collectives_have_it(tmp_path, make_client):
    """MyTimer records without traces: of one rank, no distributed section; of two, one
    with nothing measured (no traced steps), and the route says why."""
    write_training_run(tmp_path / "one", world_size=1, steps=2)
    write_training_run(tmp_path / "two", world_size=2, steps=2)
    client = make_client(tmp_path)
    assert client.json("summary", run="one")["distributed"] is None
    assert client.json("distributed", run="one")["distributed"] is False
    assert client.json("summary", run="two")["distributed"] == {
        "ranks": [], "collectives": [], "point_to_point": []}  # fmt: skip
    answer = client.json("distributed", run="two", rank="0")
    assert answer["distributed"] is True and "No traced steps" in answer["empty_reason"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("allreduce", "all_reduce"),
        ("allreduce_coalesced", "all_reduce"),
        ("_allgather_base", "all_gather"),
        ("allgather_into_tensor_coalesced", "all_gather"),
        ("_reduce_scatter_base", "reduce_scatter"),
        ("reduce_scatter_tensor_coalesced", "reduce_scatter"),
        ("alltoall_base", "all_to_all"),
        ("broadcast", "broadcast"),
        ("reduce", "reduce"),
        ("gather", "gather"),
        ("send", POINT_TO_POINT),
        ("recv", POINT_TO_POINT),
        ("barrier", "barrier"),
        ("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "all_reduce"),
        ("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "all_gather"),
        ("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(...)", "reduce_scatter"),
        ("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long)", POINT_TO_POINT),
        ("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)", UNKNOWN),
    ],
)
def test_collective_kind(name, kind):
    assert collective_kind(name) == kind


def test_bus_factor():
    assert bus_factor("all_reduce", 8) == pytest.approx(1.75)
    assert bus_factor("all_gather", 8) == bus_factor("reduce_scatter", 8) == 0.875
    assert bus_factor("all_to_all", 2) == 0.5
    assert bus_factor("broadcast", -1) == bus_factor(POINT_TO_POINT, 2) == 1.0
    assert bus_factor("all_reduce", -1) is None and bus_factor("gather", 8) is None
