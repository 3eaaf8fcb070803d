"""Memory from the traces themselves (`profile_memory=True`, no collectors): per step from the
`[memory]` events, the memory rules on it, checked against the raw JSON read here.

`leak` and `no_leak` are plain torch.profiler runs recorded once (tests/fixtures/trace_memory,
generate.py beside them): a CPU loop keeping LEAK_BYTES a step, and the same loop without;
`both` is the leaking loop under MyTimer and MemorySampler too."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from tb_perf_plugin import views
from tb_perf_plugin.analysis.trace_memory import OUTSIDE_OPERATORS
from tb_perf_plugin.errors import InvalidArgument
from tb_perf_plugin.store import RunStore
from tests.fixtures.trace_memory.generate import ACTIVE_STEPS, LEAK_BYTES

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "trace_memory"
RESNET = "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_0"  # 2021: no totals
WITH_TOTALS = "traces/facebookresearch__HolisticTraceAnalysis/tests/data/df_index_resolver"
MEMORY_KINDS = {"memory_leak", "memory_peak", "fragmentation"}


def _answers(path: Path) -> tuple[dict, list[dict]]:
    store = RunStore(str(path), executor="inline")
    try:
        memory = views.memory.memory(store, ".", wait_s=None)
        return memory, views.findings.findings(store, ".", wait_s=None)["findings"]
    finally:
        store.close()


def _raw_events(trace: Path) -> list[dict]:
    opener = gzip.open if trace.suffix == ".gz" else open
    with opener(trace, "rt") as handle:
        return json.load(handle)["traceEvents"]


def _steps(events: list[dict]) -> list[tuple[int, float, float]]:
    return sorted(
        (int(e["name"].split("#")[1]), e["ts"], e["ts"] + e["dur"])
        for e in events
        if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#")
    )


def _memory(events: list[dict], device_type: int) -> list[dict]:
    found = [e for e in events if e.get("name") == "[memory]"]
    return sorted(
        (e for e in found if e["args"].get("Device Type") == device_type), key=lambda e: e["ts"]
    )


def test_a_trace_only_leak_is_found_at_its_planted_slope():
    memory, findings = _answers(RECORDED / "leak")
    (leak,) = [f for f in findings if f["kind"] in MEMORY_KINDS]
    assert leak["kind"] == "memory_leak" and leak["ranks"] == [0]
    evidence = {name: item["value"] for name, item in leak["evidence"].items()}
    assert evidence["source"] == "trace" and evidence["series"] == "allocated"
    assert evidence["slope"] == pytest.approx(LEAK_BYTES, rel=0.2)
    assert "torch.profiler's memory events" in leak["title"]
    (rank,) = memory["ranks"]
    assert (rank["source"], rank["device"], rank["trend"]["leak"]) == ("trace", "cpu", True)
    assert len(rank["steps"]) == ACTIVE_STEPS and rank["reserved"] is None  # none recorded


def test_its_clean_twin_gets_no_memory_finding():
    memory, findings = _answers(RECORDED / "no_leak")
    assert not [f for f in findings if f["kind"] in MEMORY_KINDS]
    (rank,) = memory["ranks"]
    assert rank["source"] == "trace" and rank["trend"]["leak"] is False
    assert abs(rank["trend"]["slope"]) < 1024


def test_both_sources_of_a_rank_are_shown_and_their_leak_is_one_finding():
    memory, findings = _answers(RECORDED / "both")
    sampled, traced = memory["ranks"]
    assert (sampled["rank"], sampled["source"]) == (0, "MemorySampler")
    assert (traced["rank"], traced["source"]) == (0, "trace")
    assert len(traced["steps"]) == ACTIVE_STEPS and len(sampled["steps"]) > ACTIVE_STEPS
    assert traced["trend"]["slope"] == pytest.approx(LEAK_BYTES, rel=0.2)
    assert sampled["trend"]["leak"] and traced["trend"]["leak"]
    (leak,) = [f for f in findings if f["kind"] == "memory_leak"]
    assert leak["evidence"]["source"]["value"] == "MemorySampler"
    assert leak["evidence"]["also_in"]["value"] == "torch.profiler's memory events"
    assert leak["impact"] == {"ns_per_step": None, "share_of_step": None,
                              "basis": "memory, not step time"}  # fmt: skip


def test_per_step_memory_is_what_the_raw_events_say():
    """At each step's end, the last event's "Total Allocated"; the peak of a step, the most
    allocated from the level it began with through its events."""
    (trace,) = (RECORDED / "leak").glob("*.json.gz")
    events = _raw_events(trace)
    cpu = _memory(events, 0)
    ts = np.array([e["ts"] for e in cpu])
    totals = np.array([e["args"]["Total Allocated"] for e in cpu])
    at_end, peaks = [], []
    for _, start, end in _steps(events):
        last = np.searchsorted(ts, end, "right") - 1
        first = np.searchsorted(ts, start, "left")
        at_end.append(int(totals[last]))
        peaks.append(int(totals[max(first - 1, 0) : last + 1].max()))
    (rank,) = _answers(RECORDED / "leak")[0]["ranks"]
    assert rank["allocated"] == at_end and rank["peak"] == peaks
    assert rank["steps"] == [s for s, _, _ in _steps(events)]
    assert rank["max_peak"] is None  # a CPU has no capacity to share it of


def test_a_cuda_trace_with_totals_peaks_at_the_raw_maximum(shared_data):
    (trace,) = (shared_data / WITH_TOTALS).glob("*.json.gz")
    events = _raw_events(trace)
    steps = _steps(events)
    first, last = steps[0][1], steps[-1][2]
    cuda = [e for e in _memory(events, 1) if first <= e["ts"] <= last]
    device = max({e["args"]["Device Id"] for e in cuda})
    raw_peak = max(e["args"]["Total Allocated"] for e in cuda if e["args"]["Device Id"] == device)
    (rank,) = _answers(shared_data / WITH_TOTALS)[0]["ranks"]
    assert rank["source"] == "trace" and rank["device"] == f"cuda:{device}"
    assert max(rank["peak"]) == raw_peak and rank["max_peak"]["bytes"] == raw_peak
    assert rank["device_total"] == 34089730048  # the trace's deviceProperties


def test_a_2021_trace_without_totals_counts_bytes_since_it_started(shared_data):
    """Its events carry each allocation's signed "Bytes" only: the level is their running sum,
    raised never to go below 0, per trace, and has no share of the device."""
    highest = 0
    for trace in sorted((shared_data / RESNET).glob("*.json.gz")):
        events = _raw_events(trace)
        cuda = _memory(events, 1)
        level = np.cumsum([e["args"]["Bytes"] for e in cuda])
        level -= min(level.min(), 0)
        ts = np.array([e["ts"] for e in cuda])
        for _, start, end in _steps(events):
            first, last = np.searchsorted(ts, start, "left"), np.searchsorted(ts, end, "right") - 1
            highest = max(highest, int(level[max(first - 1, 0) : last + 1].max()))
    (rank,) = _answers(shared_data / RESNET)[0]["ranks"]
    assert rank["source"] == "trace" and max(rank["peak"]) == highest
    assert rank["device_total"] is None and rank["reserved"] is None


def test_memory_events_in_no_step_are_explained(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    events = [
        {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 10,
         "dur": 5},
        *({"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1,
           "tid": 1, "ts": 11 + i,
           "args": {"Device Type": 0, "Device Id": -1, "Bytes": 64, "Addr": 1 + i,
                    "Total Allocated": 64 * (i + 1), "Total Reserved": 0}}
          for i in range(3)),
    ]  # fmt: skip
    (run / "w.pt.trace.json").write_text(json.dumps({"schemaVersion": 1, "traceEvents": events}))
    memory, _ = _answers(run)
    assert memory["ranks"] == []
    assert (
        "The 3 [memory] events of this run's torch.profiler traces fall in no step"
        in (memory["empty_reason"])
    )


def _operator_memory(path: Path, **params: str) -> dict:
    store = RunStore(str(path), executor="inline")
    try:
        return views.memory.memory_operators(store, ".", **params, wait_s=None)
    finally:
        store.close()


@pytest.mark.parametrize("where", ["recorded", "with_totals", "resnet"])
def test_per_operator_memory_adds_up_to_the_raw_events(where, shared_data):
    """Every event belongs to one op's self columns (or to the row of events no op encloses):
    their self allocations and increases add up to the raw events' bytes."""
    run = {"recorded": RECORDED / "leak", "with_totals": shared_data / WITH_TOTALS,
           "resnet": shared_data / RESNET}[where]  # fmt: skip
    answer = _operator_memory(run, limit="1000")
    device_type, device_id = (0, None) if answer["device"] == "cpu" else (1, None)
    if answer["device"] != "cpu":
        device_id = int(answer["device"].split(":")[1])
    raw = [
        e["args"]["Bytes"]
        for trace in sorted(run.glob("*.json*"))
        for e in _memory(_raw_events(trace), device_type)
        if device_id is None or e["args"].get("Device Id") == device_id
    ]
    rows = answer["rows"]
    assert answer["total_rows"] == len(rows)
    assert sum(r["self_allocation_bytes"] for r in rows) == sum(b for b in raw if b > 0)
    assert sum(r["self_allocations"] for r in rows) == sum(1 for b in raw if b > 0)
    assert sum(r["self_increase_bytes"] for r in rows) == sum(raw)
    for row in rows:  # an op's totals hold its self part
        assert row["allocation_bytes"] >= row["self_allocation_bytes"] >= 0


