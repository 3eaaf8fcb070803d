"""profile_steps end to end on CPU: real torch.profiler windows written into the run."""

import gzip
import json
import logging
import re
import tempfile
from pathlib import Path

import pytest

from collectors import MyTimer, RunWriter, profile_steps
from tests.helpers import timer_records

torch = pytest.importorskip("torch")

TRACE_NAME = re.compile(
    r"rank(\d+)\.[A-Za-z0-9-]+\.\d+\.\d{8}T\d{6}-[0-9a-f]{6}\.steps(\d+)-(\d+)\.pt\.trace\.json\.gz"
)


@pytest.fixture(autouse=True)
def private_tempdir(tmp_path, monkeypatch):
    """The raw (uncompressed) trace goes to the system temp dir: make it one we can inspect."""
    tmp = tmp_path / "systemp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    return tmp


def data_dir(run: Path) -> Path:
    return run / "plugins" / "tb_perf"


def read_trace(path: Path) -> dict:
    with gzip.open(path) as f:
        return json.load(f)


def train(timer: MyTimer, steps, model=None) -> None:
    model = model or torch.nn.Linear(16, 4)
    x = torch.randn(8, 16)
    for step in steps:
        timer.set_step(step)
        with timer.range("forward"):
            loss = model(x).sum()
        with timer.range("backward"):
            loss.backward()


def test_windows_are_gzipped_traces_labelled_with_the_collectors_steps(tmp_path, private_tempdir):
    run = tmp_path / "run"
    with MyTimer(run, gpu=False) as timer:
        with profile_steps(timer, skip_first=1, wait=1, warmup=1, active=3, repeat=2) as prof:
            train(timer, range(100, 115))
    names = sorted(p.name for p in data_dir(run).iterdir())
    traces = [n for n in names if n.endswith(".pt.trace.json.gz")]
    assert [TRACE_NAME.fullmatch(n).groups()[1:] for n in traces] == [
        ("103", "105"),
        ("108", "110"),
    ]
    assert not [n for n in names if n.endswith(".tmp")]
    assert not list(private_tempdir.glob("tb_perf_*"))  # the raw JSON is removed too

    for name, (first, last) in zip(traces, [(103, 105), (108, 110)], strict=True):
        trace = read_trace(data_dir(run) / name)
        meta = trace["tb_perf"]
        assert meta["version"] == 1 and (meta["rank"], meta["world_size"]) == (0, 1)
        assert (meta["first_step"], meta["last_step"]) == (first, last)
        assert name.startswith(meta["prefix"] + ".")
        assert abs(meta["trace_to_collectors_ns"]) < 1_000_000  # same host clock, no skew
        annotations = [e for e in trace["traceEvents"] if e.get("cat") == "user_annotation"]
        steps = sorted(
            int(e["name"].split("#")[1]) for e in annotations if e["name"].startswith("Profiler")
        )
        assert steps == list(range(first, last + 1))
        mirrored = {e["name"] for e in annotations}
        assert {"forward", "backward"} <= mirrored  # MyTimer spans, mirrored while recording

    info = json.loads(next(data_dir(run).glob("*.meta.json")).read_text())["profiler"]
    assert info["schedule"] == {
        "skip_first": 1,
        "wait": 1,
        "warmup": 1,
        "active": 3,
        "repeat": 2,
    }
    assert [w["file"] for w in info["windows"]] == traces == [w["file"] for w in prof.windows]
    for window in info["windows"]:  # what the profiler cost, per part
        assert {"prepare_ms", "start_ms", "stop_ms", "export_ms"} <= set(window)
    assert [r["step"] for r in timer_records(run) if r["k"] == "step"] == list(range(100, 114))


def test_spans_are_mirrored_only_while_a_window_records(tmp_path):
    run = tmp_path / "run"
    timer = MyTimer(run, gpu=False)
    with profile_steps(timer, wait=2, warmup=0, active=1):
        timer.start("epoch")  # open across the window: neither breaks it nor leaks a range
        train(timer, range(4))
        assert timer.start.__func__ is MyTimer._start_cpu  # fast path again after the window
        timer.stop("epoch")
    timer.close()
    (trace,) = data_dir(run).glob("*.pt.trace.json.gz")
    events = read_trace(trace)["traceEvents"]
    names = [e["name"] for e in events if e.get("cat") == "user_annotation"]
    assert sorted(names) == ["ProfilerStep#2", "backward", "forward"]


