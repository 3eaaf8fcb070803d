"""A run still being written: appended lines are tailed, late GPU records join earlier spans."""

import os

from collectors import MyTimer, RunWriter
from tb_perf_plugin.ingest import records
from tb_perf_plugin.ingest.timer import read_timer_file
from tests.collectors.test_timer import OutOfOrderEvents


def test_growing_timer_file_is_tailed_and_late_gpu_times_join(tmp_path, make_client, monkeypatch):
    offsets = []
    real_read = records.read_json_lines

    def recording_read(*args, **kwargs):
        offsets.append(args[6] if len(args) > 6 else kwargs.get("offset", 0))
        return real_read(*args, **kwargs)

    monkeypatch.setattr(records, "read_json_lines", recording_read)  # under read_appended
    device = OutOfOrderEvents()
    writer = RunWriter(tmp_path / "live", rank=0, world_size=1)
    timer = MyTimer(writer, gpu=device)
    for _ in range(3):
        with timer.range("fwd"):
            pass
        timer.step()
    client = make_client(tmp_path)
    client.plugin._store.discovery_ttl_s = 0
    first = client.json("summary", run="live")
    assert first["ranks"][0]["status"] == "live"
    fwd = first["spans"][0]
    assert (fwd["calls"], fwd["gpu_total_ns"]) == (3, None)
    for event in device.events:  # the device catches up: GPU times of steps 0-2 arrive now
        event.done = True
    with timer.range("fwd"):
        pass
    timer.step()
    second = client.json("summary", run="live")
    fwd = second["spans"][0]
    assert fwd["calls"] == 4
    assert fwd["gpu_total_ns"] == 3 * 1000  # late records joined to spans read earlier
    assert offsets[0] == 0 and offsets[-1] > 0  # the second read started where the first ended
    timer.close()
    writer.close()
    assert client.json("summary", run="live")["ranks"][0]["status"] == "finished"


def test_timer_file_rewritten_in_place_is_read_anew(tmp_path):
    """Same inode and size but new content (a copy over the old file): no stale tail."""
    writer = RunWriter(tmp_path / "run", rank=0, world_size=1)
    timer = MyTimer(writer)
    for name in ("fwd", "bwd"):
        with timer.range(name):
            pass
        timer.step()
    timer.close()
    writer.close()
    path = next(str(p) for p in (tmp_path / "run").rglob("*.timer.jsonl"))
    first = read_timer_file(path, 1 << 20)
    with open(path, "rb") as f:
        content = f.read()
    with open(path, "r+b") as f:  # same length, other span name: an in-place rewrite
        f.write(content.replace(b'"fwd"', b'"xyz"'))
    os.utime(path, ns=(first.file_id[2] + 10**9, first.file_id[2] + 10**9))
    second = read_timer_file(path, 1 << 20, None, first)
    assert sorted(second.spans["name"]) == ["bwd", "xyz"]
