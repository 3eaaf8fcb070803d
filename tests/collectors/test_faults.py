"""Collectors under faults, with real training processes (faults_worker.py): SIGKILL mid-step,
a full disk (RLIMIT_FSIZE, /dev/full), a run directory deleted mid-training, and four gloo
ranks writing one run at once. Every run is read back with the plugin's RunStore.

`TB_PERF_SOAK=1` runs the longer variant: more kill points (every phase at early, middle and
last steps), more steps, and a longer four-rank job.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
import torch

from collectors import (
    MemorySampler,
    ModuleProfiler,
    MyTimer,
    RunWriter,
    TaskProfiler,
    profile_steps,
)
from collectors._writer import UNLINK_CHECK_NS
from tb_perf_plugin.discovery import LIVE_WINDOW_NS
from tb_perf_plugin.pipeline import read as run_reading
from tb_perf_plugin.store import RunStore

WORKER = Path(__file__).with_name("faults_worker.py")
SOAK = os.environ.get("TB_PERF_SOAK") == "1"
SPANS = ["data", "forward", "backward", "optimizer"]  # each step's spans, in order
STEPS = 60 if SOAK else 12
if SOAK:
    KILL_POINTS = [(s, p) for s in (0, 1, 17, STEPS - 1) for p in ("forward", "boundary", "flush")]
else:
    KILL_POINTS = [(3, "forward"), (4, "boundary"), (5, "flush")]


def _worker(run_dir: Path, steps: int, fault: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-W", "always", str(WORKER), str(run_dir), str(steps), fault],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "OMP_NUM_THREADS": "1", **env},
    )


def _read(logdir: Path, run_name: str):
    """The run as the plugin sees it: its discovery entry and tables (read in full)."""
    service = RunStore(str(logdir))
    try:
        run = service.find_run(run_name)
        return run, service.tables(run, wait_s=None)
    finally:
        service.close()


def _check_steps_and_spans(tables, rank: int, steps: list[int]) -> None:
    """Exactly `steps` completed, each with its four spans inside it."""
    step_rows = tables.steps[tables.steps["rank"] == rank].sort_values("step")
    assert step_rows["step"].tolist() == steps
    spans = tables.spans[tables.spans["rank"] == rank]
    for row in step_rows.itertuples():
        mine = spans[spans["step"] == row.step].sort_values("t0")
        assert mine["name"].tolist() == SPANS, row.step
        assert (mine["t0"] >= row.t0).all() and (mine["t1"] <= row.t1).all(), row.step


# --- SIGKILL mid-step --------------------------------------------------------------------------


def test_sigkill_mid_step_loses_at_most_the_step_under_way(tmp_path, monkeypatch):
    children = {}
    for step, phase in KILL_POINTS:  # all at once: the imports overlap
        name = f"killed_{phase}_{step}"
        children[name] = (step, phase, _worker(tmp_path / name, STEPS, f"pause:{step}:{phase}"))
    for name, (step, phase, child) in children.items():
        try:
            assert child.stdout.readline().split() == ["paused", str(step), phase], name
            child.kill()  # SIGKILL: no atexit, no close
        finally:
            child.wait(timeout=60)
            child.stdout.close()
            child.stderr.close()
        assert child.returncode == -9
    for name, (step, phase, _) in children.items():
        run, tables = _read(tmp_path, name)
        # the step under way is lost; `boundary` kills right after the step was written
        done = list(range(step + 1 if phase == "boundary" else step))
        assert run.status(time.time_ns() + LIVE_WINDOW_NS + 1) == "stopped"  # not finished
        assert tables.warnings == [], name
        kept = tables.steps["step"].tolist()
        if phase == "flush":  # torn write: the lines cut short are left out, whole ones read
            assert kept in (done, [*done, step])
            tail = _timer_path(tmp_path / name).read_bytes()
            assert not tail.endswith(b"\n")  # the cut is really there
            complete = tables.spans[tables.spans["step"] == step]["name"].tolist()
            assert complete == SPANS[: len(complete)]
            tables.steps = tables.steps[tables.steps["step"] < step]
            with monkeypatch.context() as later:  # once the writer is idle: stopped, not live
                later.setattr(run_reading, "now_ns", lambda: time.time_ns() + LIVE_WINDOW_NS + 1)
                _, stopped = _read(tmp_path, name)
            assert any("the writer stopped mid-write" in w for w in stopped.warnings), name
        _check_steps_and_spans(tables, 0, done)
        # the memory samples went with the timer's writes; module blocks every 2 steps
        assert tables.memory["step"].tolist() == done
        blocks = tables.modules.blocks  # one per step, written every second step
        assert (blocks["last_step"] <= max(done, default=-1)).all()
        assert len(done) - len(blocks) in (0, 1)
        assert tables.module_warnings == []


def _timer_path(run_dir: Path) -> Path:
    (path,) = (run_dir / "plugins" / "tb_perf").glob("*.timer.jsonl")
    return path


# --- full disk, deleted run directory ----------------------------------------------------------

FSIZE_LIMIT = 3000  # bytes a file may hold: the timer, memory and modules files reach it
FAULTS = {
    "fsize": f"fsize:{FSIZE_LIMIT}",
    "devfull": "devfull",
    "vanish": f"vanish:{STEPS // 3}",
}
WARNINGS = {  # what each collector says when it turns itself off
    "timer": "MyTimer stopped",
    "memory": "MemorySampler stopped",
    "modules": "ModuleProfiler stopped",
    "system": "GpuTracker stopped",
    "writer": "RunWriter: cannot write",
}


@pytest.fixture(scope="module")
def faulty_runs(tmp_path_factory) -> dict[str, tuple[Path, int, str, str]]:
    """Each fault's run directory, exit code, stdout and stderr (the workers run at once)."""
    logdir = tmp_path_factory.mktemp("faults")
    children = {name: _worker(logdir / name, STEPS * 3, fault) for name, fault in FAULTS.items()}
    results = {}
    for name, child in children.items():
        out, err = child.communicate(timeout=120)
        results[name] = (logdir / name, child.returncode, out, err)
    return results