def test_without_a_timer_prof_step_drives_it(tmp_path):
    writer = RunWriter(tmp_path / "run", rank=0, world_size=1)
    model, x = torch.nn.Linear(4, 4), torch.randn(2, 4)
    with profile_steps(writer=writer, wait=0, warmup=1, active=2) as prof:
        for _ in range(5):
            model(x).sum().backward()
            prof.step()
    writer.close()
    (trace,) = data_dir(tmp_path / "run").glob("*.pt.trace.json.gz")
    assert TRACE_NAME.fullmatch(trace.name).groups()[1:] == ("1", "2")
    timer = MyTimer(tmp_path / "other", gpu=False)
    with pytest.raises(RuntimeError, match="follows its timer"):
        profile_steps(timer).step()
    timer.close()


def test_a_failed_export_is_logged_and_training_goes_on(tmp_path, monkeypatch, caplog):
    def broken_export(self, path, *args, **kwargs):
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(torch.profiler.profile, "export_chrome_trace", broken_export)
    run = tmp_path / "run"
    with MyTimer(run, gpu=False) as timer, caplog.at_level(logging.WARNING):
        with profile_steps(timer, wait=0, warmup=0, active=1, repeat=2) as prof:
            train(timer, range(4))
    assert [n.name for n in data_dir(run).iterdir() if "trace" in n.name] == []
    assert not [p for p in data_dir(run).iterdir() if p.name.endswith(".tmp")]
    assert [w["error"] for w in prof.windows] == ["OSError: disk full (simulated)"] * 2
    assert "writing the trace of steps 0-0 failed; training goes on" in caplog.text
    steps = [r["step"] for r in timer_records(run) if r["k"] == "step"]
    assert steps == [0, 1, 2]  # step 3 ends at the next step(), which never comes


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU-only fallback")
def test_cpu_only_machine_never_touches_cuda(tmp_path):
    run = tmp_path / "run"
    with MyTimer(run, gpu=False) as timer:
        with profile_steps(timer, wait=0, warmup=0, active=2):
            train(timer, range(3))
    assert not torch.cuda.is_initialized()
    info = json.loads(next(data_dir(run).glob("*.meta.json")).read_text())["profiler"]
    assert info["activities"] == ["CPU"]
    assert info["cuda"] == "off (torch.cuda.is_available() is False)"
    with pytest.raises(RuntimeError, match=r"cuda=True.*is_available\(\) is False"):
        profile_steps(writer=RunWriter(tmp_path / "x"), cuda=True)


def test_ranks_outside_the_set_write_no_trace(tmp_path):
    writer = RunWriter(tmp_path / "run", rank=1, world_size=2)
    timer = MyTimer(writer, gpu=False)
    with profile_steps(timer, wait=0, warmup=0, active=2, ranks=[0]):
        train(timer, range(3))
    timer.close()
    writer.close()
    assert not list(data_dir(tmp_path / "run").glob("*.pt.trace.json.gz"))
    info = json.loads(next(data_dir(tmp_path / "run").glob("*.meta.json")).read_text())
    assert info["profiler"]["captures"] is False and info["profiler"]["ranks"] == [0]


def test_disabled_timer_disables_profiling(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    timer = MyTimer(tmp_path / "run", enabled=False)
    with profile_steps(timer, wait=0, warmup=0, active=2) as prof:
        train(timer, range(3))
    assert prof.windows == [] and not (tmp_path / "run").exists()


@pytest.mark.parametrize("set_first_step, expected", [(False, "steps1-1"), (True, "steps0-0")])
def test_a_loop_that_only_calls_step_counts_from_its_next_step(tmp_path, set_first_step, expected):
    timer = MyTimer(tmp_path, gpu=False)
    if set_first_step:
        timer.set_step(0)  # says step 0 is under way, so the profiler counts it
    with profile_steps(timer, wait=0, warmup=0, active=1):
        for _ in range(3):
            with timer.range("work"):
                torch.ones(4).sum()
            timer.step()
    timer.close()
    (trace,) = data_dir(tmp_path).glob("*.pt.trace.json.gz")
    assert f".{expected}.pt.trace" in trace.name


def test_span_names_with_quotes_and_control_characters_keep_the_trace_readable(tmp_path):
    """torch writes range names into the Chrome trace without JSON escaping: the mirror makes
    them safe, so a span named with a quote does not cost the whole window."""

    timer = MyTimer(tmp_path, gpu=False)
    with profile_steps(timer, wait=0, warmup=0, active=1):
        timer.set_step(0)
        with timer.range('load "train" split\\part\n'):
            torch.ones(4).sum()
        timer.set_step(1)
    timer.close()
    (trace,) = (tmp_path / "plugins" / "tb_perf").glob("*.pt.trace.json.gz")
    names = {e.get("name") for e in json.loads(gzip.decompress(trace.read_bytes()))["traceEvents"]}
    assert "load 'train' split/part " in names
