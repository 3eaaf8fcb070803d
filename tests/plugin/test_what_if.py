"""What a fix would save, read off the critical path (analysis/what_if.py, docs/FINDINGS.md,
impact): exact savings on small built traces, and the planted runs' costs recovered."""

from __future__ import annotations

import numpy as np
import pytest

from tb_perf_plugin.analysis.critical_path import SYNC, longest_length, longest_path
from tb_perf_plugin.analysis.what_if import REMOVED, path_impact, what_if_step
from tb_perf_plugin.ingest.kineto import read_trace
from tb_perf_plugin.ingest.tables import Kind
from tests.plugin import planted_faults_worker as worker
from tests.plugin.test_critical_path import _profiler_steps, _trace
from tests.plugin.test_findings import findings, planted  # noqa: F401 (a fixture)

RESNET_TRACE = (
    "traces/pytorch__kineto/tb_plugin/samples/resnet50_num_workers_4/"
    "worker0.1623213129365.pt.trace.json.gz"
)

HOST, DEVICE, OTHER_STREAM = (1, 1), (0, 7), (0, 8)
Event = tuple[str, Kind, int, int, tuple[int, int], int, int]


def _impact(events: list[Event], kind: str, cause: str = "", subject: str = "") -> dict | None:
    step = what_if_step(_trace(events), 0, 1, (0, 500))
    return path_impact(kind, cause, subject, [step])


# two launches, a device sync the host waits in (50..410), then 60 ns of host work
SYNCED: list[Event] = [
    ("step", Kind.USER_ANNOTATION, 0, 500, HOST, -1, -1),
    ("cudaLaunchKernel", Kind.RUNTIME, 10, 20, HOST, 1, -1),
    ("cudaLaunchKernel", Kind.RUNTIME, 30, 40, HOST, 2, -1),
    ("cudaDeviceSynchronize", Kind.RUNTIME, 50, 410, HOST, -1, -1),
    ("after", Kind.CPU_OP, 420, 480, HOST, -1, -1),
    ("k1", Kind.KERNEL, 25, 225, DEVICE, 1, -1),
    ("k2", Kind.KERNEL, 225, 400, DEVICE, 2, -1),
]


def test_a_sync_points_wait_removed_lets_the_host_run_ahead():
    """Without the wait the host's 140 ns run beside the device's 400: the step is the device's
    400 ns, 100 ns shorter (the sync's tail and the host work after it)."""
    impact = _impact(SYNCED, "sync_point", "synchronize_call")
    assert impact is not None
    assert impact["ns_per_step"] == 100 and impact["share_of_step"] == pytest.approx(0.2)
    assert impact["basis"].startswith("critical path of the median traced step (step 1 of rank 0)")
    assert "waits on the device removed" in impact["basis"]


def test_cpu_ops_taking_no_time_leave_the_device_chain():
    """The host's own op time on the path (10 before the launch, 60 after the sync, 30 of the
    step annotation's gaps) goes; the launch delay, both kernels and the sync's tail stay."""
    impact = _impact(SYNCED, "host_bound", "cpu_ops")
    assert impact is not None and impact["ns_per_step"] == 100
    # the launch calls are off the path; what of them is on it is the first kernel's wait for
    # its launch (15 ns)
    launches = _impact(SYNCED, "host_bound", "launch_overhead")
    assert launches is not None and launches["ns_per_step"] == 15
    # nothing of the allocator in the step: the graph cannot say, the rule's estimate stands
    assert _impact(SYNCED, "host_bound", "allocator") is None


def test_a_hotspot_takes_its_kernels_with_it():
    """aten::mm (0..100) launches a 200 ns kernel; aten::add runs 100..150 after it. Without mm
    and its kernel the step is the launch (10) and add (50): 60 ns of 230."""
    events: list[Event] = [
        ("aten::mm", Kind.CPU_OP, 0, 100, HOST, -1, 5),
        ("cudaLaunchKernel", Kind.RUNTIME, 10, 20, HOST, 1, 5),
        ("gemm", Kind.KERNEL, 30, 230, DEVICE, 1, 5),
        ("aten::add", Kind.CPU_OP, 100, 150, HOST, -1, 6),
    ]
    step = what_if_step(_trace(events), 0, 1, (0, 230))
    assert step.length_ns == 230
    impact = path_impact("hotspot", "", "aten::mm", [step])
    assert impact is not None and impact["ns_per_step"] == 170
    assert "aten::mm and the device work it launched" in impact["basis"]


def test_a_path_waiting_on_what_the_graph_lacks_says_nothing():
    """A kernel that starts 270 ns after its launch and its stream's previous kernel waits on
    something the graph does not hold (another stream's event): no path estimate."""
    events: list[Event] = [
        ("cudaLaunchKernel", Kind.RUNTIME, 0, 10, HOST, 1, -1),
        ("cudaLaunchKernel", Kind.RUNTIME, 10, 20, HOST, 2, -1),
        ("cudaLaunchKernel", Kind.RUNTIME, 20, 30, HOST, 3, -1),
        ("k1", Kind.KERNEL, 15, 25, DEVICE, 1, -1),
        ("ncclAllReduce", Kind.KERNEL, 30, 290, OTHER_STREAM, 3, -1),
        ("k2", Kind.KERNEL, 295, 310, DEVICE, 2, -1),
    ]
    step = what_if_step(_trace(events), 0, 1, (0, 500))
    assert step.unexplained_ns > 0.25 * step.length_ns
    assert path_impact("communication", "", "", [step]) is None


def test_the_planted_input_wait_is_recovered_on_the_path(planted, make_client):  # noqa: F811
    """slow_data plants 10 ms of loading a batch: the path without the loader's time is that
    much shorter."""
    (loading,) = [f for f in findings(make_client(planted), "slow_data")
                  if f["kind"] == "data_loading"]  # fmt: skip
    impact = loading["impact"]
    assert impact["basis"].startswith("critical path of the median traced step")
    planted_ns = worker.SLOW_DATA_SAMPLE_S * worker.BATCH_SIZE * 1e9
    assert impact["ns_per_step"] == pytest.approx(planted_ns, rel=0.2)


def test_contracted_chains_give_the_graphs_lengths(shared_data):
    """On real steps, the series-contracted graph's longest path equals the graph's, with its
    own weights and with random edges zeroed or sync edges removed (what what-ifs ask)."""
    trace = read_trace(str(shared_data / RESNET_TRACE))
    rng = np.random.default_rng(3)
    for _, first, last in _profiler_steps(trace)[:3]:
        step = what_if_step(trace, 0, 1, (first, last))
        graph = step.graph
        assert len(step.chains.graph.src) < len(graph.src) / 2  # most points are in chains
        assert step.length_ns == longest_path(graph).length_ns
        for _ in range(5):
            zeroed = rng.random(len(graph.src)) < 0.3
            removed = (graph.kind == SYNC) & (rng.random(len(graph.src)) < 0.5)
            weight = np.where(removed, REMOVED, np.where(zeroed, 0, graph.weight))
            assert step.length_without(zeroed, removed) == longest_length(graph, weight)
