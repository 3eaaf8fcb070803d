"""CUDA memory snapshot ingest and analysis, on every shared real snapshot and hostile input.

Real snapshots (../shared/data/memory_snapshots, see SOURCES.md): MAGMA27/assignment2-systems
@256de03a (2.5+, 5k trace entries with frames), silmont2000/assignment2-systems @133f0643
(segment_alloc actions, C++ frames), Yiyi-philosophy/LLM-inference @41810bae (legacy, taken at
OOM), Charran78/DocuBox @94d578b3 (state only).
"""

import json
import os
import pickle
import random
import re

import numpy as np
import pytest

from tb_perf_plugin.analysis import memory_snapshot as M
from tb_perf_plugin.analysis import snapshot_tiles
from tb_perf_plugin.errors import InvalidArgument, Unreadable
from tb_perf_plugin.ingest.readers import is_snapshot_name
from tb_perf_plugin.ingest.snapshot import read_snapshot

SNAPSHOTS = "memory_snapshots"
MAGMA = f"{SNAPSHOTS}/MAGMA27__assignment2-systems/memory_snapshot.pickle"
SILMONT = f"{SNAPSHOTS}/silmont2000__assignment2-systems/mem_snapshot.pickle"
OOM = f"{SNAPSHOTS}/Yiyi-philosophy__LLM-inference/oom_snapshot.pickle"
CHARRAN = f"{SNAPSHOTS}/Charran78__DocuBox/dump_snapshot.pickle"
LIMIT = 1 << 30


