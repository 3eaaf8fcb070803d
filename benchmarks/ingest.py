"""Kineto trace ingest against its floor and its anchors, side by side in one run.

    python benchmarks/ingest.py [--files df_index_resolver,mtia_rank_0,replica | --corpus [NAMES]]
                                [--skip-anchors] [--repeat N] [--timeout S] [--json]

Every measurement is one exact call in a fresh subprocess (benchmarks/_measure.py), so import
costs and peak memory are isolated. Per file it reports the wall time of the whole process
(interpreter start + imports + call, measured by the parent) and of the call alone (measured
in the child), and the peak RSS added above the post-import baseline (VmHWM after the call
minus VmRSS after the imports, from /proc/self/status; VmHWM cannot be reset, so a peak during
the imports above the post-import RSS would be counted too - `hwm_base` in --json shows it).
Worker processes the call starts are sampled by the parent every 20 ms and shown separately.

Measurements (the issue's "Done when" names them):
  floor        gunzip + msgspec decode into Structs, `args` left as msgspec.Raw
  orjson       gunzip + orjson.loads into dicts
  ours cold    tb_perf_plugin.ingest.kineto.read_trace(path), no cache
  cache fill   TraceCache(fresh dir).read(path): cold, fills the on-disk cache
  ours warm    TraceCache(same dir).read(path) in another fresh process (a cache hit)
  torch-tb-profiler 0.4.3   RunProfileData.parse(...) + RunGenerator(...).generate_run_profile()
  HTA          hta.common.trace.parse_trace_file(path) (the per-file parse under TraceAnalysis,
               its cheapest exact call: TraceAnalysis adds cross-rank alignment on top)
Files: df_index_resolver.json.gz, mtia_rank_0.json.gz (../shared/data), and a >= 200 MB
replica of df_index_resolver along time, generated once into $TB_PERF_BENCH_DIR
(default ~/.cache/tb-perf-bench). `--corpus`: every shared trace of >= 5 MB raw (NCCL-heavy,
CPU-op heavy, memory events, MTIA, ROCm, B200, 2021 Kineto) replicated along time to >= 200 MB,
and a generated worst case (48-deep op stacks, 150-character names, a flow per kernel), with a
table of the issue-22 targets (whole processes: ours <= 1.5x the floor, >= 12x faster than
torch-tb-profiler, >= 6x faster than HTA, added RSS <= 1.3x the floor's) and the worst row of
each. The floor is benchmarks/floor.py.

Times are the minimum over --repeat runs (default 3; ours interleaved with the floor), RSS the
median; the anchors run --anchor-repeat times (default: --repeat) with --timeout each (a timeout
is reported as a lower bound and not repeated).
Targets (issue 3), as ratios measured in this run:
  ours cold call <= 2x floor call; whole process >= 10x faster than torch-tb-profiler and
  >= 5x faster than HTA; added RSS <= 1.3x the floor's on the >= 200 MB file; warm <= 5 % of
  cold (call time; whole-process ratio shown too).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import (  # noqa: E402
    MB,
    SHARED_DATA,
    ChildResult,
    bench_dir,
    gunzipped_size,
    load_trace,
    loadavg,
    replicate_events,
    run_child,
    warm_page_cache,
    write_kineto,
)

HTA = "facebookresearch__HolisticTraceAnalysis/tests/data"
SAMPLES = "pytorch__kineto/tb_plugin/samples"
SOURCES = {
    "df_index_resolver": f"{HTA}/df_index_resolver/df_index_resolver.json.gz",
    "mtia_rank_0": f"{HTA}/mtia_trace_single_rank/mtia_rank_0.json.gz",
}
# --corpus: every shared trace of >= 5 MB raw (its shape), each replicated to >= 200 MB
CORPUS = {
    "nccl_data": (f"{HTA}/nccl_parser_config/nccl_data.json.gz", "NCCL-heavy, 2 streams"),
    "b200_eager": ("AMD-AGI__TraceLens/tests/traces/b200/eager_trace.json.gz",
                   "B200, CPU-op heavy"),
    "mi300_resnet": ("AMD-AGI__TraceLens/tests/traces/mi300/resnet_act_checkpoint.json.gz",
                     "ROCm, MI300"),
    "v100_nw4_a": (f"{SAMPLES}/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
                   "2021 Kineto, V100"),
    "v100_nw4_b": (f"{SAMPLES}/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz",
                   "2021 Kineto, V100"),
    "v100_nw0_a": (f"{SAMPLES}/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
                   "2021 Kineto, V100, DataLoader"),
    "v100_nw0_b": (f"{SAMPLES}/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz",
                   "2021 Kineto, V100, DataLoader"),
    "df_index_resolver": (SOURCES["df_index_resolver"], "memory events, CPU-op heavy"),
    "mtia_rank_0": (SOURCES["mtia_rank_0"], "MTIA"),
}  # fmt: skip
REPLICA_MIN_RAW = 200_000_000

# ------------------------------------------------------------------------------------------
# The exact calls. Each returns a small JSON-able result (event count, ...).

FLOOR_IMPORTS = "from benchmarks.floor import floor\n"
FLOOR_CALL = """
return floor({path!r})
"""

ORJSON_IMPORTS = "import gzip\nimport orjson\n"
ORJSON_CALL = """
with open({path!r}, "rb") as fh:
    data = orjson.loads(gzip.decompress(fh.read()))
