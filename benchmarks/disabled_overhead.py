"""What switched-off instrumentation costs, against its anchors, all measured in this one run.

    python benchmarks/disabled_overhead.py [--json]

Issue 8's cost criterion: disabled labelers, capture and task profiling cost
  start/stop-style pairs     <= 1.5x an empty method-call pair
  context-manager forms      <= 1.3x `with contextlib.nullcontext()`
Rows (each the exact call a training loop makes):
  NVTX labeler, disabled (create_labeler(enabled=False)): start()/stop() pair; `with range()`
  capture, disabled (ENABLE_CAPTURE=0): begin()/end() pair; `with region()`
  capture, enabled, a hook-point name no capture uses: begin()/end(); `with region()` (reported)
  task profiling, a type PROFILE_TASK_TYPES does not list: `with profile_task(type, writer=w)`;
    through a TaskProfiler (`with tasks.task(type)`); the start/stop pair on a handle taken once
    (`t = profile_task(...)` before the loop, as a labeler is made once: the target row), and
    with `profile_task(...)` called before each pair (three calls: reported)
  timed_loader over a disabled MyTimer (ENABLE_TIMER=0): one pass over 100 batches, against a
    generator over the same batches (one Python frame per batch, as any wrapping loader)
Timings are the minimum over repeats of a timeit loop (the least disturbed run); the rows take
turns within each repeat, so load that comes and goes disturbs them alike.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "benchmarks")]

from _measure import loadavg  # noqa: E402

from collectors import MyTimer, RunWriter, create_labeler, timed_loader  # noqa: E402
from collectors._capture import create_capture  # noqa: E402
from collectors._tasks import TaskProfiler, profile_task  # noqa: E402

REPEAT = 15
NUMBER = 100_000
CONFIG = {
    "captures": [
        {"trigger": "point", "name": "denoise", "windows": [{"start": 10**9, "stop": 10**9 + 1}]}
    ]
}


class _Empty:
    def start(self, name: str) -> None:
        pass

    def stop(self, name: str) -> None:
        pass


def measure(tmp: Path) -> dict[str, float]:
    writer = RunWriter(tmp / "run")
    empty = _Empty()
    labeler = create_labeler(enabled=False)
    off = create_capture(CONFIG, writer=writer, enabled=False)
    unused = create_capture(CONFIG, writer=writer, enabled=True)
    tasks = TaskProfiler(writer, types="DIT")
    batches = list(range(100))
    loader = timed_loader(batches, MyTimer(enabled=False))

    def empty_pair():
        empty.start("x")
        empty.stop("x")

    def null_context():
        with contextlib.nullcontext():
            pass

    def labeler_pair():
        labeler.stop(labeler.start("x"))

    def labeler_range():
        with labeler.range("x"):
            pass

    def capture_off_pair():
        off.begin("denoise")
        off.end("denoise")

    def capture_off_region():
        with off.region("denoise"):
            pass

    def capture_unused_pair():
        unused.begin("vae")
        unused.end("vae")

    def capture_unused_region():
        with unused.region("vae"):
            pass

    def task_context():
        with profile_task("VAE", writer=writer):
            pass

    def task_lookup_pair():
        task = profile_task("VAE", writer=writer)
        task.start()
        task.stop()

    handle = profile_task("VAE", writer=writer)

    def task_pair():
        handle.start()
        handle.stop()

    def task_profiler_context():
        with tasks.task("VAE"):
            pass

    def generator_pass():
        for _ in (batch for batch in batches):
            pass

    def loader_off_pass():
        for _ in loader:
            pass

    funcs = (
        generator_pass,
        loader_off_pass,
        empty_pair,
        null_context,
        labeler_pair,
        labeler_range,
        capture_off_pair,
        capture_off_region,
        capture_unused_pair,
        capture_unused_region,
        task_context,
        task_pair,
        task_lookup_pair,
        task_profiler_context,
    )
    best = {func.__name__: float("inf") for func in funcs}
    for _ in range(REPEAT):
        for func in funcs:
            best[func.__name__] = min(best[func.__name__], timeit.timeit(func, number=NUMBER))
    results = {name: seconds / NUMBER * 1e9 for name, seconds in best.items()}
    off.close()
    unused.close()
    writer.close()
    return results


ROWS = [  # (measured, label, anchor, target)
    ("labeler_pair", "NVTX labeler off: start/stop", "empty_pair", 1.5),
    ("labeler_range", "NVTX labeler off: with range()", "null_context", 1.3),
    ("capture_off_pair", "capture off: begin/end", "empty_pair", 1.5),
    ("capture_off_region", "capture off: with region()", "null_context", 1.3),
    ("capture_unused_pair", "capture on, unused name: begin/end", "empty_pair", None),
    ("capture_unused_region", "capture on, unused name: region()", "null_context", None),
    ("task_pair", "profile_task unlisted: start/stop", "empty_pair", 1.5),
    ("task_lookup_pair", "  + profile_task() before each pair", "empty_pair", None),
    ("task_context", "profile_task unlisted: with", "null_context", 1.3),
    ("task_profiler_context", "TaskProfiler.task unlisted: with", "null_context", 1.3),
    ("loader_off_pass", "timed_loader, timer off: 100 batches", "generator_pass", 1.3),
]
ANCHORS = {
    "empty_pair": "empty method-call pair",
    "null_context": "with nullcontext()",
    "generator_pass": "generator, 100 batches",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = measure(Path(tmp))
    if args.json:
        print(json.dumps({"per_call_ns": results, "loadavg": loadavg()}, indent=2))
        return
    print(f"load average {loadavg()}")
    print(f"{'measured':36} {'ns':>6}  {'anchor':24} {'ns':>6}  {'ratio':>5}  target")
    for key, label, anchor, target in ROWS:
        value, anchor_value = results[key], results[anchor]
        ratio = value / anchor_value
        verdict = "" if target is None else f"<= {target}x {'ok' if ratio <= target else 'MISSED'}"
        print(
            f"{label:36} {value:6.0f}  {ANCHORS[anchor]:24} {anchor_value:6.0f}  {ratio:5.2f}  "
            f"{verdict}"
        )


if __name__ == "__main__":
    main()
