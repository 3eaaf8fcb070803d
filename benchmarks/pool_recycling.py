"""What the local process pool costs: the same traces parsed by our pool replacing a worker
only when it holds more than RETIRE_RSS_BYTES after a task (the default), by it never
replacing one, and by the standard library's ProcessPoolExecutor (forkserver, the anchor:
what our pool's queues, limits and per-task answers must not make slower).

    python benchmarks/pool_recycling.py [--files 64] [--workers 2] [--repeats 5]

The traces are copies of the demo run's torch.profiler windows (`sample_runs/ddp_traced`,
about 60 kB of gzip each: small files are the worst case, where a fresh worker's fork weighs
most against the parse). Each repeat parses all of them through `ingest_to_cache` (what the
plugin submits per file) with a fresh cache, once per mode, the modes interleaved; printed:
the median wall time of each mode and its ratio to the standard library's pool.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import REPO  # noqa: E402

from tb_perf_plugin.executor import RETIRE_RSS_BYTES, ProcessPool, _process_context  # noqa: E402
from tb_perf_plugin.ingest.cache import ingest_to_cache  # noqa: E402
from tb_perf_plugin.ingest.readers import FileKind  # noqa: E402

MODES = {"default": RETIRE_RSS_BYTES, "never": 1 << 62, "stdlib": None}  # retire_rss_bytes


def _copies(folder: Path, files: int) -> list[str]:
    sources = sorted((REPO / "sample_runs" / "ddp_traced").rglob("*.pt.trace.json.gz"))
    paths = []
    for i in range(files):
        path = folder / f"rank{i}.h.1.steps1-1.pt.trace.json.gz"
        shutil.copyfile(sources[i % len(sources)], path)
        paths.append(str(path))
    return paths


def _parse_all(paths: list[str], workers: int, retire_rss_bytes: int | None, cache: Path
               ) -> float:  # fmt: skip
    pool: concurrent.futures.Executor
    if retire_rss_bytes is None:
        context = _process_context()
        assert isinstance(context, multiprocessing.context.BaseContext)
        pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context)
    else:
        pool = ProcessPool(workers, retire_rss_bytes)
    try:
        for future in [pool.submit(len, "") for _ in range(workers)]:
            future.result()  # the forkserver started: not part of any mode
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
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory(prefix="tb-perf-recycling-") as scratch:
        paths = _copies(Path(scratch), args.files)
        for repeat in range(args.repeats):
            for mode, retire_rss_bytes in MODES.items():
                cache = Path(scratch) / f"cache-{mode.replace(' ', '_')}-{repeat}"
                times[mode].append(_parse_all(paths, args.workers, retire_rss_bytes, cache))
    medians = {mode: statistics.median(t) for mode, t in times.items()}
    print(f"{args.files} traces, {args.workers} workers, median of {args.repeats}:")
    for mode, seconds in medians.items():
        print(f"  {mode:8} {seconds:.2f} s  {seconds / medians['stdlib']:.2f}x")


if __name__ == "__main__":
    main()