class _PlainUnpickler(pickle.Unpickler):
    """The test's own restricted unpickler, so reference figures do not go through ours."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"global {module}.{name}")


def _raw(path):
    with open(path, "rb") as fh:
        return _PlainUnpickler(fh).load()


def _write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_bytes(pickle.dumps(obj, protocol=4))
    return str(path)


def _unreadable(path, max_bytes=LIMIT) -> str:
    with pytest.raises(Unreadable) as info:
        read_snapshot(str(path), max_bytes)
    return info.value.message


# --- every shared format --------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative, fmt, time_unit, entries",
    [
        (MAGMA, "2.5+", "ns", {"alloc": 1721, "free_requested": 1721, "free_completed": 1721}),
        (
            SILMONT,
            "2.5+",
            "ns",
            {"segment_alloc": 9, "alloc": 36, "free_requested": 26, "free_completed": 26},
        ),
        (OOM, "legacy", "index", {"snapshot": 1}),
        (CHARRAN, "2.5+", "ns", {}),
    ],  # fmt: skip
    ids=["MAGMA27", "silmont2000", "Yiyi-oom", "Charran78"],
)
def test_shared_snapshots_load(shared_data, relative, fmt, time_unit, entries):
    path = shared_data / relative
    raw = _raw(path)
    snap = read_snapshot(str(path), LIMIT)
    assert (snap.format, snap.time_unit, snap.devices) == (fmt, time_unit, [0])
    assert len(snap.segments) == len(raw["segments"])
    assert len(snap.blocks) == sum(len(s["blocks"]) for s in raw["segments"])
    assert snap.segments["total_size"].sum() == sum(s["total_size"] for s in raw["segments"])
    summary = M.snapshot_summary(snap)
    assert summary["trace_entries"] == entries
    json.dumps(summary)  # JSON-ready
    # blocks tile their segment: addresses (given or derived for legacy blocks) are contiguous
    seg_of = snap.blocks["segment"].to_numpy()
    starts = snap.segments["address"].to_numpy()[seg_of]
    offsets = snap.blocks.groupby(seg_of)["size"].cumsum() - snap.blocks["size"]
    assert (snap.blocks["address"].to_numpy() == starts + offsets.to_numpy()).all()
    # live bytes at the end of the trace are the allocations live at the snapshot
    timeline = M.allocation_timeline(snap, 0)
    live = M.live_bytes(snap, 0)
    assert live["bytes"].iat[-1] == timeline["size"][timeline["live_at_snapshot"]].sum()
    assert (timeline["t_free"] >= timeline["t_alloc"]).all()
    for row in M.fragmentation(snap):
        assert row["free_bytes"] == row["reserved_bytes"] - row["allocated_bytes"]


def test_magma_trace_times_and_intervals(shared_data):
    path = shared_data / MAGMA
    trace = _raw(path)["device_traces"][0]
    snap = read_snapshot(str(path), LIMIT)
    assert snap.trace["t"].tolist() == [e["time_us"] * 1000 for e in trace]
    timeline = M.allocation_timeline(snap, 0)
    from_trace = timeline[~timeline["allocated_before_trace"]]
    assert len(from_trace) == 1721 and from_trace["live_at_snapshot"].sum() == 2
    # 227 blocks live at the snapshot were allocated before the trace began, 2 were freed in it
    before = timeline["allocated_before_trace"]
    assert (before & timeline["live_at_snapshot"]).sum() == 227
    assert (before & ~timeline["live_at_snapshot"]).sum() == 2
    # newer torch records the requested size in the trace: the end state matches the blocks'
    assert M.live_bytes(snap, 0)["bytes"].iat[-1] == M.snapshot_summary(snap)["requested_bytes"]


def test_silmont_reserved_bytes_follow_segment_allocs(shared_data):
    snap = read_snapshot(str(shared_data / SILMONT), LIMIT)
    segments = M.segment_timeline(snap, 0)
    assert (~segments["allocated_before_trace"]).sum() == 9  # the 9 segment_alloc entries
    live = M.live_bytes(snap, 0)
    assert live["reserved_bytes"].iat[-1] == snap.segments["total_size"].sum()
    assert live["reserved_bytes"].is_monotonic_increasing  # no segment_free in this trace
    assert (live["reserved_bytes"] >= live["bytes"]).all()


def test_plain_segment_list_and_2_1_forms(shared_data, tmp_path):
    raw = _raw(shared_data / MAGMA)
    reference = M.snapshot_summary(read_snapshot(str(shared_data / MAGMA), LIMIT))
    listed = read_snapshot(_write(tmp_path, "list.pickle", raw["segments"]), LIMIT)
    assert listed.format == "segment_list" and listed.trace.empty
    summary = M.snapshot_summary(listed)
    for key in ("reserved_bytes", "allocated_bytes", "blocks", "inactive_blocks", "largest_block"):
        assert summary[key] == reference[key]
    older = {k: v for k, v in raw.items() if k in ("segments", "device_traces")}
    for entry in older["device_traces"][0]:
        del entry["compile_context"], entry["user_metadata"]
    snap = read_snapshot(_write(tmp_path, "old.pickle", older), LIMIT)
    assert snap.format == "2.1-2.4" and snap.allocator_settings is None
    assert M.snapshot_summary(snap)["devices"][0]["peak"] == reference["devices"][0]["peak"]


def test_entries_without_times_use_their_index(shared_data, tmp_path):
    raw = _raw(shared_data / SILMONT)
    for entry in raw["device_traces"][0]:
        del entry["time_us"]
    snap = read_snapshot(_write(tmp_path, "untimed.pkl", raw), LIMIT)
    assert snap.time_unit == "index"
    assert snap.trace["t"].tolist() == list(range(97))
    assert M.snapshot_summary(snap)["time"] == {"start": 0, "end": 97}


def test_pending_free_blocks_and_requests(tmp_path):
    """`active_pending_free` (what torch emits, whatever its docstring says): freed by the user,
    still held until its stream's work completes."""
    frame = {"filename": "/home/u/train.py", "line": 3, "name": "step"}
    snapshot = {
        "segments": [{
            "device": 1, "address": 4096, "total_size": 3072, "allocated_size": 1024,
            "active_size": 2048, "requested_size": 1000, "stream": 0, "segment_type": "small",
            "blocks": [
                {"address": 4096, "size": 1024, "requested_size": 1000,
                 "state": "active_allocated", "frames": [frame]},
                {"address": 5120, "size": 1024, "requested_size": 1024,
                 "state": "active_pending_free", "frames": []},
                {"address": 6144, "size": 1024, "requested_size": 0, "state": "inactive"},
            ],
        }],
        "device_traces": [[], [
            {"action": "alloc", "addr": 5120, "size": 1024, "stream": 0, "time_us": 10,
             "frames": [frame]},
            {"action": "free_requested", "addr": 5120, "size": 1024, "stream": 0,
             "time_us": 12, "frames": []},
        ]],
        "external_annotations": [{"device": 1, "stage": "START", "name": "fwd", "time_us": 11}],
    }  # fmt: skip
    snap = read_snapshot(_write(tmp_path, "pending.pickle", snapshot), LIMIT)
    assert snap.devices == [0, 1] and snap.format == "2.5+"
    assert snap.annotations.to_dict("records") == [
        {"device": 1, "stage": "START", "name": "fwd", "t": 11_000}
    ]
    summary = M.snapshot_summary(snap)
    assert (summary["active_blocks"], summary["pending_free_blocks"]) == (2, 1)
    assert summary["inactive_blocks"] == 1 and summary["largest_block"]["size"] == 1024
    timeline = M.allocation_timeline(snap, 1)
    assert timeline["addr"].tolist() == [4096, 5120]  # the block from before, then the trace's
    pending = timeline.iloc[1]
    assert pending["live_at_snapshot"] and pending["t_free_requested"] == 12_000
    assert timeline["size"].tolist() == [1000, 1024]  # requested size of the earlier block
    details = M.allocation_details(snap, 1, 1)
    assert details["t_free_requested"] == 12_000 and details["frames"] == [frame]
    assert details["first_user_frame"] == frame
    assert M.live_bytes(snap, 1)["bytes"].tolist() == [1000, 2024]
    assert M.live_bytes(snap, 0)["bytes"].tolist() == [0]


