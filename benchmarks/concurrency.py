"""Concurrent clients against a real TensorBoard while it ingests a large 8-rank run.

    python benchmarks/concurrency.py [--clients 50] [--copies 6] [--after-s 30] [--json]

The run is benchmarks/timeline.py's (8 ranks of HolisticTraceAnalysis's real V100 DDP trace
`df_index_resolver`, `--copies` copies each along time; made once into $TB_PERF_BENCH_DIR and
reused). A TensorBoard process (TensorBoard's own server and built-in plugins plus the
installed tb_perf plugin with its default executor and a fresh TB_PERF_CACHE_DIR; every
installed plugin with `--all-plugins`) serves it; as soon as it lists the plugin,
`--clients` threads each repeat one dashboard reload: TensorBoard's plugins listing, then the
plugin's runs, summary, findings, operators, memory, timeline/meta and, once meta has
answered, timeline/tiles of a random window (timeline.py's mix). They keep going until
`--after-s` seconds after the first timeline/meta 200 (ingest and timeline done), so both
phases are measured: while ingesting (202 progress answers, each after the service's 0.5 s
inline wait) and once ready.

Printed: requests and status counts per route and phase, latency p50 / p95 / max (client-side,
whole request); any 5xx and any request not answered within `--timeout` seconds. Exits 1 on a
5xx or an unanswered request (the issue 9 criterion: every request answered, no 5xx).
The clients run in this process (threads, urllib): on 2 cores they compete with the server for
CPU, so latencies are an upper bound of what the server alone would show.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import MB, loadavg, percentile  # noqa: E402
from timeline import RUN, build_run, windows  # noqa: E402

ROUTES = ("summary", "findings", "operators", "memory", "timeline/meta")
STARTUP_TIMEOUT_S = 120
READY_TIMEOUT_S = 1800  # ingest not done by then: the benchmark gives up
# TensorBoard's own main with its built-in plugins and tb_perf only: other installed plugins
# (torch-tb-profiler parses every trace of the logdir itself) would share the CPU
ONLY_TB_PERF = (
    "import sys; from tensorboard import default, program;"
    " from tb_perf_plugin.loader import TbPerfLoader;"
    " tb = program.TensorBoard(plugins=default.get_static_plugins() + [TbPerfLoader]);"
    " tb.configure(argv=['tensorboard', *sys.argv[1:]]); sys.exit(tb.main())"
)


@dataclass
class Request:
    route: str
    phase: str  # "ingest" (before the first timeline/meta 200) or "ready"
    status: int  # 0: not answered (timeout, connection error)
    seconds: float
    error: str = ""


@dataclass
class Recorder:
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: list[Request] = field(default_factory=list)
    meta: dict[str, Any] | None = None
    ready_at: float | None = None  # monotonic time of the first timeline/meta 200

    def phase(self) -> str:
        return "ingest" if self.ready_at is None else "ready"


def _get(url: str, timeout_s: float) -> tuple[int, Any, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return response.status, json.load(response), ""
    except urllib.error.HTTPError as exc:
        return exc.code, None, exc.read()[:300].decode(errors="replace")
    except OSError as exc:  # timeout, refused, reset: not answered
        return 0, None, repr(exc)


def _client(base: str, rec: Recorder, stop: threading.Event, seed: int, timeout_s: float) -> None:
    rng = random.Random(seed)
    plugin = f"{base}/data/plugin/tb_perf/"
    run = urllib.parse.quote(RUN)
    while not stop.is_set():
        urls = [("plugins_listing", f"{base}/data/plugins_listing"), ("runs", plugin + "runs")]
        urls += [(route, f"{plugin}{route}?run={run}") for route in ROUTES]
        with rec.lock:
            meta = rec.meta
        if meta is not None:
            _, t0, t1, width = windows(meta, 1, rng)[0]
            window = f"start={t0}&end={t1}&width_px={width}"
            urls.append(("timeline/tiles", f"{plugin}timeline/tiles?run={run}&{window}"))
        for route, url in urls:
            phase = rec.phase()
            started = time.perf_counter()
            status, body, error = _get(url, timeout_s)
            elapsed = time.perf_counter() - started
            with rec.lock:
                rec.requests.append(Request(route, phase, status, elapsed, error))
                if route == "timeline/meta" and status == 200 and rec.meta is None:
                    rec.meta, rec.ready_at = body, time.monotonic()
            if stop.is_set():
                return


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _listed(base: str) -> bool:
    status, body, _ = _get(f"{base}/data/plugins_listing", 2)
    return status == 200 and "tb_perf" in body


def measure(
    logdir: Path, clients: int, after_s: float, timeout_s: float, all_plugins: bool
) -> dict[str, Any]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="tb-perf-concurrency-") as scratch:
        env = {**os.environ, "TB_PERF_CACHE_DIR": str(Path(scratch) / "cache")}
        log_path = Path(scratch) / "tensorboard.log"
        flags = ["--logdir", str(logdir), "--host", "127.0.0.1", "--port", str(port)]
        command = [sys.executable, "-m", "tensorboard.main", *flags]
        if not all_plugins:
            command = [sys.executable, "-c", ONLY_TB_PERF, *flags]
        with open(log_path, "wb") as log:
            server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        rec, stop = Recorder(), threading.Event()
        threads = [
            threading.Thread(target=_client, args=(base, rec, stop, seed, timeout_s), daemon=True)
            for seed in range(clients)
        ]
        try:
            deadline = time.monotonic() + STARTUP_TIMEOUT_S
            while not _listed(base):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"TensorBoard did not start:\n{log_path.read_text()}")
                time.sleep(0.2)
            load_start = loadavg()
            started = time.monotonic()
            for thread in threads:
                thread.start()
            while rec.ready_at is None or time.monotonic() < rec.ready_at + after_s:
                if server.poll() is not None:
                    raise SystemExit(f"TensorBoard exited:\n{log_path.read_text()[-5000:]}")
                if time.monotonic() > started + READY_TIMEOUT_S:
                    raise SystemExit(f"timeline/meta not ready after {READY_TIMEOUT_S} s")
                time.sleep(0.5)
            stop.set()
            for thread in threads:
                thread.join(timeout_s + 5)
            hung = sum(thread.is_alive() for thread in threads)
            errors = [line for line in log_path.read_text().splitlines() if "Traceback" in line]
        finally:
            stop.set()
            server.terminate()
            server.wait(30)
    return {
        "clients": clients,
        "ingest_s": rec.ready_at - started,
        "after_s": after_s,
        "requests": [r.__dict__ for r in rec.requests],
        "hung_clients": hung,
        "server_tracebacks": len(errors),
        "loadavg_start": load_start,
        "loadavg_end": loadavg(),
    }


def summarize(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (route, phase) and per phase over all routes."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in requests:
        groups.setdefault((r["route"], r["phase"]), []).append(r)
        groups.setdefault(("all", r["phase"]), []).append(r)
    rows = []
    for (route, phase), items in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        seconds = [r["seconds"] for r in items if r["status"]]
        statuses: dict[int, int] = {}
        for r in items:
            statuses[r["status"]] = statuses.get(r["status"], 0) + 1
        rows.append({
            "route": route, "phase": phase, "n": len(items), "statuses": statuses,
            "p50_s": percentile(seconds, 50), "p95_s": percentile(seconds, 95),
            "max_s": max(seconds, default=float("nan")),
        })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--copies", type=int, default=6, help="copies of the trace per rank")
    parser.add_argument("--after-s", type=float, default=30.0, help="keep polling once ready")
    parser.add_argument("--timeout", type=float, default=120.0, help="per request, seconds")
    parser.add_argument(
        "--all-plugins", action="store_true", help="every installed TensorBoard plugin too"
    )
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    args = parser.parse_args()
    logdir, info = build_run(args.copies)
    result = measure(logdir, args.clients, args.after_s, args.timeout, args.all_plugins)
    rows = summarize(result["requests"])
    if args.json:
        print(json.dumps({"run": info, "summary": rows, **result}, indent=1))
    else:
        print(
            f"run {RUN}: {info['events']:,} events in 8 ranks, {info['raw_bytes'] / MB:.0f} MB raw"
            f" ({info['gz_bytes'] / MB:.0f} MB gzipped); {result['clients']} clients; ingest +"
            f" timeline ready after {result['ingest_s']:.1f} s under load, then"
            f" {result['after_s']:g} s more"
        )
        print(f"{'phase':7} {'route':16} {'requests':>8}  {'statuses':24} "
              f"{'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")  # fmt: skip
        for row in rows:
            statuses = " ".join(f"{k}:{v}" for k, v in sorted(row["statuses"].items()))
            print(
                f"{row['phase']:7} {row['route']:16} {row['n']:8}  {statuses:24} "
                f"{row['p50_s'] * 1e3:8.0f} {row['p95_s'] * 1e3:8.0f} {row['max_s'] * 1e3:8.0f}"
            )
        print(f"load average (1 min): {result['loadavg_start']} at start,"
              f" {result['loadavg_end']} at end (2 cores; the clients share them)")  # fmt: skip
    bad = [r for r in result["requests"] if r["status"] == 0 or r["status"] >= 500]
    five = sum(1 for r in bad if r["status"] >= 500)
    print(
        f"5xx: {five}; unanswered: {len(bad) - five}; hung clients: {result['hung_clients']};"
        f" tracebacks in the TensorBoard log: {result['server_tracebacks']}",
        file=sys.stderr if bad else sys.stdout,
    )
    for r in bad[:10]:
        print(f"  {r['route']} {r['status']} {r['error']}", file=sys.stderr)
    if bad or result["hung_clients"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
