"""cProfile / pstats files (`cProfile.Profile.dump_stats`, `python -m cProfile -o`, Lightning's
AdvancedProfiler `.prof` files) to a function table.

These files are `marshal` data, which is not safe to load from an untrusted source: it is read
only in a child interpreter (`_pstats_child.py`, standard library only, no site packages) with
its address space and CPU time limited and a wall-clock timeout; the child reads the marshal
format itself, checking the pstats shape value by value (no `marshal.loads`: its dictionaries
of colliding keys cost quadratic time), and answers with plain JSON rows. This process never
unmarshals anything.

The file is opened once, by `files.open_input` (regular files only, the size checked on the
descriptor, never blocking) and the child reads that descriptor, never the path. A refusal
that took the child's work (a parse error, a timeout, a memory or CPU limit) is remembered by
the SHA-256 of the file's bytes, in this process and in the cache directory
(`cache_dir.default_cache_dir()/pstats-refused`): a copy, a rename or a touched version of the
same bytes is refused at once, without a child, instead of spending the budget again.

Public API: `read_python_profile(path, max_bytes) -> PythonProfile`; `is_python_profile_name`;
`DEFAULT_TIMEOUT_S` (`TB_PERF_PSTATS_TIMEOUT_S` overrides it); `forget_refusals`.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from ..errors import Unreadable
from .cache_dir import default_cache_dir
from .files import Head, Verdict, human_bytes, open_input

if TYPE_CHECKING:
    import pandas as pd

PROFILE_SUFFIXES = (".prof", ".pstats", ".cprofile")
# The budget of one file's child: its CPU time (RLIMIT_CPU, rounded up to whole seconds) and
# its wall-clock time. A valid profile takes about 0.2 s of CPU per MB of file (32 MB, 200,000
# functions: 6.7 s) after 0.05 s to start, so the default covers profiles of some 500 MB.
DEFAULT_TIMEOUT_S = 120.0
TIMEOUT_ENV = "TB_PERF_PSTATS_TIMEOUT_S"
REMEMBERED_IN_MEMORY = 1024  # refusals kept in this process, least recently used dropped
REMEMBERED_ON_DISK = 4096  # entries in the cache directory's pstats-refused/, oldest dropped
BASE_MEMORY_BYTES = 512 << 20  # the child interpreter and its JSON answer...
MEMORY_PER_FILE_BYTE = 32  # ...plus the objects read (the file, its keys and entries)
_CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_pstats_child.py")
COLUMNS = (
    "function", "filename", "line", "name", "calls", "primitive_calls", "self_ns",
    "cumulative_ns",
)  # fmt: skip


@dataclass
class PythonProfile:
    """One profile's functions (one row per function, the file's order) and its totals, which
    equal `pstats.Stats(path)`'s `total_tt` (in ns), `total_calls` and `prim_calls`.

    `function` is the function as pstats prints it (`file:line(name)`, `{built-in ...}`);
    `calls` counts every call, `primitive_calls` those that were not recursive; `self_ns` is
    time in the function itself, `cumulative_ns` including what it called."""

    functions: pd.DataFrame
    total_ns: int
    calls: int
    primitive_calls: int


# marshal: a dict (`{`, with or without FLAG_REF 0x80) whose first key is a tuple (`(` or the
# small-tuple `)`, either with FLAG_REF) or that is empty (TYPE_NULL `0` ends it)
_MARSHAL_DICT = (0x7B, 0xFB)
_MARSHAL_FIRST_KEY = (0x28, 0x29, 0xA8, 0xA9, 0x30)


def sniff(head: Head) -> Verdict | None:
    """cProfile / pstats statistics: a marshal'd dict keyed by (file, line, function)."""
    data = head.data
    if data[0] in _MARSHAL_DICT and len(data) > 1 and data[1] in _MARSHAL_FIRST_KEY:
        return Verdict(True, "marshal'd cProfile statistics")
    return None


def is_python_profile_name(name: str) -> bool:
    return name.lower().endswith(PROFILE_SUFFIXES)


def function_label(filename: str, line: int, name: str) -> str:
    """pstats' `func_std_string`: how `print_stats` names a function."""
    if filename == "~" and line == 0:
        return f"{{{name[1:-1]}}}" if name.startswith("<") and name.endswith(">") else name
    return f"{filename}:{line}({name})"


def default_timeout_s() -> float:
    """The child's budget: `TB_PERF_PSTATS_TIMEOUT_S` when set (a number of seconds > 0), else
    DEFAULT_TIMEOUT_S."""
    try:
        value = float(os.environ.get(TIMEOUT_ENV, ""))
    except ValueError:
        return DEFAULT_TIMEOUT_S
    return value if math.isfinite(value) and value > 0 else DEFAULT_TIMEOUT_S


