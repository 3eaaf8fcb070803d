"""Run a command beside busy loops, one pinned to each chosen core, to see whether its verdict
depends on how busy the machine is (docs/RELIABILITY.md, "Deterministic tests under load").

    python benchmarks/busy_loops.py [--cores N] -- COMMAND [ARG ...]
    python benchmarks/busy_loops.py -- .venv/bin/python -m pytest -q -x -p no:cacheprovider

N busy processes (default: one per core this process may run on) each spin on one core of
its own; the command runs unpinned beside them, so it competes for every core as it would
with other work on a shared runner. The loops are stopped when the command ends (or this
script is interrupted); the exit status is the command's.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time


def spin(core: int, parent: int) -> None:
    """Burn one core until terminated, or until the parent is gone (killed, say: a loop left
    behind would slow everything after it)."""
    os.sched_setaffinity(0, {core})
    while os.getppid() == parent:
        for _ in range(1_000_000):
            pass


def start_loops(cores: list[int]) -> list[multiprocessing.Process]:
    parent = os.getpid()
    loops = [
        multiprocessing.Process(target=spin, args=(core, parent), daemon=True) for core in cores
    ]
    for loop in loops:
        loop.start()
    return loops


def stop_loops(loops: list[multiprocessing.Process]) -> None:
    for loop in loops:
        loop.terminate()
    for loop in loops:
        loop.join(timeout=5)
        if loop.is_alive():
            loop.kill()
            loop.join()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    available = sorted(os.sched_getaffinity(0))
    parser.add_argument(
        "--cores",
        type=int,
        default=len(available),
        help=f"busy loops, one per core, lowest cores first (default: all {len(available)})",
    )
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given (put it after --)")
    if not 0 <= args.cores <= len(available):
        parser.error(f"--cores must be between 0 and {len(available)}")

    loops = start_loops(available[: args.cores])
    began = time.monotonic()
    try:
        code = subprocess.call(command)
    finally:
        stop_loops(loops)
    elapsed = time.monotonic() - began
    print(
        f"busy_loops: {args.cores} busy loop(s); {command[0]} exited {code} after {elapsed:.0f} s",
        file=sys.stderr,
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
