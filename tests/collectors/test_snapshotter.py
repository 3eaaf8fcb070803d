"""MemorySnapshotter: the no-CUDA path for real, and recording, nesting, dumps and names through a
fake of the torch calls it makes."""

from __future__ import annotations

import gc
import io
import logging
import pickle
from pathlib import Path

import pytest

from collectors import MemorySnapshotter, MyTimer, RunWriter
from collectors._snapshot import TorchMemoryApi, sanitize_region


class FakeMemoryApi:
    """torch.cuda.memory's `_record_memory_history` / `_snapshot` and the OOM observer hook
    (collectors._snapshot.MemoryApi)."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.recording = False
        self.observers: list = []

    def record_memory_history(self, enabled, **kwargs) -> None:
        self.calls.append(("record", enabled, kwargs))
        self.recording = enabled is not None

    def snapshot(self) -> dict:
        self.calls.append(("snapshot",))
        trace = [{"action": "alloc", "addr": 4096, "size": 512, "stream": 0, "frames": []}]
        return {"segments": [], "device_traces": [trace], "recording": self.recording}

    def attach_oom_observer(self, observer) -> None:
        self.observers.append(observer)


class NoGlobals(pickle.Unpickler):
    """How the plugin reads snapshots: plain containers and scalars only."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"global {module}.{name} refused")


def load(path: str | Path) -> dict:
    return NoGlobals(io.BytesIO(Path(path).read_bytes())).load()


def snapshot_files(writer: RunWriter) -> list[str]:
    return sorted(
        p.name.split(".snapshot.")[1] for p in writer.data_dir.iterdir() if ".snapshot." in p.name
    )


def test_without_cuda_it_is_a_no_op_with_one_log_line(tmp_path, caplog):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with RunWriter(tmp_path) as writer, caplog.at_level(logging.INFO, logger="tb_perf"):
        snap = MemorySnapshotter(writer, enabled=True, dump_on_oom=True)
        for _ in range(3):
            with snap.region("outer"):
                snap.start("inner")
                snap.stop("inner")
            snap.stop("never started")  # off: nothing to check against
        assert snap.dump("now") is None
        snap.close()
    assert not snap.enabled
    (line,) = [r for r in caplog.records if r.name == "tb_perf"]
    assert line.levelno == logging.WARNING
    assert "no CUDA" in line.getMessage() and "is_available" in line.getMessage()
    assert snapshot_files(writer) == []


def test_off_by_default_and_on_with_the_environment(tmp_path, monkeypatch):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        monkeypatch.delenv("ENABLE_MEMORY_SNAPSHOT", raising=False)
        off = MemorySnapshotter(writer, memory_api=api)
        with off.region("a"):
            pass
        assert not off.enabled and api.calls == []
        monkeypatch.setenv("ENABLE_MEMORY_SNAPSHOT", "1")
        on = MemorySnapshotter(writer, memory_api=api)
        with on.region("a"):
            pass
    assert on.enabled and snapshot_files(writer) == ["a.0.pickle"]


def test_nested_regions_record_once_and_dump_at_every_stop(tmp_path):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(
            writer, enabled=True, max_entries=5000, stacks="all", memory_api=api
        )
        snap.start("outer")
        for _ in range(2):
            with snap.region("inner"):
                assert api.recording
        snap.stop("outer")
        assert not api.recording
        with snap.region("inner"):
            pass
    record = ("record", "all", {"max_entries": 5000, "stacks": "all"})
    stop = ("record", None, {})
    snapshot = ("snapshot",)
    assert api.calls == [record, snapshot, snapshot, snapshot, stop, record, snapshot, stop]
    assert snapshot_files(writer) == ["inner.0.pickle", "inner.1.pickle", "inner.2.pickle",
                                      "outer.0.pickle"]  # fmt: skip
    prefix = writer.file_prefix
    assert [Path(f).name for f in snap.files] == [
        f"{prefix}.snapshot.{name}.pickle" for name in ("inner.0", "inner.1", "outer.0", "inner.2")
    ]
    data = Path(snap.files[0]).read_bytes()
    assert data[:2] == b"\x80\x04"  # pickle protocol 4
    expected = {"segments": [], "device_traces": [[{"action": "alloc", "addr": 4096, "size": 512,
                "stream": 0, "frames": []}]], "recording": True}  # fmt: skip
    assert load(snap.files[0]) == expected  # plain data: loads without any global
    assert not [p for p in writer.data_dir.iterdir() if p.name.endswith(".tmp")]


def test_stop_must_name_the_innermost_region(tmp_path):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(writer, enabled=True, memory_api=api)
        with pytest.raises(ValueError, match="stop\\('b'\\) but no region is open"):
            snap.stop("b")
        snap.start("a")
        with pytest.raises(ValueError, match="stop\\('b'\\) but the innermost open region is 'a'"):
            snap.stop("b")
        assert api.recording and snapshot_files(writer) == []
        snap.stop("a")
    assert not api.recording and snapshot_files(writer) == ["a.0.pickle"]


def test_region_dumps_and_stops_recording_when_its_body_raises(tmp_path):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(writer, enabled=True, memory_api=api)
        with pytest.raises(KeyError), snap.region("fails"):
            raise KeyError("boom")
    assert not api.recording and snapshot_files(writer) == ["fails.0.pickle"]


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("warmup", "warmup"),
        ("step 3/fwd.bwd", "step-3-fwd-bwd"),
        ("../../etc/passwd", "etc-passwd"),
        ("", "region"),
        ("été", "t"),
        ("...", "region"),
        ("x" * 200, "x" * 64),
    ],
)
def test_region_names_are_sanitized_for_file_names(name, safe):
    assert sanitize_region(name) == safe