def _training_unharmed(result: tuple[Path, int, str, str]) -> dict[str, int]:
    """Exit code 0 and the loss of a run without collectors; returns the warning counts."""
    _, returncode, out, err = result
    assert returncode == 0, err
    assert "Traceback" not in err, err
    losses = dict(line.split() for line in out.splitlines())
    assert losses["loss"] == losses["baseline"]
    return {kind: err.count(text) for kind, text in WARNINGS.items()}


def test_full_disk_turns_each_collector_off_with_one_warning(faulty_runs):
    run_dir, *_ = faulty_runs["devfull"]
    counts = _training_unharmed(faulty_runs["devfull"])
    # every record file is /dev/full: each collector warns once; the metadata still writes
    assert counts == {"timer": 1, "memory": 1, "modules": 1, "system": 1, "writer": 0}
    (meta,) = (run_dir / "plugins" / "tb_perf").glob("*.meta.json")
    doc = json.loads(meta.read_text())
    assert doc["closed_unix_ns"] is not None
    stopped = {name: stop["reason"] for name, stop in doc["stopped"].items()}
    assert stopped == dict.fromkeys(["MyTimer", "MemorySampler", "ModuleProfiler", "GpuTracker"],
                                    "disk full")  # fmt: skip
    _, tables = _read(run_dir.parent, run_dir.name)
    assert "rank 0: data ends at its first step (disk full)" in tables.warnings


def test_file_size_limit_keeps_whole_lines_and_every_step_before_it(faulty_runs):
    run_dir, *_ = faulty_runs["fsize"]
    counts = _training_unharmed(faulty_runs["fsize"])
    data_dir = run_dir / "plugins" / "tb_perf"
    for kind in ("timer", "memory", "modules", "system"):
        (path,) = data_dir.glob(f"*.{kind}.jsonl")
        content = path.read_bytes()
        assert content.endswith(b"\n"), kind  # the failed write was cut back to whole lines
        assert len(content) <= FSIZE_LIMIT
    # these three outgrow the limit; the GpuTracker's file and the scalars (the writer's)
    # may not, in a short run; the metadata stays small and is rewritten whole
    assert counts["timer"] == counts["memory"] == counts["modules"] == 1
    assert counts["system"] <= 1 and counts["writer"] <= 1
    run, tables = _read(run_dir.parent, run_dir.name)
    assert run.status(time.time_ns()) == "finished"
    kept = tables.steps["step"].tolist()
    assert 0 < len(kept) < STEPS * 3
    # the run says where its data ends and why, instead of looking like a clean one
    said = [w for w in tables.warnings if "data ends at step" in w]
    assert f"rank 0: data ends at step {kept[-1]} (file size limit reached)" in said
    assert all(w.endswith("(file size limit reached)") for w in said)
    _check_steps_and_spans(tables, 0, list(range(len(kept))))
    memory_steps = tables.memory["step"].tolist()
    assert memory_steps == list(range(len(memory_steps)))


def test_deleted_run_directory_turns_every_writer_off_with_one_warning(faulty_runs):
    run_dir, *_ = faulty_runs["vanish"]
    counts = _training_unharmed(faulty_runs["vanish"])
    assert counts == {"timer": 1, "memory": 1, "modules": 1, "system": 1, "writer": 1}
    assert not run_dir.exists()  # nothing recreated it, no unlinked file kept filling


