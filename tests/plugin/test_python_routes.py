"""The `python` route over a run's imported cProfile files (the shared PyTorch training profile
as rank 0, a recorded profile of a torch loop as rank 1, a corrupt file), checked against
pstats; the python_hotspot rule on the run's tables; the `kernels` route with Nsight Compute
columns for a real GPU trace and real ncu CSV rows. Rank 1's profile is recorded
(tests/fixtures/python/): which functions stand out in a live profile depends on how busy the
machine is."""

import marshal
import os
import pstats
import shutil
from pathlib import Path

import pytest

from tb_perf_plugin.analysis.findings import DEFAULT_THRESHOLDS, AnalysisInputs
from tb_perf_plugin.analysis.python_profile import python_hotspot
from tests.plugin.conftest import PluginClient

SHARED_PROFILE = "cprofile/AugustEhl__MLOps_Amazon_review_project/train.prof"
GPU_TRACE = (
    "traces/facebookresearch__HolisticTraceAnalysis/tests/data/critical_path/simple_add/"
    "benchmark_result_493459_1694039959_trace.json.gz"
)
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NCU_FIXTURES = FIXTURES / "ncu"
LOOP_PROFILE = FIXTURES / "python" / "loop.prof"  # tests/fixtures/python/generate.py
STEPS = 40  # the recorded loop's steps
TRACE_KERNEL = "ampere_sgemm_32x32_sliced1x4_tn"  # a kernel the GPU trace launches 6 times


def _loop_function() -> tuple[str, int]:
    """Where the recorded loop's hot spot is: the path the generator ran from."""
    ((filename, line, _),) = [k for k in pstats.Stats(str(LOOP_PROFILE)).stats
                              if k[2] == "squared_norms"]  # fmt: skip
    return filename, line


def _settled(folder: Path) -> None:
    """Files written seconds ago read as still being written: date them back."""
    for path in folder.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(10**18, 10**18))


@pytest.fixture(scope="module")
def profiled(tmp_path_factory):
    """A logdir with run `prof`: rank 0 the shared training profile, rank 1 a torch loop's,
    and a corrupt `.prof` (a marshal dict of the wrong shape)."""
    from tests.conftest import SHARED_DATA

    shared = SHARED_DATA / SHARED_PROFILE
    if not shared.is_file():
        pytest.skip(f"real test data not found at {shared} (../shared/data beside the repo)")
    logdir = tmp_path_factory.mktemp("logs")
    imported = logdir / "prof" / "plugins" / "tb_perf" / "imported"
    imported.mkdir(parents=True)
    shutil.copy(shared, imported / "rank0.train.prof")
    shutil.copy(LOOP_PROFILE, imported / "rank1.loop.prof")
    (imported / "rank1.broken.prof").write_bytes(marshal.dumps({("a.py", 1, "f"): "oops"}))
    _settled(imported)
    return logdir, {0: imported / "rank0.train.prof", 1: imported / "rank1.loop.prof"}


@pytest.fixture(scope="module")
def client(profiled):
    return PluginClient(profiled[0])


def _stats(path: Path) -> pstats.Stats:
    return pstats.Stats(str(path))


def test_totals_and_files_are_pstats_own(client, profiled):
    _, files = profiled
    body = client.json("python", run="prof")
    stats = {rank: _stats(path) for rank, path in files.items()}
    assert body["total_ns"] == sum(round(s.total_tt * 1e9) for s in stats.values())
    assert body["calls"] == sum(s.total_calls for s in stats.values())
    assert body["primitive_calls"] == sum(s.prim_calls for s in stats.values())
    assert [(f["rank"], f["file"]) for f in body["files"]] == [
        (0, "plugins/tb_perf/imported/rank0.train.prof"),
        (1, "plugins/tb_perf/imported/rank1.loop.prof"),
    ]
    assert [f["total_ns"] for f in body["files"]] == [
        round(stats[r].total_tt * 1e9) for r in (0, 1)
    ]
    # the corrupt file is a warning naming it, not an error of the route
    (warning,) = body["warnings"]
    assert warning.startswith("rank1.broken.prof: not a cProfile/pstats file")