def test_sanitized_names_land_in_the_run_directory(tmp_path):
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(writer, enabled=True, memory_api=FakeMemoryApi())
        with snap.region("../escape me"):
            pass
    assert snapshot_files(writer) == ["escape-me.0.pickle"]
    assert Path(snap.files[0]).parent == writer.data_dir


def test_numbers_are_not_reused_by_a_second_snapshotter(tmp_path):
    with RunWriter(tmp_path) as writer:
        first = MemorySnapshotter(writer, enabled=True, memory_api=FakeMemoryApi())
        second = MemorySnapshotter(writer, enabled=True, memory_api=FakeMemoryApi())
        for snap in (first, second, first):
            with snap.region("r"):
                pass
    assert snapshot_files(writer) == ["r.0.pickle", "r.1.pickle", "r.2.pickle"]


def test_a_failed_dump_turns_it_off_and_stops_recording(tmp_path, caplog):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(writer, enabled=True, memory_api=api)
        blocker = writer.data_dir / f"{writer.file_prefix}.snapshot.inner.0.pickle.tmp"
        blocker.mkdir()  # the temporary file cannot be opened
        snap.start("outer")
        with caplog.at_level(logging.WARNING, logger="tb_perf"):
            snap.start("inner")
            snap.stop("inner")
            snap.stop("outer")  # off by now: no error for the region left open
            with snap.region("later"):
                pass
    assert not snap.enabled and not api.recording
    assert api.calls[-1] == ("record", None, {})
    assert "MemorySnapshotter stopped: cannot write" in caplog.text
    assert snapshot_files(writer) == ["inner.0.pickle.tmp"]


def test_dump_on_oom_writes_an_oom_snapshot_until_closed(tmp_path):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(writer, enabled=True, dump_on_oom=True, memory_api=api)
        (observer,) = api.observers
        snap.start("train")
        observer(0, 1 << 30, 70 << 30, 1 << 20)  # device, requested, allocated, free
        snap.stop("train")
        assert snapshot_files(writer) == ["oom.0.pickle", "train.0.pickle"]
        assert load(snap.files[0])["recording"] is True
        snap.close()
        observer(0, 1 << 30, 70 << 30, 1 << 20)
        assert snapshot_files(writer) == ["oom.0.pickle", "train.0.pickle"]
        MemorySnapshotter(writer, enabled=True, dump_on_oom=False, memory_api=api)
        assert len(api.observers) == 1


def test_a_loop_that_catches_ooms_gets_at_most_three_oom_snapshots(tmp_path):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        snap = MemorySnapshotter(writer, enabled=True, dump_on_oom=True, memory_api=api)
        (observer,) = api.observers
        for _ in range(10):  # a batch-size search that catches each OOM
            observer(0, 1 << 30, 70 << 30, 1 << 20)
        assert snapshot_files(writer) == ["oom.0.pickle", "oom.1.pickle", "oom.2.pickle"]
        snap.close()


def test_the_oom_observer_does_not_keep_the_snapshotter_alive(tmp_path):
    api = FakeMemoryApi()
    with RunWriter(tmp_path) as writer:
        MemorySnapshotter(writer, enabled=True, dump_on_oom=True, memory_api=api)
        gc.collect()
        api.observers[0](0, 1, 0, 0)
    assert snapshot_files(writer) == []


def test_takes_a_timer_and_follows_a_disabled_one(tmp_path):
    timer = MyTimer(tmp_path, gpu=False)
    snap = MemorySnapshotter(timer, enabled=True, memory_api=FakeMemoryApi())
    with snap.region("r"):
        pass
    assert Path(snap.files[0]).parent == timer.writer.data_dir
    timer.close()
    api = FakeMemoryApi()
    off = MemorySnapshotter(MyTimer(enabled=False), enabled=True, memory_api=api)
    with off.region("r"):
        pass
    assert not off.enabled and api.calls == []


def test_bad_options_are_refused(tmp_path):
    with RunWriter(tmp_path) as writer:
        with pytest.raises(ValueError, match="stacks"):
            MemorySnapshotter(writer, stacks="cpp")
        with pytest.raises(ValueError, match="max_entries"):
            MemorySnapshotter(writer, max_entries=0)


def test_torch_memory_api_passes_the_calls_on_as_torch_takes_them(monkeypatch):
    torch = pytest.importorskip("torch")
    calls = []
    monkeypatch.setattr(
        torch.cuda.memory, "_record_memory_history", lambda *a, **k: calls.append((a, k))
    )
    monkeypatch.setattr(torch.cuda.memory, "_snapshot", lambda: {"segments": []})
    monkeypatch.setattr(
        torch._C, "_cuda_attach_out_of_memory_observer", calls.append, raising=False
    )
    api = TorchMemoryApi()
    api.record_memory_history("all", max_entries=7, stacks="python")
    api.record_memory_history(None)
    api.attach_oom_observer(print)
    assert api.snapshot() == {"segments": []}
    assert calls == [(("all",), {"max_entries": 7, "stacks": "python"}), ((None,), {}), print]
