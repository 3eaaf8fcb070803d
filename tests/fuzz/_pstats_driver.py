"""Runs the pstats child's own validation (`_pstats_child.main`, unchanged) over many files in
one process, each under the child's resource limits and its own alarm: the bulk of the pstats
fuzz cases, at a fraction of a process start per case. Standard library only, like the child.

`python -I -S _pstats_driver.py CHILD_DIR MAX_BYTES MEMORY_BYTES CPU_S CASE_TIMEOUT_S FILE...`
prints one JSON line per file: the child's answer, or `{"crash": ...}` for an exception the
child would not have turned into an answer.
"""

import io
import json
import signal
import sys


class Hang(BaseException):
    pass


def expire(signum, frame):
    raise Hang()


def main(argv):
    sys.path.insert(0, argv[0])
    import _pstats_child

    limits, timeout_s, files = argv[1:4], float(argv[4]), argv[5:]
    signal.signal(signal.SIGALRM, expire)
    for path in files:
        signal.setitimer(signal.ITIMER_REAL, timeout_s)
        try:
            with open(path, "rb") as handle:
                sys.stdin = io.TextIOWrapper(handle)
                try:
                    answer = _pstats_child.main(limits)
                except MemoryError:
                    answer = {"error": "memory"}
            text = json.dumps(answer, allow_nan=False)
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
