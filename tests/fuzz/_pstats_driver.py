"""Runs the pstats child's own reader (`_pstats_child.main`, unchanged) over many files in one
process, each under the child's resource limits and its own alarm: the bulk of the pstats fuzz
cases, at a fraction of a process start per case. Standard library only, like the child.

`python -I -S _pstats_driver.py MODE CHILD_DIR MAX_BYTES MEMORY_BYTES CPU_S CASE_TIMEOUT_S
FILE...` prints one JSON line per file. MODE `child`: `{"answer": the child's answer, "digest":
the SHA-256 it reported}`, or `{"crash": ...}` for an exception the child would not have turned
into an answer. MODE `reference`: `{"reference": ...}`, a second opinion from a different
implementation: `marshal.loads` and the shape checked on the objects it built (what the child
did before it read marshal itself), the same rules otherwise: `{"rows": ...}` or `{"error":
...}`. `marshal.loads` itself can die on hostile input (CPython 3.11 segfaults on
`b"\\xa9\\x01{r\\x00\\x00\\x00\\x00N0"`, a dict keyed by the tuple still being read), so the caller
restarts this mode after the file it died on; `*.nocompare.*` files get `{"reference": null}`
(its dictionaries of colliding keys take quadratic time in C, where no alarm can stop it).
"""

import io
import json
import marshal
import signal
import sys

INT64 = 2**63
LINE_LIMIT = 2**31
MAX_SECONDS = INT64 / 1e9


class Hang(BaseException):
    pass


class Wrong(Exception):
    pass


def expire(signum, frame):
    raise Hang()


def _count(value):
    if type(value) is not int or not 0 <= value < INT64:
        raise Wrong("count")
    return value


def _seconds(value):
    if type(value) not in (int, float) or not abs(value) < MAX_SECONDS:
        raise Wrong("seconds")
    return value


def _function(key):
    if type(key) is not tuple or len(key) != 3:
        raise Wrong("key")
    filename, line, name = key
    if type(filename) is not str or type(name) is not str:
        raise Wrong("key text")
    if type(line) is not int or not -LINE_LIMIT <= line < LINE_LIMIT:
        raise Wrong("line")
    return key


def _text(value):
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def reference(data):
    """The answer of marshal.loads plus the shape checked on its objects."""
    try:
        stats = marshal.loads(data)
    except MemoryError:
        return {"error": "memory"}
    except (EOFError, ValueError, TypeError):
        return {"error": "not marshal"}
    try:
        if type(stats) is not dict or not stats:
            raise Wrong("top")
        rows, total, calls, primitive = [], 0, 0, 0
        for key, value in stats.items():
            filename, line, name = _function(key)
            if type(value) is not tuple or len(value) != 5:
                raise Wrong("entry")
            cc, nc = _count(value[0]), _count(value[1])
            tt, ct = _seconds(value[2]), _seconds(value[3])
            callers = value[4]
            if type(callers) is not dict or callers is stats:  # the top dict, while read
                raise Wrong("callers")
            for caller, edge in callers.items():
                _function(caller)
                if type(edge) is tuple and len(edge) == 4:
                    _count(edge[0]), _count(edge[1]), _seconds(edge[2]), _seconds(edge[3])
                else:
                    _count(edge)
            total += tt
            calls += nc
            primitive += cc
            rows.append(
                [_text(filename), line, _text(name), cc, nc, round(tt * 1e9), round(ct * 1e9)]
            )
    except (Wrong, RecursionError):
        return {"error": "shape"}
    return {
        "rows": rows,
        "total_ns": round(total * 1e9),
        "calls": calls,
        "primitive_calls": primitive,
    }


def main(argv):
    mode = argv[0]
    sys.path.insert(0, argv[1])
    import _pstats_child

    limits, timeout_s, files = argv[2:5], float(argv[5]), argv[6:]
    if mode == "reference":
        _pstats_child._limit(*(int(a) for a in limits[1:]))
    signal.signal(signal.SIGALRM, expire)
    for path in files:
        signal.setitimer(signal.ITIMER_REAL, timeout_s)
        digests = []
        try:
            with open(path, "rb") as handle:
                if mode == "reference":
                    second = None if ".nocompare." in path else reference(handle.read())
                    text = json.dumps({"reference": second}, allow_nan=False)
                else:
                    sys.stdin = io.TextIOWrapper(handle)
                    try:
                        answer = _pstats_child.main(limits, digests.append)
                    except MemoryError:
                        answer = {"error": "memory"}
                    digest = digests[0] if digests else None
                    text = json.dumps({"answer": answer, "digest": digest}, allow_nan=False)
        except Hang:
            text = json.dumps({"crash": "hang"})
        except BaseException as exc:  # what the real child would die of
            text = json.dumps({"crash": f"{type(exc).__name__}: {str(exc)[:300]}"})
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
