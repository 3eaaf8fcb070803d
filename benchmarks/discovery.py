"""What finding the runs of a logdir costs, against a bare walk of the same tree.

    python benchmarks/discovery.py [--repeat 5] [--events 1000000] [--markdown | --json]

Generates logdir shapes in a temporary folder (removed after) from the repository's
sample_runs/ (a real torch.profiler trace, a real MyTimer writer's files, a tfevents file):

  runs_1000      1,000 run folders of one trace each (raw traces: each folder is its run)
  traces_2000    one run (tfevents + plugins/tb_perf/) with 2,000 torch.profiler traces
  sniffed_2000   one run with 2,000 traces named `*.json.gz`, told by their first bytes
  ranks_50x64    50 collector runs x 64 ranks: per rank the metadata (its rank rewritten) and
                 the MyTimer file of sample_runs/ddp_fast_data's rank 0, renamed
  deep_8         a tree 8 folders deep (binary: 511 folders, 3 other files each) with 4 runs
  links          20 runs; links inside (an alias of a run, a link to a parent: a cycle) and
                 out of the logdir (20 runs outside, one trace file), not followed (default)
  links_follow   the same logdir with follow_links=True

Per shape, in this process, best of --repeat (interleaved):
- anchor: `os.walk` of the tree (links not followed) and `os.stat` of every file it lists;
- cold: `discovery.discover_runs(logdir)` after clearing discovery's process-level caches
  (the lru_caches of `_sniff` and `_is_snapshot`, the set of orphans already logged); the OS
  page cache is warm for both;
- warm: the same call again, caches hot (what RunStore does every `discovery_ttl_s`).
Ratios are ours / anchor. A warm discovery over WARM_LIMIT x the anchor is marked `slow`.

Then trace-window detection (`pipeline.windows.recorded_windows`) on a synthetic table of
--events events (4 trace files and MyTimer spans, 3 gaps of 20 s), against `np.sort` of the
starts (what a sort-based gap search would begin with).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import REPO, loadavg  # noqa: E402

from tb_perf_plugin import discovery  # noqa: E402
from tb_perf_plugin.pipeline.windows import SPANS_SOURCE, recorded_windows  # noqa: E402

WARM_LIMIT = 3.0
SAMPLES = REPO / "sample_runs"
TRACE = SAMPLES / "ddp_traced" / "plugins" / "tb_perf" / "rank0.vm.31213.steps7-11.pt.trace.json.gz"
WRITER = SAMPLES / "ddp_fast_data" / "plugins" / "tb_perf"
WRITER_PREFIX = "rank0.vm.6313"
TFEVENTS = SAMPLES / "ddp_fast_data" / "events.out.tfevents.1796049890.vm.6313.tb_perf"


# --- the shapes ---------------------------------------------------------------------------------


def _place(source: Path, target: Path) -> None:
    """`source`'s bytes at `target`: a hard link where the file system allows (no disk)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _collector_run(run: Path, ranks: int) -> None:
    """A run directory as the collectors write it, one writer per rank."""
    _place(TFEVENTS, run / TFEVENTS.name)
    meta = json.loads((WRITER / f"{WRITER_PREFIX}.meta.json").read_text())
    plugin = run / "plugins" / "tb_perf"
    plugin.mkdir(parents=True, exist_ok=True)
    for rank in range(ranks):
        prefix = f"rank{rank}.vm.{10000 + rank}"
        meta.update(rank=rank, local_rank=rank % 8, world_size=ranks, pid=10000 + rank)
        (plugin / f"{prefix}.meta.json").write_text(json.dumps(meta))
        _place(WRITER / f"{WRITER_PREFIX}.timer.jsonl", plugin / f"{prefix}.timer.jsonl")


def runs_1000(root: Path) -> None:
    for i in range(1000):
        _place(TRACE, root / f"run{i:04d}" / f"worker0.{1000 + i}.pt.trace.json.gz")


def traces_2000(root: Path) -> None:
    _collector_run(root / "big", 8)
    for i in range(2000):
        name = f"rank{i % 8}.vm.{10000 + i % 8}.steps{i}.pt.trace.json.gz"
        _place(TRACE, root / "big" / "plugins" / "tb_perf" / name)


def sniffed_2000(root: Path) -> None:
    _place(TFEVENTS, root / "big" / TFEVENTS.name)
    for i in range(2000):
        _place(TRACE, root / "big" / "traces" / f"rank{i % 8}_{i}.json.gz")


