"""A many-rank run through the local process pool and through a Dask LocalCluster.

    python benchmarks/scale.py [--ranks 256] [--workers 1,2] [--kinds process,dask] [--json]

Kinds: `process` (the local pool), `dask` (a LocalCluster on the shared store: a directory),
`dask-file` and `dask-s3` (the store at a URL, no disk shared: a file:// URL through fsspec,
or S3 served by moto in a process of its own; the workers and the serving process have cache
directories of their own, the serving process fetches what it shows).

The run: the real NCCL trace of ../shared/data (HolisticTraceAnalysis' nccl_data.json.gz,
9.8 MB of JSON, 40,573 events, 3 profiler steps), laid end to end twice (6 steps), once per
rank, each copy with its own rank in `distributedInfo` and its own clock skew
(`baseTimeNanoseconds` moved by up to ±5 ms). Rank STRAGGLER is the planted straggler the
heatmap and the findings must name: its copy is stretched (every event STRETCH times as long
and as far from the trace's start, but its NCCL kernels), while every other rank's NCCL
kernels are OTHERS_WAIT times as long (they wait for it). Generated once into
$TB_PERF_BENCH_DIR/scale<N>/.

Each configuration is one fresh process (benchmarks/_measure.py) that builds a RunStore on a
fresh cache and times, in the serving process, what a user opening the run waits for:
  tables    every trace parsed by the executor's workers into the store (the cache directory;
            with Dask, the store TB_PERF_STORE: this disk, or a URL)
  overview  the first Overview: its summary, the findings and the rank heatmap
  timeline  the Timeline's meta (its levels built)
  tiles     TILES tile requests of TILE_LANES lanes (whole ranks picked at random) over random
            windows: their p95
For each phase its wall time and the serving process' peak RSS during it (VmHWM, reset before
the phase through /proc/self/clear_refs); what the process holds at the end (anonymous memory
vs. the cache's memory-mapped files); every worker's peak RSS (VmHWM) and how far above its
idle RSS it went (a Dask worker's RSS before the run; for pool processes, which start on
demand, the one-rank process' RSS after the same imports).

Anchors, measured in the same run:
  one rank      parsing one rank's trace alone in a fresh process: its added peak RSS is one
                rank's working set
  1 worker      the same configuration with one worker (the time ratio is the speed-up)
Targets (issue 9): every worker's peak RSS above its idle RSS <= 2 x one rank's working set
(bounded by a rank, not by the job); 2 workers faster than 1 (wall time of the table read).
Targets (issue 23): the serving process' peak <= 1.5 GB at 1,024 ranks and <= 1.2 x its
256-rank value; tile p95 <= 150 ms; the straggler found by the heatmap and the findings.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import (  # noqa: E402
    MB,
    bench_dir,
    load_trace,
    loadavg,
    percentile,
    proc_fields,
    replicate_events,
    run_child,
    shared_trace,
)

SOURCE = "nccl_parser_config/nccl_data.json.gz"
SKEW_NS = 5_000_000
STRAGGLER = 37  # this rank computes STRETCH times slower and waits less in collectives
STRETCH = 1.3
OTHERS_WAIT = 4
STEP_COPIES = 2  # of the trace's 3 profiler steps
TILES = 60
CACHE_MAX_MB = 64_000
TILE_LANES = 8


def generate(ranks: int, root: Path | None = None) -> Path:
    """The logdir holding run `scale<ranks>` (made once), under `root` (default: the
    benchmarks' directory; tests/e2e/test_scale_run.py opens it in the browser)."""
    logdir = (root or bench_dir()) / f"scale{ranks}"
    run = logdir / f"scale{ranks}"
    done = run / f".complete-straggler{STRAGGLER}-v4"
    if done.exists():
        return logdir
    run.mkdir(parents=True, exist_ok=True)
    trace = load_trace(shared_trace(SOURCE))
    # laid end to end STEP_COPIES times: the straggler rule needs 5 steps or more
    events = list(replicate_events(trace.pop("traceEvents"), STEP_COPIES))
    encoded = json.dumps([_waiting(e) for e in events], separators=(", ", ": ")).encode()
    first = min(e["ts"] for e in events if "ts" in e)
    stretched = json.dumps([_stretched(e, first) for e in events], separators=(", ", ": ")).encode()
    rng = random.Random(9)
    base = int(trace.get("baseTimeNanoseconds", 0))
    for rank in range(ranks):
        head = dict(trace)
        head["distributedInfo"] = {**trace["distributedInfo"], "rank": rank, "world_size": ranks}
        head["baseTimeNanoseconds"] = base + rng.randint(-SKEW_NS, SKEW_NS)
        body = stretched if rank == STRAGGLER else encoded
        text = json.dumps(head)[:-1].encode() + b', "traceEvents": ' + body + b"}"
        path = run / f"worker{rank}.1711964646.pt.trace.json.gz"
        with gzip.open(path, "wb", compresslevel=1) as out:
            out.write(text)
        print(f"\rgenerating {run}: {rank + 1}/{ranks}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    # a finished job's files: ones written seconds ago are taken as still being written (their
    # results not stored, and a new run version once they settle: a test's answers would
    # depend on how fast it ran)
    an_hour_ago = time.time() - 3600
    for path in run.iterdir():
        os.utime(path, (an_hour_ago, an_hour_ago))
    done.touch()
    return logdir


def _nccl(event: dict[str, Any]) -> bool:
    return event.get("cat") == "kernel" and "nccl" in str(event.get("name", "")).lower()


def _waiting(event: dict[str, Any]) -> dict[str, Any]:
    """The event on every other rank: its NCCL kernels OTHERS_WAIT times as long (they wait
    for the straggler)."""
    if not _nccl(event) or "dur" not in event:
        return event
    return {**event, "dur": event["dur"] * OTHERS_WAIT}


def _stretched(event: dict[str, Any], first: float) -> dict[str, Any]:
    """The event on the straggler rank: as far from the start times STRETCH, and as long —
    but its NCCL kernels as long as in the trace: it computes slower and waits less in
    collectives than the others."""
    out = dict(event)
    if "ts" in out:
        out["ts"] = first + (out["ts"] - first) * STRETCH
    if "dur" in out and not _nccl(out):
        out["dur"] = out["dur"] * STRETCH
    return out


def _status(pid: int | str = "self") -> dict[str, int]:
    return proc_fields(f"/proc/{pid}/status", ("VmRSS", "VmHWM"))


def _rss_split() -> dict[str, int]:
    """This process' RSS split into anonymous memory and file-backed pages (the trace cache's
    memory-mapped columns, which the kernel may drop and read again under pressure)."""
    rss = proc_fields("/proc/self/smaps_rollup", ("Rss", "Anonymous"))
    return {"anonymous": rss["Anonymous"], "file": rss["Rss"] - rss["Anonymous"]}


def measure(logdir: str, run_name: str, kind: str, workers: int) -> dict[str, Any]:
    """In the child: read the run with `workers` workers of `kind` (KINDS)."""
    # a fresh cache that holds the whole run: the default cap (4 GB) is less than 1,024 ranks'
    # tables, and evicting the run's own entries while it is read measures the eviction
    os.environ.setdefault("TB_PERF_CACHE_MAX_MB", str(CACHE_MAX_MB))
    work = Path(tempfile.mkdtemp(prefix="scale-"))  # caches and store: GBs, removed below
    cluster_env: dict[str, str] = {}
    s3_host = None
    if kind == "dask-s3":  # before fsspec is imported: it reads FSSPEC_S3_* then
        s3_host, cluster_env = _s3_store()
        os.environ.update(cluster_env)
    if kind == "dask-file":
        cluster_env = {"TB_PERF_CACHE_DIR": str(work / "workers")}
    from tb_perf_plugin.store import RunStore
    from tb_perf_plugin.views.findings import findings
    from tb_perf_plugin.views.overview import summary
    from tb_perf_plugin.views.rank_heatmap import rank_heatmap
    from tb_perf_plugin.views.timeline import timeline_meta

    # Worker processes must not inherit stdout: the parent reads it to the end (run_child).
    stdout = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    host = client = None
    executor = "process"
    if kind.startswith("dask"):
        import multiprocessing

        import distributed

        # the cluster in a process of its own, as a cluster's scheduler is: a LocalCluster
        # runs its scheduler in the process that makes it, whose memory (every task's state)
        # would be counted as the serving process'
        spawn = multiprocessing.get_context("spawn")
        addresses, stop = spawn.Queue(), spawn.Event()
        host = spawn.Process(target=host_cluster, args=(workers, addresses, stop, cluster_env))
        host.start()
        address = addresses.get(timeout=120)
        client = distributed.Client(address)
        idle = client.run(_status)
        executor = address.replace("tcp://", "dask://")
    else:
        os.environ["TB_PERF_WORKERS"] = str(workers)
    cache_dir = str(work / "cache")  # the serving process' (and a local pool's)
    store = {"dask": cache_dir, "dask-file": (work / "store").as_uri(),
             "dask-s3": "s3://tb-perf-store/scale"}.get(kind)  # fmt: skip
    os.environ["TB_PERF_CACHE_DIR"] = cache_dir
    if store is not None:  # the store: the cluster's workers write it
        os.environ["TB_PERF_STORE"] = store
    try:
        service = RunStore(logdir, executor=executor)
        run = service.find_run(run_name)
        phases: dict[str, dict[str, float]] = {}

        def phase(name: str, call: Any) -> Any:
            """`call()` timed, with the serving process' peak RSS during it alone (VmHWM reset
            first through /proc/self/clear_refs)."""
            with open("/proc/self/clear_refs", "w") as refs:
                refs.write("5")
            t0 = time.perf_counter()
            out = call()
            phases[name] = {"s": time.perf_counter() - t0, "peak": _status()["VmHWM"]}
            return out

        tables = phase("tables", lambda: service.tables(run, wait_s=None))
        overview = phase("overview", lambda: (
            summary(service, run_name, wait_s=None),
            findings(service, run_name, wait_s=None),
            rank_heatmap(service, run_name, "step_time", wait_s=None),
        ))  # fmt: skip
        meta = phase("timeline", lambda: timeline_meta(service, run_name, wait_s=None))
        tile_s = phase("tiles", lambda: _tiles(service, run_name, meta))
        held = _rss_split()  # what the serving process holds at the end
        at_url = store is not None and "://" in store
        fetched = _bytes_in(Path(cache_dir))  # with a URL store, what the serving process copied
        store_bytes = _store_bytes(store) if at_url else fetched
        if kind.startswith("dask"):
            peaks = [
                {"peak": after["VmHWM"], "idle": idle[address]["VmRSS"]}
                for address, after in client.run(_status).items()
            ]
        else:
            # a benchmark may look at the pool's processes (the ProcessPool's workers)
            workers = service._executor.get()._workers
            pids = [worker.process.pid for worker in workers]
            peaks = [{"peak": _status(pid)["VmHWM"], "idle": None} for pid in pids]
        heatmap = overview[2]
        result = {
            "phases": phases,
            "tile_p95_s": percentile(tile_s, 95),
            "tiles": len(tile_s),
            "traces": len(tables.traces),
            "ranks": len(tables.ranks),
            "events": meta["events"],
            "straggler": _straggler_found(overview[1], heatmap),
            "slices": sum(t.slices for t in tables.traces),
            "warnings": tables.warnings[:3],
            "held": held,
            "store_bytes": store_bytes,
            "fetched_bytes": fetched if at_url else None,
            "workers": peaks,
        }
        service.close()
    finally:  # a failed read stops the cluster too (its host would keep this one alive)
        if client is not None and host is not None:
            client.close()
            stop.set()
            host.join(timeout=60)
        if s3_host is not None:
            s3_host.terminate()
        shutil.rmtree(work, ignore_errors=True)
        os.dup2(stdout, 1)
    return result


def _bytes_in(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _store_bytes(url: str) -> int:
    import fsspec

    fs, root = fsspec.core.url_to_fs(url)
    return int(fs.du(root))


def _s3_store() -> tuple[Any, dict[str, str]]:
    """An S3 API (moto's server, in a process of its own: it holds every object in memory)
    with the bucket tb-perf-store; the process and what reaches it (endpoint, credentials)."""
    import multiprocessing

    spawn = multiprocessing.get_context("spawn")
    endpoints = spawn.Queue()
    process = spawn.Process(target=host_s3, args=(endpoints,), daemon=True)
    process.start()
    endpoint = endpoints.get(timeout=120)
    env = {"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
           "AWS_DEFAULT_REGION": "us-east-1", "FSSPEC_S3_ENDPOINT_URL": endpoint}  # fmt: skip
    return process, env


def host_s3(endpoints: Any) -> None:
    """In a process of its own: moto's S3 server on a free port, with the bucket made."""
    import threading

    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="bench",
                 aws_secret_access_key="bench", region_name="us-east-1",
                 ).create_bucket(Bucket="tb-perf-store")  # fmt: skip
    endpoints.put(endpoint)
    threading.Event().wait()  # until terminated


def host_cluster(workers: int, addresses: Any, stop: Any, env: dict[str, str]) -> None:
    """In a process of its own: a Dask LocalCluster of `workers` single-threaded worker
    processes (their environment: this one's and `env`), its scheduler's address put on
    `addresses`, closed when `stop` is set."""
    import distributed

    os.environ.update(env)

    with distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        memory_limit=0,
    ) as cluster:  # fmt: skip
        addresses.put(cluster.scheduler_address)
        stop.wait()


def _tiles(service: Any, run_name: str, meta: dict[str, Any]) -> list[float]:
    """Seconds per tile request of TILE_LANES lanes (whole ranks picked at random, as the
    heatmap picks them into the Timeline) over random windows, each zoom from the whole run
    down to a thousandth of it."""
    from tb_perf_plugin.views.timeline import timeline_tiles

    rng = random.Random(23)
    lanes = {r["rank"]: len(r["lanes"]) for r in meta["ranks"]}
    seconds = []
    for _ in range(TILES):
        picked: list[int] = []
        while sum(lanes[r] for r in picked) < TILE_LANES and len(picked) < len(lanes):
            picked.append(rng.choice([r for r in lanes if r not in picked]))
        span = meta["end"] * 10 ** rng.uniform(-3, 0)
        start = int(rng.uniform(0, meta["end"] - span))
        t0 = time.perf_counter()
        timeline_tiles(service, run_name, str(start), str(start + int(span)), "1600",
                       ",".join(map(str, picked)), wait_s=None)  # fmt: skip
        seconds.append(time.perf_counter() - t0)
    return seconds


def _straggler_found(found: dict[str, Any], heatmap: dict[str, Any]) -> dict[str, bool]:
    """Whether the planted straggler is the heatmap's first outlier rank (slow) and named by
    a straggler finding."""
    top = heatmap["outlier_ranks"][:1]
    return {
        "heatmap": bool(top) and (top[0]["rank"], top[0]["direction"]) == (STRAGGLER, "high"),
        "finding": any(
            f["kind"] == "straggler" and STRAGGLER in f["ranks"] for f in found["findings"]
        ),
    }


def one_rank(path: str) -> dict[str, Any]:
    from tb_perf_plugin.ingest.kineto import read_trace

    return {"events": read_trace(path).n_events}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=256)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--kinds", default="process,dask", help="executors, comma-separated")
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

    kinds = args.kinds.split(",")
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
            # VmHWM is reset before each phase: the process' peak is the highest phase's
            serving_peak = max(p["peak"] for p in out["phases"].values())
            results.setdefault(kind, {})[workers] = {**out, "server_peak": serving_peak}
            worker_peaks = [w["peak"] for w in out["workers"]]
            # pool processes start with the one-rank child's imports: its RSS is their idle
            above = [w["peak"] - (w["idle"] or single.rss_base) for w in out["workers"]]
            bounded = max(above) <= 2 * rank_set
            ok &= bounded
            phases = out["phases"]
            print(
                f"{kind:7s} x{workers}: {out['traces']} traces, {out['events']:,} events, "
                f"{out['slices']:,} slices; worker peaks "
                + ", ".join(f"{p / MB:.0f}" for p in worker_peaks)
                + f" MB ({', '.join(f'+{a / MB:.0f}' for a in above)} MB above idle)"
                + f" [{'ok' if bounded else 'MISSED'}: <= 2 x one rank]"
            )
            for name, got in phases.items():
                print(f"    {name:9s} {got['s']:7.1f} s, serving peak {got['peak'] / MB:6.0f} MB")
            print(
                f"    serving peak {serving_peak / MB:.0f} MB overall, at the end "
                f"{out['held']['anonymous'] / MB:.0f} MB anonymous + "
                f"{out['held']['file'] / MB:.0f} MB mapped files; store "
                f"{out['store_bytes'] / MB:,.0f} MB"
                + (
                    f" (fetched by the serving process: {out['fetched_bytes'] / MB:,.0f} MB)"
                    if out["fetched_bytes"] is not None
                    else ""
                )  # fmt: skip
                + f"; tile p95 "
                f"{out['tile_p95_s'] * 1e3:.0f} ms over {out['tiles']}; straggler found: "
                f"{out['straggler']}"
            )
            if out["warnings"]:
                print(f"  warnings: {out['warnings']}")
        by_count = results.get(kind, {})
        if 1 in by_count and 2 in by_count:
            ratio = by_count[2]["phases"]["tables"]["s"] / by_count[1]["phases"]["tables"]["s"]
            faster = ratio < 1
            ok &= faster
            print(f"{kind:7s}: 2 workers / 1 worker = {ratio:.2f} "
                  f"[{'ok' if faster else 'MISSED'}: < 1]")  # fmt: skip
    if args.json:
        print(json.dumps({"one_rank": single.to_json(), "results": results}, default=str))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
