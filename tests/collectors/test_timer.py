import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from collectors import MyTimer, RunWriter, TimerError
from tests.helpers import timer_file, timer_records

REPO = Path(__file__).resolve().parents[2]


def test_nested_spans_record_parents_and_steps(tmp_path):
    with MyTimer(tmp_path, gpu=False) as timer:
        for _ in range(2):
            with timer.range("outer"):
                timer.start("inner")
                timer.stop("inner")
                with timer.range("sibling"):
                    pass
            timer.step()
    records = timer_records(tmp_path)
    spans = {(r["step"], r["name"]): r for r in records if r["k"] == "span"}
    assert len(spans) == 6
    for step in (0, 1):
        outer = spans[(step, "outer")]
        assert outer["parent"] == 0
        assert spans[(step, "inner")]["parent"] == outer["id"]
        assert spans[(step, "sibling")]["parent"] == outer["id"]
        assert outer["t0"] <= spans[(step, "inner")]["t0"] <= spans[(step, "inner")]["t1"]
        assert spans[(step, "sibling")]["t1"] <= outer["t1"]
    steps = [r for r in records if r["k"] == "step"]
    assert [s["step"] for s in steps] == [0, 1]
    assert steps[0]["t1"] == steps[1]["t0"]  # one step ends where the next begins


def test_stop_of_wrong_span_names_both(tmp_path):
    with MyTimer(tmp_path, gpu=False) as timer:
        timer.start("outer")
        timer.start("inner")
        with pytest.raises(TimerError, match=r"stop\('outer'\).*innermost open span is 'inner'"):
            timer.stop("outer")
        timer.stop("inner")  # the failed stop left the stack as it was
        timer.stop("outer")
        with pytest.raises(TimerError, match="no span is open"):
            timer.stop("outer")


def test_decorator_uses_qualname_and_given_name(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)

    @timer.range()
    def load_batch():
        return 3

    @timer.range("train_step")
    def run():
        return load_batch() + 1

    assert run() == 4
    timer.close()
    spans = [r for r in timer_records(tmp_path) if r["k"] == "span"]
    by_name = {s["name"]: s for s in spans}
    assert set(by_name) == {
        "train_step",
        "test_decorator_uses_qualname_and_given_name.<locals>.load_batch",
    }
    assert by_name["train_step"]["id"] == next(
        s["parent"] for s in spans if s["name"] != "train_step"
    )