class _Refused(Exception):
    """The child's verdict on the bytes it read: `reason` (without the file's name), and the
    SHA-256 of those bytes where the child reported it (the verdict may then be remembered)."""

    def __init__(self, reason: str, digest: str | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.digest = digest


def read_python_profile(
    path: str,
    max_bytes: int,
    *,
    timeout_s: float | None = None,
    memory_bytes: int | None = None,
    refusals_dir: str | os.PathLike | None = None,
) -> PythonProfile:
    """Parse one cProfile/pstats file in a limited child process. `max_bytes` bounds the file,
    `memory_bytes` the child's address space (default: 512 MiB + 32 bytes per file byte),
    `timeout_s` its CPU time (rounded up to whole seconds) and its wall-clock time (default
    `default_timeout_s()`). Raises `errors.Unreadable` naming the problem.

    A refusal the child gave is remembered by the bytes' SHA-256 (with the limits it was given)
    in this process and in `refusals_dir` (default: `pstats-refused` in the cache directory;
    best effort: an unwritable one is only not used), and the same bytes under any name are
    then refused without a child."""
    name = os.path.basename(path)
    timeout_s = default_timeout_s() if timeout_s is None else timeout_s
    try:
        with open_input(path, max_bytes, "Python profile") as handle:
            size = os.fstat(handle.fileno()).st_size
            memory = memory_bytes or BASE_MEMORY_BYTES + MEMORY_PER_FILE_BYTE * size
            digest = _digest(handle, max_bytes)
            handle.seek(0)
            key = _refusal_key(digest, max_bytes, memory, timeout_s)
            remembered = _REFUSALS.get(key, refusals_dir)
            if remembered is not None:
                raise Unreadable(
                    f"{name}: {remembered} (the same bytes were refused before; not parsed again)"
                )
            try:
                answer = _run_child(handle, max_bytes, memory, timeout_s)
            except _Refused as refused:
                if refused.digest == digest:  # the verdict is on the bytes hashed here
                    _REFUSALS.put(key, refused.reason, refusals_dir)
                raise Unreadable(f"{name}: {refused.reason}") from None
    except OSError as exc:
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    return _profile(answer)


def _digest(handle: BinaryIO, max_bytes: int) -> str:
    """SHA-256 of the file's bytes (in 1 MiB pieces; no more than `max_bytes` + 1 read)."""
    hashed = hashlib.sha256()
    left = max_bytes + 1
    while left > 0 and (chunk := handle.read(min(1 << 20, left))):
        hashed.update(chunk)
        left -= len(chunk)
    return hashed.hexdigest()


def _run_child(handle: BinaryIO, max_bytes: int, memory: int, timeout_s: float) -> dict:
    """The child's answer for the file open as `handle` (its descriptor is the child's stdin),
    or `_Refused` for every way it can fail. A failure that says nothing about the bytes
    carries no digest, so it is not remembered: the interpreter failing to start, a SIGKILL
    (the OOM killer picks by size, not by file), a file that grew past the limit."""
    cpu_s = max(1, math.ceil(timeout_s))
    command = [sys.executable, "-I", "-S", _CHILD, str(max_bytes), str(memory), str(cpu_s)]
    try:
        done = subprocess.run(command, stdin=handle, capture_output=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as exc:
        raise _Refused(
            f"parsing took longer than {timeout_s:g} s; stopped", _child_digest(exc.stdout)[0]
        ) from None
    digest, stdout = _child_digest(done.stdout)
    if done.returncode < 0:
        signame = signal.Signals(-done.returncode).name
        why = {"SIGXCPU": "its CPU time limit", "SIGKILL": "a kill (out of memory?)"}
        raise _Refused(
            f"the parser process was stopped by {signame}"
            + (f" ({why[signame]})" if signame in why else ""),
            None if signame == "SIGKILL" else digest,  # the OOM killer's choice: not the bytes'
        )
    if done.returncode != 0:  # the interpreter itself failed (no memory to start, ...)
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise _Refused(f"the parser process failed ({detail[0][:200]})", None)  # not kept
    try:
        answer = json.loads(stdout)
    except ValueError:
        raise _Refused("the parser process answered no result", digest) from None
    error = answer.get("error")
    if error == "too_big":  # it grew since it was measured
        raise _Refused(f"over the {human_bytes(max_bytes)} limit for one profile", None)
    if error == "memory":
        raise _Refused(
            f"parsing needed more than {human_bytes(memory)} of memory (a corrupt or hostile "
            "file?); stopped",
            digest,
        )
    if error is not None:
        raise _Refused(f"not a cProfile/pstats file ({error})", digest)
    return answer


def _child_digest(stdout: bytes | None) -> tuple[str | None, bytes]:
    """The digest line the child writes first, and the rest of its output."""
    head, _, rest = (stdout or b"").partition(b"\n")
    if head.startswith(b"sha256:") and len(head) == 71:
        return head[7:].decode("ascii", "replace"), rest
    return None, stdout or b""


def _refusal_key(digest: str, max_bytes: int, memory: int, timeout_s: float) -> str:
    """The bytes and the limits the verdict was reached under: a larger budget parses again."""
    identity = f"{digest}\0{max_bytes}\0{memory}\0{float(timeout_s)!r}\0{_CHILD_VERSION}"
    return hashlib.sha256(identity.encode()).hexdigest()


def _child_version() -> str:
    """The child's own source, hashed: a changed parser does not trust its predecessor's
    verdicts."""
    try:
        with open(_CHILD, "rb") as source:
            return hashlib.sha256(source.read()).hexdigest()[:16]
    except OSError:
        return "unknown"


_CHILD_VERSION = _child_version()


class _RefusalMemory:
    """Refusals by `_refusal_key`: the last REMEMBERED_IN_MEMORY in this process, and files of
    one line each (the reason) in a directory shared by every process using the cache
    directory. Entries only say "refused, and why": a stale or lost one costs one more parse."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, str] = OrderedDict()
        self.children_spared = 0  # refusals answered from here (tests and benchmarks read it)

    def get(self, key: str, folder: str | os.PathLike | None) -> str | None:
        with self._lock:
            reason = self._recent.get(key)
            if reason is not None:
                self._recent.move_to_end(key)
        if reason is None:
            reason = self._read(key, folder)
            if reason is not None:
                self._remember(key, reason)
        if reason is not None:
            with self._lock:
                self.children_spared += 1
        return reason

    def put(self, key: str, reason: str, folder: str | os.PathLike | None) -> None:
        self._remember(key, reason)
        self._write(key, reason, folder)

    def forget(self) -> None:
        with self._lock:
            self._recent.clear()

    def _remember(self, key: str, reason: str) -> None:
        with self._lock:
            self._recent[key] = reason
            self._recent.move_to_end(key)
            while len(self._recent) > REMEMBERED_IN_MEMORY:
                self._recent.popitem(last=False)

    @staticmethod
    def _folder(folder: str | os.PathLike | None) -> Path:
        if folder is not None:
            return Path(folder)
        return default_cache_dir() / "pstats-refused"

    def _read(self, key: str, folder: str | os.PathLike | None) -> str | None:
        try:
            with open(self._folder(folder) / key, "rb") as entry:
                text = entry.read(4096).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        return text.strip() or None

    def _write(self, key: str, reason: str, folder: str | os.PathLike | None) -> None:
        try:
            root = self._folder(folder)
            root.mkdir(parents=True, exist_ok=True)
            fd, staging = tempfile.mkstemp(prefix=".", dir=root)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(reason[:4000] + "\n")
                os.replace(staging, root / key)
            except BaseException:
                os.unlink(staging)
                raise
            entries = [e for e in os.scandir(root) if not e.name.startswith(".")]
            if len(entries) > REMEMBERED_ON_DISK:
                entries.sort(key=lambda e: e.stat().st_mtime_ns)
                for old in entries[: len(entries) - REMEMBERED_ON_DISK]:
                    os.unlink(old.path)
        except OSError:
            pass  # remembered in this process only


_REFUSALS = _RefusalMemory()


def forget_refusals() -> None:
    """Forget the refusals remembered in this process (not those in the cache directory)."""
    _REFUSALS.forget()


def _profile(answer: dict) -> PythonProfile:
    rows = answer["rows"]
    filenames = [r[0] for r in rows]
    lines = [r[1] for r in rows]
    names = [r[2] for r in rows]
    import pandas as pd  # here: sniffing (every file of a run) needs no pandas

    functions = pd.DataFrame(
        {
            "function": [function_label(*key) for key in zip(filenames, lines, names, strict=True)],
            "filename": filenames,
            "line": np.array(lines, dtype=np.int64),
            "name": names,
            "calls": np.array([r[4] for r in rows], dtype=np.int64),
            "primitive_calls": np.array([r[3] for r in rows], dtype=np.int64),
            "self_ns": np.array([r[5] for r in rows], dtype=np.int64),
            "cumulative_ns": np.array([r[6] for r in rows], dtype=np.int64),
        },
        columns=list(COLUMNS),
    )
    return PythonProfile(
        functions, int(answer["total_ns"]), int(answer["calls"]), int(answer["primitive_calls"])
    )