return {{"events": len(data["traceEvents"])}}
"""

OURS_IMPORTS = "from tb_perf_plugin.ingest.kineto import read_trace\n"
OURS_CALL = """
tables = read_trace({path!r})
return {{"events": tables.n_events}}
"""

CACHE_IMPORTS = "from tb_perf_plugin.ingest.cache import TraceCache\n"
CACHE_CALL = """
tables = TraceCache({cache_dir!r}).read({path!r})
return {{"events": getattr(tables, "n_events", None)}}
"""

TBP_IMPORTS = """
import tempfile
from torch_tb_profiler.profiler.data import RunProfileData
from torch_tb_profiler.profiler.run_generator import RunGenerator
"""
TBP_CALL = """
data = RunProfileData.parse("worker0", None, {path!r}, tempfile.mkdtemp())
profile = RunGenerator("worker0", None, data).generate_run_profile()
return {{"events": len(data.events)}}
"""

HTA_IMPORTS = "from hta.common.trace import parse_trace_file\n"
HTA_CALL = """
meta, df, symbols = parse_trace_file({path!r})
return {{"events": len(df)}}
"""

ROWS = [
    # key, label, anchor?
    ("floor", "floor: gunzip + msgspec Structs, args Raw", False),
    ("orjson", "orjson.loads into dicts", False),
    ("ours_cold", "ours cold: read_trace", False),
    ("cache_fill", "ours: TraceCache.read, fills cache", False),
    ("ours_warm", "ours warm: TraceCache.read, cache hit", False),
    ("tbp", "torch-tb-profiler 0.4.3 parse+generate", True),
    ("hta", "HTA parse_trace_file", True),
]


# ------------------------------------------------------------------------------------------
# Inputs


def _shared(relative: str) -> Path:
    """A trace of ../shared/data/traces (TB_PERF_SHARED_DATA)."""
    path = SHARED_DATA / "traces" / relative
    if not path.exists():
        raise SystemExit(f"shared trace not found: {path} (set TB_PERF_SHARED_DATA)")
    return path


def replica_path(source_name: str = "df_index_resolver") -> tuple[Path, dict[str, Any]]:
    """A >= 200 MB replica of a shared trace along time, generated once and reused."""
    relative = CORPUS[source_name][0] if source_name in CORPUS else SOURCES[source_name]
    source = _shared(relative)
    out_dir = bench_dir()
    for meta_file in sorted(out_dir.glob(f"{source_name}_x*.json.gz.meta.json")):
        info = json.loads(meta_file.read_text())
        trace = Path(str(meta_file)[: -len(".meta.json")])
        if trace.exists() and info["raw_bytes"] >= REPLICA_MIN_RAW:
            return trace, info
    base = load_trace(source)
    events = base.pop("traceEvents")
    base.pop("traceName", None)
    copies = math.ceil(REPLICA_MIN_RAW / gunzipped_size(source))
    while True:
        path = out_dir / f"{source_name}_x{copies}.json.gz"
        print(f"generating {path} ({copies} copies of {source_name}) ...", file=sys.stderr)
        raw, n = write_kineto(path, base, replicate_events(events, copies))
        info = {"raw_bytes": raw, "events": n, "copies": copies, "source": str(source)}
        if raw >= REPLICA_MIN_RAW:
            Path(str(path) + ".meta.json").write_text(json.dumps(info))
            return path, info
        path.unlink()
        copies = max(copies + 1, math.ceil(copies * REPLICA_MIN_RAW / raw))  # compact JSON


# the generated worst case: per step a 48-deep stack of CPU ops with 150-character names, every
# innermost op launching a kernel with a flow arrow (ph s / f) and args of 12 keys
WORST_DEPTH, WORST_NAME = 48, 150


def _worst_events() -> Any:
    ts = 1_000_000.0
    correlation = 0
    while True:
        for depth in range(WORST_DEPTH):
            name = f"aten::op_{depth:02d}_" + "x" * (WORST_NAME - 12) + f"{correlation % 997:03d}"
            yield {
                "ph": "X",
                "cat": "cpu_op",
                "name": name,
                "pid": 1,
                "tid": 1,
                "ts": ts + depth,
                "dur": 2.0 * (WORST_DEPTH - depth) + 10,
                "args": {
                    "External id": correlation,
                    "Sequence number": correlation,
                    "Fwd thread id": 0,
                    "Record function id": 0,
                    "Ev Idx": correlation,
                    "Input Dims": [[64, 128], [128, 128]],
                    "Input type": ["float", "float"],
                    "Input Strides": [[128, 1], [128, 1]],
                    "Concrete Inputs": ["", ""],
                    "Scope": 0,
                    "Trace name": "PyTorch Profiler",
                    "Trace iteration": 0,
                },
            }
        correlation += 1
        launch = ts + WORST_DEPTH
        yield {
            "ph": "X",
            "cat": "cuda_runtime",
            "name": "cudaLaunchKernel",
            "pid": 1,
            "tid": 1,
            "ts": launch,
            "dur": 4,
            "args": {"correlation": correlation, "cbid": 211},
        }
        yield {
            "ph": "s",
            "id": correlation,
            "pid": 1,
            "tid": 1,
            "ts": launch,
            "cat": "ac2g",
            "name": "ac2g",
        }
        yield {
            "ph": "X",
            "cat": "kernel",
            "name": "void gemm_kernel<float, 128, 128>(float*)",
            "pid": 0,
            "tid": 7,
            "ts": launch + 5,
            "dur": 20,
            "args": {
                "correlation": correlation,
                "stream": 7,
                "device": 0,
                "grid": [64, 1, 1],
                "block": [256, 1, 1],
                "registers per thread": 128,
                "shared memory": 49152,
                "est. achieved occupancy %": 50,
            },
        }
        yield {
            "ph": "f",
            "id": correlation,
            "pid": 0,
            "tid": 7,
            "ts": launch + 5,
            "cat": "ac2g",
            "name": "ac2g",
            "bp": "e",
        }
        ts += 2.0 * WORST_DEPTH + 40


def worst_case_path() -> tuple[Path, dict[str, Any]]:
    """The generated worst case, >= 200 MB raw, generated once and reused."""
    path = bench_dir() / f"worst_case_d{WORST_DEPTH}_n{WORST_NAME}.json.gz"
    meta_file = Path(str(path) + ".meta.json")
    if path.exists() and meta_file.exists():
        return path, json.loads(meta_file.read_text())

    def until_big() -> Any:
        written = 0
        for event in _worst_events():
            yield event
            written += len(json.dumps(event))
            if written >= REPLICA_MIN_RAW and event.get("ph") == "f":
                return

    print(f"generating {path} ...", file=sys.stderr)
    raw, n = write_kineto(path, {"schemaVersion": 1}, until_big())
    info = {"raw_bytes": raw, "events": n, "source": "generated"}
    meta_file.write_text(json.dumps(info))
    return path, info


def resolve_files(names: list[str]) -> dict[str, tuple[Path, dict[str, Any]]]:
    files = {}
    for name in names:
        if name == "replica":
            path, info = replica_path()
            files[f"replica ({path.name})"] = (path, info)
        elif name in SOURCES:
            path = _shared(SOURCES[name])
            files[path.name] = (path, {"raw_bytes": gunzipped_size(path)})
        else:
            raise SystemExit(f"unknown file {name!r}: choose from {[*SOURCES, 'replica']}")
    return files


def corpus_files(names: list[str] | None) -> dict[str, tuple[Path, dict[str, Any]]]:
    """The corpus: each CORPUS trace's >= 200 MB replica, and the generated worst case."""
    files = {}
    for name in names or [*CORPUS, "worst_case"]:
        if name == "worst_case":
            path, info = worst_case_path()
            files[name] = (path, {**info, "shape": "generated: 48-deep, long names, flows"})
        elif name in CORPUS:
            path, info = replica_path(name)
            files[name] = (path, {**info, "shape": CORPUS[name][1]})
        else:
            raise SystemExit(f"unknown corpus file {name!r}: {[*CORPUS, 'worst_case']}")
    return files