def test_spans_reach_the_file_at_step_boundaries_only(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    path = timer_file(tmp_path)
    timer.start("work")
    timer.stop("work")
    assert [json.loads(x)["k"] for x in path.read_text().splitlines()[1:]] == []
    timer.step()
    assert [json.loads(x)["k"] for x in path.read_text().splitlines()[1:]] == ["step", "span"]
    timer.set_step(10)  # nothing ran since step(): no empty step is written
    with timer.range("work"):
        pass
    timer.set_step(11)  # ends step 10
    kinds = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    assert [(r["k"], r["step"]) for r in kinds[2:]] == [("step", 10), ("span", 10)]
    timer.close()


def test_disabled_timer_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ENABLE_TIMER", "0")
    monkeypatch.chdir(tmp_path)
    timer = MyTimer(tmp_path / "run")
    timer.start("a")
    timer.stop("b")  # not even checked: disabled means no cost
    with timer.range("c"):
        pass
    timer.step()
    timer.close()
    assert not timer.enabled
    assert not (tmp_path / "run").exists()


def test_unicode_and_quotes_in_names_survive(tmp_path):
    name = 'attn "q·k" \\ ✓\n'
    with MyTimer(tmp_path, gpu=False) as timer:
        with timer.range(name):
            pass
        timer.step()
    assert [r["name"] for r in timer_records(tmp_path) if r["k"] == "span"] == [name]


class FakeEvent:
    def __init__(self, index: int) -> None:
        self.index = index
        self.done = False


class OutOfOrderEvents:
    """A device whose events complete when the test says, in any order."""

    name = "fake"

    def __init__(self) -> None:
        self.events: list[FakeEvent] = []
        self.synchronized: list[int] = []

    def record(self) -> FakeEvent:
        event = FakeEvent(len(self.events))
        self.events.append(event)
        return event

    def query(self, event: FakeEvent) -> bool:
        return event.done

    def elapsed_ns(self, start: FakeEvent, end: FakeEvent) -> int:
        return 1000 * (end.index - start.index)

    def synchronize(self, event: FakeEvent) -> None:
        self.synchronized.append(event.index)
        event.done = True


def _gpu_records(run_dir: Path) -> dict[tuple[int, int], int]:
    return {(r["step"], r["span"]): r["gpu_ns"] for r in timer_records(run_dir) if r["k"] == "gpu"}


def test_gpu_times_arrive_late_out_of_order_and_at_close(tmp_path):
    device = OutOfOrderEvents()
    timer = MyTimer(tmp_path, gpu=device)
    for _ in range(3):
        with timer.range("fwd"):
            with timer.range("matmul"):
                pass
        timer.step()
    assert _gpu_records(tmp_path) == {}  # nothing completed: nothing waited for, nothing written
    spans = {(r["step"], r["name"]): r["id"] for r in timer_records(tmp_path) if r["k"] == "span"}
    # Events of step 2's spans complete first (another stream), then step 0's "matmul".
    for event in device.events[8:12] + device.events[1:3]:
        event.done = True
    with timer.range("fwd"):
        pass
    timer.step()
    # matmul is recorded inside fwd: start events 0 (fwd), 1 (matmul); ends 2 (matmul), 3 (fwd).
    assert _gpu_records(tmp_path) == {
        (0, spans[(0, "matmul")]): 1000,
        (2, spans[(2, "matmul")]): 1000,
        (2, spans[(2, "fwd")]): 3000,
    }
    assert device.synchronized == []
    timer.close()
    assert len(_gpu_records(tmp_path)) == 7  # the rest were waited for at close only
    assert device.synchronized  # ... and only then


def test_killed_process_loses_at_most_the_current_step(tmp_path):
    script = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from collectors import MyTimer
        timer = MyTimer({str(tmp_path)!r}, gpu=False)
        for step in range(5):
            with timer.range("work"):
                pass
            timer.step()
        timer.start("unfinished")
        with timer.range("done_but_not_flushed"):
            pass
        print("mid-step", flush=True)
        time.sleep(60)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "mid-step"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    records = timer_records(tmp_path)
    assert [r["step"] for r in records if r["k"] == "step"] == [0, 1, 2, 3, 4]
    assert [r["name"] for r in records if r["k"] == "span"] == ["work"] * 5
    meta = json.loads(next((tmp_path / "plugins" / "tb_perf").glob("*.meta.json")).read_text())
    assert meta["closed_unix_ns"] is None  # killed: the plugin shows it as stopped


def test_close_warns_about_open_spans_and_flushes_the_partial_step(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    with timer.range("finished"):
        pass
    timer.start("left_open")
    with pytest.warns(RuntimeWarning, match="left_open"):
        timer.close()
    assert [r["name"] for r in timer_records(tmp_path) if r["k"] == "span"] == ["finished"]


def test_timer_shares_a_writer_it_does_not_own(tmp_path):
    writer = RunWriter(tmp_path)
    timer = MyTimer(writer, gpu=False)
    with timer.range("x"):
        pass
    timer.step()
    timer.close()
    writer.add_scalar("loss", 1.5, 0)  # the writer stays open for the caller
    writer.close()
    assert writer.rank == 0


def test_record_function_mirror_shows_spans_in_torch_profiler(tmp_path):
    torch = pytest.importorskip("torch")
    timer = MyTimer(tmp_path, gpu=False, mirrors=("record_function",))
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        with timer.range("mirrored_span"):
            torch.ones(8) @ torch.ones(8)
        timer.step()
    timer.close()
    assert "mirrored_span" in {e.name for e in prof.events()}


def test_cpu_only_timer_binds_the_fast_path(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    assert timer.start.__func__ is MyTimer._start_cpu
    assert timer.stop.__func__ is MyTimer._stop_cpu
    timer.close()


def test_flush_every_n_steps_batches_writes(tmp_path):
    timer = MyTimer(tmp_path, gpu=False, flush_every_steps=3)
    path = timer_file(tmp_path)
    for expected_steps in ([], [], [0, 1, 2], [0, 1, 2]):
        with timer.range("w"):
            pass
        timer.step()
        steps = [
            json.loads(x)["step"]
            for x in path.read_text().splitlines()[1:]
            if json.loads(x)["k"] == "step"
        ]
        assert steps == expected_steps
    timer.close()
    assert len([r for r in timer_records(tmp_path) if r["k"] == "span"]) == 4
    with pytest.raises(ValueError, match="flush_every_steps"):
        MyTimer(tmp_path, gpu=False, flush_every_steps=0)
