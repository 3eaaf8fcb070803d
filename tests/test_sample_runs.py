"""The committed demo logdir: small, in the current format, and showing its slow phase."""

import gzip
import json
import re
from pathlib import Path

from tb_perf_plugin import views
from tb_perf_plugin.store import RunStore

SAMPLE_RUNS = Path(__file__).resolve().parents[1] / "sample_runs"
MAX_BYTES = 5 * 1024 * 1024


def test_size_under_5_mb():
    total = sum(p.stat().st_size for p in SAMPLE_RUNS.rglob("*") if p.is_file())
    assert total < MAX_BYTES


def test_every_collector_file_is_format_v1():
    files = [p for p in SAMPLE_RUNS.rglob("plugins/tb_perf/*") if p.is_file()]  # not imported/
    assert files
    for path in files:
        if path.name.endswith(".pt.trace.json.gz"):
            doc = json.loads(gzip.decompress(path.read_bytes()))["tb_perf"]
            assert doc["version"] == 1 and path.name.startswith(doc["prefix"] + "."), path
            continue
        first = path.read_text().splitlines()[0]
        doc = json.loads(first) if path.suffix == ".jsonl" else json.loads(path.read_text())
        assert doc["schema"].startswith("tb_perf.") and doc["version"] == 1, path


def test_slow_data_run_shows_data_loading_dominating():
    service = RunStore(str(SAMPLE_RUNS))
    summary = views.overview.summary(service, "ddp_slow_data", wait_s=None)
    assert [r["rank"] for r in summary["ranks"]] == [0, 1]
    assert all(r["status"] == "finished" and r["steps"] == 40 for r in summary["ranks"])
    top = summary["spans"][0]
    assert top["name"] == "data" and top["pct_of_step"] > 50
    assert summary["warnings"] == []


def test_traced_run_has_traces_per_rank_with_collectives_and_synced_clocks():
    data = SAMPLE_RUNS / "ddp_traced" / "plugins" / "tb_perf"
    metas = sorted(data.glob("*.meta.json"))
    assert len(metas) == 2
    for meta_path in metas:
        meta = json.loads(meta_path.read_text())
        prefix = meta_path.name.removesuffix(".meta.json")
        sync = meta["clock_sync"]
        assert sync["method"] == "torch.distributed" and sync["reference_rank"] == 0
        if meta["rank"] == 0:
            assert (sync["offset_ns"], sync["uncertainty_ns"]) == (0, 0)
        else:  # synced at start and at end: two samples and a drift
            assert len(sync["samples"]) == 2 and sync["drift_ns_per_s"] is not None
            assert 0 < sync["uncertainty_ns"] < 10_000_000
        traces = sorted(data.glob(f"{prefix}.steps*.pt.trace.json.gz"))
        assert sorted(w["file"] for w in meta["profiler"]["windows"]) == [t.name for t in traces]
        all_reduces = 0
        for trace_path in traces:
            trace = json.loads(gzip.decompress(trace_path.read_bytes()))
            first, last = map(int, re.search(r"steps(\d+)-(\d+)", trace_path.name).groups())
            assert trace["tb_perf"]["rank"] == meta["rank"]
            assert (trace["tb_perf"]["first_step"], trace["tb_perf"]["last_step"]) == (first, last)
            names = [e.get("name") for e in trace["traceEvents"]]
            assert sorted(n for n in names if n.startswith("ProfilerStep#")) == sorted(
                f"ProfilerStep#{s}" for s in range(first, last + 1)
            )
            all_reduces += names.count("c10d::allreduce_")
        assert len(traces) == 2 and all_reduces >= 20


def test_modules_run_has_the_module_tree_with_forward_and_backward():
    service = RunStore(str(SAMPLE_RUNS))
    answer = views.modules.modules(service, "ddp_modules", None)
    assert answer["source"] == "collector" and not answer["class_names"]
    rows = {r["path"]: r for r in answer["rows"]}
    attention = rows["encoder.layers.0.self_attn"]
    assert attention["type"] == "MultiheadAttention" and attention["params"] > 0
    for phase in ("forward", "backward"):
        assert attention[phase]["calls"] == 60  # 30 steps on each of 2 ranks
        assert 0 < attention[phase]["total_ns"] <= rows["encoder.layers.0"][phase]["total_ns"]
        assert rows["encoder"][phase]["total_ns"] <= rows[""][phase]["total_ns"]


