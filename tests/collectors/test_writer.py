import json
import subprocess
import sys
from pathlib import Path

import pytest

from collectors import RunWriter

REPO = Path(__file__).resolve().parents[2]


def test_files_carry_rank_host_pid_and_metadata_has_a_clock_anchor(tmp_path):
    writer = RunWriter(tmp_path / "run", rank=1, world_size=4)
    writer.record_file("timer")
    writer.close()
    files = sorted(p.name for p in (tmp_path / "run" / "plugins" / "tb_perf").iterdir())
    assert len(files) == 2 and all(f.startswith("rank1.") for f in files)
    meta = json.loads(next((tmp_path / "run/plugins/tb_perf").glob("*.meta.json")).read_text())
    assert meta["schema"] == "tb_perf.meta" and meta["version"] == 1
    assert (meta["rank"], meta["world_size"], meta["rank_source"]) == (1, 4, "explicit")
    assert meta["clock"]["unix_ns"] > 1.6e18 and meta["clock"]["monotonic_ns"] > 0
    assert meta["closed_unix_ns"] >= meta["started_unix_ns"]
    assert not list((tmp_path / "run").glob("*tfevents*"))  # only the scalars rank writes one


def test_rank_outside_world_size_is_refused(tmp_path):
    with pytest.raises(ValueError, match="rank 4 is outside world size 2"):
        RunWriter(tmp_path, rank=4, world_size=2)


def test_scalars_are_readable_by_tensorboard(tmp_path):
    event_accumulator = pytest.importorskip(
        "tensorboard.backend.event_processing.event_accumulator"
    )
    with RunWriter(tmp_path, rank=0, world_size=1) as writer:
        for step, value in enumerate([0.5, 0.25, -3.0]):
            writer.add_scalar("loss", value, step)
    acc = event_accumulator.EventAccumulator(str(tmp_path))
    acc.Reload()
    assert [(e.step, e.value) for e in acc.Scalars("tb_perf/loss")] == [
        (0, 0.5),
        (1, 0.25),
        (2, -3.0),
    ]


def test_writer_closes_at_interpreter_exit(tmp_path):
    script = (
        f"import sys; sys.path.insert(0, {str(REPO)!r})\n"
        "from collectors import MyTimer\n"
        f"t = MyTimer({str(tmp_path)!r}, gpu=False)\n"
        "t.start('a'); t.stop('a')\n"  # no step(), no close(): atexit must write it
    )
    subprocess.run([sys.executable, "-c", script], check=True)
    meta = json.loads(next((tmp_path / "plugins" / "tb_perf").glob("*.meta.json")).read_text())
    assert meta["closed_unix_ns"] is not None
    timer_lines = next((tmp_path / "plugins" / "tb_perf").glob("*.timer.jsonl")).read_text()
    assert '"name":"a"' in timer_lines


def test_two_writers_in_one_run_never_share_a_file(tmp_path):
    first = RunWriter(tmp_path, rank=0, world_size=2)
    second = RunWriter(tmp_path, rank=1, world_size=2)
    assert first.record_file("timer").path != second.record_file("timer").path
    first.close()
    second.close()
