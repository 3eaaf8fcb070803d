"""Task-scoped profiling on a real multi-stage torch pipeline: only listed task types are traced;
their traces are readable by the plugin and their summaries match the traces' events."""

import json
import re
from pathlib import Path

import pytest

from collectors import MyTimer, RunWriter
from collectors._tasks import _NULL_TASK, TaskProfiler, profile_task

torch = pytest.importorskip("torch")
np = pytest.importorskip("numpy")


def data_dir(run: Path) -> Path:
    return run / "plugins" / "tb_perf"


class Pipeline:
    """A toy diffusion pipeline: text encoder, a DiT-like denoiser, a VAE-like decoder."""

    def __init__(self):
        torch.manual_seed(0)
        self.text = torch.nn.Embedding(100, 32)
        self.dit = torch.nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
        self.vae = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU())

    @torch.no_grad()
    def run(self, task, steps: int = 3):
        with task("TEXT"):
            context = self.text(torch.randint(0, 100, (2, 8)))
        latent = torch.randn(2, 8, 32)
        for _ in range(steps):
            with task("DIT"):
                latent = self.dit(latent + context)
        vae = task("vae")  # the start/stop form; listed case-insensitively
        vae.start()
        image = self.vae(latent)
        vae.stop()
        return image


def test_only_listed_types_are_traced_with_summaries_matching_the_traces(tmp_path):
    kineto = pytest.importorskip("tb_perf_plugin.ingest.kineto")
    tables_module = pytest.importorskip("tb_perf_plugin.ingest.tables")
    timer = MyTimer(tmp_path / "run", gpu=False)
    tasks = TaskProfiler(timer, types="DIT,VAE", ops=r"^aten::(linear|addmm|softmax)$")
    pipeline = Pipeline()
    for step in range(3):
        timer.set_step(step)
        pipeline.run(tasks.task)
    tasks.close()
    timer.close()
    files = sorted(p.name.split(".", 4)[4] for p in data_dir(tmp_path / "run").iterdir())
    traces = [f for f in files if f.endswith(".pt.trace.json.gz")]
    # DIT runs 3 times a pipeline: invocation 0 is skipped, 1 and 2 traced (defaults 1 and 2);
    # VAE runs once a pipeline; TEXT is not listed: nothing of it anywhere
    assert traces == [
        "task-DIT.1-1.pt.trace.json.gz",
        "task-DIT.2-2.pt.trace.json.gz",
        "task-VAE.1-1.pt.trace.json.gz",
        "task-VAE.2-2.pt.trace.json.gz",
    ]
    assert "task-DIT.summary.json" in files and "task-VAE.summary.json" in files
    assert not [f for f in files if "TEXT" in f or f.endswith(".tmp")]

    for task_type in ("DIT", "VAE"):
        summary_path = next(data_dir(tmp_path / "run").glob(f"*.task-{task_type}.summary.json"))
        summary = json.loads(summary_path.read_text())
        assert summary["schema"] == "tb_perf.task_summary" and summary["rank"] == 0
        assert summary["task_type"] == task_type and summary["invocations_seen"] == 3 * (
            3 if task_type == "DIT" else 1
        )
        assert [i["index"] for i in summary["invocations"]] == [1, 2]
        # the statistics, computed here from the plugin's own reading of the same traces
        durations: dict[str, list[int]] = {}
        for invocation in summary["invocations"]:
            path = data_dir(tmp_path / "run") / invocation["file"]
            tables = kineto.read_trace(str(path))
            assert tables.meta.tb_perf["task_type"] == task_type
            assert tables.meta.tb_perf["window"]["first"] == invocation["index"]
            assert "first_step" not in tables.meta.tb_perf
            names = np.asarray(tables.names, dtype=object)[tables.slices["name"]]
            cpu_ops = tables.slices["kind"] == tables_module.Kind.CPU_OP
            own = names == f"task-{task_type}#{invocation['index']}"
            assert tables.slices["dur"][own].tolist() == [invocation["duration_ns"]]
            for name, dur in zip(names[cpu_ops], tables.slices["dur"][cpu_ops], strict=True):
                if re.search(r"^aten::(linear|addmm|softmax)$", name):
                    durations.setdefault(name, []).append(int(dur))
        assert {op["name"] for op in summary["operators"]} == set(durations) != set()
        for op in summary["operators"]:
            expected = np.array(durations[op["name"]], dtype=np.float64)
            assert op["category"] == "cpu_op"
            assert op["count"] == len(expected) and op["total_ns"] == expected.sum()
            assert (op["min_ns"], op["max_ns"]) == (expected.min(), expected.max())
            for key, value in (
                ("mean_ns", expected.mean()),
                ("median_ns", np.median(expected)),
                ("std_ns", expected.std()),
            ):
                assert abs(op[key] - value) <= 1, (op["name"], key)
        totals = [op["total_ns"] for op in summary["operators"]]
        assert totals == sorted(totals, reverse=True)

    info = json.loads(next(data_dir(tmp_path / "run").glob("*.meta.json")).read_text())["tasks"]
    assert info["types"] == ["DIT", "VAE"] and (info["skip_first"], info["max_captures"]) == (1, 2)
    assert sorted(info["seen"]) == ["DIT", "VAE"]
    assert len(info["seen"]["DIT"]["traces"]) == 2