def test_leak_run_grows_a_mebibyte_a_step_on_rank_1_only():
    data = SAMPLE_RUNS / "ddp_leak" / "plugins" / "tb_perf"
    growth = {}
    for path in sorted(data.glob("rank*.memory.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines()[1:]]
        assert [r["step"] for r in records] == list(range(60))
        rss = [r["rss"] for r in records]
        growth[path.name[:5]] = (rss[-1] - rss[10]) / (len(rss) - 11)
    assert 0.8 * 2**20 < growth["rank1"] < 1.25 * 2**20
    assert abs(growth["rank0"]) < 0.1 * 2**20
    assert list(data.glob("rank*.system.jsonl"))


def test_leak_run_has_the_leak_finding_on_rank_1_with_its_slope():
    findings = views.findings.findings(RunStore(str(SAMPLE_RUNS)), "ddp_leak", wait_s=None)[
        "findings"
    ]
    leaks = [f for f in findings if f["kind"] == "memory_leak"]
    assert [f["key"] for f in leaks] == ["memory_leak:rank1"]
    slope = leaks[0]["evidence"]["slope"]["value"]
    assert abs(slope - 2**20) < 0.2 * 2**20  # within 20 % of the true 1 MiB a step


def test_comparison_pair_candidate_is_faster_by_its_data_loading():
    service = RunStore(str(SAMPLE_RUNS))
    slow, fast = (
        views.overview.summary(service, run, wait_s=None)
        for run in ("ddp_slow_data", "ddp_fast_data")
    )
    for before, after in zip(slow["ranks"], fast["ranks"], strict=True):
        assert after["steps"] == before["steps"] == 40
        assert after["step_time_ns"]["p50"] < 0.5 * before["step_time_ns"]["p50"]
    slow_data, fast_data = (
        next(s for s in run["spans"] if s["name"] == "data") for run in (slow, fast)
    )
    assert fast_data["total_ns"] < 0.25 * slow_data["total_ns"]


def test_compiled_run_has_recompilations_mfu_and_an_imported_python_profile():
    """ddp_compiled: a new batch size every 4 steps under torch.compile(dynamic=False) is 7
    graphs, 6 recompilations per rank and the recompilation finding; FlopsCounter's count is
    the MLP's matmuls (forward and backward) and MFU is reported against the measured peak;
    rank 0's cProfile file shows in the Python view."""
    service = RunStore(str(SAMPLE_RUNS))
    summary = views.overview.summary(service, "ddp_compiled", wait_s=None)
    matmul_flops = 2 * 32 * (64 * 256 + 256 * 256 + 256 * 2)  # one forward at batch 32
    for rank in summary["ranks"]:
        compiled = rank["compile"]
        assert (compiled["graphs"], compiled["recompiles"]) == (7, 6)
        assert compiled["recompile_reasons"][0]["function"] == "a torch.compile'd nn.Module"
        compute = rank["compute"]
        # backward: weight gradients of every layer, input gradients of all but the first
        assert compute["flops_per_step"] == 3 * matmul_flops - 2 * 32 * 64 * 256
        assert 0 < compute["mfu"] < 1 and compute["peak_source"] == "set by the job (argument)"
    findings = views.findings.findings(service, "ddp_compiled", wait_s=None)["findings"]
    # the same on both ranks: one finding naming them
    recompiled = [f for f in findings if f["kind"] == "recompilation"]
    assert [(f["key"], f["ranks"]) for f in recompiled] == [("recompilation:ranks", [0, 1])]
    # its cost a step: the recompile time over the run's steps; the slow steps are the steps it
    # recompiled in, folded under it
    (cause,) = recompiled
    assert cause["impact"]["ns_per_step"] == cause["evidence"]["recompile_time_per_step"]["value"]
    (slow,) = [f for f in findings if f["kind"] == "step_outlier"]
    assert slow["explained_by"] == "recompilation:ranks" and set(slow["steps"]) <= set(
        cause["steps"]
    )
    python = views.python.python(service, "ddp_compiled", wait_s=None)
    assert [f["rank"] for f in python["files"]] == [0] and python["functions"]


def test_pipeline_run_profiles_only_the_listed_stages():
    """ddp_pipeline: DIT (4 calls a prompt) and VAE (1) are profiled, TEXT is not; two
    invocations of each are traced per rank after the skipped first one."""
    tasks = views.tasks.tasks(RunStore(str(SAMPLE_RUNS)), "ddp_pipeline")
    assert tasks["warnings"] == []
    assert [(t["task_type"], t["rank"]) for t in tasks["tasks"]] == [
        ("DIT", 0), ("DIT", 1), ("VAE", 0), ("VAE", 1),
    ]  # fmt: skip
    for task in tasks["tasks"]:
        assert task["invocations_seen"] == (24 if task["task_type"] == "DIT" else 6)
        assert [i["index"] for i in task["invocations"]] == [1, 2]
        assert {"aten::linear", "aten::addmm"} <= {o["name"] for o in task["operators"]}
    data = SAMPLE_RUNS / "ddp_pipeline" / "plugins" / "tb_perf"
    assert not list(data.glob("*TEXT*"))
