"""Nothing merged silently: jobs run into one run directory are told apart, a rank claimed
twice within a job is a warning naming both writers, and every writer has files of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from collectors import MyTimer, RunWriter
from tb_perf_plugin import views
from tb_perf_plugin.discovery import JOB_SEPARATOR, discover_runs
from tb_perf_plugin.store import RunStore
from tests.conftest import write_training_run


def _steps(service: RunStore, name: str) -> dict:
    return views.overview.summary(service, name, wait_s=None)["steps"]


def test_a_script_run_twice_into_one_directory_is_two_jobs_newest_shown(tmp_path):
    run_dir = tmp_path / "logs" / "exp"
    write_training_run(run_dir, world_size=2, steps=8)
    write_training_run(run_dir, world_size=2, steps=5)
    runs = discover_runs(str(tmp_path / "logs"))
    newest = runs["exp"]
    assert [len(j.ranks) for j in newest.jobs] == [2, 2]
    older = newest.jobs[1]
    assert older.run == f"exp{JOB_SEPARATOR}{older.id}" and older.run in runs
    assert newest.jobs[0].started_unix_ns > older.started_unix_ns
    assert len(newest.writers) == len(runs[older.run].writers) == 2
    service = RunStore(str(tmp_path / "logs"))
    try:
        assert _steps(service, "exp")["last"] == 4
        assert _steps(service, older.run)["last"] == 7
        warnings = views.overview.summary(service, "exp", wait_s=None)["warnings"]
        assert any("this run directory holds 2 jobs" in w and "showing the newest" in w
                   for w in warnings)  # fmt: skip
        listed = {run["name"]: run for run in views.runs.runs(service)}
        assert listed["exp"]["directory"] == listed[older.run]["directory"] == "exp"
        assert [job["run"] for job in listed["exp"]["jobs"]] == ["exp", older.run]
        assert listed["exp"]["job"] == newest.jobs[0].id
    finally:
        service.close()


def test_the_cli_shows_the_newest_job_and_picks_another_with_job(tmp_path):
    run_dir = tmp_path / "exp"
    write_training_run(run_dir, world_size=1, steps=8)
    write_training_run(run_dir, world_size=1, steps=3)
    newest_id, older = (job.id for job in discover_runs(str(tmp_path))["exp"].jobs)
    # the start of an id is enough when it is unique: both ids may share a second and more
    unique = next(
        older[:n] for n in range(1, len(older) + 1) if not newest_id.startswith(older[:n])
    )

    def analyze(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "tb_perf_plugin.cli", "analyze", str(run_dir), *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )

    newest = analyze()
    assert newest.returncode == 0, newest.stderr
    assert "3 step(s) (0..2)" in newest.stdout and "holds 2 jobs" in newest.stdout
    picked = analyze("--job", unique)
    assert picked.returncode == 0, picked.stderr
    assert "8 step(s) (0..7)" in picked.stdout
    wrong = analyze("--job", "nope")
    assert wrong.returncode != 0 and "is not one of the run's jobs" in wrong.stderr
    shared = analyze("--job", older[: len(unique) - 1])  # the start both ids have
    assert shared.returncode != 0 and "matches several" in shared.stderr


def test_two_processes_claiming_one_rank_are_a_warning_naming_both(tmp_path):
    run_dir = tmp_path / "exp"
    first = RunWriter(run_dir, rank=0, world_size=1)
    second = RunWriter(run_dir, rank=0, world_size=1)  # same pid: files of its own all the same
    assert first.file_prefix != second.file_prefix
    for writer, steps in ((first, 10), (second, 6)):
        timer = MyTimer(writer, gpu=False)
        for step in range(steps):
            timer.set_step(step)
            with timer.range("work"):
                pass
        timer.step()
        timer.close()
    first.close()
    second.close()
    for writer in (first, second):  # each writer's trace goes with it
        (writer.data_dir / f"{writer.file_prefix}.steps0-1.pt.trace.json.gz").write_bytes(b"")
    run = discover_runs(str(tmp_path))["exp"]
    assert run.jobs == [] and [w.prefix for w in run.writers] == [first.file_prefix]
    assert [os.path.basename(p) for p in run.traces] == [
        f"{first.file_prefix}.steps0-1.pt.trace.json.gz"
    ]
    (notice,) = run.notices
    assert "rank 0 is claimed by two processes of one job" in notice
    assert first.file_prefix in notice and second.file_prefix in notice
    service = RunStore(str(tmp_path))
    try:
        summary = views.overview.summary(service, "exp", wait_s=None)
        assert summary["steps"]["last"] == 9  # the first writer's, not 16 steps merged
        assert notice in summary["warnings"]
        assert not any("malformed" in w for w in summary["warnings"])
    finally:
        service.close()


def test_files_of_older_collectors_without_writer_ids_still_read_as_one_job(tmp_path):
    run_dir = tmp_path / "exp"
    write_training_run(run_dir, world_size=2, steps=4)
    data_dir = run_dir / "plugins" / "tb_perf"
    for path in data_dir.iterdir():  # rank0.host.pid.<id>.kind.ext -> rank0.host.pid.kind.ext
        parts = path.name.split(".")
        os.rename(path, path.with_name(".".join(parts[:3] + parts[4:])))
    run = discover_runs(str(tmp_path))["exp"]
    assert run.jobs == [] and run.ranks == [0, 1] and run.notices == []
    assert all(w.prefix.count(".") == 2 for w in run.writers)


def test_a_hostile_writer_id_or_host_in_metadata_never_names_a_run(tmp_path):
    run_dir = tmp_path / "exp"
    write_training_run(run_dir, world_size=1, steps=2)
    write_training_run(run_dir, world_size=1, steps=2)
    metas = sorted((run_dir / "plugins" / "tb_perf").glob("*.meta.json"))
    for path in metas:
        doc = json.loads(path.read_text())
        doc["writer_id"], doc["host"] = "../../" + "x" * 5000, "h" * 5000
        path.write_text(json.dumps(doc))
    runs = discover_runs(str(tmp_path))
    ids = [job.id for job in runs["exp"].jobs]
    assert len(ids) == 2 and all(len(i) == 15 and "/" not in i for i in ids)  # the start time
    assert all(len(w.describe()) < 200 for run in runs.values() for w in run.writers)
