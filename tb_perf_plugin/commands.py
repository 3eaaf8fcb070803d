"""The `tb-perf` commands' work, imported once a command line has been parsed (`cli.py`), so
that `tb-perf --help` and a usage error cost no pandas, numpy or store imports.

Exit codes: 0 ok, 1 regression found by a `diff` gate, 2 usage error, 3 unreadable input.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from . import analyze_cache, views
from .analysis.diff import compare as diff_runs
from .discovery import Run, command_line_root, command_line_run
from .errors import (
    EXIT_OK,
    EXIT_REGRESSION,
    InvalidArgument,
    Progress,
    TbPerfError,
    Unreadable,
)
from .ingest.cache import TraceCache
from .ingest.imported import IMPORTED_FOLDER, add_to_run
from .ingest.ncu import read_ncu_csv
from .ingest.python_profile import read_python_profile
from .ingest.readers import FEEDS, TIMELINE_KINDS, FileKind, read_timeline_file, sniff
from .ingest.tables import Kind
from .pipeline.export import export_trace
from .pipeline.read import RunTables
from .pipeline.run_timeline import RunTimeline
from .report import gather, render, write_report
from .store import DEFAULT_MAX_FILE_BYTES, RunStore
from .text import emit, format_diff, format_summary, memory_summary, snapshot_brief


def _resolve(
    run: str, logdir: str | None, executor: str | None = None, job: str | None = None
) -> tuple[RunStore, str]:
    """A store and run name for RUN: a run name under --logdir, or a run directory's path (or
    one trace or snapshot file's); with `job`, the name of that job of the run's directory."""
    store = RunStore(command_line_root(run, logdir), executor=executor)
    if store.mirror is not None:  # a remote logdir: copy its run files before reading
        store.mirror.refresh(None)
    return store, command_line_run(run, logdir, store.discover(), job)


def imported_summary(run: Run, tables: RunTables) -> list[dict[str, Any]]:
    """The run's files from other tools (docs/IMPORT.md): `file` (relative to the run),
    `kind` (None: not importable), `rank`, `read` (whether its tables came out) and `shows`
    (what it feeds, or why it is not imported)."""
    read = {t.path for t in tables.traces}
    for frame in (tables.python_profile_files, tables.kernel_metrics):
        read |= {os.path.join(run.path, f) for f in frame["file"].unique().tolist()}
    ranks = {t.path: t.rank for t in tables.traces}
    return [
        {
            "file": os.path.relpath(f.path, run.path),
            "kind": None if f.kind is None else f.kind.value,
            "rank": None if f.kind is None else ranks.get(f.path, run.rank_from_file_name(f.path)),
            "read": f.path in read,
            "shows": f.reason if f.kind is None else FEEDS[f.kind],
        }
        for f in run.imported
    ]


def _analyze(args: argparse.Namespace) -> int:
    if args.top < 1:
        raise InvalidArgument(f"--top must be 1 or more, not {args.top}")
    store, name = _resolve(args.run, args.logdir, args.executor, args.job)
    try:
        entry = None if store.mirror else analyze_cache.answer_entry(args, store.find_run(name))
        summary = views.overview.summary(store, name, args.rank, wait_s=None)
        found = views.findings.findings(store, name, wait_s=None)["findings"]
        module_calls = views.modules.modules(store, name, args.rank, wait_s=None)
        memory_series = views.memory.memory(store, name, args.rank, wait_s=None)
        top = str(args.top)
        operator_rows = views.operators.operators(store, name, args.rank, limit=top, wait_s=None)
        kernel_rows = views.kernels.kernels(store, name, args.rank, limit=top, wait_s=None)
        paths = views.critical_path.critical_path(store, name, args.rank, wait_s=None)
        run = store.find_run(name)
        summary["imported"] = imported_summary(run, store.tables(run, wait_s=None))
        summary["snapshots"] = _newest_snapshots(store, name, memory_series["snapshots"], args.top)
    finally:
        store.close()
    if summary["rank"] is not None:
        found = [f for f in found if not f["ranks"] or summary["rank"] in f["ranks"]]
    summary["findings"] = found
    if summary["run"] == ".":
        summary["run"] = args.run if args.logdir is None else args.logdir
    module_calls["run"] = summary["run"]
    summary["modules"] = module_calls if module_calls["source"] is not None else None
    summary["memory"] = memory_summary(memory_series)
    summary["operators"] = operator_rows["rows"]
    summary["kernels"] = kernel_rows["rows"]
    summary["critical_path"] = {"ranks": paths["ranks"], "job": paths["job"]}
    analyze_cache.remember(entry, summary)
    emit(format_summary(summary, args.format, args.top))
    return EXIT_OK


def _newest_snapshots(
    store: RunStore, name: str, files: list[dict[str, Any]], top: int
) -> list[dict[str, Any]]:
    """`snapshot_brief` of each rank's newest snapshot (of those without a rank, the newest);
    one that cannot be read is named with the reason, and the others are still read."""
    newest: dict[int | None, dict[str, Any]] = {}
    for f in files:
        if f["rank"] not in newest or f["updated_ns"] > newest[f["rank"]]["updated_ns"]:
            newest[f["rank"]] = f
    out = []
    for f in sorted(newest.values(), key=lambda f: (f["rank"] is None, f["rank"] or 0)):
        try:
            answer = views.memory.snapshot(store, name, f["file"], wait_s=None)
        except TbPerfError as e:
            out.append({"file": f["file"], "rank": f["rank"], "error": str(e)})
            continue
        out.append(snapshot_brief(answer, top))
    return out


def _span(text: str | None, what: str) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        low, high = (float(part) for part in text.split(":"))
    except ValueError:
        raise InvalidArgument(f"{what} must look like A:B, not {text!r}") from None
    if high < low:
        raise InvalidArgument(f"{what} {text!r} ends before it starts")
    return low, high


def _export_window(
    timeline: RunTimeline, steps: str | None, window: str | None
) -> tuple[int, int] | None:
    """--window in ms from the run's start, or --steps A:B (inclusive) as a window."""
    if steps is not None:
        step_span = _span(steps, "--steps")
        assert step_span is not None  # _span gives None only for None
        first, last = step_span
        chosen = [s for s in timeline.steps_json() if first <= s["step"] <= last]
        if not chosen:
            known = [s["step"] for s in timeline.steps_json()]
            shown = f"{known[0]}..{known[-1]}" if known else "none"
            raise InvalidArgument(f"no steps {steps} in this run (steps: {shown})")
        return min(s["start"] for s in chosen), max(s["end"] for s in chosen)
    span = _span(window, "--window")
    return None if span is None else (int(span[0] * 1e6), int(span[1] * 1e6))


