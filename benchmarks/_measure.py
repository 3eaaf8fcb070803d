"""Shared helpers for the ingest and timeline benchmarks.

- `bench_dir()`: where generated inputs live (`$TB_PERF_BENCH_DIR`, default
  `~/.cache/tb-perf-bench`), outside the repository; generated once and reused.
- `shared_trace(name)`: the real traces of ../shared/data (read-only; never copied into the repo).
- `write_kineto()` / `replicate_events()`: write Kineto-style `.json.gz` traces, with the same
  layout torch.profiler uses (one event per block, `", "` / `": "` separators), so raw sizes
  are comparable with real traces; replicas shift `ts` by the trace's span per copy and offset
  ids / correlations / external ids / step numbers so they stay unique.
- `run_child()`: one exact call in a fresh Python subprocess. The child reports the wall time
  of the call alone and its memory from /proc/self/status: VmRSS after the imports (baseline)
  and VmHWM (peak) after the call, so "added RSS" = VmHWM - baseline. The parent reports the
  wall time of the whole process (interpreter start + imports + call), and samples the RSS of
  any worker processes the child starts (VmHWM only covers the child itself).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("TB_PERF_SHARED_DATA", REPO.parent / "shared" / "data"))
HTA_DATA = SHARED_DATA / "traces" / "facebookresearch__HolisticTraceAnalysis" / "tests" / "data"
MB = 1e6


def bench_dir() -> Path:
    path = Path(os.environ.get("TB_PERF_BENCH_DIR", Path.home() / ".cache" / "tb-perf-bench"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def shared_trace(relpath: str) -> Path:
    path = HTA_DATA / relpath
    if not path.exists():
        raise SystemExit(f"shared trace not found: {path} (set TB_PERF_SHARED_DATA)")
    return path


def gunzipped_size(path: Path) -> int:
    """Raw (decompressed) size, streamed."""
    n = 0
    with gzip.open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            n += len(chunk)
    return n


def warm_page_cache(path: Path) -> None:
    with open(path, "rb") as fh:
        while fh.read(1 << 24):
            pass


# --------------------------------------------------------------------------------------------
# Kineto-style writing and replication


def format_event(event: dict[str, Any]) -> str:
    """One event as torch.profiler lays it out (a block per event, args on their own lines)."""
    head = {k: v for k, v in event.items() if k != "args"}
    text = "  {\n    " + json.dumps(head)[1:-1]
    args = event.get("args")
    if args is not None:
        text += ',\n    "args": {\n      ' + json.dumps(args)[1:-1] + "\n    }"
    return text + "\n  }"


class _CountingWriter:
    def __init__(self, fh):
        self.fh = fh
        self.n = 0

    def write(self, text: str) -> None:
        data = text.encode()
        self.n += len(data)
        self.fh.write(data)


def write_kineto(
    path: Path, meta: dict[str, Any], events: Iterable[dict[str, Any]], level: int = 1
) -> tuple[int, int]:
    """Write a gzipped Kineto trace atomically; returns (raw bytes, number of events)."""
    tmp = path.with_name(path.name + ".partial")
    n_events = 0
    with gzip.open(tmp, "wb", compresslevel=level) as gz:
        out = _CountingWriter(gz)
        out.write("\n{\n")
        for key, value in meta.items():
            out.write(f"  {json.dumps(key)}: {json.dumps(value)},\n")
        out.write('  "traceEvents": [\n')
        buf: list[str] = []
        for event in events:
            buf.append(format_event(event))
            n_events += 1
            if len(buf) >= 4096:
                out.write(",\n".join(buf) + ",\n")
                buf.clear()
        out.write(",\n".join(buf) + "\n  ]")
        out.write(f',\n  "traceName": {json.dumps(str(path))}\n}}\n')
    os.replace(tmp, path)
    return out.n, n_events


_STEP = re.compile(r"^ProfilerStep#(\d+)$")
_ID_ARGS = ("correlation", "External id")


def _is_singleton(event: dict[str, Any]) -> bool:
    """Events that describe the trace rather than happen in it: kept once, not replicated."""
    return (
        event.get("ph") == "M"
        or event.get("cat") == "Trace"
        or (event.get("ph") == "i" and event.get("s") == "g")
    )


def trace_extent(events: list[dict[str, Any]]) -> tuple[Any, Any]:
    ts = [e["ts"] for e in events if "ts" in e and not _is_singleton(e)]
    ends = [e["ts"] + e.get("dur", 0) for e in events if "ts" in e and not _is_singleton(e)]
    return min(ts), max(ends)


def replicate_events(
    events: list[dict[str, Any]],
    copies: int,
    *,
    ts_offset: float = 0,
    transform: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None,
) -> Iterator[dict[str, Any]]:
    """`copies` copies of a real trace's events laid end to end along time.

    Copy k has `ts` shifted by k x the trace's span (first start to last end); flow `id`,
    `correlation` and `External id` offset by k x (their max + 1); `Ev Idx` and `Sequence
    number` likewise; `ProfilerStep#N` renumbered N + k x (number of steps). Metadata (`ph: M`),
    the profiler's `Trace` span and global instants are emitted once (the span stretched to
    cover all copies, `Record Window End` moved to the end). `ts_offset` shifts everything;
    `transform` may rewrite each output event (a fresh copy, args included) or drop it (None).
    """
    t0, t1 = trace_extent(events)
    span = t1 - t0
    id_max = 0
    ev_idx_max = seq_max = 0
    steps = [int(m.group(1)) for e in events if (m := _STEP.match(e.get("name", "")))]
    n_steps = (max(steps) - min(steps) + 1) if steps else 0
    for e in events:
        if isinstance(e.get("id"), int):
            id_max = max(id_max, e["id"])
        args = e.get("args") or {}
        for key in _ID_ARGS:
            if isinstance(args.get(key), int):
                id_max = max(id_max, args[key])
        if isinstance(args.get("Ev Idx"), int):
            ev_idx_max = max(ev_idx_max, args["Ev Idx"])
        if isinstance(args.get("Sequence number"), int):
            seq_max = max(seq_max, args["Sequence number"])

    def renamed(e: dict[str, Any]) -> dict[str, Any] | None:
        return transform(e) if transform is not None else e

    for e in events:
        if _is_singleton(e):
            e = dict(e)
            if "args" in e:
                e["args"] = dict(e["args"])
            if e.get("cat") == "Trace" and "dur" in e:
                e["dur"] = e["dur"] + span * (copies - 1)
            if e.get("name") == "Record Window End":
                e["ts"] = e["ts"] + span * (copies - 1)
            if "ts" in e:
                e["ts"] = e["ts"] + ts_offset
            if (e := renamed(e)) is not None:
                yield e
    for k in range(copies):
        shift = k * span + ts_offset
        for src in events:
            if _is_singleton(src):
                continue
            e = dict(src)
            if "ts" in e:
                e["ts"] = e["ts"] + shift
            if k:
                if isinstance(e.get("id"), int):
                    e["id"] += k * (id_max + 1)
                if n_steps and (m := _STEP.match(e.get("name", ""))):
                    e["name"] = f"ProfilerStep#{int(m.group(1)) + k * n_steps}"
            args = e.get("args")
            if args is not None:
                args = e["args"] = dict(args)
                if k:
                    for key in _ID_ARGS:
                        if isinstance(args.get(key), int):
                            args[key] += k * (id_max + 1)
                    if isinstance(args.get("Ev Idx"), int):
                        args["Ev Idx"] += k * (ev_idx_max + 1)
                    if isinstance(args.get("Sequence number"), int):
                        args["Sequence number"] += k * (seq_max + 1)
            if (e := renamed(e)) is not None:
                yield e


def proc_fields(path: str, keys: tuple[str, ...]) -> dict[str, int]:
    """The `Key:   N kB` lines of a /proc file (status, smaps_rollup) named in `keys`, in bytes."""
    out = {}
    with open(path) as lines:
        for line in lines:
            key, _, value = line.partition(":")
            if key in keys:
                out[key] = int(value.split()[0]) * 1024
    return out


def load_trace(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rb") as fh:
        return json.loads(fh.read())


# --------------------------------------------------------------------------------------------
# One exact call in a fresh subprocess

_MARK = "@@TB_PERF_BENCH_RESULT@@"

_PRELUDE = """\
import os, sys, time, json, resource
def _tb_perf_status():
    out = {}
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(('VmRSS:', 'VmHWM:')):
                key, value = line.split(':', 1)
                out[key] = int(value.split()[0]) * 1024
    return out
