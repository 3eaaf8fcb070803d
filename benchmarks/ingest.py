"""Kineto trace ingest against its floor and its anchors, side by side in one run.

    python benchmarks/ingest.py [--files df_index_resolver,mtia_rank_0,replica]
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
(default ~/.cache/tb-perf-bench).

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
    ChildResult,
    bench_dir,
    gunzipped_size,
    load_trace,
    loadavg,
    replicate_events,
    run_child,
    shared_trace,
    warm_page_cache,
    write_kineto,
)

SOURCES = {
    "df_index_resolver": "df_index_resolver/df_index_resolver.json.gz",
    "mtia_rank_0": "mtia_trace_single_rank/mtia_rank_0.json.gz",
}
REPLICA_MIN_RAW = 200_000_000

# ------------------------------------------------------------------------------------------
# The exact calls. Each returns a small JSON-able result (event count, ...).

FLOOR_IMPORTS = """
import gzip
import msgspec

class Event(msgspec.Struct, gc=False):
    ph: str = ""
    name: str = ""
    cat: str = ""
    pid: int | str = 0
    tid: int | str = 0
    ts: int | float = 0
    dur: int | float = 0
    id: int | str | None = None
    args: msgspec.Raw = msgspec.Raw(b"")

class Trace(msgspec.Struct, gc=False):
    traceEvents: list[Event] = []

decoder = msgspec.json.Decoder(Trace)
"""
FLOOR_CALL = """
with open({path!r}, "rb") as fh:
    raw = gzip.decompress(fh.read())
trace = decoder.decode(raw)
return {{"events": len(trace.traceEvents), "raw_bytes": len(raw)}}
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


def replica_path(copies: int | None = None) -> tuple[Path, dict[str, Any]]:
    """The >= 200 MB replica of df_index_resolver, generated once and reused."""
    source = shared_trace(SOURCES["df_index_resolver"])
    out_dir = bench_dir()
    for meta_file in sorted(out_dir.glob("df_index_resolver_x*.json.gz.meta.json")):
        info = json.loads(meta_file.read_text())
        trace = Path(str(meta_file)[: -len(".meta.json")])
        if trace.exists() and info["raw_bytes"] >= REPLICA_MIN_RAW:
            return trace, info
    base = load_trace(source)
    events = base.pop("traceEvents")
    base.pop("traceName", None)
    copies = copies or math.ceil(REPLICA_MIN_RAW / gunzipped_size(source))
    while True:
        path = out_dir / f"df_index_resolver_x{copies}.json.gz"
        print(f"generating {path} ({copies} copies of df_index_resolver) ...", file=sys.stderr)
        raw, n = write_kineto(path, base, replicate_events(events, copies))
        info = {"raw_bytes": raw, "events": n, "copies": copies, "source": str(source)}
        if raw >= REPLICA_MIN_RAW:
            Path(str(path) + ".meta.json").write_text(json.dumps(info))
            return path, info
        path.unlink()
        copies += 1


def resolve_files(names: list[str]) -> dict[str, tuple[Path, dict[str, Any]]]:
    files = {}
    for name in names:
        if name == "replica":
            path, info = replica_path()
            files[f"replica ({path.name})"] = (path, info)
        elif name in SOURCES:
            path = shared_trace(SOURCES[name])
            files[path.name] = (path, {"raw_bytes": gunzipped_size(path)})
        else:
            raise SystemExit(f"unknown file {name!r}: choose from {[*SOURCES, 'replica']}")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--files",
        default="df_index_resolver,mtia_rank_0,replica",
        help="comma-separated subset of: df_index_resolver, mtia_rank_0, replica",
    )
    parser.add_argument("--skip-anchors", action="store_true", help="no torch-tb-profiler/HTA")
    parser.add_argument("--repeat", type=int, default=3, help="runs of floor/orjson/ours")
    parser.add_argument(
        "--anchor-repeat", type=int, default=None, help="runs of each anchor (default: --repeat)"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per process")
    parser.add_argument("--json", action="store_true", help="print the raw numbers as JSON")
    args = parser.parse_args()
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
