"""A TensorBoard serving a logdir full of hostile files, beside the same server without them.

    python benchmarks/hostile.py [--busy 2] [--requests 20] [--json]

Two logdirs are made in a temporary folder: `clean` holds copies of two demo runs
(`ddp_traced`, `ddp_leak`); `hostile` holds the same runs plus a run with every attack of
issue 16 at once: links to files outside the logdir of every kind, a FIFO named like every
file a reader opens, links to /dev/zero, a "set bomb" snapshot pickle (12 MB of EMPTY_SET
opcodes), a snapshot whose allocations share one 100,000-frame stack, a 1 MB gzip of a trace
head and 1 GiB of spaces, a cProfile file whose keys all collide in the hash table, and an
unlistable folder. With `--busy` busy loops beside it (other
work on both cores), each server is started (TensorBoard's server with tb_perf only, a fresh
cache), every route of the hostile run is asked once (in threads, not waited for), and then
`runs` and the valid run's `summary` are timed `--requests` times each (after the first 200).
Printed per server: the latency max and median of both, and the server process' RSS at the
end and its peak (VmHWM), which the hostile server must keep within 300 MB of the clean one.
Exits 1 if a timed request took a second or more, any request got a 5xx, or RSS exceeded it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import MB, REPO, loadavg, percentile, proc_fields  # noqa: E402
from concurrency import ONLY_TB_PERF, STARTUP_TIMEOUT_S, _free_port, _listed  # noqa: E402

RUNS = ("ddp_traced", "ddp_leak")
PLUGIN = Path("plugins") / "tb_perf"
PREFIX = "rank1.h.2"
HOSTILE_ROUTES = ("summary", "findings", "breakdown", "operators", "kernels", "memory", "gpu",
                  "tasks", "timeline/meta", "python")  # fmt: skip
RSS_MARGIN = 300 * MB
READY_TIMEOUT_S = 120


def set_bomb(path: Path) -> None:
    """A list of 12 M empty sets from 12 MB: ~220x inflation unbudgeted (issue 16, item 4)."""
    path.write_bytes(b"\x80\x04](" + b"\x8f" * 12_000_000 + b"e.")


def long_shared_stack(path: Path) -> None:
    """20 allocations sharing one 100,000-frame stack (issue 16, item 7)."""
    import pickle

    frames = [{"filename": f"f{i}.py", "line": i, "name": "fn"} for i in range(100_000)]
    blocks = [{"size": 512, "requested_size": 512, "address": 4096 * i, "state": "active_allocated",
               "frames": frames} for i in range(20)]  # fmt: skip
    segment = {"device": 0, "address": 0, "total_size": 1 << 20, "allocated_size": 10240,
               "active_size": 10240, "requested_size": 10240, "stream": 0,
               "segment_type": "small", "blocks": blocks}  # fmt: skip
    traces = [{"action": "alloc", "addr": 4096 * i, "size": 512, "stream": 0, "time_us": i,
               "frames": frames} for i in range(20)]  # fmt: skip
    snapshot = {"segments": [segment], "device_traces": [traces]}
    path.write_bytes(pickle.dumps(snapshot, protocol=4))


def colliding_profile(path: Path, keys: int = 160_000) -> None:
    """A cProfile file of int keys that all hash to 0 (multiples of 2**61 - 1): quadratic for
    `marshal.loads`, the whole 120 s parser budget at 2.8 MB (issue 16, item 9). Assembled by
    hand: building the dict here would cost this process the same time."""
    import marshal

    step = 2**61 - 1
    pairs = b"".join(marshal.dumps(k * step) + marshal.dumps(None) for k in range(1, keys + 1))
    path.write_bytes(b"{" + pairs + b"0")


def spaces_after_a_trace_head(path: Path) -> None:
    """1 MB of gzip: a trace's head, then 1 GiB of spaces (issue 16, item 6)."""
    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(
            b'{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 2, "pid": 1, "tid": 1'
        )
        block = b" " * (1 << 24)
        for _ in range(64):
            out.write(block)


def hostile_run(run: Path, outside: Path) -> None:
    shutil.copytree(REPO / "sample_runs" / "ddp_traced", run)
    plugin = run / PLUGIN
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("root:SECRET:20228:0:99999\n")
    for name in (f"{PREFIX}.steps1-1.pt.trace.json.gz", f"{PREFIX}.timer.jsonl",
                 f"{PREFIX}.meta.json", "rank5.h.6.task-DIT.summary.json"):  # fmt: skip
        os.symlink(secret, plugin / name)
    os.symlink("/dev/zero", plugin / "rank6.h.7.task-DIT.summary.json")
    os.symlink("/dev/zero", plugin / "rank6.h.7.steps1-1.pt.trace.json")
    fifos = ("steps1-1.pt.trace.json", "timer.jsonl", "meta.json", "memory.jsonl",
             "task-DIT.summary.json", "snapshot.step.1.pickle")  # fmt: skip
    for name in fifos:
        os.mkfifo(plugin / f"rank7.h.8.{name}")
    (plugin / "imported").mkdir()
    os.mkfifo(plugin / "imported" / "fifo.sqlite")
    os.mkfifo(run / "fifo.prof")
    set_bomb(plugin / "rank0.h.1.snapshot.bomb.1.pickle")
    long_shared_stack(plugin / "rank0.h.1.snapshot.stack.1.pickle")
    spaces_after_a_trace_head(plugin / "rank8.h.9.steps1-1.pt.trace.json.gz")
    colliding_profile(run / "rank0.colliding.prof")
    locked = run / "locked"
    locked.mkdir()
    locked.chmod(0)


