"""Timeline tiles over random windows of a large 8-rank run.

    python benchmarks/timeline.py [--requests 200] [--seed 0] [--copies 6] [--json]

The run (generated once into $TB_PERF_BENCH_DIR, default ~/.cache/tb-perf-bench, as
`timeline_logdir/ddp8/rank<r>.<ms>.pt.trace.json.gz`) is 8 ranks of a real DDP trace,
HolisticTraceAnalysis's `df_index_resolver` (V100, rank 1 of 2: nested CPU ops on a forward and
a backward thread, cuda_runtime launches with `correlation`, kernels / memcpy / memset on GPU
streams with the matching correlation and ac2g flows, ProfilerStep#N annotations,
`ncclKernel_AllReduce` kernels, `[memory]` events), each rank `--copies` copies laid end to end
along time (ids, correlations and step numbers offset per copy), with `distributedInfo` rank r
of 8, the GPU pid / `device` arg = r, its own host pid and thread ids, and a per-rank clock
offset. With the default 6 copies: 8 x ~1.3 M = ~10.4 M trace events, of which ~5.9 M are
slices (complete events drawn as boxes; the rest are ac2g flow ends and `[memory]` counter
points), so the run holds >= 5 M events whichever way they are counted.

Measured in this process, after `RunStore(logdir)` has ingested the run (cold: a fresh
TB_PERF_CACHE_DIR; the ingest time and memory are reported too, and a warm re-open with the
same cache in a second RunStore):
  for N random windows (10 % whole run, 30 % one step +- a margin, 40 % log-uniform widths from
  1 us to the whole run, 20 % very small: 100 ns to 100 us), random width_px 800..3000:
    server time = views.timeline.timeline_tiles(store, run, start, end, width_px) + json.dumps
    of the answer,
    and, as TensorBoard serves it, tiles + http_util.Respond (Cleanse + json.dumps + gzip 3);
    payload = bytes of the json.dumps answer (and gzipped).
Then every route of the run once (overview, findings, breakdown, distributed, critical path,
operators, kernels, modules, memory, GPU, rank heatmaps, timeline meta), and the same on a
second RunStore over the same cache folder, as after a TensorBoard restart: its answers must
equal the first's.
Targets: p95 server time <= 100 ms; payload <= 1 MB (1,000,000 bytes) on every request
(issue 3); the restarted store's time to every route <= 5 % of the cold time to them (issue
22).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import (  # noqa: E402
    MB,
    _descendants,
    _rss,
    bench_dir,
    load_trace,
    loadavg,
    percentile,
    proc_fields,
    replicate_events,
    shared_trace,
    write_kineto,
)

WORLD = 8
SOURCE = "df_index_resolver/df_index_resolver.json.gz"
RUN = "ddp8"
P95_TARGET_S = 0.100
PAYLOAD_TARGET = 1_000_000


# ------------------------------------------------------------------------------------------
# The run


def _rank_transform(rank: int, host_pids: set[int], host_tids: set[int], gpu_pid: int):
    """Rename one rank's processes: host pid and thread ids -> its own, GPU pid -> `rank`."""
    host_pid = {p: p + 1000 * rank for p in host_pids}
    host_tid = {t: t + 1000 * rank for t in host_tids}

    def transform(e: dict[str, Any]) -> dict[str, Any] | None:
        pid = e.get("pid")
        if pid in host_pid:
            e["pid"] = host_pid[pid]
            if e.get("tid") in host_tid:
                e["tid"] = host_tid[e["tid"]]
                if e.get("ph") == "M" and e.get("name") == "thread_name":
                    e["args"]["name"] = f"thread {e['tid']} (python3.8)"
        elif pid == gpu_pid:
            e["pid"] = rank
            if e.get("ph") == "M" and e.get("name") == "process_labels":
                e["args"]["labels"] = f"GPU {rank}"
        elif isinstance(pid, int) and e.get("ph") == "M":
            return None  # metadata of a GPU this rank does not use
        args = e.get("args")
        if args:
            if "device" in args:
                args["device"] = rank
            if args.get("Device Type") == 1:
                args["Device Id"] = rank
        return e

    return transform


