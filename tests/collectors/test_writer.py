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


def test_each_writer_has_an_id_of_its_start_time_and_a_random_part(tmp_path):
    first, second = RunWriter(tmp_path, rank=0), RunWriter(tmp_path, rank=0)
    for writer in (first, second):
        stamp, random_part = writer.writer_id.split("-")
        assert len(stamp) == 15 and stamp[8] == "T" and len(random_part) == 6
        assert writer.file_prefix.endswith("." + writer.writer_id)
        assert writer.metadata["writer_id"] == writer.writer_id
        writer.close()
    assert first.writer_id != second.writer_id


def test_a_collector_that_stops_records_why_and_when_even_on_a_full_disk(tmp_path, monkeypatch):
    import errno

    writer = RunWriter(tmp_path, rank=0)
    (meta_path,) = (tmp_path / "plugins" / "tb_perf").glob("*.meta.json")
    assert len(meta_path.read_bytes()) % 4096 == 0  # padded: room to rewrite it in place

    def no_space(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", no_space)  # the atomic rewrite's temporary file
    with pytest.warns(RuntimeWarning, match="MyTimer stopped at step 7: cannot write"):
        writer.collector_stopped(
            "MyTimer", 7, "cannot write timer", OSError(errno.ENOSPC, "No space left")
        )
    stopped = json.loads(meta_path.read_text())["stopped"]
    assert stopped["MyTimer"]["reason"] == "disk full" and stopped["MyTimer"]["step"] == 7
    writer.collector_stopped("MyTimer", 9, "again")  # once per collector: no second warning
    assert writer.metadata["stopped"]["MyTimer"]["step"] == 7
    monkeypatch.undo()
    writer.close()
    assert json.loads(meta_path.read_text())["closed_unix_ns"] is not None


def test_a_run_directory_that_cannot_be_made_turns_the_writer_off(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the run directory should go")
    with pytest.warns(RuntimeWarning, match="cannot create run"):
        writer = RunWriter(blocker / "run")
    assert not writer.enabled
    writer.record_file("timer").append("{}\n")
    writer.close()
    assert blocker.is_file()