# ------------------------------------------------------------------------------------------
# Running


def measure_file(path: Path, args: argparse.Namespace, scratch: Path) -> dict[str, Any]:
    """All rows for one file; returns {key: [ChildResult, ...]}."""
    warm_page_cache(path)
    p = str(path)
    results: dict[str, list[ChildResult]] = {key: [] for key, _, _ in ROWS}
    t = args.timeout
    # a fresh TB_PERF_CACHE_DIR per process, so nothing is served from a cache by accident
    for i in range(args.repeat):
        no_cache = {"TB_PERF_CACHE_DIR": tempfile.mkdtemp(dir=scratch)}
        results["floor"].append(run_child(FLOOR_IMPORTS, FLOOR_CALL.format(path=p), timeout=t))
        results["orjson"].append(run_child(ORJSON_IMPORTS, ORJSON_CALL.format(path=p), timeout=t))
        cold = run_child(OURS_IMPORTS, OURS_CALL.format(path=p), timeout=t, env=no_cache)
        results["ours_cold"].append(cold)
        cache_dir = tempfile.mkdtemp(dir=scratch)
        env = {"TB_PERF_CACHE_DIR": cache_dir}
        call = CACHE_CALL.format(path=p, cache_dir=cache_dir)
        fill = run_child(CACHE_IMPORTS, call, timeout=t, env=env)
        results["cache_fill"].append(fill)
        if fill.status == "ok":
            results["ours_warm"].append(run_child(CACHE_IMPORTS, call, timeout=t, env=env))
        else:
            results["ours_warm"].append(ChildResult(fill.status, message=fill.message))
        shutil.rmtree(cache_dir, ignore_errors=True)
        if cold.status == "unavailable" and fill.status == "unavailable" and i == 0:
            break  # nothing of ours to repeat yet; floor/orjson repeats below
    while len(results["floor"]) < args.repeat:
        results["floor"].append(run_child(FLOOR_IMPORTS, FLOOR_CALL.format(path=p), timeout=t))
        results["orjson"].append(run_child(ORJSON_IMPORTS, ORJSON_CALL.format(path=p), timeout=t))
    if not args.skip_anchors:
        anchors = {"tbp": (TBP_IMPORTS, TBP_CALL), "hta": (HTA_IMPORTS, HTA_CALL)}
        for _ in range(args.anchor_repeat or args.repeat):
            for key, (imports, call) in anchors.items():
                if any(r.status != "ok" for r in results[key]):
                    continue  # a timeout or failure is not repeated
                results[key].append(run_child(imports, call.format(path=p), timeout=t))
    return results