def build_run(copies: int) -> tuple[Path, dict[str, Any]]:
    logdir = bench_dir() / f"timeline_logdir_x{copies}"
    run_dir = logdir / RUN
    info_file = logdir / "info.json"
    if info_file.exists():
        return logdir, json.loads(info_file.read_text())
    run_dir.mkdir(parents=True, exist_ok=True)
    base = load_trace(shared_trace(SOURCE))
    events = base.pop("traceEvents")
    base.pop("traceName", None)
    gpu_pids = {e["pid"] for e in events if e.get("cat") == "kernel"}
    host_pids = {e["pid"] for e in events if e.get("cat") == "cpu_op"}
    host_tids = {e["tid"] for e in events if e.get("pid") in host_pids and e.get("tid")}
    (gpu_pid,) = gpu_pids
    info: dict[str, Any] = {"source": str(shared_trace(SOURCE)), "copies": copies, "ranks": []}
    rng = random.Random(1234)
    first_ms = int(min(e["ts"] for e in events if "ts" in e) // 1000)
    for rank in range(WORLD):
        meta = dict(base)
        meta["distributedInfo"] = {"backend": "nccl", "rank": rank, "world_size": WORLD}
        offset_us = rank * 173 + rng.randint(0, 40)  # each host's clock a little off
        path = run_dir / f"rank{rank}.{first_ms}.pt.trace.json.gz"
        print(f"generating {path} ...", file=sys.stderr)
        raw, n = write_kineto(
            path,
            meta,
            replicate_events(
                events,
                copies,
                ts_offset=offset_us,
                transform=_rank_transform(rank, host_pids, host_tids, gpu_pid),
            ),
        )
        info["ranks"].append({"path": str(path), "raw_bytes": raw, "events": n})
    info["events"] = sum(r["events"] for r in info["ranks"])
    info["raw_bytes"] = sum(r["raw_bytes"] for r in info["ranks"])
    info["gz_bytes"] = sum(Path(r["path"]).stat().st_size for r in info["ranks"])
    info_file.write_text(json.dumps(info, indent=1))
    return logdir, info


# ------------------------------------------------------------------------------------------
# Measuring


def _status() -> dict[str, int]:
    return proc_fields("/proc/self/status", ("VmRSS", "VmHWM"))


class _WorkerSampler:
    """Peak summed RSS of this process's descendants (an ingest process pool), every 50 ms."""

    def __init__(self) -> None:
        self.peak = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._done.wait(0.05):
            kids = _descendants(os.getpid())
            if kids:
                self.peak = max(self.peak, sum(_rss(k) for k in kids))

    def __enter__(self) -> _WorkerSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()


def windows(meta: dict[str, Any], n: int, rng: random.Random) -> list[tuple[str, int, int, int]]:
    start, end = int(meta["start"]), int(meta["end"])
    total = max(end - start, 1)
    steps = [s for s in meta.get("steps") or [] if s["end"] > s["start"]]
    out = []
    for _ in range(n):
        width_px = rng.randint(800, 3000)
        u = rng.random()
        if u < 0.10:
            kind, t0, t1 = "whole", start, end
        elif u < 0.40 and steps:
            s = rng.choice(steps)
            margin = int((s["end"] - s["start"]) * rng.uniform(0, 0.1))
            kind, t0, t1 = "step", s["start"] - margin, s["end"] + margin
        elif u < 0.80 or not steps:
            w = int(10 ** rng.uniform(3, math.log10(total)))
            t0 = rng.randint(start, max(start, end - w))
            kind, t1 = "zoom", t0 + w
        else:
            w = int(10 ** rng.uniform(2, 5))  # 100 ns .. 100 us
            t0 = rng.randint(start, max(start, end - w))
            kind, t1 = "tiny", t0 + w
        t0, t1 = max(t0, start), min(t1, end)
        if t1 <= t0:
            t0, t1 = end - 1, end
        out.append((kind, t0, t1, width_px))
    return out


def _wait_meta(svc: Any, timeout_s: float = 3600.0) -> dict[str, Any]:
    """timeline/meta once ingest is done (polls: the store raises Progress meanwhile)."""
    from tb_perf_plugin import views
    from tb_perf_plugin.errors import Progress

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return views.timeline.timeline_meta(svc, RUN, wait_s=1.0)
        except Progress as progress:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"ingest not done after {timeout_s:g} s: {progress.message}"
                ) from None


