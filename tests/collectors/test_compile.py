"""CompileMonitor on real torch.compile loops (CPU, backend="eager": fast to compile), read back
with the plugin's readers; the `recompilation` rule on what it recorded."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pandas as pd
import pytest

torch = pytest.importorskip("torch")

from collectors import MyTimer  # noqa: E402
from collectors._compile import CompileMonitor  # noqa: E402
from tb_perf_plugin.analysis.compute import recompilation  # noqa: E402
from tb_perf_plugin.analysis.findings import DEFAULT_THRESHOLDS, AnalysisInputs  # noqa: E402
from tb_perf_plugin.ingest.compile import read_compile_file  # noqa: E402
from tb_perf_plugin.ingest.meta import read_meta  # noqa: E402
from tb_perf_plugin.ingest.timer import read_timer_file  # noqa: E402
from tests.helpers import timer_file  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def plugin_dir(run_dir: Path) -> Path:
    return Path(run_dir) / "plugins" / "tb_perf"


def compile_table(run_dir: Path) -> pd.DataFrame:
    (path,) = plugin_dir(run_dir).glob("rank0.*.compile.jsonl")
    read = read_compile_file(str(path), 1 << 20)
    assert read.problems == [] and not read.truncated_tail
    return read.table


def findings_of(run_dir: Path) -> list:
    steps = read_timer_file(str(timer_file(run_dir)), 1 << 20).steps
    inputs = AnalysisInputs(
        step_times={0: steps},
        compile_records=compile_table(run_dir).assign(rank=0),
    )  # fmt: skip
    return recompilation(inputs, DEFAULT_THRESHOLDS)


def train(run_dir: Path, fn, batches, **compile_args) -> None:
    """A timed loop calling the compiled `fn` on one batch a step."""
    compiled = torch.compile(fn, backend="eager", **compile_args)
    timer = MyTimer(run_dir, gpu=False)
    with CompileMonitor(timer):
        for step, batch in enumerate(batches):
            timer.set_step(step)
            compiled(batch)
        timer.set_step(len(batches))
    timer.close()


def step_fn(x):
    return torch.nn.functional.relu(x * 2 + 1).sum()


def test_eight_shapes_with_static_compile_is_a_recompilation_finding(tmp_path):
    batches = [torch.randn(n, 4) for n in range(1, 9)] + [torch.randn(8, 4)] * 4
    train(tmp_path, step_fn, batches, dynamic=False)
    table = compile_table(tmp_path)
    assert table["step"].tolist() == list(range(8))  # one record per step that compiled
    assert table["graphs"].sum() == 8 and table["recompiles"].tolist() == [0] + [1] * 7
    assert (table["compile_ns"] > 0).all() and table["limit_hits"].sum() == 0
    functions = {f for reasons in table["recompile_reasons"] for f, _ in reasons}
    assert functions == {"step_fn (test_compile.py:64)"}
    assert "size mismatch at index 0. expected 7, actual 8" in table["recompile_reasons"][7][0][1]
    (finding,) = findings_of(tmp_path)
    assert finding.kind == "recompilation" and finding.ranks == [0]
    assert finding.evidence["worst_function_recompiles"]["value"] == 7
    assert finding.evidence["graphs"]["value"] == 8
    assert finding.steps == list(range(1, 8))
    settings = read_meta(str(next(plugin_dir(tmp_path).glob("rank0.*.meta.json")))).compile
    assert settings.recompile_limit == torch._dynamo.config.recompile_limit


def test_a_compiled_module_is_named_as_one_not_as_dynamos_wrapper(tmp_path):
    module = torch.nn.Linear(4, 2)
    train(tmp_path, module, [torch.randn(n, 4) for n in (2, 3)], dynamic=False)
    reasons = [pair for pairs in compile_table(tmp_path)["recompile_reasons"] for pair in pairs]
    assert [function for function, _ in reasons] == ["a torch.compile'd nn.Module"]


def test_a_stable_loop_compiles_once_and_has_no_finding(tmp_path):
    train(tmp_path, step_fn, [torch.randn(8, 4) for _ in range(12)], dynamic=False)
    table = compile_table(tmp_path)
    assert table["step"].tolist() == [0]
    assert table[["graphs", "recompiles", "graph_breaks"]].iloc[0].tolist() == [1, 0, 0]
    assert findings_of(tmp_path) == []


def test_one_automatic_dynamic_recompile_for_a_last_partial_batch_is_no_finding(tmp_path):
    batches = [torch.randn(8, 4) for _ in range(10)] + [torch.randn(3, 4)]
    train(tmp_path, step_fn, batches)  # default: static first, dynamic after a new shape
    table = compile_table(tmp_path)
    assert table["step"].tolist() == [0, 10]
    assert table["recompiles"].tolist() == [0, 1]
    assert findings_of(tmp_path) == []


def break_fn(x):
    y = x * 2
    print(end="")  # dynamo cannot trace print: a graph break
    return y.sum()


def test_graph_breaks_are_recorded_with_their_reason(tmp_path):
    train(tmp_path, break_fn, [torch.randn(4) for _ in range(3)])
    table = compile_table(tmp_path)
    assert table["step"].tolist() == [0]
    assert table["graph_breaks"].iloc[0] >= 1 and table["graphs"].iloc[0] == 2
    ((reason, count),) = table["break_reasons"].iloc[0]
    assert "print" in reason and count >= 1


def test_hitting_the_recompile_limit_is_a_finding(tmp_path):
    with torch._dynamo.config.patch(recompile_limit=2), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        train(tmp_path, step_fn, [torch.randn(n) for n in range(1, 5)], dynamic=False)
    table = compile_table(tmp_path)
    assert table["limit_hits"].sum() >= 1
    (finding,) = findings_of(tmp_path)
    assert "recompile limit" in finding.title
    assert finding.evidence["recompile_limit_hits"]["value"] >= 1


def test_counters_that_break_turn_the_monitor_off_with_one_warning(tmp_path):
    compiled = torch.compile(step_fn, backend="eager")
    timer = MyTimer(tmp_path, gpu=False)
    monitor = CompileMonitor(timer).attach()

    class Broken:
        counters = {}  # no "frames": dynamo's counters changed shape

    monitor._dynamo = Broken()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(3):
            timer.set_step(step)
            compiled(torch.randn(4))
    monitor.detach()
    timer.close()
    assert [w for w in caught if "CompileMonitor stopped" in str(w.message)]
    assert len([w for w in caught if "CompileMonitor" in str(w.message)]) == 1
    assert compile_table(tmp_path).empty


def test_disabled_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ENABLE_COMPILE_MONITOR", "0")
    train(tmp_path, step_fn, [torch.randn(n) for n in range(1, 4)])
    assert not list(plugin_dir(tmp_path).glob("*.compile.jsonl"))
    meta = json.loads(next(plugin_dir(tmp_path).glob("rank0.*.meta.json")).read_text())
    assert "compile" not in meta