def summarize(runs: list[ChildResult]) -> dict[str, Any]:
    """Min times, median RSS over the successful runs (or the failure)."""
    if not runs:
        return {"status": "skipped"}
    ok = [r for r in runs if r.status == "ok"]
    if not ok:
        r = runs[0]
        return {"status": r.status, "message": r.message, "process_s": r.process_s}
    events = ok[0].out.get("events") if isinstance(ok[0].out, dict) else None
    return {
        "status": "ok",
        "n": len(ok),
        "process_s": min(r.process_s for r in ok),
        "call_s": min(r.call_s for r in ok),
        "added_rss": statistics.median(r.added_rss for r in ok),
        "rss_base": statistics.median(r.rss_base for r in ok),
        "import_peak_over_base": statistics.median(r.hwm_base - r.rss_base for r in ok),
        "workers_peak_rss": max(r.workers_peak_rss for r in ok),
        "cpu_s": min(r.cpu_s + r.children_cpu_s for r in ok),
        "events": events,
    }


def ratio_rows(s: dict[str, dict[str, Any]], is_big: bool) -> list[tuple[str, str, str]]:
    """(description, value, verdict) for the issue's targets."""
    out = []

    def ok(key: str) -> bool:
        return s[key]["status"] == "ok"

    cold = s["ours_cold"]
    if ok("ours_cold") and ok("floor"):
        r = cold["call_s"] / s["floor"]["call_s"]
        out.append(("ours cold call / floor call", f"{r:.2f}x", _v(r <= 2.0, "<= 2x")))
    else:
        out.append(("ours cold call / floor call", _na(cold), ""))
    for key, name, target in (("tbp", "torch-tb-profiler", 10.0), ("hta", "HTA", 5.0)):
        a = s[key]
        if a["status"] == "skipped":
            continue
        if not ok("ours_cold"):
            out.append((f"process: {name} / ours cold", _na(cold), ""))
        elif a["status"] in ("ok", "timeout"):
            r = a["process_s"] / cold["process_s"]
            bound = "> " if a["status"] == "timeout" else ""  # a timeout is a lower bound
            verdict = _v(r >= target, f">= {target:g}x")
            out.append((f"process: {name} / ours cold", f"{bound}{r:.1f}x", verdict))
        else:
            out.append((f"process: {name} / ours cold", f"{name} failed", ""))
    if ok("ours_cold") and ok("floor"):
        r = cold["added_rss"] / s["floor"]["added_rss"]
        label = "added RSS ours cold / floor"
        verdict = _v(r <= 1.3, "<= 1.3x") if is_big else "(target on the >= 200 MB file)"
        out.append((label, f"{r:.2f}x", verdict))
        if cold["workers_peak_rss"]:
            out.append(("  + worker processes' RSS (sampled)", _mb(cold["workers_peak_rss"]), ""))
    warm = s["ours_warm"]
    if ok("ours_warm") and ok("ours_cold"):
        r = warm["call_s"] / cold["call_s"]
        out.append(("warm call / ours cold call", f"{100 * r:.1f} %", _v(r <= 0.05, "<= 5 %")))
        r2 = warm["process_s"] / cold["process_s"]
        out.append(("warm process / ours cold process", f"{100 * r2:.1f} %", "(reported)"))
    elif ok("ours_warm") and ok("cache_fill"):
        r = warm["call_s"] / s["cache_fill"]["call_s"]
        out.append(("warm call / cache-fill call", f"{100 * r:.1f} %", _v(r <= 0.05, "<= 5 %")))
    else:
        out.append(("warm call / ours cold call", _na(warm), ""))
    return out