# Every route of one run that reads the run's own results (docs/HTTP_API.md), with valid
# parameters: what a user opening each dashboard asks first.
_ROUTES = (
    ("overview", "summary", {}), ("findings", "findings", {}), ("breakdown", "breakdown", {}),
    ("distributed", "distributed", {"rank": None}),
    ("critical_path", "critical_path", {"rank": None, "step": None}),
    ("operators", "operators", {"rank": None, "group_by": None, "limit": None}),
    ("kernels", "kernels", {"rank": None, "limit": None, "q": None, "group_by": None}),
    ("modules", "modules", {"rank": None}), ("memory", "memory", {"rank": None}),
    ("gpu", "gpu", {"rank": None}),
    ("rank_heatmap", "rank_heatmap", {"metric": "step_time"}),
    ("rank_heatmap", "rank_heatmap", {"metric": "collective_wait"}),
    ("timeline", "timeline_meta", {}),
)  # fmt: skip


def _every_route(svc: Any) -> list[Any]:
    """Each route's answer, waiting until its data is ready (the error's text where a route
    has nothing for this run), as JSON text: what is served."""
    from tb_perf_plugin import views
    from tb_perf_plugin.errors import TbPerfError

    answers = []
    for module, name, params in _ROUTES:
        view = getattr(getattr(views, module), name)
        try:
            answers.append(json.dumps(view(svc, RUN, **params, wait_s=None)))
        except TbPerfError as exc:
            answers.append(f"{type(exc).__name__}: {exc.message}")
    return answers


def _request():
    from werkzeug.test import EnvironBuilder

    return EnvironBuilder(headers={"Accept-Encoding": "gzip"}).get_request()