def test_unlisted_types_write_nothing_and_share_one_no_op(tmp_path, monkeypatch):
    monkeypatch.setenv("PROFILE_TASK_TYPES", "DIT")
    writer = RunWriter(tmp_path / "run")
    before = sorted(p.name for p in data_dir(tmp_path / "run").iterdir())
    for _ in range(3):
        with profile_task("VAE", writer=writer) as nothing:
            assert nothing is None
        assert profile_task("TEXT", writer=writer) is _NULL_TASK
    writer.close()
    assert sorted(p.name for p in data_dir(tmp_path / "run").iterdir()) == before
    meta = json.loads(next(data_dir(tmp_path / "run").glob("*.meta.json")).read_text())
    assert "tasks" not in meta


def test_environment_options_and_profile_task_reuse(tmp_path, monkeypatch):
    monkeypatch.setenv("PROFILE_TASK_TYPES", " dit , vae")
    monkeypatch.setenv("PROFILE_TASK_SKIP", "0")
    monkeypatch.setenv("PROFILE_TASK_MAX", "1")
    monkeypatch.setenv("PROFILE_TASK_OPS", "aten::add")
    timer = MyTimer(tmp_path / "run", gpu=False)
    first = profile_task("DIT", timer=timer)
    assert profile_task("DIT", timer=timer) is first  # one profiler per timer, one task per type
    for _ in range(3):
        with profile_task("DIT", timer=timer):
            torch.ones(4) + 1
    first._profiler.close()
    timer.close()
    traces = sorted(p.name.split(".", 4)[4] for p in data_dir(tmp_path / "run").glob("*.gz"))
    assert traces == ["task-dit.0-0.pt.trace.json.gz"]  # named as listed
    summary = json.loads(next(data_dir(tmp_path / "run").glob("*.summary.json")).read_text())
    assert summary["ops_pattern"] == "aten::add"
    assert [op["name"] for op in summary["operators"]] == ["aten::add"]


def test_disabled_timer_profiles_nothing(tmp_path):
    timer = MyTimer(tmp_path / "run", enabled=False)
    assert TaskProfiler(timer, types="DIT").task("DIT") is _NULL_TASK


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ops": "aten::(mm"}, "operator regex 'aten::\\(mm'"),
        ({"skip_first": -1}, "skip_first must be an integer >= 0"),
        ({"max_captures": -2}, "max_captures must be an integer >= 0"),
    ],
)
def test_bad_options_are_clear_errors(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        TaskProfiler(RunWriter(tmp_path / "run"), types="DIT", **kwargs)


def test_bad_environment_count_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PROFILE_TASK_MAX", "two")
    with pytest.raises(ValueError, match="PROFILE_TASK_MAX='two': expected an integer"):
        TaskProfiler(RunWriter(tmp_path / "run"), types="DIT")


def test_unknown_profiler_option_is_refused(tmp_path):
    with pytest.raises(TypeError, match="unknown torch.profiler option.*record_shape"):
        TaskProfiler(RunWriter(tmp_path / "run"), types="DIT", record_shape=True)


def test_a_profiler_that_cannot_start_turns_the_type_off_with_one_warning(
    tmp_path, monkeypatch, caplog
):
    from collectors import _profile

    def unusable(*args, **kwargs):
        raise RuntimeError("no profiler here")

    monkeypatch.setattr(_profile, "TorchProfilerBackend", unusable)
    tasks = TaskProfiler(RunWriter(tmp_path / "run"), types="DIT")
    for _ in range(3):
        with tasks.task("DIT"):
            torch.ones(2) * 2
    tasks.close()
    assert tasks.task("DIT") is _NULL_TASK
    assert [r.getMessage() for r in caplog.records] == ["profiling task type 'DIT' is off"]
    assert not list(data_dir(tmp_path / "run").glob("*.gz"))
