"""cProfile / pstats files (`cProfile.Profile.dump_stats`, `python -m cProfile -o`, Lightning's
AdvancedProfiler `.prof` files) to a function table.

These files are `marshal` data, which is not safe to load from an untrusted source: it is
unmarshalled only in a child interpreter (`_pstats_child.py`, standard library only, no site
packages) with its address space and CPU time limited and a wall-clock timeout; the child checks
the structure and answers with plain JSON rows. This process never unmarshals anything.

Public API: `read_python_profile(path, max_bytes) -> PythonProfile`; `is_python_profile_name`.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import pandas as pd

from ..errors import Unreadable
from .files import check_size, human_bytes

PROFILE_SUFFIXES = (".prof", ".pstats", ".cprofile")
DEFAULT_TIMEOUT_S = 120.0
BASE_MEMORY_BYTES = 512 << 20  # the child interpreter and its JSON answer...
MEMORY_PER_FILE_BYTE = 32  # ...plus the unmarshalled objects (about 10x the file here)
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


def is_python_profile_name(name: str) -> bool:
    return name.lower().endswith(PROFILE_SUFFIXES)


def function_label(filename: str, line: int, name: str) -> str:
    """pstats' `func_std_string`: how `print_stats` names a function."""
    if filename == "~" and line == 0:
        return f"{{{name[1:-1]}}}" if name.startswith("<") and name.endswith(">") else name
    return f"{filename}:{line}({name})"


def read_python_profile(
    path: str,
    max_bytes: int,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_bytes: int | None = None,
) -> PythonProfile:
    """Parse one cProfile/pstats file in a limited child process. `max_bytes` bounds the file,
    `memory_bytes` the child's address space (default: 512 MiB + 32 bytes per file byte),
    `timeout_s` its wall-clock and CPU time. Raises `errors.Unreadable` naming the problem."""
    name = os.path.basename(path)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            check_size(name, size, max_bytes, "Python profile")
            memory = memory_bytes or BASE_MEMORY_BYTES + MEMORY_PER_FILE_BYTE * size
            answer = _run_child(handle, name, max_bytes, memory, timeout_s)
    except OSError as exc:
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    error = answer.get("error")
    if error == "too_big":  # it grew since it was measured
        raise Unreadable(f"{name} is over the {human_bytes(max_bytes)} limit for one profile")
    if error == "memory":
        raise Unreadable(
            f"{name}: parsing needed more than {human_bytes(memory)} of memory (a corrupt or "
            "hostile file?); stopped"
        )
    if error is not None:
        raise Unreadable(f"{name}: not a cProfile/pstats file ({error})")
    return _profile(answer)


def _run_child(handle: BinaryIO, name: str, max_bytes: int, memory: int, timeout_s: float) -> dict:
    cpu_s = max(1, math.ceil(timeout_s))
    command = [sys.executable, "-I", "-S", _CHILD, str(max_bytes), str(memory), str(cpu_s)]
    try:
        done = subprocess.run(command, stdin=handle, capture_output=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise Unreadable(f"{name}: parsing took longer than {timeout_s:g} s; stopped") from None
    if done.returncode < 0:
        signame = signal.Signals(-done.returncode).name
        why = {"SIGXCPU": "its CPU time limit", "SIGKILL": "a kill (out of memory?)"}
        raise Unreadable(
            f"{name}: the parser process was stopped by {signame}"
            + (f" ({why[signame]})" if signame in why else "")
        )
    if done.returncode != 0:  # the interpreter itself failed (no memory to start, ...)
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise Unreadable(f"{name}: the parser process failed ({detail[0][:200]})")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise Unreadable(f"{name}: the parser process answered no result") from None


def _profile(answer: dict) -> PythonProfile:
    rows = answer["rows"]
    filenames = [r[0] for r in rows]
    lines = [r[1] for r in rows]
    names = [r[2] for r in rows]
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
