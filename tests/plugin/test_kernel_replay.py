"""A trace recorded under the CUPTI range profiler is said to have inflated timings
(findings.kernel_replay). No shared trace was recorded so; this one is built with the events'
shape as Kineto's CuptiRangeProfiler writes them (category cuda_profiler_range, one event per
kernel named after it, counter values as args, times spread evenly over the window)."""

from __future__ import annotations

import json

from tb_perf_plugin.ingest.kineto import read_trace
from tests.plugin.test_findings import findings

STEPS, KERNELS = 3, 4


def _replayed_trace(ranges: bool) -> dict:
    events = []
    for step in range(STEPS):
        t0 = 1_000 + step * 10_000
        events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}",
                       "pid": 1, "tid": 1, "ts": t0, "dur": 9_000})  # fmt: skip
        for k in range(KERNELS):
            events.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
                           "ts": t0 + 100 + k * 2_000, "dur": 1_800})  # fmt: skip
    if ranges:
        window = STEPS * 10_000
        for i in range(STEPS * KERNELS):
            events.append({
                "ph": "X", "cat": "cuda_profiler_range", "name": "ampere_sgemm_128x64_nn",
                "pid": 0, "tid": 0, "ts": 1_000 + i * window // (STEPS * KERNELS),
                "dur": window // (STEPS * KERNELS),
                "args": {"sm__inst_executed_pipe_tensor.sum": 0, "kineto__cuda_core_flops": 4e9},
            })  # fmt: skip
    return {"schemaVersion": 1, "traceEvents": events}


def test_the_range_profilers_events_are_counted(tmp_path):
    path = tmp_path / "rank0.pt.trace.json"
    path.write_text(json.dumps(_replayed_trace(ranges=True)))
    assert read_trace(str(path)).meta.profiler_ranges == STEPS * KERNELS


def test_a_replayed_trace_says_its_timings_are_inflated_first(tmp_path, make_client):
    for run, ranges in (("replayed", True), ("plain", False)):
        (tmp_path / run).mkdir()
        (tmp_path / run / "rank0.pt.trace.json").write_text(json.dumps(_replayed_trace(ranges)))
    client = make_client(tmp_path)
    found = findings(client, "replayed")
    assert found[0]["kind"] == "kernel_replay" and found[0]["severity"] == "warning"
    assert found[0]["title"].endswith("timings inflated by kernel replay")
    assert found[0]["evidence"]["profiler_ranges"]["value"] == STEPS * KERNELS
    assert "kernel_replay" not in {f["kind"] for f in findings(client, "plain")}
