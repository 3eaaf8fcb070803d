"""The pstats reader against a hostile logdir (issue 16, item 9 and the open-one-way rule):
files whose keys collide in the hash table are refused at their first key instead of taking
the child's whole CPU budget; a refusal is remembered by the bytes' SHA-256, so a copy, a rename
or a touched version of the same file is refused without starting a child again; the budget is
a parameter (and `TB_PERF_PSTATS_TIMEOUT_S`); the file is opened once, through
`files.open_input` (FIFOs and devices refused without blocking), and the child reads that
descriptor. Small files and small budgets throughout."""

from __future__ import annotations

import cProfile
import marshal
import os
import pstats
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import python_profile
from tb_perf_plugin.ingest.python_profile import read_python_profile
from tests.fuzz._fuzz import watchdog

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")

LIMIT = 64 << 20
BUDGET_S = 2.0  # the child's CPU and wall-clock budget in these tests
P61 = 2**61 - 1  # hash(k * P61) == 0 for every int k, in every process: no seed randomises it
KEYS = 60_000  # 1 to 4 MB of keys; marshal.loads needed about 30 s of CPU or more for them


def _pairs(keys: list[bytes], value: bytes) -> bytes:
    """A marshal dict of `keys` (marshalled) each mapped to `value`, assembled by hand: building
    the dict here would cost this process the same quadratic time."""
    return b"{" + b"".join(key + value for key in keys) + b"0"


def _colliding_file(kind: str) -> bytes:
    ks = [k * P61 for k in range(1, KEYS + 1)]
    entry = marshal.dumps((1, 1, 0.5, 0.5, {}))
    valid_key = marshal.dumps(("train.py", 10, "step"))
    entry_head = b")\x05" + marshal.dumps(1) * 2 + marshal.dumps(0.5) * 2  # callers slot next
    if kind == "int keys":
        return _pairs([marshal.dumps(k) for k in ks], marshal.dumps(None))
    if kind == "tuple-of-int keys":
        return _pairs([marshal.dumps((k, 0, 0)) for k in ks], entry)
    if kind == "pstats keys with colliding lines":
        # (file, line, name) exactly, the strings' hashes randomised, the lines all hashing 0
        return _pairs([marshal.dumps(("train.py", k, "step")) for k in ks], entry)
    if kind == "callers keyed by colliding tuples":
        callers = _pairs([marshal.dumps((k, 0, 0)) for k in ks], marshal.dumps(1))
        return b"{" + valid_key + entry_head + callers + b"0"
    assert kind == "a frozenset of colliding ints as callers"
    members = b"".join(marshal.dumps(k) for k in ks)
    return b"{" + valid_key + entry_head + b">" + KEYS.to_bytes(4, "little") + members + b"0"


@pytest.mark.parametrize(
    "kind",
    [
        "int keys",
        "tuple-of-int keys",
        "pstats keys with colliding lines",
        "callers keyed by colliding tuples",
        "a frozenset of colliding ints as callers",
    ],
)
def test_colliding_keys_are_refused_at_their_first_key(kind, tmp_path):
    """Regression: the child gave the file to marshal.loads, which built the dict (or set) of
    60,000 equal-hashing keys before anything was checked: quadratic, 30 s of CPU or more, and
    a 2.8 MB file spent the whole default budget (120 s). Now the shape is checked as it is
    read and the refusal names the key; the budget is never reached."""
    path = tmp_path / "hostile.prof"
    path.write_bytes(_colliding_file(kind))
    assert path.stat().st_size < 4 << 20
    with pytest.raises(Unreadable) as caught:
        read_python_profile(str(path), LIMIT, timeout_s=BUDGET_S, refusals_dir=tmp_path / "r")
    message = caught.value.message
    assert "hostile.prof: not a cProfile/pstats file" in message, message
    assert "SIGXCPU" not in message and "longer than" not in message, message


@pytest.fixture
def child_starts(monkeypatch) -> list[str]:
    """Every child the reader starts, by the path it was asked to read."""
    started: list[str] = []
    run_child = python_profile._run_child

    def counting(handle, *args, **kwargs):
        started.append(handle.name if isinstance(handle.name, str) else str(handle.name))
        return run_child(handle, *args, **kwargs)

    monkeypatch.setattr(python_profile, "_run_child", counting)
    python_profile.forget_refusals()
    yield started
    python_profile.forget_refusals()