def make_logdirs(root: Path) -> tuple[Path, Path]:
    clean, hostile = root / "clean", root / "hostile"
    for logdir in (clean, hostile):
        for name in RUNS:
            shutil.copytree(REPO / "sample_runs" / name, logdir / name)
    hostile_run(hostile / "attack", root / "outside")
    return clean, hostile


def _get(url: str, timeout_s: float = 120) -> tuple[int, float, Any]:
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            body = json.load(response)
            return response.status, time.perf_counter() - started, body
    except urllib.error.HTTPError as exc:
        return exc.code, time.perf_counter() - started, None
    except (OSError, ValueError):
        return 0, time.perf_counter() - started, None


def measure(logdir: Path, attack: bool, requests: int, scratch: Path) -> dict[str, Any]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    api = f"{base}/data/plugin/tb_perf"
    env = {**os.environ, "TB_PERF_CACHE_DIR": str(scratch / f"cache-{port}")}
    flags = ["--logdir", str(logdir), "--host", "127.0.0.1", "--port", str(port)]
    log = open(scratch / f"tensorboard-{port}.log", "wb")  # noqa: SIM115 (closed below)
    server = subprocess.Popen([sys.executable, "-c", ONLY_TB_PERF, *flags], stdout=log,
                              stderr=subprocess.STDOUT, env=env)  # fmt: skip
    statuses: list[int] = []
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _listed(base):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"TensorBoard did not start: {log.name}")
            time.sleep(0.2)
        if attack:  # every route of the attack run and each snapshot, not waited for
            urls = [f"{api}/{route}?run=attack" for route in HOSTILE_ROUTES]
            for name in ("bomb", "stack"):
                file = f"{PLUGIN}/rank0.h.1.snapshot.{name}.1.pickle"
                urls += [f"{api}/snapshot?run=attack&file={file}"]
            for url in urls:
                threading.Thread(
                    target=lambda u=url: statuses.append(_get(u)[0]), daemon=True
                ).start()
        ready_by = time.monotonic() + READY_TIMEOUT_S
        while _get(f"{api}/summary?run=ddp_traced")[0] != 200:
            if time.monotonic() > ready_by:
                return {"logdir": logdir.name, "error": f"summary not ready in {READY_TIMEOUT_S} s"}
            time.sleep(0.2)
        timings: dict[str, list[float]] = {"runs": [], "summary": []}
        for _ in range(requests):
            for route, url in (
                ("runs", f"{api}/runs"),
                ("summary", f"{api}/summary?run=ddp_traced"),
            ):
                status, seconds, _ = _get(url)
                statuses.append(status)
                timings[route].append(seconds)
        time.sleep(5)  # the attack's jobs settle
        memory = proc_fields(f"/proc/{server.pid}/status", ("VmRSS", "VmHWM"))
        return {
            "logdir": logdir.name,
            "runs_max_s": max(timings["runs"]),
            "runs_p50_s": percentile(timings["runs"], 50),
            "summary_max_s": max(timings["summary"]),
            "summary_p50_s": percentile(timings["summary"], 50),
            "rss_mb": memory["VmRSS"] / MB,
            "peak_rss_mb": memory["VmHWM"] / MB,
            "five_xx": sum(s >= 500 for s in statuses),
        }
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:  # a server stuck in a FIFO's open() ignores SIGTERM
            server.kill()
            server.wait()
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--busy", type=int, default=2, help="busy loops beside the servers")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        with tempfile.TemporaryDirectory(prefix="tb-perf-hostile-") as scratch:
            clean, hostile = make_logdirs(Path(scratch))
            results = [
                measure(clean, False, args.requests, Path(scratch)),
                measure(hostile, True, args.requests, Path(scratch)),
            ]
            (Path(scratch) / "outside").chmod(0o755)
            (hostile / "attack" / "locked").chmod(0o755)
    finally:
        for loop in loops:
            loop.kill()
    if any("error" in r for r in results):
        print(json.dumps(results, indent=2))
        sys.exit(1)
    clean_result, hostile_result = results
    worst = max(r[k] for r in results for k in ("runs_max_s", "summary_max_s"))
    extra_mb = hostile_result["rss_mb"] - clean_result["rss_mb"]
    extra_peak_mb = hostile_result["peak_rss_mb"] - clean_result["peak_rss_mb"]
    verdict = {
        "busy_loops": args.busy,
        "loadavg": loadavg(),
        "slowest_s": worst,
        "extra_rss_mb": extra_mb,
        "extra_peak_rss_mb": extra_peak_mb,
        "ok": worst < 1
        and max(extra_mb, extra_peak_mb) < RSS_MARGIN / MB
        and not any(r["five_xx"] for r in results),
    }
    if args.json:
        print(json.dumps({"servers": results, **verdict}, indent=2))
    else:
        for r in results:
            print(f"{r['logdir']:8} runs max {r['runs_max_s'] * 1e3:6.1f} ms (p50 "
                  f"{r['runs_p50_s'] * 1e3:5.1f})  summary max {r['summary_max_s'] * 1e3:6.1f} ms "
                  f"(p50 {r['summary_p50_s'] * 1e3:5.1f})  RSS {r['rss_mb']:6.0f} MB, peak "
                  f"{r['peak_rss_mb']:6.0f} MB  5xx {r['five_xx']}")  # fmt: skip
        print(f"hostile - clean: RSS {extra_mb:+.0f} MB, peak {extra_peak_mb:+.0f} MB; slowest "
              f"timed request {worst * 1e3:.0f} ms; load {verdict['loadavg']}: "
              f"{'ok' if verdict['ok'] else 'FAILED'}")  # fmt: skip
    sys.exit(0 if verdict["ok"] else 1)


if __name__ == "__main__":
    main()
