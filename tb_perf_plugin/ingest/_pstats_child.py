"""The child process of `python_profile.read_python_profile`: unmarshals a cProfile/pstats
file under resource limits and answers with JSON, so hostile `marshal` data never reaches the
plugin's own process.

Run as a script with the standard library only (`python -I -S _pstats_child.py MAX_BYTES
MEMORY_BYTES CPU_S`), the file on stdin. Prints one JSON object: `{"error": message}`, or
`{"rows": [[filename, line, name, primitive_calls, calls, self_ns, cumulative_ns], ...],
"total_ns", "calls", "primitive_calls"}` with the totals summed as `pstats.Stats` sums them.
"""

from __future__ import annotations

import json
import marshal
import sys
from typing import Any

INT64 = 2**63
CHUNK_BYTES = 1 << 20
MAX_SECONDS = INT64 / 1e9  # in int64 nanoseconds (292 years); also refuses NaN and infinity


class BadStructure(Exception):
    """The data unmarshalled but is not a pstats dictionary."""


def _limit(memory_bytes: int, cpu_s: int) -> None:
    try:
        import resource
    except ImportError:  # not on this platform: the parent's wall-clock timeout still holds
        return
    for which, value in ((resource.RLIMIT_AS, memory_bytes), (resource.RLIMIT_CPU, cpu_s)):
        _, hard = resource.getrlimit(which)
        if hard == resource.RLIM_INFINITY or value < hard:
            resource.setrlimit(which, (value, hard if hard != resource.RLIM_INFINITY else value))


def _text(value: Any, what: str) -> str:
    if type(value) is not str:
        raise BadStructure(f"{what} is a {type(value).__name__}, not a str")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: marshal keeps them, JSON answers cannot
        value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def _count(value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value < INT64:
        raise BadStructure(f"{what} is {value!r:.80}, not a count")
    return value


def _seconds(value: Any, what: str) -> float:
    if type(value) not in (int, float) or not abs(value) < MAX_SECONDS:
        raise BadStructure(f"{what} is {value!r:.80}, not a time in seconds")
    return value


def _function(key: Any) -> tuple[str, int, str]:
    if type(key) is not tuple or len(key) != 3:
        raise BadStructure(f"a function key is {key!r:.80}, not (file, line, name)")
    filename, line, name = key
    if type(line) is not int or not -INT64 <= line < INT64:
        raise BadStructure(f"the line of a function is {line!r:.80}, not an int")
    return _text(filename, "a function's file"), line, _text(name, "a function's name")


def _callers(value: Any) -> None:
    """cProfile's callers map to (cc, nc, tt, ct); the pure-Python profile's to a count."""
    if type(value) is not dict:
        raise BadStructure(f"callers are a {type(value).__name__}, not a dict")
    for key, edge in value.items():
        _function(key)
        if type(edge) is tuple and len(edge) == 4:
            _count(edge[0], "a caller's call count")
            _count(edge[1], "a caller's call count")
            _seconds(edge[2], "a caller's time")
            _seconds(edge[3], "a caller's time")
        else:
            _count(edge, "a caller's call count")


def tabulate(stats: Any) -> dict[str, Any]:
    if type(stats) is not dict:
        raise BadStructure(f"the top level is a {type(stats).__name__}, not a dict of functions")
    if not stats:
        raise BadStructure("it holds no profiled functions")
    rows = []
    total_tt, calls, primitive = 0, 0, 0
    for key, value in stats.items():
        filename, line, name = _function(key)
        if type(value) is not tuple or len(value) != 5:
            raise BadStructure(f"the entry of {key!r:.120} is not (cc, nc, tt, ct, callers)")
        cc = _count(value[0], "a primitive call count")
        nc = _count(value[1], "a call count")
        tt, ct = _seconds(value[2], "a self time"), _seconds(value[3], "a cumulative time")
        _callers(value[4])
        total_tt += tt  # in the file's order, one addition at a time: pstats' own total
        calls += nc
        primitive += cc
        rows.append([filename, line, name, cc, nc, round(tt * 1e9), round(ct * 1e9)])
    return {
        "rows": rows,
        "total_ns": round(total_tt * 1e9),
        "calls": calls,
        "primitive_calls": primitive,
    }


def _read_at_most(max_bytes: int) -> bytes | None:
    """stdin's bytes, or None past `max_bytes` (read in chunks: one `read(max_bytes)` would
    allocate the whole limit up front)."""
    chunks, size = [], 0
    while chunk := sys.stdin.buffer.read(CHUNK_BYTES):
        size += len(chunk)
        if size > max_bytes:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def main(argv: list[str]) -> dict[str, Any]:
    max_bytes, memory_bytes, cpu_s = (int(a) for a in argv)
    _limit(memory_bytes, cpu_s)
    data = _read_at_most(max_bytes)
    if data is None:
        return {"error": "too_big"}
    try:
        stats = marshal.loads(data)
    except MemoryError:
        return {"error": "memory"}
    except (EOFError, ValueError, TypeError) as exc:
        return {"error": f"not marshal data ({exc})"}
    del data
    try:
        return tabulate(stats)
    except BadStructure as exc:
        return {"error": f"not a cProfile/pstats dictionary: {exc}"}
    except RecursionError:
        return {"error": "not a cProfile/pstats dictionary: nested too deeply"}


if __name__ == "__main__":
    try:
        answer = main(sys.argv[1:])
    except MemoryError:
        answer = {"error": "memory"}
    json.dump(answer, sys.stdout, allow_nan=False)