def measure(logdir: Path, n: int, seed: int) -> dict[str, Any]:
    cache_dir = tempfile.mkdtemp(prefix="timeline-cache-", dir=bench_dir())
    os.environ["TB_PERF_CACHE_DIR"] = cache_dir
    from tensorboard.backend import http_util

    from tb_perf_plugin import views
    from tb_perf_plugin.store import RunStore

    result: dict[str, Any] = {"cache_dir": cache_dir, "loadavg_start": loadavg()}
    base = _status()
    with _WorkerSampler() as workers:
        t0 = time.perf_counter()
        svc = RunStore(str(logdir))
        meta = _wait_meta(svc)
        ingest_s = time.perf_counter() - t0
    after = _status()
    result["ingest"] = {
        "cold_s": ingest_s,
        "rss_base": base["VmRSS"],
        "rss_after": after["VmRSS"],
        "added_peak_rss": after["VmHWM"] - base["VmRSS"],
        "retained_rss": after["VmRSS"] - base["VmRSS"],
        "workers_peak_rss": workers.peak,
    }
    result["meta"] = {
        k: meta.get(k) for k in ("origin_ns", "start", "end", "events") if isinstance(meta, dict)
    }
    result["meta"]["steps"] = len(meta.get("steps") or [])
    result["meta"]["lanes"] = sum(len(r.get("lanes", [])) for r in meta.get("ranks", []))

    rng = random.Random(seed)
    request = _request()
    rows = []
    for kind, t0_ns, t1_ns, width_px in windows(meta, n, rng):
        a = time.perf_counter()
        # as the route calls it: query parameters are strings
        tiles = views.timeline.timeline_tiles(svc, RUN, str(t0_ns), str(t1_ns), str(width_px))
        if not isinstance(tiles, dict):
            raise RuntimeError(f"timeline_tiles answered {tiles!r} after ingest finished")
        b = time.perf_counter()
        body = json.dumps(tiles)
        c = time.perf_counter()
        http_util.Respond(request, tiles, "application/json")
        d = time.perf_counter()
        payload = len(body.encode())
        rows.append(
            {
                "kind": kind,
                "start": t0_ns,
                "end": t1_ns,
                "width_px": width_px,
                "tiles_s": b - a,
                "server_s": c - a,  # tiles + json.dumps
                "served_s": (b - a) + (d - c),  # tiles + Respond (Cleanse, dumps, gzip)
                "payload": payload,
                "gzip_payload": len(gzip.compress(body.encode(), 3)),
                "boxes": sum(len(ln["boxes"]["start"]) for ln in tiles.get("lanes", [])),
            }
        )
    result["requests"] = rows
    t0 = time.perf_counter()
    result["routes"] = _every_route(svc)
    result["ingest"]["routes_cold_s"] = time.perf_counter() - t0
    result["loadavg_end"] = loadavg()

    # warm re-open: a second service on the same cache, as after a TensorBoard restart
    t0 = time.perf_counter()
    svc2 = RunStore(str(logdir))
    _wait_meta(svc2)
    result["ingest"]["warm_s"] = time.perf_counter() - t0
    if _every_route(svc2) != result["routes"]:
        raise RuntimeError("the warm re-open answered a route differently")
    result["ingest"]["warm_all_s"] = time.perf_counter() - t0
    result["ingest"]["warm_computed"] = svc2.result_cache.counts.misses
    for s in (svc, svc2):
        close = getattr(s, "close", None)
        if close:
            close()
    return result


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def stats(key: str) -> dict[str, float]:
        vals = [r[key] for r in rows]
        return {
            "p50": percentile(vals, 50),
            "p95": percentile(vals, 95),
            "max": max(vals),
        }

    by_kind: dict[str, Any] = {}
    for kind in sorted({r["kind"] for r in rows}):
        sub = [r for r in rows if r["kind"] == kind]
        by_kind[kind] = {
            "n": len(sub),
            "server_p95": percentile([r["server_s"] for r in sub], 95),
            "server_max": max(r["server_s"] for r in sub),
            "payload_max": max(r["payload"] for r in sub),
        }
    return {
        "n": len(rows),
        "tiles_s": stats("tiles_s"),
        "server_s": stats("server_s"),
        "served_s": stats("served_s"),
        "payload": stats("payload"),
        "gzip_payload": stats("gzip_payload"),
        "first_server_s": rows[0]["server_s"] if rows else None,
        "by_kind": by_kind,
    }


