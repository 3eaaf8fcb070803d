"""Off means off: every public collector and helper takes a disabled timer (or its writer),
does nothing, writes nothing and leaves training as it was."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from collectors import (
    CompileMonitor,
    FlopsCounter,
    GpuTracker,
    MemorySampler,
    MemorySnapshotter,
    ModuleProfiler,
    MyTimer,
    RunWriter,
    create_capture,
    profile_steps,
    profile_task,
    sync_clocks,
    timed_loader,
)

torch = pytest.importorskip("torch")

CAPTURE_CONFIG = {
    "captures": [{"trigger": "point", "name": "fwd", "windows": [{"start": 1, "stop": 2}]}]
}


def train(run_dir: str, *, enabled: bool | None) -> list[float]:
    """A few SGD steps with every collector attached to one timer; the losses."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(4, 8), torch.randn(4, 1)) for _ in range(6)]
    timer = MyTimer(run_dir, enabled=enabled, gpu=False)
    sync_clocks(timer.writer)
    tracker = GpuTracker(timer.writer, interval_s=0.05).start()
    sampler = MemorySampler(timer).attach()
    modules = ModuleProfiler(model, timer, gpu=False).attach()
    flops = FlopsCounter(timer, sample_step=1)
    compiled = CompileMonitor(timer).attach()
    snapshots = MemorySnapshotter(timer)
    capture = create_capture(CAPTURE_CONFIG, timer=timer)
    losses = []
    with profile_steps(timer, wait=0, warmup=0, active=2):
        for x, y in timed_loader(loader, timer):
            with flops.count(), capture.region("fwd"), snapshots.region("step"):
                with timer.range("forward"):
                    loss = torch.nn.functional.mse_loss(model(x), y)
            with profile_task("backward", timer=timer), timer.range("backward"):
                loss.backward()
            opt.step()
            opt.zero_grad()
            losses.append(loss.item())
            timer.step()
    for collector in (capture, flops):
        collector.close()
    compiled.detach()
    modules.detach()
    sampler.detach()
    tracker.stop()
    timer.close()
    return losses


def test_every_collector_takes_a_disabled_timer_and_training_is_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("PROFILE_TASK_TYPES", "backward")
    off = train(str(tmp_path / "off"), enabled=False)
    on = train(str(tmp_path / "on"), enabled=True)
    assert off == on
    assert not (tmp_path / "off").exists()  # nothing created, not even the run directory
    assert list((tmp_path / "on" / "plugins" / "tb_perf").glob("*.timer.jsonl"))


def test_a_disabled_timer_has_a_disabled_writer_that_records_nothing(tmp_path):
    timer = MyTimer(tmp_path / "run", enabled=False)
    writer = timer.writer
    assert not timer.enabled and not writer.enabled
    writer.update_metadata(anything=1)
    writer.add_scalar("x", 1.0, 0)
    record_file = writer.record_file("timer")
    record_file.append("{}\n")
    record_file.flush()
    writer.write_now(record_file, "{}\n")
    writer.collector_stopped("MyTimer", 3, "told to")
    writer.close()
    assert writer.metadata.get("anything") is None
    assert not (tmp_path / "run").exists()


def test_a_given_writer_is_not_written_by_a_disabled_timer(tmp_path):
    given = RunWriter(tmp_path, rank=1, world_size=2)
    timer = MyTimer(given, enabled=False)
    assert (timer.writer.rank, timer.writer.world_size, timer.writer.enabled) == (1, 2, False)
    given.close()


def test_every_switch_off_in_the_environment_runs_the_same_script(tmp_path):
    """The README's patterns with `ENABLE_*=0`: same losses, nothing on disk."""
    script = tmp_path / "train.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {os.path.dirname(__file__)!r})
            from test_off_switch import train
            print(train(sys.argv[1], enabled=None))
            """
        )
    )
    switches = {
        name: "0"
        for name in (
            "ENABLE_TIMER",
            "ENABLE_MODULE_PROFILER",
            "ENABLE_NVTX",
            "ENABLE_MEMORY_SNAPSHOT",
            "ENABLE_MEMORY_SAMPLER",
            "ENABLE_GPU_TRACKER",
            "ENABLE_FLOPS_COUNTER",
            "ENABLE_COMPILE_MONITOR",
            "ENABLE_CAPTURE",
        )
    }

    def run(env_extra: dict[str, str], run_dir: str) -> str:
        env = {
            **os.environ,
            **env_extra,
            "PYTHONPATH": os.getcwd(),
            "PROFILE_TASK_TYPES": "backward",
        }
        done = subprocess.run(
            [sys.executable, str(script), str(tmp_path / run_dir)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert run(switches, "off") == run({}, "on")
    assert not (tmp_path / "off").exists()