def test_per_operator_memory_of_the_leak_names_the_kept_tensor():
    """The kept tensor is `torch.ones`: 30 calls of 1 MiB, allocated by the aten::empty in it."""
    answer = _operator_memory(RECORDED / "leak")
    ones = next(r for r in answer["rows"] if r["name"] == "aten::ones")
    assert (ones["calls"], ones["allocations"]) == (ACTIVE_STEPS, ACTIVE_STEPS)
    assert ones["allocation_bytes"] == ACTIVE_STEPS * LEAK_BYTES and ones["frees"] == 0
    assert ones["self_allocation_bytes"] == 0  # its aten::empty allocates
    assert ones["peak_bytes"] <= max(_answers(RECORDED / "leak")[0]["ranks"][0]["peak"])


def test_a_time_range_keeps_the_op_calls_that_ran_in_it():
    memory, _ = _answers(RECORDED / "leak")
    origin, t = int(memory["origin_ns"]), memory["ranks"][0]["t_ns"]
    whole = _operator_memory(RECORDED / "leak")
    step = _operator_memory(RECORDED / "leak", start=str(origin + t[4]), end=str(origin + t[5]))
    ones = next(r for r in step["rows"] if r["name"] == "aten::ones")
    assert ones["calls"] == 1 and ones["allocation_bytes"] == LEAK_BYTES
    assert step["start_ns"] == str(origin + t[4])
    assert sum(r["self_allocation_bytes"] for r in step["rows"]) < sum(
        r["self_allocation_bytes"] for r in whole["rows"]
    )
    assert OUTSIDE_OPERATORS not in {r["name"] for r in step["rows"]}
    with pytest.raises(InvalidArgument, match="no memory events"):
        _operator_memory(RECORDED / "leak", device="cuda:0")
