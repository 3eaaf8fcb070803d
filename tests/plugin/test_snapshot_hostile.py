"""Hostile memory snapshots (issue 16): whoever can write the logdir must not be able to take
the server's memory through a snapshot, make its answers unbounded or make a route fail.

- A "set bomb" (one byte per empty set) and every other way of building far more objects
  than the file's size are refused before anything is built; the pre-check's estimate bounds
  what CPython would really allocate (tracemalloc), and real snapshots stay well within it.
- A failed read keeps nothing it loaded alive, even while its exception is kept.
- FIFOs and devices named like snapshots are refused without blocking.
- A stack of 100,000 shared frames, huge shared texts and settings answer a bounded amount of
  JSON, saying how many frames were left out; too many devices or actions are refused.
- Tile windows at the ends of int64 answer 400 (never 500), times beyond +-2^62 ns are refused.
"""

from __future__ import annotations

import gc
import io
import json
import os
import pickle
import shutil
import struct
import tracemalloc
from pathlib import Path

import pytest

from tb_perf_plugin.analysis import memory_snapshot as M
from tb_perf_plugin.analysis import snapshot_tiles
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import snapshot as S
from tb_perf_plugin.ingest.safe_pickle import (
    PICKLE_BYTES_PER_BYTE,
    PICKLE_SLACK_BYTES,
    RestrictedUnpickler,
    check_pickle,
    pickle_budget,
)
from tb_perf_plugin.ingest.snapshot import read_snapshot
from tests.fuzz._fuzz import watchdog

LIMIT = 1 << 30
MB = 1 << 20
SNAPSHOTS = "memory_snapshots"
REAL = [
    f"{SNAPSHOTS}/MAGMA27__assignment2-systems/memory_snapshot.pickle",
    f"{SNAPSHOTS}/silmont2000__assignment2-systems/mem_snapshot.pickle",
    f"{SNAPSHOTS}/Yiyi-philosophy__LLM-inference/oom_snapshot.pickle",
    f"{SNAPSHOTS}/Charran78__DocuBox/dump_snapshot.pickle",
]
FILE = "hostile.pickle"


def set_bomb(sets: int) -> bytes:
    """The issue's bomb: a list of `sets` empty sets, one opcode byte each (216 B each)."""
    return b"\x80\x04](" + b"\x8f" * sets + b"e."


def _traced(call):
    """(result or exception, peak and final traced bytes above the start) of `call()`."""
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        try:
            result = call()
        except Exception as exc:  # noqa: BLE001 - the caller looks at it
            result = exc
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak - start, current - start


# --- pickle bombs -----------------------------------------------------------------------------


def test_the_set_bomb_is_refused_before_anything_is_built(tmp_path):
    """Regression: 12 MB of EMPTY_SET opcodes took the server from 346 MB to 2,985 MB for good.
    0.5 MB of them (108 MB of sets) is refused from the opcodes alone (in 15 ms), with the
    file's bytes as the only memory it takes."""
    path = tmp_path / "bomb.pickle"
    path.write_bytes(set_bomb(500_000))
    with watchdog(30):
        error, peak, _ = _traced(lambda: read_snapshot(str(path), LIMIT))
    assert isinstance(error, Unreadable), error
    assert "pickle bomb" in error.message and "nothing was built" in error.message
    assert error.message.startswith("bomb.pickle: refused: unpickling it would build more than")
    assert peak < 4 * MB  # the 0.5 MB file (read once), not 108 MB of sets