"""

_TEMPLATE = """\
{prelude}
{imports}
def _tb_perf_call():
{call}
_tb_perf_base = _tb_perf_status()
_tb_perf_t0 = time.perf_counter()
_tb_perf_out = _tb_perf_call()
_tb_perf_t1 = time.perf_counter()
_tb_perf_end = _tb_perf_status()
_ru = resource.getrusage(resource.RUSAGE_SELF)
_ruc = resource.getrusage(resource.RUSAGE_CHILDREN)
print({mark!r} + json.dumps({{
    "call_s": _tb_perf_t1 - _tb_perf_t0,
    "rss_base": _tb_perf_base["VmRSS"],
    "hwm_base": _tb_perf_base["VmHWM"],
    "rss_end": _tb_perf_end["VmRSS"],
    "hwm_end": _tb_perf_end["VmHWM"],
    "cpu_s": _ru.ru_utime + _ru.ru_stime,
    "children_cpu_s": _ruc.ru_utime + _ruc.ru_stime,
    "children_maxrss": _ruc.ru_maxrss * 1024,
    "out": _tb_perf_out,
}}, default=str), flush=True)
sys.stderr.flush()
os._exit(0)
"""


@dataclass
class ChildResult:
    status: str  # ok | timeout | error | unavailable
    process_s: float = 0.0  # whole process, spawn to exit, measured by the parent
    call_s: float = 0.0  # the call alone, measured in the child
    rss_base: int = 0  # VmRSS after imports
    hwm_base: int = 0  # VmHWM after imports (the imports' own peak)
    hwm_end: int = 0  # VmHWM after the call
    rss_end: int = 0
    cpu_s: float = 0.0
    children_cpu_s: float = 0.0
    workers_peak_rss: int = 0  # sampled sum of descendants' RSS (0 if it started none)
    out: Any = None
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def added_rss(self) -> int:
        """Peak RSS above the post-import baseline (VmHWM is not resettable: an import peak
        above the post-import RSS would be counted too; hwm_base shows it)."""
        return self.hwm_end - self.rss_base

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["added_rss"] = self.added_rss
        return d


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f"/proc/{p}/task/{t}/children") as f:
                    kids = [int(x) for x in f.read().split()]
            except OSError:
                continue
            out.extend(kids)
            todo.extend(kids)
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_child(
    imports: str,
    call: str,
    *,
    timeout: float = 300.0,
    env: dict[str, str] | None = None,
    sample_workers: bool = True,
) -> ChildResult:
    """Run `call` (the body of a function whose return value is reported) after `imports`,
    in a fresh interpreter (cwd = the repo, which is on sys.path)."""
    script = _TEMPLATE.format(
        prelude=_PRELUDE,
        imports=textwrap.dedent(imports),
        call=textwrap.indent(textwrap.dedent(call), "    "),
        mark=_MARK,
    )
    child_env = dict(os.environ)
    child_env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO)] + ([child_env["PYTHONPATH"]] if child_env.get("PYTHONPATH") else [])
    )
    child_env.update(env or {})
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=REPO,
            env=child_env,
            stdout=subprocess.PIPE,
            stderr=err,
            start_new_session=True,
        )
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.02):
                kids = _descendants(proc.pid)
                if kids:
                    peak[0] = max(peak[0], sum(_rss(k) for k in kids))

        sampler = threading.Thread(target=sample, daemon=True)
        if sample_workers:
            sampler.start()
        try:
            stdout, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            done.set()
            message = f"timed out after {timeout:g} s"
            return ChildResult("timeout", process_s=timeout, message=message)
        process_s = time.perf_counter() - t0
        done.set()
        if sample_workers:
            sampler.join()
        # the session may have left workers behind after os._exit: end only that group
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    text = stdout.decode(errors="replace")
    line = next((ln for ln in reversed(text.splitlines()) if ln.startswith(_MARK)), None)
    if line is None:
        last = [ln for ln in stderr.strip().splitlines() if ln.strip()]
        tail = last[-1] if last else f"exit code {proc.returncode}"
        unavailable = ("ModuleNotFoundError" in stderr or "ImportError" in stderr) and (
            "tb_perf_plugin" in stderr
        )
        status = "unavailable" if unavailable else "error"
        return ChildResult(status, process_s=process_s, message=tail[-300:])
    data = json.loads(line[len(_MARK) :])
    return ChildResult(
        "ok",
        process_s=process_s,
        call_s=data["call_s"],
        rss_base=data["rss_base"],
        hwm_base=data["hwm_base"],
        hwm_end=data["hwm_end"],
        rss_end=data["rss_end"],
        cpu_s=data["cpu_s"],
        children_cpu_s=data["children_cpu_s"],
        workers_peak_rss=peak[0],
        out=data["out"],
    )


def best_of(call: Callable[[], Any], repeat: int) -> float:
    """The fastest of `repeat` timed calls, in seconds (the least disturbed run)."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return min(times)


def loadavg() -> str:
    """The 1-minute load average (other work on the machine disturbs the timings)."""
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), -(-len(ordered) * q // 100)))
    return ordered[int(rank) - 1]