def _export(args: argparse.Namespace) -> int:
    store, name = _resolve(args.run, args.logdir, args.executor, args.job)
    try:
        timeline = store.timeline(store.find_run(name))
        ranks = None
        if args.ranks:
            ranks = {int(r) for r in args.ranks.split(",") if r.strip().isdigit()}
            if not ranks or ranks - set(timeline.alignments):
                raise InvalidArgument(
                    f"--ranks {args.ranks!r}: this run has ranks {sorted(timeline.alignments)}"
                )
        window = _export_window(timeline, args.steps, args.window)
        written = export_trace(timeline, args.output, ranks, window)  # reads the ranks' pieces
    finally:
        store.close()
    methods = ", ".join(
        f"rank {r}: {a.method.value} (±{a.uncertainty_ns / 1e3:.1f} µs)"
        for r, a in sorted(timeline.alignments.items())
    )
    print(f"wrote {written} events to {args.output}; alignment: {methods}", file=sys.stderr)
    return EXIT_OK


def _ingest(args: argparse.Namespace) -> int:
    if args.run is not None:
        return _import_files(args.paths, args.run, args.logdir)
    if len(args.paths) != 1:
        raise InvalidArgument(
            "give one RUN to parse into the cache, or FILE... --run RUN to import files"
        )
    return _fill_cache(args.paths[0], args.logdir, args.executor)


def _import_target(run: str, logdir: str | None) -> str:
    """The directory of RUN: a path, or a name under --logdir (which must exist)."""
    if logdir is None:
        return run
    parts = run.split("/")
    if os.path.isabs(run) or (run != "." and any(part in ("", ".", "..") for part in parts)):
        raise InvalidArgument(f"--run {run!r} is not a run name (a relative path inside --logdir)")
    if not os.path.isdir(logdir):
        raise InvalidArgument(f"--logdir {logdir!r} is not a directory")
    return os.path.join(logdir, *parts)


def _file_facts(path: str, kind: FileKind, max_bytes: int) -> tuple[str, Any]:
    """Parse an imported file as the plugin will: what it holds in words, and its tables."""
    if kind in TIMELINE_KINDS:
        tables = read_timeline_file(path, max_bytes, kind)
        kernels = int((tables.slices["kind"] == Kind.KERNEL).sum())
        return f"{len(tables.slices['start'])} timeline events, {kernels} kernels", tables
    if kind is FileKind.NCU:
        metrics = read_ncu_csv(path, max_bytes)
        kernels = metrics["kernel"].nunique()
        return f"{len(metrics)} profiled kernel launches, {kernels} kernels", None
    profile = read_python_profile(path, max_bytes)
    return (
        f"{len(profile.functions)} functions, {profile.calls} calls, "
        f"{profile.total_ns / 1e9:.3f} s profiled",
        None,
    )