def _v(good: bool, target: str) -> str:
    return f"{target} {'ok' if good else 'MISSED'}"


def _na(summary: dict[str, Any]) -> str:
    return "not available yet" if summary["status"] == "unavailable" else summary["status"]


def _mb(n: float) -> str:
    return f"{n / MB:.0f} MB"


def print_table(name: str, info: dict[str, Any], s: dict[str, dict[str, Any]], big: bool) -> None:
    events = info.get("events") or s["floor"].get("events")
    print(f"\n{name}: {info['raw_bytes'] / MB:.1f} MB raw, {events:,} events" if events else name)
    head = f"  {'measurement':42} {'process s':>9} {'call s':>8} {'added RSS':>10} {'/raw':>5}"
    print(head + f" {'CPU s':>6} {'events':>9}")
    for key, label, _ in ROWS:
        r = s[key]
        if r["status"] == "skipped":
            continue
        if r["status"] != "ok":
            msg = "not available yet" if r["status"] == "unavailable" else r.get("message", "")
            if r["status"] == "timeout":
                print(f"  {label:42} {'>' + format(r['process_s'], '.0f'):>9}  {msg}")
            else:
                shown = msg if r["status"] == "unavailable" else f"{r['status']}: {msg}"
                print(f"  {label:42} {'':>9}  {shown}")
            continue
        per_raw = r["added_rss"] / info["raw_bytes"]
        ev = r["events"] if r["events"] is not None else "?"
        print(
            f"  {label:42} {r['process_s']:9.2f} {r['call_s']:8.3f} {_mb(r['added_rss']):>10}"
            f" {per_raw:5.2f} {r['cpu_s']:6.2f} {ev!s:>9}"
        )
    print("  targets (issue 3):")
    for desc, value, verdict in ratio_rows(s, big):
        print(f"    {desc:40} {value:>18}  {verdict}")