def _missing_api() -> str | None:
    try:
        from tb_perf_plugin.views import timeline
    except ImportError as exc:
        return f"tb_perf_plugin.views.timeline ({exc})"
    for name in ("timeline_meta", "timeline_tiles"):
        if not hasattr(timeline, name):
            return f"views.timeline.{name}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--copies", type=int, default=6, help="copies of the trace per rank")
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    args = parser.parse_args()
    logdir, info = build_run(args.copies)
    missing = _missing_api()
    if missing:
        print(
            f"run: {info['events']:,} events, 8 ranks, {info['raw_bytes'] / MB:.0f} MB raw"
            f" ({info['gz_bytes'] / MB:.0f} MB gzipped) in {logdir}\n"
            f"{missing}: not available yet"
        )
        return
    try:
        result = measure(logdir, args.requests, args.seed)
    finally:
        cache = os.environ.get("TB_PERF_CACHE_DIR", "")
        if cache.startswith(str(bench_dir())):
            import shutil

            shutil.rmtree(cache, ignore_errors=True)
    summary = summarize(result["requests"])
    if args.json:
        print(json.dumps({"run": info, "summary": summary, **result}, indent=2, default=str))
        return
    ing, meta = result["ingest"], result["meta"]
    print(
        f"run {RUN}: {info['events']:,} events in 8 ranks, {info['raw_bytes'] / MB:.0f} MB raw"
        f" ({info['gz_bytes'] / MB:.0f} MB gzipped); timeline/meta says {meta.get('events')}"
        f" events, {meta['steps']} steps, {meta['lanes']} lanes"
    )
    workers = ing["workers_peak_rss"]
    print(
        f"ingest (cold, in process): {ing['cold_s']:.1f} s; added peak RSS"
        f" {ing['added_peak_rss'] / MB:.0f} MB, retained {ing['retained_rss'] / MB:.0f} MB"
        + (f", workers' peak {workers / MB:.0f} MB" if workers else "")
        + f"; warm re-open {ing['warm_s']:.2f} s"
    )
    cold_all = ing["cold_s"] + ing["routes_cold_s"]
    print(
        f"every route once ({len(_ROUTES)}: overview ... timeline): cold {cold_all:.1f} s"
        f" (ingest + timeline {ing['cold_s']:.1f} s, the rest {ing['routes_cold_s']:.1f} s);"
        f" after a restart {ing['warm_all_s']:.2f} s = {ing['warm_all_s'] / cold_all:.1%}"
        f" of cold (target <= 5 %), {ing['warm_computed']} results computed again"
    )
    print(f"\n{summary['n']} tile requests (first: {summary['first_server_s'] * 1e3:.1f} ms)")
    print(f"  {'':36} {'p50':>9} {'p95':>9} {'max':>9}")
    for key, label in (
        ("tiles_s", "timeline_tiles ms"),
        ("server_s", "server ms (tiles + json.dumps)"),
        ("served_s", "as served ms (tiles + Respond)"),
    ):
        s = summary[key]
        print(f"  {label:36} {s['p50'] * 1e3:9.1f} {s['p95'] * 1e3:9.1f} {s['max'] * 1e3:9.1f}")
    for key, label in (("payload", "payload KB (JSON)"), ("gzip_payload", "payload KB (gzip 3)")):
        s = summary[key]
        print(f"  {label:36} {s['p50'] / 1e3:9.1f} {s['p95'] / 1e3:9.1f} {s['max'] / 1e3:9.1f}")
    print("  by window kind:")
    for kind, k in summary["by_kind"].items():
        print(
            f"    {kind:6} n={k['n']:3}  server p95 {k['server_p95'] * 1e3:7.1f} ms"
            f"  max {k['server_max'] * 1e3:7.1f} ms  payload max {k['payload_max'] / 1e3:7.1f} KB"
        )
    load = f"{result['loadavg_start']} at start, {result['loadavg_end']} at end"
    print(f"load average (1 min): {load} (2 cores; other work inflates the times)")
    p95 = summary["server_s"]["p95"]
    served = summary["served_s"]["p95"]
    pmax = summary["payload"]["max"]
    print("targets (issue 3):")
    ok = "ok" if p95 <= P95_TARGET_S else "MISSED"
    print(f"  p95 server time (tiles + json.dumps) {p95 * 1e3:7.1f} ms   <= 100 ms {ok}")
    ok = "ok" if served <= P95_TARGET_S else "MISSED"
    print(f"  p95 as served (tiles + Respond)      {served * 1e3:7.1f} ms   <= 100 ms {ok}")
    ok = "ok" if pmax <= PAYLOAD_TARGET else "MISSED"
    print(f"  max payload                          {pmax / 1e3:7.1f} KB   <= 1 MB {ok}")


if __name__ == "__main__":
    main()