def test_the_budget_is_proportional_to_the_file_and_a_parameter(shared_data, tmp_path):
    magma = str(shared_data / REAL[0])
    size = os.path.getsize(magma)
    cap = pickle_budget(10**15)  # half the machine's memory
    assert pickle_budget(size) == min(PICKLE_BYTES_PER_BYTE * size + PICKLE_SLACK_BYTES, cap)
    read_snapshot(magma, LIMIT)  # within the default
    with pytest.raises(Unreadable, match=r"more than 1\.0 MB of objects .*pickle bomb"):
        read_snapshot(magma, LIMIT, max_object_bytes=1_000_000)
    # a small bomb passes the default budget's slack, and not a small explicit one
    path = tmp_path / "small.pickle"
    path.write_bytes(set_bomb(10_000))
    with pytest.raises(Unreadable, match="not a CUDA memory snapshot"):
        read_snapshot(str(path), LIMIT)
    with pytest.raises(Unreadable, match="pickle bomb"):
        read_snapshot(str(path), LIMIT, max_object_bytes=100_000)


def _get(i: int) -> bytes:
    return b"h" + bytes([i]) if i < 256 else b"j" + struct.pack("<I", i)


N = 20_000
_INTS = b"".join(b"M" + struct.pack("<H", 1000 + i) + b"\x94" for i in range(256))
_KEYS = b"".join(b"\x8c\x04k%03d\x94" % i for i in range(100))
SHAPES = {  # (most of) each a list of N of the same thing, as a bomb would be
    "empty sets": set_bomb(N),
    "empty lists": b"\x80\x04](" + b"]" * N + b"e.",
    "empty dicts": b"\x80\x04](" + b"}" * N + b"e.",
    "frozensets": b"\x80\x04](" + b"(\x91" * N + b"e.",
    "nested 1-tuples": b"\x80\x04]N" + b"\x85" * N + b"a.",
    "a deep stack": b"\x80\x04(" + b"N" * N + b"l.",
    "DUP into a list": b"\x80\x04](N" + b"2" * N + b"e.",
    "memoizing one list": b"\x80\x04]" + b"\x94" * N + b".",
    "nested marks": b"\x80\x04]" + b"(" * N + b"1" * N + b".",
    "sets of 256 shared ints": b"\x80\x04](" + _INTS
    + (b"\x8f(" + b"".join(_get(i) for i in range(256)) + b"\x90") * (N // 300) + b"e.",
    "dicts of 100 shared keys": b"\x80\x04](" + _KEYS
    + (b"}(" + b"".join(_get(i) + b"N" for i in range(100)) + b"u") * (N // 300) + b"e.",
    "distinct short strings": b"\x80\x04](" + b"".join(
        b"\x8c\x02" + bytes([65 + i % 50, 65 + i // 50 % 50]) for i in range(N // 4)) + b"e.",
    "a frozenset of ints": b"\x80\x04("
    + b"".join(b"M" + struct.pack("<H", 300 + i) for i in range(N // 3)) + b"\x91.",
    "one list shared": b"\x80\x04](](N" + b"2" * 1000 + b"e\x94(" + b"h\x00" * N + b"e\x94e.",
    "SETITEM one by one": b"\x80\x04}"
    + b"".join(b"M" + struct.pack("<H", i) + b"Ns" for i in range(N // 5)) + b".",
}  # fmt: skip


@pytest.mark.parametrize("shape", SHAPES)
def test_the_estimate_bounds_what_the_unpickler_builds(shape):
    """Whatever the opcodes, CPython allocates at most twice the pre-check's estimate (so a
    budget of 32 bytes per byte lets no file build more than 64 per byte); the set bomb's
    estimate is 240 per byte."""
    data = SHAPES[shape]
    estimate = check_pickle(data, 1 << 62)
    _, peak, _ = _traced(lambda: RestrictedUnpickler(io.BytesIO(data)).load())
    assert peak <= 2 * estimate + 64_000, (peak, estimate)


def test_real_snapshots_are_far_within_the_budget(shared_data):
    """The densest real snapshot (the legacy at-OOM dump: a small dict every 19 bytes)
    estimates at 16 bytes per byte, half the budget; estimates are within 0.7-1.5x of what
    CPython really allocates for them."""
    for relative in REAL:
        data = (shared_data / relative).read_bytes()
        estimate = check_pickle(data)
        _, peak, _ = _traced(lambda data=data: RestrictedUnpickler(io.BytesIO(data)).load())
        assert estimate <= PICKLE_BYTES_PER_BYTE * len(data) * 0.6, relative
        assert 0.7 * peak <= estimate <= 1.5 * peak + 64_000, (relative, peak, estimate)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x80\x04\x8e" + (1 << 40).to_bytes(8, "little") + b"x.", "truncated"),  # BINBYTES8
        (b"\x80\x04\x8d" + (1 << 62).to_bytes(8, "little") + b".", "truncated"),  # BINUNICODE8
        (b"\x80\x04\x96" + (1 << 33).to_bytes(8, "little") + b".", "truncated"),  # BYTEARRAY8
        (b"\x80\x04X\xff\xff\xff\x7f.", "truncated"),  # BINUNICODE of 2 GiB
    ],
    ids=["BINBYTES8", "BINUNICODE8", "BYTEARRAY8", "BINUNICODE"],
)
def test_a_declared_length_beyond_the_file_is_refused_before_it_is_allocated(
    tmp_path, data, message
):
    """The C unpickler allocates a counted argument's declared size before reading it."""
    path = tmp_path / "long.pickle"
    path.write_bytes(data)
    with watchdog(10):
        error, peak, _ = _traced(lambda: read_snapshot(str(path), LIMIT))
    assert isinstance(error, Unreadable) and message in error.message, error
    assert peak < MB


# --- a failed read keeps nothing ----------------------------------------------------------


class _Refused:
    def __reduce__(self):
        return (os.system, ("true",))


ROWS = 50_000


def _loads_then_fails(how: str) -> bytes:
    """A pickle that unpickles ROWS lists (objects the garbage collector tracks, so they can be
    counted), then fails the way `how` says."""
    rows = [[i, str(i)] for i in range(ROWS)]
    if how == "not a snapshot":  # segments that are lists: fails in tabulation
        return pickle.dumps({"segments": rows}, protocol=4)
    if how == "refused global":  # fails in the unpickler, its stack full of built objects
        return pickle.dumps({"segments": [rows, _Refused()]}, protocol=4)
    return pickle.dumps({"segments": rows}, protocol=2)[:-1]  # all but STOP: truncated


@pytest.mark.parametrize("how", ["not a snapshot", "refused global", "truncated"])
def test_a_failed_read_keeps_nothing_alive(tmp_path, how):
    """Regression: a failed load's exception kept its traceback, and the traceback the loaded
    data (450 MB freed by clearing it). The error raised holds no context and no frame that
    holds data: while it is kept, none of the 50,000 lists the read built is alive."""
    path = tmp_path / f"{how.replace(' ', '_')}.pickle"
    path.write_bytes(_loads_then_fails(how))
    gc.collect()
    before = len(gc.get_objects())
    with pytest.raises(Unreadable) as info:
        read_snapshot(str(path), LIMIT)
    error = info.value
    gc.collect()
    alive = len(gc.get_objects()) - before
    assert alive < ROWS // 10, f"{alive} objects kept alive by the error ({error.message})"
    assert error.__context__ is None and error.__cause__ is None
    expected = {"not a snapshot": "not a CUDA memory snapshot", "refused global": "refused",
                "truncated": "truncated"}[how]  # fmt: skip
    assert expected in error.message


@pytest.mark.parametrize("kind", ["fifo", "directory", "/dev/zero"])
def test_a_snapshot_that_is_no_regular_file_is_refused_without_blocking(tmp_path, kind):
    """Regression: a FIFO named like a snapshot left `memory` at 202 forever (a worker sat in
    open()); a link to /dev/zero would be read up to the size limit."""
    path = tmp_path / "rank0.snapshot.pickle"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to(kind)
    with watchdog(10), pytest.raises(Unreadable, match="not a regular file"):
        read_snapshot(str(path), LIMIT)


def test_a_vanished_file_is_unreadable(tmp_path):
    with pytest.raises(Unreadable, match="cannot be read"):
        read_snapshot(str(tmp_path / "gone.pickle"), LIMIT)


# --- bounded answers --------------------------------------------------------------------------


def _frame(filename: object = "/home/me/train.py", name: object = "step") -> dict:
    return {"filename": filename, "line": 12, "name": name}


def snapshot_with_stack(stack: list, allocations: int = 20, **extra) -> dict:
    """A 2.5+ snapshot whose allocations (half of them freed) all share the frames list
    `stack`, as torch shares one list per distinct stack."""
    trace = []
    for i in range(allocations):
        trace.append({"action": "alloc", "addr": 4096 * i, "size": MB, "stream": 0,
                      "time_us": 10 * i + 1, "frames": stack})  # fmt: skip
    for i in range(allocations // 2):
        for action, t in (("free_requested", 1000), ("free_completed", 2000)):
            trace.append({"action": action, "addr": 4096 * i, "size": MB, "stream": 0,
                          "time_us": t + i, "frames": stack})  # fmt: skip
    segment = {
        "device": 0,
        "address": 0,
        "total_size": 1 << 30,
        "allocated_size": 0,
        "active_size": 0,
        "requested_size": 0,
        "stream": 0,
        "segment_type": "large",
        "blocks": [{"address": 0, "size": 1 << 30, "state": "inactive", "frames": []}],
    }
    return {"segments": [segment], "device_traces": [trace], "allocator_settings": {},
            **extra}  # fmt: skip


def _logdir(tmp_path: Path, snapshot: object | bytes) -> Path:
    run = tmp_path / "logs" / "hostile"
    (run / "plugins" / "tb_perf").mkdir(parents=True)
    (run / "events.out.tfevents.1.h.1").write_bytes(b"")
    data = snapshot if isinstance(snapshot, bytes) else pickle.dumps(snapshot, protocol=4)
    (run / FILE).write_bytes(data)
    return tmp_path / "logs"


def _answer(client, route: str, **params) -> tuple[int, bytes]:
    response = client.get(route, run="hostile", file=FILE, **params)
    return response.status_code, response.get_data()


def test_a_long_shared_stack_answers_a_bounded_amount(tmp_path, make_client):
    """Regression: a 200 KB pickle whose 20 allocations share one 100,000-frame stack answered
    46 MB of JSON from `snapshot` (7.9 s of CPU) and 4.6 MB from `snapshot/allocation`."""
    stack = [_frame()] * 100_000
    logdir = _logdir(tmp_path, snapshot_with_stack(stack))
    assert (logdir / "hostile" / FILE).stat().st_size < 250_000
    client = make_client(logdir)
    with watchdog(60):
        status, body = _answer(client, "snapshot")
    assert status == 200 and len(body) < 2_000_000, len(body)
    (device,) = json.loads(body)["devices"]
    largest = device["largest_at_peak"]
    assert len(largest) == 10
    for allocation in largest:
        assert len(allocation["frames"]) == M.SUMMARY_FRAMES
        assert allocation["more_frames"] == 100_000 - M.SUMMARY_FRAMES
    assert largest[0]["frames"][0] == _frame()
    for index in range(20):
        status, body = _answer(client, "snapshot/allocation", device=0, index=index)
        assert status == 200 and len(body) < 1_000_000, len(body)
        details = json.loads(body)
        assert len(details["frames"]) == M.STACK_FRAMES
        assert details["more_frames"] == 100_000 - M.STACK_FRAMES
        freed = bool(details["free_frames"])
        assert details["more_free_frames"] == (100_000 - M.STACK_FRAMES if freed else 0)
    assert sum(1 for i in range(20) if json.loads(_answer(
        client, "snapshot/allocation", device=0, index=i)[1])["free_frames"]) == 10  # fmt: skip


def test_short_stacks_are_whole(tmp_path, make_client):
    stack = [_frame(name=f"f{i}") for i in range(5)]
    client = make_client(_logdir(tmp_path, snapshot_with_stack(stack)))
    (device,) = client.json("snapshot", run="hostile", file=FILE)["devices"]
    assert all(a["more_frames"] == 0 and len(a["frames"]) == 5 for a in device["largest_at_peak"])
    details = client.json("snapshot/allocation", run="hostile", file=FILE, device=0, index=0)
    assert [f["name"] for f in details["frames"]] == [f"f{i}" for i in range(5)]
    assert details["more_frames"] == 0 and details["more_free_frames"] == 0


@pytest.mark.parametrize(
    "case",
    ["long texts", "a file name that is a long list", "escaped texts", "many settings"],
)
def test_huge_shared_values_answer_a_bounded_amount(tmp_path, make_client, case):
    """One value shared by every frame (or the settings) costs its size once in the file but
    would be repeated in every answer: texts are cut when read, non-text values shown short,
    and every list of an answer fits its byte budget."""
    if case == "long texts":
        frame = _frame("/" + "d" * 2_000_000 + ".py", "n" * 2_000_000)
    elif case == "a file name that is a long list":  # str() of it: 100,000 x 1,000 characters
        frame = _frame(["x" * 1000] * 100_000)
    elif case == "escaped texts":  # each character 6 bytes of JSON
        frame = _frame("\x01" * 5000 + ".py", "\x02" * 5000)
    else:
        frame = _frame()
    stack = [frame] * 1000
    snapshot = snapshot_with_stack(stack, allocations=60)
    if case == "many settings":
        snapshot["allocator_settings"] = {f"k{i}": ["v" * 1000] * 1000 for i in range(1000)}
    client = make_client(_logdir(tmp_path, snapshot))
    with watchdog(60):
        status, body = _answer(client, "snapshot")
        assert status == 200 and len(body) < 2_000_000, len(body)
        for index in (0, 59):
            status, body = _answer(client, "snapshot/allocation", device=0, index=index)
            assert status == 200 and len(body) < 1_000_000, len(body)
        status, body = _answer(client, "snapshot/tile", device=0, start=0, end=3000, width_px=800)
        assert status == 200 and len(body) <= snapshot_tiles.TILE_BYTES
    details = json.loads(_answer(client, "snapshot/allocation", device=0, index=0)[1])
    if case != "many settings":
        filename = details["frames"][0]["filename"]
        assert len(filename) <= S.MAX_TEXT_CHARS and filename.endswith("…")
        assert details["more_frames"] > 0  # 100 KB of JSON per stack at most
    findings = client.json("findings", run="hostile")["findings"]
    assert len(json.dumps(findings)) < 1_000_000


@pytest.mark.parametrize(
    "case, message",
    [
        ("many devices", "devices"),
        ("a far device", "device index"),
        ("many actions", "distinct trace actions"),
        ("a long action", "characters"),
        ("many segment types", "distinct segment types"),
        ("a time beyond int64 in ns", "time_us"),
    ],
)
def test_snapshots_beyond_the_limits_are_refused(tmp_path, make_client, case, message):
    """Each would make the `snapshot` answer (or its computation) grow with shared references
    at no cost in the file: 100,000 empty device lists are 200 KB of memo references."""
    snapshot = snapshot_with_stack([_frame()])
    trace = snapshot["device_traces"][0]
    if case == "many devices":
        snapshot["device_traces"] = [[]] * 100_000
    elif case == "a far device":
        snapshot["segments"][0]["device"] = 10**9
    elif case == "many actions":
        trace.extend({**trace[0], "action": f"act{i}"} for i in range(100_000))
    elif case == "a long action":
        trace[0]["action"] = "a" * 1_000_000
    elif case == "many segment types":
        segment = snapshot["segments"][0]
        snapshot["segments"] = [{**segment, "segment_type": f"t{i}"} for i in range(10_000)]
    else:
        trace[0]["time_us"] = (2**63 - 1) // 1000
    client = make_client(_logdir(tmp_path, snapshot))
    with watchdog(60):
        status, body = _answer(client, "snapshot")
    assert status == 404, body[:300]
    error = json.loads(body)["error"]
    assert error["code"] == "unreadable" and message in error["message"], error
    assert len(body) < 1000


# --- integer parameters -----------------------------------------------------------------------

INT64_MAX, INT64_MIN = 2**63 - 1, -(2**63)


@pytest.mark.parametrize(
    "start, end, width_px",
    [
        (0, INT64_MAX, 8192),  # the request
        (INT64_MIN, INT64_MAX, 8192),
        (INT64_MIN, 0, 1),
        (0, INT64_MAX, 1),
        (INT64_MAX - 1, INT64_MAX, 8192),
        (INT64_MIN, INT64_MIN + 1, 8192),
        (-(10**19) + 1, 10**19 - 1, 8192),
        (0, 2**62, 8192),
        (-(2**61), 2**61, 8192),
        (0, 3000, 8192),
        (2**61, 2**61 + 8192, 8192),
    ],
)
def test_tile_windows_at_the_ends_of_int64_never_overflow(tmp_path, make_client, start, end,
                                                          width_px):  # fmt: skip
    """Regression: `start=0&end=9223372036854775807&width_px=8192` answered 500 (int64
    overflow in `_edges`). Every window answers a tile of `width_px` pixels or 400."""
    client = make_client(_logdir(tmp_path, snapshot_with_stack([_frame()])))
    with watchdog(60):
        status, body = _answer(client, "snapshot/tile", device=0, start=start, end=end,
                               width_px=width_px)  # fmt: skip
    answer = json.loads(body)
    assert status in (200, 400), body[:300]
    if status == 400:
        assert answer["error"]["code"] == "invalid_argument"
    else:
        assert len(answer["pixels"]["total_max"]) == width_px
        assert len(body) <= snapshot_tiles.TILE_BYTES
        assert (answer["start"], answer["end"]) == (start, end)
        assert all(start <= t for t in answer["bands"]["start"])
        assert all(t <= end for t in answer["bands"]["end"])


@pytest.mark.parametrize("index", [str(2**63 - 1), str(-(2**63)), "99999999999999999999", "-0"])
def test_allocation_indices_at_the_ends_of_int64(tmp_path, make_client, index):
    client = make_client(_logdir(tmp_path, snapshot_with_stack([_frame()])))
    status, body = _answer(client, "snapshot/allocation", device=0, index=index)
    assert status in (200, 400), body[:300]


def test_real_snapshot_route_answers_stay_as_they_were(shared_data, tmp_path, make_client):
    """The bounds leave a real snapshot's answers whole: every stack of MAGMA27's 10 largest
    allocations has fewer than 16 frames, and its lists fit the budget."""
    logdir = tmp_path / "logs"
    run = logdir / "hostile"
    (run / "plugins" / "tb_perf").mkdir(parents=True)
    (run / "events.out.tfevents.1.h.1").write_bytes(b"")
    shutil.copyfile(shared_data / REAL[0], run / FILE)
    client = make_client(logdir)
    body = client.json("snapshot", run="hostile", file=FILE)
    (device,) = body["devices"]
    assert len(device["largest_at_peak"]) == 10 and len(device["by_first_user_frame"]) == 28
    assert all(a["more_frames"] == 0 for a in device["largest_at_peak"])
    with open(shared_data / REAL[0], "rb") as handle:
        raw = RestrictedUnpickler(handle).load()
    deepest = max(len(e.get("frames") or []) for e in raw["device_traces"][0])
    assert deepest < M.STACK_FRAMES