# issue 22's targets on every corpus file (>= 200 MB), whole processes measured in the same loop
CORPUS_TARGETS = (
    ("ours / floor", "floor", "ours_cold", 1.5, "<="),
    ("torch-tb-profiler / ours", "ours_cold", "tbp", 12.0, ">="),
    ("HTA / ours", "ours_cold", "hta", 6.0, ">="),
)
RSS_TARGET = 1.3


def _seconds(summary: dict[str, Any], key: str) -> float | None:
    """A row's whole-process seconds (a timeout's: a lower bound), None when it failed."""
    row = summary[key]
    return row["process_s"] if row["status"] in ("ok", "timeout") else None


def corpus_table(report: dict[str, Any]) -> None:
    """One row per corpus file: sizes, whole-process seconds of the floor, ours and the
    anchors, the ratios against the targets; then the worst row for each target."""
    print(f"\n{'file':18} {'shape':32} {'MB':>5} {'events':>9} {'floor s':>7} {'ours s':>7}"
          f" {'ours/fl':>7} {'tbp/ours':>8} {'hta/ours':>8} {'RSS/fl':>6}")  # fmt: skip
    worst: dict[str, tuple[float, str]] = {}
    for name, entry in report.items():
        if not isinstance(entry, dict) or "summary" not in entry:
            continue
        s, info = entry["summary"], entry["info"]

        cells = []
        for label, low, high, _target, sense in CORPUS_TARGETS:
            a, b = _seconds(s, low), _seconds(s, high)
            ratio = b / a if a and b else None
            if ratio is not None and s[high]["status"] == "timeout":
                label += " (lower bound)"
            cells.append(ratio)
            if ratio is not None:
                bad = ratio if sense == "<=" else -ratio
                if label not in worst or bad > worst[label][0]:
                    worst[label] = (bad, name)
        rss = None
        if s["ours_cold"]["status"] == "ok" and s["floor"]["status"] == "ok":
            rss = s["ours_cold"]["added_rss"] / s["floor"]["added_rss"]
            if "added RSS ours / floor" not in worst or rss > worst["added RSS ours / floor"][0]:
                worst["added RSS ours / floor"] = (rss, name)

        def cell(x: float | None, width: int) -> str:
            return f"{x:{width}.2f}" if x is not None else f"{'-':>{width}}"

        floor_s, ours_s = _seconds(s, "floor"), _seconds(s, "ours_cold")
        print(f"{name:18} {info.get('shape', '')[:32]:32} {info['raw_bytes'] / MB:5.0f}"
              f" {info.get('events', 0):9,} {cell(floor_s, 7)} {cell(ours_s, 7)}"
              f" {cell(cells[0], 7)} {cell(cells[1], 8)} {cell(cells[2], 8)}"
              f" {cell(rss, 6)}")  # fmt: skip
    print("\nworst row per target:")
    for label, _, _, target, sense in CORPUS_TARGETS:
        for key, (bad, name) in worst.items():
            if key.startswith(label):
                value = bad if sense == "<=" else -bad
                good = value <= target if sense == "<=" else value >= target
                print(f"  {key:36} {value:6.2f}x on {name:18} target {sense} {target:g}x"
                      f" {'ok' if good else 'MISSED'}")  # fmt: skip
    if "added RSS ours / floor" in worst:
        value, name = worst["added RSS ours / floor"]
        print(f"  {'added RSS ours / floor':36} {value:6.2f}x on {name:18} target <= "
              f"{RSS_TARGET:g}x {'ok' if value <= RSS_TARGET else 'MISSED'}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--files",
        default="df_index_resolver,mtia_rank_0,replica",
        help="comma-separated subset of: df_index_resolver, mtia_rank_0, replica",
    )
    parser.add_argument(
        "--corpus",
        nargs="?",
        const="all",
        help="measure the corpus instead of --files: every shared trace >= 5 MB replicated to "
        f">= 200 MB, and a generated worst case (all, or a comma-separated subset of: "
        f"{', '.join([*CORPUS, 'worst_case'])})",
    )
    parser.add_argument("--skip-anchors", action="store_true", help="no torch-tb-profiler/HTA")
    parser.add_argument("--repeat", type=int, default=3, help="runs of floor/orjson/ours")
    parser.add_argument(
        "--anchor-repeat", type=int, default=None, help="runs of each anchor (default: --repeat)"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per process")
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    args = parser.parse_args()
    if args.corpus:
        chosen = None if args.corpus == "all" else [c.strip() for c in args.corpus.split(",")]
        files = corpus_files(chosen)
    else:
        files = resolve_files([f.strip() for f in args.files.split(",") if f.strip()])
    report: dict[str, Any] = {"loadavg_start": loadavg()}
    scratch = Path(tempfile.mkdtemp(prefix="ingest-", dir=bench_dir()))
    try:
        for name, (path, info) in files.items():
            print(f"measuring {name} ...", file=sys.stderr)
            runs = measure_file(path, args, scratch)
            summary = {key: summarize(v) for key, v in runs.items()}
            big = info["raw_bytes"] >= REPLICA_MIN_RAW
            report[name] = {
                "path": str(path),
                "info": info,
                "summary": summary,
                "targets": ratio_rows(summary, big),
                "runs": {k: [r.to_json() for r in v] for k, v in runs.items()},
            }
            if not args.json:
                print_table(name, info, summary, big)
                sys.stdout.flush()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    report["loadavg_end"] = loadavg()
    if args.corpus and not args.json:
        corpus_table(report)
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        print(
            f"\nload average (1 min) at start {report['loadavg_start']}, at end"
            f" {report['loadavg_end']} (2 cores; other work inflates the times)"
        )
        print(
            "process = whole fresh process (start + imports + call); call = the call alone;"
            "\nadded RSS = VmHWM after the call - VmRSS after the imports; /raw = added RSS per"
            "\nraw byte; CPU s = user+sys of the process and its children. Times: min of runs;"
            "\nRSS: median."
        )


if __name__ == "__main__":
    main()
