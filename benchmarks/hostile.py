"""TensorBoard serving logdirs full of hostile files, beside the same server without them.

    python benchmarks/hostile.py [--scenarios issue16,sqlite,many_files] [--files 50000]
                                 [--shapes trace] [--busy 2] [--requests 20] [--timeout 600]
                                 [--json]

Logdirs are made in a temporary folder: `clean` holds copies of two demo runs (`ddp_traced`,
`ddp_leak`); each scenario's logdir holds the same runs plus its attack runs:
- `issue16` (RSS margin 300 MB): one run with every attack of issue 16 at once: links to
  files outside the logdir of every kind, a FIFO named like every file a reader opens, links
  to /dev/zero, a "set bomb" snapshot pickle (12 MB of EMPTY_SET opcodes), a snapshot whose
  allocations share one 100,000-frame stack, a 1 MB gzip of a trace head and 1 GiB of
  spaces, a cProfile file whose keys all collide in the hash table, and an unlistable folder;
- `sqlite` (margin 50 MB): a run per hostile Nsight Systems export of issue 40
  (tests/plugin/hostile_exports.py): the FTS5-over-a-recursive-view CPU bomb and its 3 M-row
  memory bomb (24 kB each), the kernel table as a view, a generated column, a WAL-mode file
  with its -wal, a corrupt page, a shared-page b-tree (2.5 kB that scan as 370,000 rows);
- `many_files` (margin 100 MB): a run of `--files` one-byte files of each `--shapes`, named
  as the plugin's readers pick them up (`all` for every shape): `trace`,
  `plugins/tb_perf/rank{i}.h.{i}.steps1-1.pt.trace.json` (a trace to parse each: an executor
  task, a refusal); `worker`, `w{i}.pt.trace.json` (torch-tb-profiler's names without a rank:
  every file a "worker" numbered by sorting the others); `json`, `rank{i}.json` (sniffed);
  `sqlite`, `rank{i}.sqlite` (sniffed, refused as misnamed); `pickle`,
  `plugins/tb_perf/rank{i}.h.{i}.snapshot.s.1.pickle` (snapshots of as many ranks: the newest
  of each loaded by the memory findings); `timer`, `plugins/tb_perf/rank{i}.h.{i}.timer.jsonl`
  (MyTimer files of writers without metadata, read in the server process itself).
With `--busy` busy loops beside it (other work on both cores), each server is started
(TensorBoard's server with tb_perf only, a fresh cache); every attack route is asked until it
answers something else than 202 (in threads: how long each took, its status) while `runs`
and the valid run's `summary` are timed; then both are timed `--requests` more times, the
server's RSS is read (VmRSS and its peak VmHWM) and it is sent SIGTERM: how long it takes to
exit. Exits 1 if a timed request took a second or more, any request got a 5xx, an attack
went unanswered within `--timeout` s, a server took more than 5 s to stop, or a scenario's
RSS exceeded the clean server's by its margin.
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import MB, REPO, loadavg, percentile, proc_fields  # noqa: E402
from concurrency import ONLY_TB_PERF, STARTUP_TIMEOUT_S, _free_port, _listed  # noqa: E402

sys.path.insert(0, str(REPO))
from tests.plugin.hostile_exports import HOSTILE as HOSTILE_EXPORTS  # noqa: E402

RUNS = ("ddp_traced", "ddp_leak")
PLUGIN = Path("plugins") / "tb_perf"
PREFIX = "rank1.h.2"
HOSTILE_ROUTES = ("summary", "findings", "breakdown", "operators", "kernels", "memory", "gpu",
                  "tasks", "timeline/meta", "python")  # fmt: skip
EXPORT_ROUTES = ("summary", "kernels", "timeline/meta")
MANY_FILES_ROUTES = ("summary", "findings", "memory", "python", "kernels", "timeline/meta")
MANY_FILE_SHAPES = {
    "trace": PLUGIN / "rank{i}.h.{i}.steps1-1.pt.trace.json",
    "worker": Path("w{i}.pt.trace.json"),
    "json": Path("rank{i}.json"),
    "sqlite": Path("rank{i}.sqlite"),
    "pickle": PLUGIN / "rank{i}.h.{i}.snapshot.s.1.pickle",
    "timer": PLUGIN / "rank{i}.h.{i}.timer.jsonl",
}
STOP_LIMIT_S = 5.0
SETTLE_S = 5.0  # after the last answer, before memory is read: the attack's jobs settle


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


@dataclass
class Scenario:
    """An attack: what it adds to a copy of the clean logdir, the URLs (under the plugin's
    API) to ask until answered, and how much more RSS than the clean server it may cost."""

    make: Callable[[Path, argparse.Namespace], list[str]]
    margin_mb: float


def _issue16(logdir: Path, args: argparse.Namespace) -> list[str]:
    hostile_run(logdir / "attack", logdir.parent / f"{logdir.name}-outside")
    urls = [f"{route}?run=attack" for route in HOSTILE_ROUTES]
    for name in ("bomb", "stack"):
        urls.append(f"snapshot?run=attack&file={PLUGIN}/rank0.h.1.snapshot.{name}.1.pickle")
    return urls


def _sqlite(logdir: Path, args: argparse.Namespace) -> list[str]:
    urls = []
    for file_name, make in HOSTILE_EXPORTS.items():
        run = f"sqlite_{file_name.removesuffix('.sqlite')}"
        imported = logdir / run / PLUGIN / "imported"  # as `tb-perf ingest` puts them
        imported.mkdir(parents=True)
        make(imported / f"rank0.{file_name}")
        an_hour_ago = time.time() - 3600  # files left in a shared logdir, not being written
        for path in imported.iterdir():
            os.utime(path, (an_hour_ago, an_hour_ago))
        urls += [f"{route}?run={run}" for route in EXPORT_ROUTES]
    return urls


def many_tiny_files(run: Path, count: int, shapes: tuple[str, ...]) -> None:
    """A run folder `run` (a `plugins/tb_perf/` folder makes it a run) holding `count`
    one-byte files of each of `shapes` (MANY_FILE_SHAPES), dated an hour ago (files left in a
    shared logdir, not still being written: those are never refused)."""
    (run / PLUGIN).mkdir(parents=True, exist_ok=True)
    an_hour_ago = time.time() - 3600
    for shape in shapes:
        pattern = str(MANY_FILE_SHAPES[shape])
        for i in range(count):
            path = run / pattern.format(i=i)
            path.write_bytes(b"x")
            os.utime(path, (an_hour_ago, an_hour_ago))


def _many_files(logdir: Path, args: argparse.Namespace) -> list[str]:
    shapes = tuple(MANY_FILE_SHAPES) if args.shapes == "all" else tuple(args.shapes.split(","))
    many_tiny_files(logdir / "attack", args.files, shapes)
    return [f"{route}?run=attack" for route in MANY_FILES_ROUTES]


SCENARIOS = {
    "issue16": Scenario(_issue16, 300),
    "sqlite": Scenario(_sqlite, 50),
    "many_files": Scenario(_many_files, 100),
}


def _logdir(root: Path, name: str) -> Path:
    logdir = root / name
    for run in RUNS:
        shutil.copytree(REPO / "sample_runs" / run, logdir / run)
    return logdir


def _get(url: str, timeout_s: float = 120) -> tuple[int, float, Any]:
    """(status, seconds, JSON body); status 0 when unanswered."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return response.status, time.perf_counter() - started, json.load(response)
    except urllib.error.HTTPError as exc:
        try:
            body = json.load(exc)
        except ValueError:
            body = None
        return exc.code, time.perf_counter() - started, body
    except (OSError, ValueError):
        return 0, time.perf_counter() - started, None


