import os

from tb_perf_plugin.discovery import LIVE_WINDOW_NS, discover_runs, now_ns
from tests.conftest import write_training_run


def test_run_contract(tmp_path):
    write_training_run(tmp_path / "exp" / "a", world_size=1, steps=1)
    (tmp_path / "exp" / "a" / "profiler").mkdir()
    (tmp_path / "exp" / "a" / "profiler" / "worker0.1.pt.trace.json").write_text("[]")
    (tmp_path / "old_tb_profiler_run").mkdir()
    (tmp_path / "old_tb_profiler_run" / "host_123.1700.pt.trace.json.gz").write_bytes(b"")
    (tmp_path / "just_notes").mkdir()
    (tmp_path / "just_notes" / "README.txt").write_text("not a run")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "events.out.tfevents.1.x").write_bytes(b"")
    runs = discover_runs(str(tmp_path))
    assert sorted(runs) == ["exp/a", "old_tb_profiler_run"]
    # a trace belongs to the nearest enclosing run, never a run of its own
    assert [os.path.basename(p) for p in runs["exp/a"].traces] == ["worker0.1.pt.trace.json"]
    assert runs["exp/a"].sources == ["tfevents", "timer", "trace"]
    assert runs["old_tb_profiler_run"].sources == ["trace"]


def test_logdir_itself_can_be_a_run(tmp_path):
    write_training_run(tmp_path, world_size=1, steps=1)
    assert list(discover_runs(str(tmp_path))) == ["."]


def test_status_of_a_killed_writer(tmp_path):
    write_training_run(tmp_path / "r", world_size=1, steps=1)
    run = discover_runs(str(tmp_path))["r"]
    assert run.status(now_ns()) == "finished"
    run.writers[0].meta.closed_unix_ns = None  # as if killed before close()
    assert run.status(now_ns()) == "live"
    assert run.status(now_ns() + LIVE_WINDOW_NS + 1) == "stopped"


def test_torch_tb_profiler_samples_open_as_runs(shared_data):
    samples = shared_data / "traces/pytorch__kineto/tb_plugin/samples"
    runs = discover_runs(str(samples))
    assert sorted(runs) == ["resnet50_num_workers_0", "resnet50_num_workers_4"]
    assert len(runs["resnet50_num_workers_0"].traces) == 2  # two spans of one worker


def test_record_files_that_are_not_regular_files_are_left_out(tmp_path):
    """A FIFO would block a reader for ever and a link to /dev/full or /dev/zero never ends."""
    write_training_run(tmp_path / "r", world_size=1, steps=1)
    data = tmp_path / "r" / "plugins" / "tb_perf"
    prefix = next(data.glob("*.meta.json")).name.removesuffix(".meta.json")
    os.mkfifo(data / f"{prefix}.memory.jsonl")
    os.symlink("/dev/zero", data / f"{prefix}.system.jsonl")
    (writer,) = discover_runs(str(tmp_path))["r"].writers
    assert sorted(writer.files) == ["meta", "timer"]