def _import_files(files: list[str], run: str, logdir: str | None) -> int:
    """`tb-perf ingest FILE... --run RUN`: check every file (kind, and that it parses), then
    copy each verbatim into RUN's imported folder; nothing is copied if one is refused."""
    target = _import_target(run, logdir)
    checked = []
    for path in files:
        if not os.path.isfile(path):
            raise InvalidArgument(f"{path!r} is not a file")
        found = sniff(path)
        kind = found.kind
        if kind is None:
            raise Unreadable(f"{path}: not importable: {found.reason} (docs/IMPORT.md)")
        facts, tables = _file_facts(path, kind, DEFAULT_MAX_FILE_BYTES)
        checked.append((path, found, kind, facts, tables))
    cache = TraceCache()
    for path, found, kind, facts, tables in checked:
        try:
            copy, added = add_to_run(path, target)
        except OSError as exc:
            why = exc.strerror or exc
            raise InvalidArgument(f"cannot copy {path} into {target}: {why}") from None
        if tables is not None:  # TensorBoard then opens it from the cache
            cache.put(copy, kind, tables)
        shown = os.path.relpath(copy, target)
        rank = Run.rank_in_file_name(copy)
        what = f"rank {rank}" if rank is not None else "rank 0 (no rank<N> in the file name)"
        verb = "added" if added else "already there, unchanged:"
        emit(f"{verb} {path} -> {shown}: {kind.value} ({found.reason}), {what}; {facts}")
        emit(f"  the plugin shows: {FEEDS[kind]}")
    emit(
        f"run {target}: {len(checked)} file(s) in {os.path.join(*IMPORTED_FOLDER)}; "
        f"open it in the PERF tab or run tb-perf analyze {target}"
    )
    return EXIT_OK


def _fill_cache(run: str, logdir: str | None, executor: str | None) -> int:
    store, name = _resolve(run, logdir, executor)
    try:
        found_run = store.find_run(name)
        while True:
            try:
                tables = store.tables(found_run, wait_s=1.0)
                break
            except Progress as progress:
                fraction = progress.to_json()["progress"]["fraction"]
                print(f"ingesting {name}: {fraction:.0%}", file=sys.stderr)
        timeline = store.timeline(found_run)
    finally:
        store.close()
    emit(
        f"{name}: {len(tables.traces)} trace file(s), {timeline.n_events} events, "
        f"ranks {sorted(timeline.alignments)}; cached in {store.trace_cache.location}"
    )
    for warning in tables.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return EXIT_OK


def _diff_body(args: argparse.Namespace) -> dict[str, Any]:
    """The compare answer for BASELINE and CANDIDATE: names in one --logdir, else two run
    directories (one store each, diffed on their facts)."""
    if args.logdir is not None:
        store = RunStore(args.logdir, executor=args.executor)
        try:
            return views.compare.compare(store, args.baseline, args.candidate, wait_s=None)
        finally:
            store.close()
    facts = []
    for path in (args.baseline, args.candidate):
        store, name = _resolve(path, None, args.executor)
        try:
            facts.append(views.compare.run_facts(store, name, wait_s=None))
        finally:
            store.close()
        facts[-1].name = path
    return diff_runs(*facts)


def _diff(args: argparse.Namespace) -> int:
    if args.fail_on_regression is not None and args.fail_on_regression < 0:
        raise InvalidArgument("--fail-on-regression takes a percentage >= 0")
    body = _diff_body(args)
    for side in ("baseline", "candidate"):
        if body["step_time"][side]["steps"] < 2:
            raise Unreadable(f"{body[side]}: fewer than 2 step times could be read")
    emit(format_diff(body, args.format, args.top))
    low = body["step_time"]["ci"][0]
    if args.fail_on_regression is not None and low > 1 + args.fail_on_regression / 100:
        print(f"tb-perf: regression: interval lower bound {low} > "
              f"{1 + args.fail_on_regression / 100:g}", file=sys.stderr)  # fmt: skip
        return EXIT_REGRESSION
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    store, name = _resolve(args.run, args.logdir, args.executor, args.job)
    try:
        answers = gather(store, name, args.rank, args.run if name == "." else None)
    finally:
        store.close()
    if args.baseline is not None:
        pair = argparse.Namespace(baseline=args.baseline, candidate=args.run, logdir=args.logdir,
                                  executor=args.executor)  # fmt: skip
        answers["compare"] = _diff_body(pair)
    try:
        write_report(args.output, render(answers))
    except OSError as exc:
        raise InvalidArgument(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}", file=sys.stderr)
    return EXIT_OK


HANDLERS: dict[str, Callable[[argparse.Namespace], int]] = {
    "analyze": _analyze,
    "export-trace": _export,
    "ingest": _ingest,
    "diff": _diff,
    "report": _report,
}