def _ask_until_answered(url: str, answers: dict[str, Any], deadline: float) -> None:
    """Ask `url` until it answers something else than 202 (progress), or the deadline."""
    started = time.monotonic()
    status, body = 202, None
    while time.monotonic() < deadline:
        status, _, body = _get(url, timeout_s=max(1.0, deadline - time.monotonic()))
        if status != 202:
            break
        time.sleep(0.5)
    error = body.get("error", {}).get("message", "") if isinstance(body, dict) else ""
    answers[url] = {"status": status, "after_s": time.monotonic() - started, "error": error}


def _timed(api: str, statuses: list[int], timings: dict[str, list[float]]) -> None:
    for route, url in (("runs", f"{api}/runs"), ("summary", f"{api}/summary?run=ddp_traced")):
        status, seconds, _ = _get(url)
        statuses.append(status)
        timings[route].append(seconds)


def measure(logdir: Path, attack: list[str], args: argparse.Namespace, scratch: Path
            ) -> dict[str, Any]:  # fmt: skip
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    api = f"{base}/data/plugin/tb_perf"
    env = {**os.environ, "TB_PERF_CACHE_DIR": str(scratch / f"cache-{port}")}
    flags = ["--logdir", str(logdir), "--host", "127.0.0.1", "--port", str(port)]
    log = open(scratch / f"tensorboard-{port}.log", "wb")  # noqa: SIM115 (closed below)
    server = subprocess.Popen([sys.executable, "-c", ONLY_TB_PERF, *flags], stdout=log,
                              stderr=subprocess.STDOUT, env=env)  # fmt: skip
    statuses: list[int] = []
    answers: dict[str, Any] = {}
    result: dict[str, Any] = {"logdir": logdir.name}
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _listed(base):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"TensorBoard did not start: {log.name}")
            time.sleep(0.2)
        until = time.monotonic() + args.timeout
        askers = [threading.Thread(target=_ask_until_answered, args=(f"{api}/{url}", answers,
                                   until), daemon=True) for url in attack]  # fmt: skip
        for asker in askers:
            asker.start()
        while _get(f"{api}/summary?run=ddp_traced")[0] != 200:
            if time.monotonic() > until:
                return {**result, "error": f"summary not ready in {args.timeout:g} s"}
            time.sleep(0.2)
        meanwhile: dict[str, list[float]] = {"runs": [], "summary": []}
        while any(a.is_alive() for a in askers):  # the valid run while the attack is read
            _timed(api, statuses, meanwhile)
            time.sleep(0.2)
        after: dict[str, list[float]] = {"runs": [], "summary": []}
        for _ in range(args.requests):
            _timed(api, statuses, after)
        time.sleep(SETTLE_S)
        memory = proc_fields(f"/proc/{server.pid}/status", ("VmRSS", "VmHWM"))
        timings = {route: meanwhile[route] + after[route] for route in after}
        result.update({
            "attack": {url.removeprefix(api + "/"): answer for url, answer in answers.items()},
            "attack_answered_s": max((a["after_s"] for a in answers.values()), default=0.0),
            "summaries_meanwhile": len(meanwhile["summary"]),
            "runs_max_s": max(timings["runs"]),
            "runs_p50_s": percentile(timings["runs"], 50),
            "summary_max_s": max(timings["summary"]),
            "summary_p50_s": percentile(timings["summary"], 50),
            "rss_mb": memory["VmRSS"] / MB,
            "peak_rss_mb": memory["VmHWM"] / MB,
            "five_xx": sum(s >= 500 for s in statuses)
            + sum(a["status"] >= 500 for a in answers.values()),
            "unanswered": sum(a["status"] in (0, 202) or a["error"].startswith("no run named")
                              for a in answers.values()),  # fmt: skip
        })  # fmt: skip
    finally:
        stopping = time.monotonic()
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        result["stop_s"] = time.monotonic() - stopping
        log.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS),
                        help=f"some of {', '.join(SCENARIOS)}, with commas")  # fmt: skip
    parser.add_argument("--files", type=int, default=50_000, help="files of many_files")
    shape_names = ", ".join(MANY_FILE_SHAPES)
    parser.add_argument("--shapes", default="trace", help=f"of many_files: {shape_names} or all")
    parser.add_argument("--busy", type=int, default=2, help="busy loops beside the servers")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=600, help="seconds for an attack")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    chosen = args.scenarios.split(",")
    if unknown := [name for name in chosen if name not in SCENARIOS]:
        parser.error(f"unknown scenario {unknown[0]!r}; choose from {', '.join(SCENARIOS)}")
    shapes = [] if args.shapes == "all" else args.shapes.split(",")
    if unknown := [shape for shape in shapes if shape not in MANY_FILE_SHAPES]:
        parser.error(f"unknown shape {unknown[0]!r}; choose from {', '.join(MANY_FILE_SHAPES)}")
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    results: dict[str, dict[str, Any]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="tb-perf-hostile-") as scratch:
            root = Path(scratch)
            results["clean"] = measure(_logdir(root, "clean"), [], args, root)
            for name in chosen:
                logdir = _logdir(root, name)
                results[name] = measure(logdir, SCENARIOS[name].make(logdir, args), args, root)
            for folder in (root.glob("*-outside"), root.glob("*/attack/locked")):
                for path in folder:
                    path.chmod(0o755)
    finally:
        for loop in loops:
            loop.kill()
    if any("error" in r for r in results.values()):
        print(json.dumps(results, indent=2))
        sys.exit(1)
    clean = results["clean"]
    verdicts = {}
    for name, result in results.items():
        extra = max(
            result["rss_mb"] - clean["rss_mb"], result["peak_rss_mb"] - clean["peak_rss_mb"]
        )
        margin = SCENARIOS[name].margin_mb if name in SCENARIOS else 0.0
        verdicts[name] = {
            "extra_rss_mb": result["rss_mb"] - clean["rss_mb"],
            "extra_peak_rss_mb": result["peak_rss_mb"] - clean["peak_rss_mb"],
            "ok": max(result["runs_max_s"], result["summary_max_s"]) < 1
            and not result["five_xx"] and not result["unanswered"]
            and result["stop_s"] <= STOP_LIMIT_S
            and (name == "clean" or extra < margin),
        }  # fmt: skip
    ok = all(v["ok"] for v in verdicts.values())
    if args.json:
        print(json.dumps({"servers": results, "verdicts": verdicts, "busy_loops": args.busy,
                          "loadavg": loadavg(), "ok": ok}, indent=2))  # fmt: skip
    else:
        for name, r in results.items():
            v = verdicts[name]
            print(f"{name:10} runs max {r['runs_max_s'] * 1e3:6.1f} ms (p50 "
                  f"{r['runs_p50_s'] * 1e3:5.1f})  summary max {r['summary_max_s'] * 1e3:6.1f} ms "
                  f"(p50 {r['summary_p50_s'] * 1e3:5.1f})  RSS {r['rss_mb']:5.0f} MB "
                  f"({v['extra_rss_mb']:+.0f}), peak {r['peak_rss_mb']:5.0f} MB "
                  f"({v['extra_peak_rss_mb']:+.0f})  attack answered after "
                  f"{r['attack_answered_s']:.1f} s  stop {r['stop_s']:.2f} s  5xx {r['five_xx']}"
                  f"  {'ok' if v['ok'] else 'FAILED'}")  # fmt: skip
            for url, answer in r["attack"].items():
                print(f"    {answer['status']} after {answer['after_s']:5.1f} s  {url}  "
                      f"{answer['error'][:150]}")  # fmt: skip
        print(f"load {loadavg()}: {'ok' if ok else 'FAILED'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