def test_functions_sum_over_ranks_sorted_by_self_time(client, profiled):
    _, files = profiled
    body = client.json("python", run="prof")
    expected: dict[tuple, list[float]] = {}
    for path in files.values():
        for key, (cc, nc, tt, ct, _) in _stats(path).stats.items():
            entry = expected.setdefault(key, [0, 0, 0, 0])
            for i, v in enumerate((cc, nc, round(tt * 1e9), round(ct * 1e9))):
                entry[i] += v
    assert body["functions"] == body["total_rows"] == len(expected)
    rows = body["rows"]
    assert len(rows) == min(len(expected), 1000)
    self_times = [r["self_ns"] for r in rows]
    assert self_times == sorted(self_times, reverse=True)
    for row in rows[:50]:
        cc, nc, self_ns, cumulative_ns = expected[(row["filename"], row["line"], row["name"])]
        assert (row["primitive_calls"], row["calls"]) == (cc, nc)
        assert (row["self_ns"], row["cumulative_ns"]) == (self_ns, cumulative_ns)
        assert row["self_share"] == round(self_ns / body["total_ns"], 6)
        assert row["self_per_call_ns"] == round(self_ns / nc)
    top = rows[0]
    assert top["function"] == "{method 'run_backward' of 'torch._C._EngineBase' objects}"
    assert top["builtin"] is True and top["profiles"] == 2


def test_rank_filter_search_sort_and_limit(client, profiled):
    _, files = profiled
    stats = _stats(files[1])
    body = client.json("python", run="prof", rank="1")
    assert body["rank"] == 1 and body["functions"] == len(stats.stats)
    assert body["total_ns"] == round(stats.total_tt * 1e9)
    python = [r for r in body["rows"] if not r["builtin"]]
    assert python[0]["name"] == "squared_norms" and python[0]["calls"] == STEPS

    found = client.json("python", run="prof", q="SQUARED_norms")
    assert found["q"] == "SQUARED_norms" and found["total_rows"] == 1
    assert found["functions"] > 1000 and found["rows"][0]["filename"] == _loop_function()[0]

    by_calls = client.json("python", run="prof", rank="1", sort="calls", limit="5")
    assert len(by_calls["rows"]) == 5 and by_calls["total_rows"] == len(stats.stats)
    top_calls = sorted((v[1] for v in stats.stats.values()), reverse=True)[:5]
    assert [r["calls"] for r in by_calls["rows"]] == top_calls

    by_name = client.json("python", run="prof", rank="1", sort="function")
    names = [r["function"] for r in by_name["rows"]]
    assert names == sorted(names)


@pytest.mark.parametrize(
    ("params", "status", "message"),
    [
        ({"sort": "nope"}, 400, "sort must be one of"),
        ({"rank": "7"}, 400, "rank '7' is not a rank of this run"),
        ({"limit": "0"}, 400, "limit=0 is outside"),
        ({"limit": "x"}, 400, "must be an integer"),
        ({"run": "missing"}, 404, "no run named 'missing'"),
    ],
)
def test_bad_parameters_are_clear_errors(client, params, status, message):
    body = client.json("python", expect=status, **{"run": "prof", **params})
    assert message in body["error"]["message"]


