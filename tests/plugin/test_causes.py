"""host_bound's and sync_point's causes and what fixing them saves (docs/FINDINGS.md, causes
and impact): planted GPU traces with a known cost (planted_traces.py) and the shared real
traces, each named with the cause it shows."""

from __future__ import annotations

import json
import os

import pytest

from tests.plugin import planted_traces as planted
from tests.plugin.test_findings import findings

SAMPLES = "traces/pytorch__kineto/tb_plugin/samples"
HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
# shared trace -> (kind, cause) it must be found with
SHARED_CAUSES = {
    "traces/AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz": ("host_bound", "cpu_ops"),
    f"{HTA}/nccl_parser_config/nccl_data.json.gz": ("host_bound", "cpu_ops"),
    f"{HTA}/trace_filter/sampled_rank-0.json.gz": ("host_bound", "cpu_ops"),
    f"{HTA}/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz": (
        "host_bound", "launch_overhead"),
    f"{HTA}/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz": (
        "host_bound", "initialization"),
    f"{SAMPLES}/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz": (
        "sync_point", "blocking_copy"),
}  # fmt: skip


def _client(tmp_path, make_client, **docs: dict):
    for run, doc in docs.items():
        (tmp_path / run).mkdir()
        (tmp_path / run / "rank0.pt.trace.json").write_text(json.dumps(doc))
    return make_client(tmp_path)


def test_allocator_churn_is_named_and_costed(tmp_path, make_client):
    """20 cudaFree calls of 200 µs a step on an otherwise idle GPU: host_bound, cause
    allocator; without the frees the step is its kernels' 2 ms back to back, 3.08 ms less."""
    client = _client(tmp_path, make_client, churn=planted.allocator_churn())
    (host,) = [f for f in findings(client, "churn") if f["kind"] == "host_bound"]
    assert host["evidence"]["cause"]["value"] == "allocator"
    assert "empty_cache()" in host["recommendation"]
    assert host["evidence"]["allocator_time"]["value"] == planted.CHURN_PLANTED_US * 1_000
    assert host["impact"]["ns_per_step"] == planted.CHURN_SAVED_US * 1_000
    assert host["impact"]["share_of_step"] == pytest.approx(
        planted.CHURN_SAVED_US / planted.CHURN_STEP_US
    )
    assert host["impact"]["basis"].startswith("critical path")


def test_a_blocking_copy_is_named_and_costed(tmp_path, make_client):
    """A .cpu() into pageable memory blocks the host for the kernels before it: sync_point,
    cause blocking_copy; without the wait the host's 1.5 ms runs beside the device, and the
    step loses the whole call."""
    client = _client(tmp_path, make_client, copy=planted.blocking_copy())
    (sync,) = [f for f in findings(client, "copy") if f["kind"] == "sync_point"]
    assert sync["evidence"]["cause"]["value"] == "blocking_copy"
    assert "non_blocking=True" in sync["recommendation"]
    assert sync["impact"]["ns_per_step"] == planted.COPY_CALL_US * 1_000
    assert sync["impact"]["basis"].startswith("critical path")


@pytest.mark.parametrize("trace", sorted(SHARED_CAUSES))
def test_shared_traces_name_their_cause(tmp_path, shared_data, make_client, trace, monkeypatch):
    kind, cause = SHARED_CAUSES[trace]
    (tmp_path / "run").mkdir()
    suffix = trace[trace.index(".json") :]
    os.symlink(shared_data / trace, tmp_path / "run" / f"rank0.pt.trace{suffix}")
    monkeypatch.setenv("TB_PERF_FOLLOW_LINKS", "1")
    found = [f for f in findings(make_client(tmp_path), "run") if f["kind"] == kind]
    assert [f["evidence"]["cause"]["value"] for f in found] == [cause]
    impact = found[0]["impact"]
    if cause == "initialization":  # one-off: no saving a step
        assert impact["ns_per_step"] is None
    else:
        assert 0 < impact["ns_per_step"] and 0 < impact["share_of_step"] <= 1
