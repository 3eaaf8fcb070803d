"""A 256-rank run through the local process pool and through a Dask LocalCluster.

    python benchmarks/scale.py [--ranks 256] [--workers 1,2] [--skip-dask] [--json]

The run: the real NCCL trace of ../shared/data (HolisticTraceAnalysis' nccl_data.json.gz,
9.8 MB of JSON, 40,573 events) replicated once per rank, each copy with its own rank in
`distributedInfo` and its own clock skew (`baseTimeNanoseconds` moved by up to ±5 ms),
generated once into $TB_PERF_BENCH_DIR/scale<N>/.

Each configuration is one fresh process (benchmarks/_measure.py) that builds a RunStore on a
fresh cache and times, in the serving process: reading the run's tables (every trace parsed by
the executor's workers; with Dask they come back packed and the serving process caches them),
then building the timeline from them. It reports the wall times, the serving process' peak RSS
(VmHWM) and what it holds at the end (anonymous memory vs. the cache's memory-mapped files),
and every worker's peak RSS (VmHWM) and how far above its idle RSS it went (a Dask
worker's RSS before the run; for pool processes, which start on demand, the one-rank process'
RSS after the same imports).

Anchors, measured in the same run:
  one rank      parsing one rank's trace alone in a fresh process: its added peak RSS is one
                rank's working set
  1 worker      the same configuration with one worker (the time ratio is the speed-up)
Targets (issue 9): every worker's peak RSS above its idle RSS <= 2 x one rank's working set
(bounded by a rank, not by the job); 2 workers faster than 1 (wall time of the table read).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import (  # noqa: E402
    MB,
    bench_dir,
    load_trace,
    loadavg,
    proc_fields,
    run_child,
    shared_trace,
)

SOURCE = "nccl_parser_config/nccl_data.json.gz"
SKEW_NS = 5_000_000


def generate(ranks: int) -> Path:
    """The logdir holding run `scale<ranks>` (made once)."""
    logdir = bench_dir() / f"scale{ranks}"
    run = logdir / f"scale{ranks}"
    done = run / ".complete"
    if done.exists():
        return logdir
    run.mkdir(parents=True, exist_ok=True)
    trace = load_trace(shared_trace(SOURCE))
    events = json.dumps(trace.pop("traceEvents"), separators=(", ", ": ")).encode()
    rng = random.Random(9)
    base = int(trace.get("baseTimeNanoseconds", 0))
    for rank in range(ranks):
        head = dict(trace)
        head["distributedInfo"] = {**trace["distributedInfo"], "rank": rank, "world_size": ranks}
        head["baseTimeNanoseconds"] = base + rng.randint(-SKEW_NS, SKEW_NS)
        text = json.dumps(head)[:-1].encode() + b', "traceEvents": ' + events + b"}"
        path = run / f"worker{rank}.1711964646.pt.trace.json.gz"
        with gzip.open(path, "wb", compresslevel=1) as out:
            out.write(text)
        print(f"\rgenerating {run}: {rank + 1}/{ranks}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    done.touch()
    return logdir


def _status(pid: int | str = "self") -> dict[str, int]:
    return proc_fields(f"/proc/{pid}/status", ("VmRSS", "VmHWM"))


def _rss_split() -> dict[str, int]:
    """This process' RSS split into anonymous memory and file-backed pages (the trace cache's
    memory-mapped columns, which the kernel may drop and read again under pressure)."""
    rss = proc_fields("/proc/self/smaps_rollup", ("Rss", "Anonymous"))
    return {"anonymous": rss["Anonymous"], "file": rss["Rss"] - rss["Anonymous"]}


def measure(logdir: str, run_name: str, kind: str, workers: int) -> dict[str, Any]:
    """In the child: read the run with `workers` workers of `kind` (process | dask)."""
    import os
    import time

    from tb_perf_plugin.store import RunStore

    # Worker processes must not inherit stdout: the parent reads it to the end (run_child).
    stdout = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    cluster = client = None
    executor = "process"
    if kind == "dask":
        import distributed

        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            memory_limit=0,
        )  # fmt: skip
        client = distributed.Client(cluster)
        idle = client.run(_status)
        executor = cluster.scheduler_address.replace("tcp://", "dask://")
    else:
        os.environ["TB_PERF_WORKERS"] = str(workers)
    service = RunStore(logdir, executor=executor, cache_dir=tempfile.mkdtemp(prefix="scale-"))
    run = service.find_run(run_name)
    t0 = time.perf_counter()
    tables = service.tables(run, wait_s=None)
    t1 = time.perf_counter()
    timeline = service.timeline(run, wait_s=None)
    t2 = time.perf_counter()
    held = _rss_split()  # what the serving process holds once the timeline is built
    if kind == "dask":
        peaks = [
            {"peak": after["VmHWM"], "idle": idle[address]["VmRSS"]}
            for address, after in client.run(_status).items()
        ]
    else:
        pool = service._executor.get()  # a benchmark may look at the pool's processes
        peaks = [{"peak": _status(pid)["VmHWM"], "idle": None} for pid in pool._processes]
    result = {
        "tables_s": t1 - t0,
        "timeline_s": t2 - t1,
        "traces": len(tables.traces),
        "ranks": len(tables.ranks),
        "events": timeline.n_events,
        "table_bytes": sum(sum(c.nbytes for c in t.tables.slices.values()) for t in tables.traces),
        "warnings": tables.warnings[:3],
        "held": held,
        "workers": peaks,
    }
    service.close()
    if client is not None:
        client.close()
        cluster.close()
    os.dup2(stdout, 1)
    return result


def one_rank(path: str) -> dict[str, Any]:
    from tb_perf_plugin.ingest.kineto import read_trace

    return {"events": read_trace(path).n_events}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=256)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--timeout", type=float, default=1200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    logdir = generate(args.ranks)
    run_name = f"scale{args.ranks}"
    traces = sorted((logdir / run_name).glob("*.pt.trace.json.gz"))
    disk = sum(p.stat().st_size for p in traces)
    print(f"run: {len(traces)} ranks, {disk / MB:.0f} MB gzipped on disk; load {loadavg()}")

    single = run_child(
        "import sys; sys.path.insert(0, 'benchmarks'); from scale import one_rank",
        f"return one_rank({str(traces[0])!r})",
        timeout=args.timeout,
    )
    rank_set = single.added_rss
    print(f"one rank  : parse {single.call_s:.2f} s, working set {rank_set / MB:.0f} MB "
          f"(added peak RSS), process peak {single.hwm_end / MB:.0f} MB")  # fmt: skip

    kinds = ["process"] + ([] if args.skip_dask else ["dask"])
    counts = [int(n) for n in args.workers.split(",")]
    results: dict[str, dict[int, Any]] = {}
    ok = True
    for kind in kinds:
        for workers in counts:
            child = run_child(
                "import sys; sys.path.insert(0, 'benchmarks'); from scale import measure",
                f"return measure({str(logdir)!r}, {run_name!r}, {kind!r}, {workers})",
                timeout=args.timeout,
                sample_workers=False,
            )
            if child.status != "ok":
                print(f"{kind} x{workers}: {child.status}: {child.message}")
                ok = False
                continue
            out = child.out
            results.setdefault(kind, {})[workers] = {**out, "server_peak": child.hwm_end}
            worker_peaks = [w["peak"] for w in out["workers"]]
            # pool processes start with the one-rank child's imports: its RSS is their idle
            above = [w["peak"] - (w["idle"] or single.rss_base) for w in out["workers"]]
            bounded = max(above) <= 2 * rank_set
            ok &= bounded
            print(
                f"{kind:7s} x{workers}: tables {out['tables_s']:6.1f} s, timeline "
                f"{out['timeline_s']:5.1f} s; {out['traces']} traces, {out['events']:,} events, "
                f"{out['table_bytes'] / MB:.0f} MB of tables; serving process peak "
                f"{child.hwm_end / MB:.0f} MB (at the end {out['held']['anonymous'] / MB:.0f} "
                f"MB anonymous + {out['held']['file'] / MB:.0f} MB mapped files); worker peaks "
                + ", ".join(f"{p / MB:.0f}" for p in worker_peaks)
                + f" MB ({', '.join(f'+{a / MB:.0f}' for a in above)} MB above idle)"
                + f" [{'ok' if bounded else 'MISSED'}: <= 2 x one rank]"
            )
            if out["warnings"]:
                print(f"  warnings: {out['warnings']}")
        by_count = results.get(kind, {})
        if 1 in by_count and 2 in by_count:
            ratio = by_count[2]["tables_s"] / by_count[1]["tables_s"]
            faster = ratio < 1
            ok &= faster
            print(f"{kind:7s}: 2 workers / 1 worker = {ratio:.2f} "
                  f"[{'ok' if faster else 'MISSED'}: < 1]")  # fmt: skip
    if args.json:
        print(json.dumps({"one_rank": single.to_json(), "results": results}, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