def test_python_hotspot_names_the_loop_function_from_the_run_tables(client):
    service = client.plugin._store
    tables = service.tables(service.find_run("prof"), None)
    inputs = AnalysisInputs(python_profiles=tables.python_profiles)
    findings = python_hotspot(inputs, DEFAULT_THRESHOLDS)
    # rank 0's profile is torch's C code (backward, linear): no Python function stands out
    (finding,) = findings
    assert finding.kind == "python_hotspot" and finding.ranks == [1]
    assert finding.title.startswith("squared_norms (")
    filename, line = _loop_function()
    assert finding.key == f"python_hotspot:{filename}:{line}(squared_norms)@rank1"
    assert finding.view == {"tab": "python", "params": {"rank": 1, "q": "squared_norms"}}
    share = finding.evidence["share"]["value"]
    assert share >= 0.10 and finding.severity == ("warning" if share >= 0.30 else "info")
    loop = client.json("python", run="prof", rank="1", q="squared_norms")["rows"][0]
    assert finding.evidence["self_time"]["value"] == loop["self_ns"]


def test_run_without_profiles_answers_an_empty_table(training_logdir):
    body = PluginClient(training_logdir).json("python", run="exp/a")
    assert body["rows"] == [] and body["files"] == [] and body["total_ns"] == 0


@pytest.fixture
def ncu_logdir(tmp_path, shared_data):
    """Run `gpu`: a real CUDA trace, real ncu rows of another program (kernels the trace does
    not have), and the same rows with one launch renamed to a kernel the trace does have."""
    trace = shared_data / GPU_TRACE
    if not trace.is_file():
        pytest.skip(f"{GPU_TRACE} is not in the shared data")
    imported = tmp_path / "gpu" / "plugins" / "tb_perf" / "imported"
    imported.mkdir(parents=True)
    shutil.copy(trace, tmp_path / "gpu" / "simple_add.pt.trace.json.gz")
    raw = (NCU_FIXTURES / "paddle_metrics_raw.csv").read_text()
    cutlass = (
        "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x10_nn_align4>"
        "(cutlass_80_tensorop_s1688gemm_64x64_16x10_nn_align4::Params)"
    )
    assert cutlass in raw
    (imported / "paddle.csv").write_text(raw)
    (imported / "renamed.csv").write_text(raw.replace(cutlass, TRACE_KERNEL))
    _settled(tmp_path / "gpu")
    return tmp_path


def test_kernels_route_adds_ncu_columns_and_names_what_matched_nothing(ncu_logdir):
    body = PluginClient(ncu_logdir).json("kernels", run="gpu")
    ncu = body["ncu"]
    assert ncu["files"] == [
        "plugins/tb_perf/imported/paddle.csv",
        "plugins/tb_perf/imported/renamed.csv",
    ]
    assert ncu["launches"] == 4 and ncu["matched_kernels"] == 1
    assert len(ncu["unmatched"]) == 2 and ncu["ambiguous"] == []
    assert any(name.startswith("void cutlass::Kernel<") for name in ncu["unmatched"])
    rows = {r["name"]: r for r in body["rows"]}
    sgemm = rows[TRACE_KERNEL]
    assert sgemm["calls"] == 6 and sgemm["ncu_match"] == "exact" and sgemm["ncu_launches"] == 1
    assert sgemm["ncu_duration_ns"] == 8192 and sgemm["ncu_registers_per_thread"] == 104
    assert sgemm["ncu_sm_throughput_pct"] == pytest.approx(1.03)
    for name in ncu["unmatched"]:
        assert rows[name]["calls"] == 0 and rows[name]["ncu_match"] == "unmatched"
    untouched = [r for r in body["rows"] if r["calls"] > 0 and r["name"] != TRACE_KERNEL]
    assert untouched and all(r["ncu_match"] == "" and r["ncu_launches"] == 0 for r in untouched)


def test_kernels_route_without_ncu_files_has_no_ncu_part(ncu_logdir):
    shutil.rmtree(ncu_logdir / "gpu" / "plugins")
    (ncu_logdir / "gpu" / "plugins" / "tb_perf").mkdir(parents=True)
    body = PluginClient(ncu_logdir).json("kernels", run="gpu")
    assert body["ncu"] is None and body["rows"]
    assert "ncu_match" not in body["rows"][0]