def test_deleted_run_directory_in_process_warns_once_and_close_does_not_raise(tmp_path):
    timer = MyTimer(tmp_path / "run", gpu=False, scalar_interval_s=0)
    sampler = MemorySampler(timer).attach()
    for step in range(6):
        if step == 2:
            shutil.rmtree(tmp_path / "run")
            time.sleep(UNLINK_CHECK_NS / 1e9)  # files check at most once a second
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with timer.range("work"):
                pass
            timer.step()
        said = sorted(str(w.message).split(":")[0] for w in caught)
        if step == 2:
            assert said == [
                "MemorySampler stopped at step 2",
                "MyTimer stopped at step 2",
                "RunWriter",
            ]
        else:
            assert said == [], step
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sampler.detach()
        timer.close()  # metadata cannot be written either: already warned, never raised
    assert not (tmp_path / "run").exists()


def test_closed_writer_turns_each_collector_off_with_one_warning(tmp_path):
    writer = RunWriter(tmp_path)
    timer = MyTimer(writer, gpu=False)
    model = torch.nn.Linear(4, 4)
    modules = ModuleProfiler(model, timer, gpu=False, flush_every_steps=1).attach()
    sampler = MemorySampler(timer).attach()
    writer.close()  # closed under the collectors' feet
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            with timer.range("work"):
                model(torch.randn(2, 4)).sum().backward()
            timer.step()
        sampler.detach()
        modules.detach()
        timer.close()
    said = sorted(str(w.message).split(" stopped at step ")[0] for w in caught)
    assert said == ["MemorySampler", "ModuleProfiler", "MyTimer"]


def test_deleted_run_directory_fails_every_trace_window_but_warns_once(tmp_path, caplog):
    timer = MyTimer(tmp_path / "run", gpu=False)
    weights = torch.randn(64, 64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with profile_steps(timer, wait=0, warmup=0, active=1, repeat=3):
            shutil.rmtree(tmp_path / "run")
            for step in range(4):
                timer.set_step(step)
                with timer.range("matmul"):
                    (weights @ weights).sum()
        timer.close()
    failures = [r for r in caplog.records if "writing the trace" in r.getMessage()]
    assert len(failures) == 1  # three windows failed
    assert [str(w.message).split(":")[0] for w in caught].count("RunWriter") == 1


def test_deleted_run_directory_under_task_profiling_warns_once_and_closes(tmp_path, caplog):
    timer = MyTimer(tmp_path / "run", gpu=False)
    tasks = TaskProfiler(timer, types="DIT", skip_first=0, max_captures=3)
    weights = torch.randn(64, 64)
    shutil.rmtree(tmp_path / "run")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the writer's own warning: tested above
        for step in range(3):
            timer.set_step(step)
            with tasks.task("DIT"):
                (weights @ weights).sum()
        tasks.close()  # summaries cannot be written: logged once, never raised
        timer.close()
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len([m for m in said if "writing the trace" in m]) == 1
    assert len([m for m in said if "profile_task: cannot write" in m]) == 1
    assert not [m for m in said if "callback failed" in m]


# --- four gloo ranks ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_four_gloo_ranks_write_four_consistent_rank_sets(tmp_path):
    run_dir, world, steps = tmp_path / "ddp4", 4, (40 if SOAK else 5)
    port = _free_port()
    ranks = [
        _worker(
            run_dir,
            steps,
            "dist",
            RANK=str(rank),
            WORLD_SIZE=str(world),
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(port),
        )  # fmt: skip
        for rank in range(world)
    ]
    outputs = [child.communicate(timeout=180) for child in ranks]
    for child, (_, err) in zip(ranks, outputs, strict=True):
        assert child.returncode == 0, err
        assert "Warning" not in err, err
    losses = {out.split()[1] for out, _ in outputs}
    assert len(losses) == 1  # all-reduced gradients: one model on every rank
    data_dir = run_dir / "plugins" / "tb_perf"
    metas = [json.loads(p.read_text()) for p in sorted(data_dir.glob("*.meta.json"))]
    assert sorted(m["rank"] for m in metas) == list(range(world))
    assert {(m["world_size"], m["rank_source"]) for m in metas} == {(world, "torch.distributed")}
    assert all(m["closed_unix_ns"] is not None for m in metas)
    for meta in metas:
        host = re.sub(r"[^A-Za-z0-9-]+", "-", meta["host"])
        prefix = f"rank{meta['rank']}.{host}.{meta['pid']}.{meta['writer_id']}"
        for kind in ("timer", "memory", "modules", "system"):
            assert (data_dir / f"{prefix}.{kind}.jsonl").read_bytes().endswith(b"\n"), kind
    assert not list(data_dir.glob("*.tmp"))
    run, tables = _read(tmp_path, "ddp4")
    assert run.ranks == list(range(world))
    assert run.status(time.time_ns()) == "finished"
    assert tables.warnings == []
    for rank in range(world):
        _check_steps_and_spans(tables, rank, list(range(steps)))
        memory = tables.memory[tables.memory["rank"] == rank]
        assert memory["step"].tolist() == list(range(steps))
        blocks = tables.modules.blocks[tables.modules.blocks["rank"] == rank]
        assert blocks["step"].min() == 0 and blocks["last_step"].max() == steps - 1
