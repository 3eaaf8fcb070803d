"""The snapshot routes over a real snapshot (../shared/data) and over hostile input: `file` is
looked up among the run's discovered snapshots (path tricks are 404s), a pickle that would
run code when unpickled answers `unreadable` and runs nothing, parameters are validated."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest

from tests.plugin.test_memory_routes import write_memory_run

MAGMA = "memory_snapshots/MAGMA27__assignment2-systems/memory_snapshot.pickle"
SNAPSHOT = "plugins/tb_perf/rank0.node0.100.snapshot.step.0.pickle"
ROUTES = (
    ("snapshot", {}),
    ("snapshot/tile", {"device": 0, "start": 0, "end": 9, "width_px": 10}),
    ("snapshot/allocation", {"device": 0, "index": 0}),
)


class CreatesFile:
    """Unpickled by a plain `pickle.load`, this creates `path`: a pickle is code."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


@pytest.fixture
def snapshot_logdir(tmp_path, shared_data) -> Path:
    """test_memory_routes' two-rank run, rank 0's snapshot a real one (copied: the plugin
    does not read snapshots through links leaving the logdir), plus a hostile pickle."""
    logdir = tmp_path / "logs"
    run = logdir / "mem"
    write_memory_run(run)
    shutil.copyfile(shared_data / MAGMA, run / SNAPSHOT)
    return logdir


def test_snapshot_summary_of_a_real_snapshot(snapshot_logdir, make_client):
    body = make_client(snapshot_logdir).json("snapshot", run="mem", file=SNAPSHOT)
    assert (body["file"], body["rank"], body["format"], body["time_unit"]) == (
        SNAPSHOT, 0, "2.5+", "ns")  # fmt: skip
    assert body["origin_ns"] == "1776479641085368000"  # the trace's first time, as a string
    assert body["time"] == {"start": 0, "end": 1776479641333549001 - 1776479641085368000}
    assert body["reserved_bytes"] == 14180941824 and body["allocated_bytes"] == 1377753600
    (device,) = body["devices"]
    assert device["peak"]["live_bytes"] == 13923997700
    assert 0 < device["peak"]["t_ns"] < body["time"]["end"]  # relative to origin_ns
    largest = device["largest_at_peak"]
    assert len(largest) == 10 and largest[0]["size"] >= largest[-1]["size"]
    assert all(0 <= a["t_alloc"] <= a["t_free"] for a in largest)
    frames = device["by_first_user_frame"]
    assert frames[0]["label"].endswith("model.py:39 (forward)")
    assert frames[0]["peak_bytes"] == 2743599104
    assert body["free_segments"][0]["free_bytes"] >= body["free_segments"][-1]["free_bytes"]
    assert len(body["free_segments"]) <= 50 < body["free_segments_total"]


def test_leak_finding_names_what_the_snapshot_holds(snapshot_logdir, make_client):
    findings = make_client(snapshot_logdir).json("findings", run="mem")["findings"]
    (leak,) = [f for f in findings if f["kind"] == "memory_leak"]
    assert leak["evidence"]["snapshot"]["value"] == SNAPSHOT
    live = leak["evidence"]["live_at_snapshot"]["value"]
    # the 3 largest groups live at the snapshot, by first user frame
    assert live.split("; ")[:2] == [
        "(no stack recorded) 997.77 MiB",
        "model.py:39 (forward) 312.50 MiB",
    ]