def ranks_50x64(root: Path) -> None:
    for i in range(50):
        _collector_run(root / f"job{i:02d}", 64)


def deep_8(root: Path) -> None:
    def fill(folder: Path, depth: int, index: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("notes.txt", "config.yaml", "model.ckpt"):
            (folder / name).write_bytes(b"x" * 64)
        if depth == 8:
            if index % 64 == 0:  # 4 runs among the 256 leaves
                _collector_run(folder, 2)
                _place(TRACE, folder / "plugins" / "tb_perf" / "rank0.vm.10000.s1.pt.trace.json.gz")
            return
        fill(folder / "a", depth + 1, 2 * index)
        fill(folder / "b", depth + 1, 2 * index + 1)

    fill(root, 0, 0)


def links(root: Path) -> None:
    logdir, outside = root / "logdir", root / "outside"
    for i in range(20):
        _collector_run(logdir / f"run{i:02d}", 2)
        _place(
            TRACE,
            logdir / f"run{i:02d}" / "plugins" / "tb_perf" / "rank0.vm.10000.s.pt.trace.json.gz",
        )
        _place(TRACE, outside / f"ext{i:02d}" / f"worker0.{i}.pt.trace.json.gz")
    (logdir / "links").mkdir()
    os.symlink(logdir / "run00", logdir / "links" / "alias_of_run00")  # in: walked once
    os.symlink(logdir, logdir / "run01" / "cycle")  # in: a cycle, ends
    for i in range(20):
        os.symlink(outside / f"ext{i:02d}", logdir / "links" / f"ext{i:02d}")  # out
    os.symlink(
        TRACE, logdir / "run02" / "plugins" / "tb_perf" / "rank1.vm.10001.s.pt.trace.json.gz"
    )


SHAPES: dict[str, tuple[Callable[[Path], None], str, bool]] = {
    # name: (generator, the logdir below the generated folder, follow_links)
    "runs_1000": (runs_1000, "", False),
    "traces_2000": (traces_2000, "", False),
    "sniffed_2000": (sniffed_2000, "", False),
    "ranks_50x64": (ranks_50x64, "", False),
    "deep_8": (deep_8, "", False),
    "links": (links, "logdir", False),
    "links_follow": (links, "logdir", True),
}


# --- measuring ----------------------------------------------------------------------------------


def anchor(root: str) -> int:
    """os.walk + os.stat of every file: the floor any discovery of the tree pays."""
    files = 0
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            os.stat(os.path.join(dirpath, name))
            files += 1
    return files


def clear_caches() -> None:
    discovery._sniff.cache_clear()
    discovery._is_snapshot.cache_clear()
    discovery._LOGGED_ORPHANS.clear()


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    began = time.perf_counter()
    result = call()
    return (time.perf_counter() - began) * 1e3, result


def measure_shape(root: str, follow: bool, repeat: int) -> dict[str, Any]:
    discover = functools.partial(discovery.discover_runs, root, follow_links=follow)
    times: dict[str, list[float]] = {"anchor": [], "cold": [], "warm": []}
    runs: dict[str, Any] = {}
    files = 0
    for _ in range(repeat):
        ms, files = timed(lambda: anchor(root))
        times["anchor"].append(ms)
        clear_caches()
        ms, runs = timed(discover)
        times["cold"].append(ms)
        ms, runs = timed(discover)
        times["warm"].append(ms)
    dirs = sum(1 for _ in os.walk(root))
    best = {k: min(v) for k, v in times.items()}
    return {
        "files": files,
        "dirs": dirs,
        "runs": len(runs),
        "ranks": sum(len({w.rank for w in r.writers}) for r in runs.values()),
        "traces": sum(len(r.traces) for r in runs.values()),
        "anchor_ms": round(best["anchor"], 2),
        "cold_ms": round(best["cold"], 2),
        "warm_ms": round(best["warm"], 2),
        "median_ms": {k: round(statistics.median(v), 2) for k, v in times.items()},
        "cold_ratio": round(best["cold"] / best["anchor"], 2),
        "warm_ratio": round(best["warm"] / best["anchor"], 2),
        "slow": best["warm"] > WARM_LIMIT * best["anchor"],
    }


def synthetic_events(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`n` events in 4 recordings 20 s apart (a trace file each, MyTimer spans over the first
    two), each recording 2 s of events up to 1 ms long: starts, durations, sources."""
    rng = np.random.default_rng(seed)
    source = rng.integers(0, 4, n)
    source[rng.random(n) < 0.05] = SPANS_SOURCE
    recording = np.where(source == SPANS_SOURCE, rng.integers(0, 2, n), source)
    start = recording * 22_000_000_000 + rng.integers(0, 2_000_000_000, n)
    dur = rng.integers(0, 1_000_000, n)
    return start.astype(np.int64), dur.astype(np.int64), source.astype(np.int64)


def measure_windows(events: int, repeat: int) -> dict[str, Any]:
    start, dur, source = synthetic_events(events)
    files = [f"rank0.{i}.pt.trace.json.gz" for i in range(4)]
    ours = [
        timed(lambda: recorded_windows(start, dur, source, files, 10**9)) for _ in range(repeat)
    ]
    floor = [timed(lambda: np.sort(start))[0] for _ in range(repeat)]
    windows = ours[0][1]
    best, anchor_ms = min(ms for ms, _ in ours), min(floor)
    return {
        "events": events,
        "windows": len(windows),
        "ours_ms": round(best, 2),
        "anchor_ms": round(anchor_ms, 2),
        "ratio": round(best / anchor_ms, 2),
    }


# --- output -------------------------------------------------------------------------------------

HEADINGS = ("shape", "files", "dirs", "runs", "ranks", "traces", "anchor ms", "cold ms",
            "warm ms", "cold / anchor", "warm / anchor", "")  # fmt: skip


def rows(results: dict[str, dict[str, Any]]) -> list[tuple[str, ...]]:
    return [
        (name, str(r["files"]), str(r["dirs"]), str(r["runs"]), str(r["ranks"]), str(r["traces"]),
         f"{r['anchor_ms']:.1f}", f"{r['cold_ms']:.1f}", f"{r['warm_ms']:.1f}",
         f"{r['cold_ratio']:.2f}x", f"{r['warm_ratio']:.2f}x", "slow" if r["slow"] else "")
        for name, r in results.items()
    ]  # fmt: skip


def markdown(results: dict[str, dict[str, Any]], windows: dict[str, Any]) -> str:
    lines = ["| " + " | ".join(HEADINGS[:-1]) + " | |", "|" + "---|" * len(HEADINGS)]
    lines += ["| " + " | ".join(row) + " |" for row in rows(results)]
    lines += [
        "",
        "| windows | events | windows found | anchor (`np.sort`) ms | ours ms | ours / anchor |",
        "|---|---|---|---|---|---|",
        f"| `recorded_windows` | {windows['events']:,} | {windows['windows']} | "
        f"{windows['anchor_ms']:.1f} | {windows['ours_ms']:.1f} | {windows['ratio']:.2f}x |",
    ]
    return "\n".join(lines)


def text(results: dict[str, dict[str, Any]], windows: dict[str, Any]) -> str:
    table = [HEADINGS, *rows(results)]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADINGS))]
    lines = []
    for row in table:
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in pairs]
        lines.append("  ".join(cells).rstrip())
    lines.append(
        f"windows: {windows['events']:,} events, {windows['windows']} windows: "
        f"{windows['ours_ms']:.1f} ms vs np.sort {windows['anchor_ms']:.1f} ms "
        f"({windows['ratio']:.2f}x)"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=list(SHAPES))
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument("--json", action="store_true", help="print the raw numbers")
    args = parser.parse_args()
    logging.getLogger("tb_perf_plugin").setLevel(logging.ERROR)  # the links' refusals
    gzip.decompress(TRACE.read_bytes())  # the sample trace is there and whole
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="tb-perf-discovery-") as tmp:
        made: dict[Callable[[Path], None], Path] = {}
        for name in args.shapes:
            generate, below, follow = SHAPES[name]
            if generate not in made:
                made[generate] = Path(tmp) / name
                made[generate].mkdir()
                generate(made[generate])
            root = str(made[generate] / below)
            results[name] = measure_shape(root, follow, args.repeat)
    windows = measure_windows(args.events, args.repeat)
    if args.json:
        print(json.dumps({"load": loadavg(), "discovery": results, "windows": windows}, indent=2))
        return
    print(f"load average {loadavg()}; best of {args.repeat}; cold = discovery caches cleared")
    print(markdown(results, windows) if args.markdown else text(results, windows))


if __name__ == "__main__":
    main()