# --- hostile and broken input ---------------------------------------------------------------


class _RunsCommand:
    def __init__(self, command):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


class _WritesFile:
    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_malicious_pickles_are_refused_and_run_nothing(tmp_path):
    marker = tmp_path / "pwned"
    command = f"touch {marker}"
    evil = _write(tmp_path, "evil.pickle", _RunsCommand(command))
    message = _unreadable(evil)
    assert re.search(r"refused.*`(posix|os|nt)\.system`", message), message
    assert "nothing was run" in message
    # hidden inside an otherwise valid snapshot
    trace = [{"action": "alloc", "addr": 1, "size": 1, "frames": [_WritesFile(str(marker))]}]
    nested = _write(tmp_path, "nested.pkl", {"segments": [], "device_traces": [trace]})
    assert "`io.open`" in _unreadable(nested) or "`builtins.open`" in _unreadable(nested)
    assert not marker.exists()
    # the same files do run code through a plain pickle.load: the test's payloads are live
    with open(nested, "rb") as fh:
        pickle.load(fh)["device_traces"][0][0]["frames"][0].close()
    assert marker.exists()


def test_broken_files_give_clear_errors(shared_data, tmp_path):
    good = (shared_data / MAGMA).read_bytes()
    truncated = tmp_path / "truncated.pickle"
    truncated.write_bytes(good[: len(good) // 2])
    assert "truncated" in _unreadable(truncated)
    noise = tmp_path / "noise.pickle"
    noise.write_bytes(random.Random(0).randbytes(4096))
    assert "not a pickle file" in _unreadable(noise)
    for seed in range(20):  # protocol header + noise: corrupt, truncated or refused, never a crash
        noise.write_bytes(b"\x80\x04" + random.Random(seed).randbytes(4096))
        assert re.search(r"corrupt|truncated|refused|not a CUDA", _unreadable(noise))
    empty = tmp_path / "empty.pkl"
    empty.write_bytes(b"")
    assert "not a pickle" in _unreadable(empty)
    assert "a pickle of int" in _unreadable(_write(tmp_path, "int.pickle", 42))
    assert "without a 'segments' list" in _unreadable(_write(tmp_path, "d.pickle", {"a": 1}))
    bad_entry = {"segments": [], "device_traces": [[{"action": "alloc", "size": 3}]]}
    assert "has no 'addr'" in _unreadable(_write(tmp_path, "e.pickle", bad_entry))
    bad_block = {"segments": [{"address": 0, "total_size": 1, "blocks": [{"size": 1}]}]}
    assert "has no 'state'" in _unreadable(_write(tmp_path, "b.pickle", bad_block))
    huge = {"segments": [{"address": 1 << 70, "total_size": 1, "blocks": []}]}
    assert "64-bit" in _unreadable(_write(tmp_path, "h.pickle", huge))
    assert "cannot be read" in _unreadable(tmp_path / "missing.pickle")


def _mutations(snapshot, rng, count):
    """Copies of `snapshot` with one to three values (anywhere in it) replaced or deleted."""
    odd = [None, 0, -1, 1 << 70, "x", [], {}, [1, 2], {"a": 1}, 3.5, True, (1, 2), b"z"]

    def places(node, where=()):
        yield where
        if isinstance(node, (dict, list)):
            for key, child in node.items() if isinstance(node, dict) else enumerate(node[:3]):
                yield from places(child, (*where, key))

    spots = [w for w in places(snapshot) if w]
    for _ in range(count):
        copy = pickle.loads(pickle.dumps(snapshot))
        for where in rng.sample(spots, rng.randint(1, 3)):
            parent = copy
            try:
                for key in where[:-1]:
                    parent = parent[key]
                if isinstance(parent, dict) and rng.random() < 0.2:
                    del parent[where[-1]]
                else:
                    parent[where[-1]] = rng.choice(odd)
            except (KeyError, IndexError, TypeError):
                pass  # an earlier change removed the path
        yield copy


@pytest.mark.parametrize("relative", [SILMONT, OOM], ids=["silmont", "oom"])
def test_mangled_snapshots_never_crash(shared_data, tmp_path, relative):
    """Odd values anywhere: a clear Unreadable, or tables every analysis function accepts."""
    rng = random.Random(7)
    loaded = 0
    for i, mangled in enumerate(_mutations(_raw(shared_data / relative), rng, 80)):
        path = _write(tmp_path, f"m{i}.pickle", mangled)
        try:
            snap = read_snapshot(path, LIMIT)
        except Unreadable as exc:
            assert "not a CUDA memory snapshot (" in exc.message
            continue
        loaded += 1
        summary = M.snapshot_summary(snap)
        json.dumps(summary)
        M.fragmentation(snap)
        for device in snap.devices:
            M.by_first_user_frame(snap, device)
            M.largest_at_peak(snap, device, 3)
            time = summary["time"] or {"start": 0, "end": 1}
            json.dumps(snapshot_tiles.snapshot_tile(snap, device, time["start"], time["end"], 300))
    assert loaded > 10


def test_size_limit(shared_data):
    message = _unreadable(shared_data / MAGMA, max_bytes=100_000)
    assert "495.1 kB, over the 100.0 kB limit" in message


def test_snapshot_names():
    assert is_snapshot_name("rank0.snapshot.fwd.0.pickle") and is_snapshot_name("oom.PKL")
    assert not is_snapshot_name("trace.pt.trace.json.gz") and not is_snapshot_name("x.pickle.tmp")


# --- exact figures ------------------------------------------------------------------------------


def test_at_oom_snapshot_figures(shared_data):
    snap = read_snapshot(str(shared_data / OOM), LIMIT)
    summary = M.snapshot_summary(snap)
    assert summary["largest_block"]["size"] == 411_828_224
    assert summary["allocated_bytes"] == 11_840_159_744
    assert (summary["blocks"], summary["inactive_blocks"], summary["active_blocks"]) == (
        463,
        3,
        460,
    )
    assert summary["time_unit"] == "index"  # this dump's one trace entry has no time
    largest = M.largest_at_peak(snap, 0, 3)
    assert largest[0]["size"] == 411_828_224
    assert largest[0]["frames"][0] == {
        "filename": "/home/dingyiran/FlexGen/flexgen/pytorch_backend.py",
        "line": 190,
        "name": "allocate",
    }
    assert largest[0]["first_user_frame"] == largest[0]["frames"][0]
    assert summary["devices"][0]["peak"]["live_bytes"] == 11_840_159_744
    assert len(snap.history) == 460


def _is_user(filename: str) -> bool:
    """The documented rule, restated in plain string operations."""
    path = filename.replace("\\", "/")
    if filename.startswith("<"):
        return not filename.startswith("<frozen")
    lowered = path.lower()
    return (
        filename.endswith(".py")
        and "/site-packages/" not in lowered
        and "/dist-packages/" not in lowered
        and not re.search(r"(^|/)torch/", path)
        and not re.search(r"/lib/(python\d|pypy)", path)
        and "/Lib/" not in path
    )


def _group(frames):
    if not frames:
        return "(no stack recorded)"
    for f in frames:
        if _is_user(f["filename"]):
            return f"{f['filename']}:{f['line']} ({f['name']})"
    return "(no user frame)"


def test_magma_grouping_by_first_user_frame(shared_data):
    raw = _raw(shared_data / MAGMA)
    trace = raw["device_traces"][0]
    # replay the trace: alloc -> free_completed by address; frees of unknown addresses were
    # allocated before the trace; active blocks not allocated in it were live all along
    live, intervals, before = {}, [], []
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            live[e["addr"]] = (i, e["size"], _group(e["frames"]))
        elif e["action"] == "free_completed":
            if e["addr"] in live:
                start, size, group = live.pop(e["addr"])
                intervals.append((start, i, size, group))
            else:
                before.append((-1, i, e["size"], "(no stack recorded)"))
    n = len(trace)
    intervals += [(start, n, size, group) for start, size, group in live.values()]
    for segment in raw["segments"]:
        for block in segment["blocks"]:
            if block["state"] == "active_allocated" and block["address"] not in live:
                before.append((-1, n, block["requested_size"], _group(block["frames"])))
    everything = intervals + before
    change = [0] * (n + 1)
    for start, end, size, _ in everything:
        change[start] += size if start >= 0 else 0
        change[end] -= size
    running = sum(size for *_, size, _ in before)
    peak, peak_at = running, -1
    for i in range(n):
        running += change[i]
        if running > peak:
            peak, peak_at = running, i
    expected = {}
    for start, end, size, group in everything:
        row = expected.setdefault(group, [0, 0, 0])
        row[0] += size if start <= peak_at < end else 0
        row[1] += size if end == n else 0
        row[2] += size if start >= 0 else 0
    snap = read_snapshot(str(shared_data / MAGMA), LIMIT)
    got = {
        g["label"]: [g["peak_bytes"], g["snapshot_bytes"], g["trace_bytes"]]
        for g in M.by_first_user_frame(snap, 0)
    }
    assert got == expected
    assert peak == M.snapshot_summary(snap)["devices"][0]["peak"]["live_bytes"] == 13_923_997_700
    assert sum(v[0] for v in got.values()) == peak
    # user frames are the project's own files, never torch, einops (installed) or C++
    assert any("cs336_basics\\model.py" in label for label in got)
    assert not any("site-packages" in label or "torch\\" in label for label in got)


def test_user_frame_rule():
    assert M.is_user_frame("/home/u/project/train.py")
    assert M.is_user_frame("<ipython-input-3-abc>")
    assert M.is_user_frame("/tmp/ipykernel_12/3456.py")
    assert M.is_user_frame("/home/u/project/lib/model.py")
    assert not M.is_user_frame("/usr/lib/python3.11/runpy.py")
    assert not M.is_user_frame("C:\\Python311\\Lib\\runpy.py")
    assert not M.is_user_frame("<frozen runpy>")
    assert not M.is_user_frame("/venv/lib/python3.11/site-packages/einops/einops.py")
    assert not M.is_user_frame("/src/pytorch/torch/nn/modules/module.py")
    assert not M.is_user_frame("CUDACachingAllocator.cpp")
    assert not M.is_user_frame("??")


# --- viewer tiles -------------------------------------------------------------------------------


def _windows(snap):
    time = M.snapshot_summary(snap)["time"]
    t0, t1 = time["start"], time["end"]
    span = t1 - t0
    out = [(t0, t1)]
    for fraction in (0.1, 0.01, 0.001, 1e-5):
        width = max(int(span * fraction), 2)
        middle = t0 + span // 2
        out.append((middle - width // 2, middle + width // 2))
    return out


def _check_geometry(tile):
    """At every pixel end, each drawn band sits exactly on the drawn bands below it that are
    live then (stack order = id order)."""
    bands = tile["bands"]
    t0, t1, width = tile["t0"], tile["t1"], tile["width_px"]
    edges = [t0 + -(-k * (t1 - t0) // width) for k in range(width + 1)]  # ceil, exactly
    steps = np.cumsum([0, *bands["steps"]])
    for k in range(1, width + 1, max(1, width // 97)):
        end = edges[k]
        below = 0
        for b in range(len(bands["id"])):
            if not bands["start"][b] <= end < bands["end"][b]:
                continue
            y = bands["y0"][b]
            for s in range(steps[b], steps[b + 1]):
                if edges[tile["steps"]["px"][s] + 1] <= end:
                    y = tile["steps"]["y"][s]
            assert y == below
            below += bands["size"][b]
        if k < width:  # the pixel starting at `end` holds at least what is live then
            assert below <= tile["pixels"]["total_max"][k]


@pytest.mark.parametrize("relative", [MAGMA, SILMONT, OOM], ids=["MAGMA27", "silmont", "oom"])
def test_tiles_are_stacked_and_bounded(shared_data, relative):
    snap = read_snapshot(str(shared_data / relative), LIMIT)
    for t0, t1 in _windows(snap):
        for width in (800, 3000, snapshot_tiles.MAX_WIDTH_PX):
            tile = snapshot_tiles.snapshot_tile(snap, 0, t0, t1, width)
            assert len(json.dumps(tile)) <= snapshot_tiles.TILE_BYTES
            assert len(tile["pixels"]["total_max"]) == width
            assert tile["drawn"] + tile["merged"] == tile["visible"]
            drawn, total = (np.array(tile["pixels"][k]) for k in ("drawn_max", "total_max"))
            assert (drawn <= total).all()
            if width == 800:
                _check_geometry(tile)


def test_tiles_stay_within_a_smaller_budget(shared_data, monkeypatch):
    """The budget path (more bands than fit) on real data: the largest bands are kept."""
    snap = read_snapshot(str(shared_data / MAGMA), LIMIT)
    monkeypatch.setattr(snapshot_tiles, "TILE_BYTES", 40_000)
    t0, t1 = _windows(snap)[0]
    tile = snapshot_tiles.snapshot_tile(snap, 0, t0, t1, 1000)
    assert len(json.dumps(tile)) <= 40_000
    assert 0 < tile["drawn"] < tile["visible"]
    _check_geometry(tile)
    timeline = M.allocation_timeline(snap, 0)
    drawn = set(tile["bands"]["id"])
    smallest_drawn = min(tile["bands"]["size"])
    wide = timeline[(timeline["t_free"] - timeline["t_alloc"]) >= (t1 - t0) / 1000]
    assert (wide["size"][~wide.index.isin(drawn)] <= smallest_drawn).all()
    # the whole peak still shows: the per-pixel maximum reaches it
    assert max(tile["pixels"]["total_max"]) == M.live_bytes(snap, 0)["bytes"].max()


def test_tile_and_details_arguments(shared_data):
    snap = read_snapshot(str(shared_data / MAGMA), LIMIT)
    with pytest.raises(InvalidArgument):
        snapshot_tiles.snapshot_tile(snap, 0, 10, 10, 100)
    with pytest.raises(InvalidArgument):
        snapshot_tiles.snapshot_tile(snap, 0, 0, 10, snapshot_tiles.MAX_WIDTH_PX + 1)
    with pytest.raises(InvalidArgument):
        snapshot_tiles.snapshot_tile(snap, 3, 0, 10, 100)
    with pytest.raises(InvalidArgument):
        M.allocation_details(snap, 0, 10**6)
    t0, t1 = _windows(snap)[0]
    stacks = M.allocation_timeline(snap, 0)["stack"]
    ids = snapshot_tiles.snapshot_tile(snap, 0, t0, t1, 1000)["bands"]["id"]
    details = M.allocation_details(snap, 0, next(i for i in ids if stacks[i] >= 0))
    assert details["lifetime"] == details["t_free"] - details["t_alloc"] > 0
    assert details["frames"] and details["time_unit"] == "ns"
    json.dumps(details)