def test_tile_and_allocation(snapshot_logdir, make_client):
    client = make_client(snapshot_logdir)
    end = client.json("snapshot", run="mem", file=SNAPSHOT)["time"]["end"]
    response = client.get("snapshot/tile", run="mem", file=SNAPSHOT, device=0, start=0, end=end,
                          width_px=800)  # fmt: skip
    assert response.status_code == 200 and len(response.get_data()) <= 1_000_000
    tile = response.get_json()
    assert (tile["start"], tile["end"], tile["width_px"]) == (0, end, 800)
    bands = tile["bands"]
    assert tile["drawn"] == len(bands["id"]) > 0 and tile["visible"] == 1950
    assert all(0 <= s < e <= end for s, e in zip(bands["start"], bands["end"], strict=True))
    assert len(tile["pixels"]["total_max"]) == 800
    assert max(tile["pixels"]["total_max"]) == 13923997700  # the peak is in view
    # zoomed into the middle: times stay relative to origin_ns
    zoom = client.json("snapshot/tile", run="mem", file=SNAPSHOT, device=0, start=end // 2,
                       end=end // 2 + 10**6, width_px=100)  # fmt: skip
    assert all(end // 2 <= s for s in zoom["bands"]["start"])
    index = bands["id"][bands["size"].index(max(bands["size"]))]
    allocation = client.json("snapshot/allocation", run="mem", file=SNAPSHOT, device=0,
                             index=index)  # fmt: skip
    assert allocation["index"] == index and allocation["size"] == max(bands["size"])
    assert allocation["lifetime"] == allocation["t_free"] - allocation["t_alloc"]
    # one allocated during the trace, with its stack
    (device,) = client.json("snapshot", run="mem", file=SNAPSHOT)["devices"]
    framed = next(a for a in device["largest_at_peak"] if a["frames"])
    allocation = client.json("snapshot/allocation", run="mem", file=SNAPSHOT, device=0,
                             index=framed["index"])  # fmt: skip
    assert allocation["frames"] == framed["frames"] and allocation["t_alloc"] == framed["t_alloc"]
    assert {"filename", "line", "name"} <= set(allocation["frames"][0])


@pytest.mark.parametrize(
    "file",
    [
        "../mem/" + SNAPSHOT,
        "/etc/passwd",
        str(Path("mem") / SNAPSHOT),
        "plugins/tb_perf/../tb_perf/rank0.node0.100.snapshot.step.0.pickle",
        "plugins/tb_perf/rank0.node0.100.timer.jsonl",
        "plugins%2Ftb_perf%2Frank0.node0.100.snapshot.step.0.pickle",
        "..",
        "",
    ],
)
def test_file_is_looked_up_never_joined(snapshot_logdir, make_client, file):
    client = make_client(snapshot_logdir)
    for route, extra in ROUTES:
        response = client.get(route, run="mem", file=file, **extra)
        body = response.get_json()
        assert response.status_code == (400 if not file else 404), body
        assert body["error"]["code"] == ("invalid_argument" if not file else "not_found")
        assert "/etc" not in body["error"]["message"] or file == "/etc/passwd"


def test_link_leaving_the_logdir_is_not_a_snapshot(tmp_path, shared_data, make_client, monkeypatch):
    monkeypatch.delenv("TB_PERF_FOLLOW_LINKS")  # as a server's owner runs it by default
    write_memory_run(tmp_path / "logs" / "mem")
    link = tmp_path / "logs" / "mem" / "linked.pickle"
    link.symlink_to(shared_data / MAGMA)
    files = [s["file"] for s in make_client(tmp_path / "logs").json("memory", run="mem")[
        "snapshots"]]  # fmt: skip
    assert "linked.pickle" not in files
    body = make_client(tmp_path / "logs").json("snapshot", expect=404, run="mem",
                                               file="linked.pickle")  # fmt: skip
    assert body["error"]["code"] == "not_found"


def test_malicious_pickle_is_unreadable_and_runs_nothing(tmp_path, make_client):
    run = tmp_path / "logs" / "mem"
    write_memory_run(run)
    witness = tmp_path / "pwned"
    with open(run / SNAPSHOT, "wb") as handle:
        pickle.dump({"segments": [CreatesFile(witness)]}, handle, protocol=4)
    client = make_client(tmp_path / "logs")
    for route, extra in ROUTES:
        body = client.json(route, expect=404, run="mem", file=SNAPSHOT, **extra)
        assert body["error"]["code"] == "unreadable"
        assert "refused" in body["error"]["message"] and "open" in body["error"]["message"]
    # the findings skip it, and the memory route says why
    memory = client.json("memory", run="mem")
    assert any("snapshot plugins/tb_perf/" in w and "open" in w for w in memory["warnings"])
    assert client.json("findings", run="mem")["findings"]
    assert not witness.exists()


def test_not_a_snapshot_and_over_the_limit(snapshot_logdir, make_client):
    run = snapshot_logdir / "mem"
    (run / "junk.pkl").write_bytes(b"\x80\x04not really")
    (run / "list.pkl").write_bytes(pickle.dumps({"a": 1}, protocol=4))
    client = make_client(snapshot_logdir)
    for file in ("junk.pkl", "list.pkl"):
        error = client.json("snapshot", expect=404, run="mem", file=file)["error"]
        assert error["code"] == "unreadable" and error["message"].startswith(file)
    client.plugin._store.max_file_bytes = 1000
    error = client.json("snapshot", expect=404, run="mem", file=SNAPSHOT)["error"]
    assert error["code"] == "unreadable" and "limit" in error["message"]


@pytest.mark.parametrize(
    "params",
    [
        {"device": 1, "start": 0, "end": 10, "width_px": 10},
        {"device": "x", "start": 0, "end": 10, "width_px": 10},
        {"device": 0, "start": 10, "end": 10, "width_px": 10},
        {"device": 0, "start": 0, "end": 10, "width_px": 0},
        {"device": 0, "start": 0, "end": 10, "width_px": 9000},
        {"device": 0, "start": "a", "end": 10, "width_px": 10},
        {"device": 0, "end": 10, "width_px": 10},
    ],
)
def test_tile_parameters_are_validated(snapshot_logdir, make_client, params):
    body = make_client(snapshot_logdir).json("snapshot/tile", expect=400, run="mem",
                                             file=SNAPSHOT, **params)  # fmt: skip
    assert body["error"]["code"] == "invalid_argument"


def test_allocation_index_is_validated(snapshot_logdir, make_client):
    client = make_client(snapshot_logdir)
    for index in ("-1", "99999", "x"):
        body = client.json("snapshot/allocation", expect=400, run="mem", file=SNAPSHOT,
                           device=0, index=index)  # fmt: skip
        assert body["error"]["code"] == "invalid_argument"


def test_findings_name_what_holds_memory_from_the_snapshot(tmp_path, make_client):
    """A hand-written snapshot (plain containers, as torch writes them) of a device that ran
    out of memory, for a run without MemorySampler records: memory_peak names the frame."""
    run = tmp_path / "logs" / "oom"
    (run / "plugins" / "tb_perf").mkdir(parents=True)
    (run / "events.out.tfevents.1.h.1").write_bytes(b"")
    frames = [{"filename": "/home/me/train.py", "line": 12, "name": "step"}]
    gib = 1024**3
    snapshot = {
        "segments": [{"device": 0, "address": 0, "total_size": 8 * gib, "allocated_size": 6 * gib,
                      "active_size": 6 * gib, "requested_size": 6 * gib, "stream": 0,
                      "segment_type": "large",
                      "blocks": [{"address": 0, "size": 6 * gib, "requested_size": 6 * gib,
                                  "state": "active_allocated", "frames": frames},
                                 {"address": 6 * gib, "size": 2 * gib, "requested_size": 0,
                                  "state": "inactive", "frames": []}]}],
        "device_traces": [[
            {"action": "alloc", "addr": 0, "size": 6 * gib, "stream": 0, "time_us": 1000,
             "frames": frames},
            {"action": "oom", "addr": 0, "size": 4 * gib, "stream": 0, "time_us": 2000,
             "frames": frames},
        ]],
        "allocator_settings": {},
    }  # fmt: skip
    (run / "oom_dump.pickle").write_bytes(pickle.dumps(snapshot, protocol=4))
    client = make_client(tmp_path / "logs")
    (finding,) = [f for f in client.json("findings", run="oom")["findings"]
                  if f["kind"] == "memory_peak"]  # fmt: skip
    assert finding["severity"] == "critical" and finding["ranks"] == []
    assert finding["key"] == "memory_peak:snapshot:oom_dump.pickle"
    assert finding["evidence"]["held_at_peak"]["value"] == "train.py:12 (step) 6.00 GiB"
    assert json.dumps(finding["view"]) == json.dumps(
        {"tab": "memory", "params": {"rank": None, "snapshot": "oom_dump.pickle"}}
    )