def _refused(path: Path, refusals: Path, **limits) -> str:
    limits.setdefault("timeout_s", BUDGET_S)
    with pytest.raises(Unreadable) as caught:
        read_python_profile(str(path), LIMIT, refusals_dir=refusals, **limits)
    return caught.value.message


def test_a_refusal_is_remembered_by_content_not_by_name(child_starts, tmp_path):
    """The same bytes under a new name, a new mtime or in a new place are refused at once,
    from this process's memory and, once that is forgotten (another pool worker, a recycled
    one), from the cache directory; other bytes or other limits are parsed again."""
    refusals = tmp_path / "refusals"
    spared = python_profile._REFUSALS.children_spared
    first = tmp_path / "run" / "rank0.prof"
    first.parent.mkdir()
    first.write_bytes(_colliding_file("pstats keys with colliding lines"))
    reason = _refused(first, refusals)
    assert len(child_starts) == 1 and "rank0.prof: not a cProfile/pstats file" in reason

    copy = tmp_path / "run" / "rank1.prof"
    shutil.copy(first, copy)
    os.utime(copy, ns=(10**18, 10**18))  # a new version as far as mtime goes
    again = _refused(copy, refusals)
    assert len(child_starts) == 1, "the copy started a child"
    assert again.startswith("rank1.prof: not a cProfile/pstats file") and "refused before" in again

    moved = tmp_path / "elsewhere.prof"
    os.rename(first, moved)
    python_profile.forget_refusals()  # what a fresh worker process knows: the folder only
    assert "refused before" in _refused(moved, refusals)
    assert len(child_starts) == 1

    assert "refused before" not in _refused(moved, refusals, timeout_s=BUDGET_S + 1)
    assert len(child_starts) == 2, "a larger budget is a new verdict"
    changed = tmp_path / "changed.prof"
    changed.write_bytes(moved.read_bytes() + b"\x00")
    assert "refused before" not in _refused(changed, refusals)
    assert len(child_starts) == 3
    assert python_profile._REFUSALS.children_spared - spared == 2  # the copy, the moved file
    assert all(f.stat().st_size < 4096 for f in refusals.iterdir())


_SPINNING_CHILD = textwrap.dedent(
    """
    import hashlib, sys
    data = sys.stdin.buffer.read()
    sys.stdout.write("sha256:" + hashlib.sha256(data).hexdigest() + "\\n")
    sys.stdout.flush()
    sys.path.insert(0, {child_dir!r})
    import _pstats_child
    _pstats_child._limit(1 << 30, int(sys.argv[3]))
    while True:  # a parse that spends the whole budget
        pass
    """
)


@pytest.fixture
def spinning_child(tmp_path, monkeypatch) -> None:
    """A child that reports the digest as the real one does and then never finishes: what a
    file that defeats the parser would cost."""
    script = tmp_path / "spinning_child.py"
    child_dir = os.path.dirname(python_profile._CHILD)
    script.write_text(_SPINNING_CHILD.format(child_dir=child_dir))
    monkeypatch.setattr(python_profile, "_CHILD", str(script))


def test_a_spent_budget_is_remembered_for_every_new_version(spinning_child, child_starts, tmp_path):
    """Regression: the budget was spent again for each new version of the file. The first
    read stops at the budget; a touched copy is refused without a child."""
    refusals = tmp_path / "refusals"
    path = tmp_path / "slow.prof"
    path.write_bytes(marshal.dumps({("a.py", 1, "f"): (1, 1, 0.1, 0.1, {})}))
    first = _refused(path, refusals)
    assert "longer than 2 s" in first or "SIGXCPU" in first, first
    copy = tmp_path / "slow-again.prof"
    shutil.copy(path, copy)
    with watchdog(BUDGET_S / 2):  # not a test of speed: a second child would need the budget
        again = _refused(copy, refusals)
    assert len(child_starts) == 1
    assert "slow-again.prof" in again and "refused before" in again


def test_the_budget_comes_from_the_environment(spinning_child, child_starts, monkeypatch, tmp_path):
    monkeypatch.setenv(python_profile.TIMEOUT_ENV, "1")
    assert python_profile.default_timeout_s() == 1.0
    path = tmp_path / "slow.prof"
    path.write_bytes(b"{0")
    with pytest.raises(Unreadable, match=r"longer than 1 s|SIGXCPU"):
        read_python_profile(str(path), LIMIT, refusals_dir=tmp_path / "r")
    for bad in ("", "zero", "-3", "nan", "inf"):
        monkeypatch.setenv(python_profile.TIMEOUT_ENV, bad)
        assert python_profile.default_timeout_s() == python_profile.DEFAULT_TIMEOUT_S


