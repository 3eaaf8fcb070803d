"""What retiring the local process pool costs: the same traces parsed with the default
recycling (a fresh pool every TASKS_PER_WORKER tasks per worker) and without it.

    python benchmarks/pool_recycling.py [--files 64] [--workers 2] [--repeats 5]

The traces are copies of the demo run's torch.profiler windows (`sample_runs/ddp_traced`,
about 60 kB of gzip each: small files are the worst case, where a fresh worker's fork weighs
most against the parse). Each repeat parses all of them through `ingest_to_cache` (what the
plugin submits per file) with a fresh cache, once per mode, the modes interleaved; printed:
the median wall time of each mode and their ratio.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import REPO  # noqa: E402

from tb_perf_plugin.executor import TASKS_PER_WORKER, ProcessPool  # noqa: E402
from tb_perf_plugin.ingest.cache import ingest_to_cache  # noqa: E402
from tb_perf_plugin.ingest.imported import FileKind  # noqa: E402

NEVER = 1 << 30  # tasks per worker: a pool that is never retired


def _copies(folder: Path, files: int) -> list[str]:
    sources = sorted((REPO / "sample_runs" / "ddp_traced").rglob("*.pt.trace.json.gz"))
    paths = []
    for i in range(files):
        path = folder / f"rank{i}.h.1.steps1-1.pt.trace.json.gz"
        shutil.copyfile(sources[i % len(sources)], path)
        paths.append(str(path))
    return paths


def _parse_all(paths: list[str], workers: int, tasks_per_worker: int, cache: Path) -> float:
    pool = ProcessPool(workers, tasks_per_worker)
    try:
        pool.submit(len, "").result()  # the forkserver started: not part of either mode
        started = time.perf_counter()
        futures = [
            pool.submit(ingest_to_cache, p, str(cache), 1 << 30, FileKind.KINETO) for p in paths
        ]
        for future in futures:
            future.result()
        return time.perf_counter() - started
    finally:
        pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"recycled": [], "kept": []}
    with tempfile.TemporaryDirectory(prefix="tb-perf-recycling-") as scratch:
        paths = _copies(Path(scratch), args.files)
        for repeat in range(args.repeats):
            for mode, per_worker in (("recycled", TASKS_PER_WORKER), ("kept", NEVER)):
                cache = Path(scratch) / f"cache-{mode}-{repeat}"
                times[mode].append(_parse_all(paths, args.workers, per_worker, cache))
    recycled, kept = (statistics.median(times[m]) for m in ("recycled", "kept"))
    print(
        f"{args.files} traces, {args.workers} workers: recycled every {TASKS_PER_WORKER} tasks "
        f"per worker {recycled:.2f} s, never {kept:.2f} s (median of {args.repeats}): "
        f"{recycled / kept:.2f}x"
    )


if __name__ == "__main__":
    main()