def test_a_file_changed_while_it_is_read_is_not_remembered(child_starts, monkeypatch, tmp_path):
    """The parent hashes the bytes, the child hashes what it read: a refusal is remembered
    only under a digest both saw, so a file rewritten in between cannot get other bytes (here
    a valid profile's) remembered as refused."""
    profiler = cProfile.Profile()
    profiler.runcall(sorted, range(100))
    good = tmp_path / "good.prof"
    profiler.dump_stats(good)
    path = tmp_path / "swapped.prof"
    shutil.copy(good, path)
    run_child = python_profile._run_child

    def rewrite_then_run(handle, *args):
        with open(path, "r+b") as same_file:  # the same inode, new bytes
            same_file.write(b"[" + b"\x00" * (path.stat().st_size - 1))
        return run_child(handle, *args)

    monkeypatch.setattr(python_profile, "_run_child", rewrite_then_run)
    _refused(path, tmp_path / "refusals")
    monkeypatch.setattr(python_profile, "_run_child", run_child)
    profile = read_python_profile(str(good), LIMIT, refusals_dir=tmp_path / "refusals")
    assert profile.calls == pstats.Stats(str(good)).total_calls


def test_the_child_reads_the_descriptor_that_was_checked(monkeypatch, tmp_path):
    """A file replaced by another after it was opened: the child reads what was opened
    (the descriptor is its stdin), never the path again."""
    profiler = cProfile.Profile()
    profiler.runcall(sorted, range(100))
    path = tmp_path / "rank0.prof"
    profiler.dump_stats(path)
    other = tmp_path / "other.prof"
    other.write_bytes(b"[" + b"\x00" * 64)
    run_child = python_profile._run_child

    def swap_then_run(handle, *args):
        os.replace(other, path)
        return run_child(handle, *args)

    monkeypatch.setattr(python_profile, "_run_child", swap_then_run)
    profile = read_python_profile(str(path), LIMIT, refusals_dir=tmp_path / "r")
    assert profile.calls > 0 and profile.functions["name"].str.contains("sorted").any()


def test_a_fifo_named_like_a_profile_is_refused_without_blocking(tmp_path):
    """Regression: `open()` on a FIFO with no writer blocked the pool worker forever."""
    path = tmp_path / "rank0.prof"
    os.mkfifo(path)
    with watchdog(10), pytest.raises(Unreadable, match=r"rank0.prof: a FIFO, not a regular file"):
        read_python_profile(str(path), LIMIT)


def test_a_device_named_like_a_profile_is_refused(tmp_path):
    """Regression: a link to /dev/zero (size 0 by fstat) was streamed into the child until its
    memory limit stopped it."""
    path = tmp_path / "rank0.prof"
    path.symlink_to("/dev/zero")
    with watchdog(10), pytest.raises(Unreadable, match=r"rank0.prof: a character device"):
        read_python_profile(str(path), 4 << 30)


def test_a_valid_shaped_profile_past_the_memory_limit_is_stopped(tmp_path):
    """The address-space limit still holds for what the reader keeps (a 24 MB function name
    against a 48 MB limit), without taking this process's memory."""
    path = tmp_path / "big.prof"
    path.write_bytes(marshal.dumps({("a.py", 1, "f" * (24 << 20)): (1, 1, 0.1, 0.1, {})}))
    with pytest.raises(Unreadable, match=r"big.prof: parsing needed more than 50.3 MB of memory"):
        read_python_profile(str(path), LIMIT, memory_bytes=48 << 20, refusals_dir=tmp_path / "r")


@pytest.mark.parametrize("version", range(5))
def test_every_marshal_version_reads_as_pstats_does(version, tmp_path):
    """The child reads marshal itself: versions 0 to 4 (text and binary floats, references,
    short strings and tuples) give pstats' own totals."""
    profiler = cProfile.Profile()
    profiler.runcall(sorted, [str(i) for i in range(500)], key=len)
    profiler.create_stats()
    path = tmp_path / f"v{version}.prof"
    path.write_bytes(marshal.dumps(profiler.stats, version))
    profile = read_python_profile(str(path), LIMIT)
    stats = pstats.Stats(str(path))
    assert (profile.calls, profile.primitive_calls) == (stats.total_calls, stats.prim_calls)
    assert profile.total_ns == round(stats.total_tt * 1e9)
    assert len(profile.functions) == len(stats.stats)
