"""`tb-perf`: the plugin's analysis without TensorBoard.

Exit codes: 0 ok, 1 regression found by a `diff` gate, 2 usage error, 3 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .analysis.diff import compare as diff_runs
from .analysis.findings import memory_text
from .analysis.rules import MAX_RANKS_APART
from .discovery import Run
from .errors import InvalidArgument, NotFound, TbPerfError, Unreadable
from .executor import KINDS, check_kind
from .export import export_trace
from .ingest.cache import TraceCache, cache_key
from .ingest.imported import IMPORTED_FOLDER, add_to_run
from .ingest.ncu import read_ncu_csv
from .ingest.python_profile import read_python_profile
from .ingest.readers import FEEDS, TIMELINE_KINDS, FileKind, read_timeline_file, sniff
from .ingest.tables import Kind
from .run_tables import RunTables
from .service import DEFAULT_MAX_FILE_BYTES, Progress, RunService
from .timeline import Timeline

EXIT_OK, EXIT_REGRESSION, EXIT_USAGE, EXIT_UNREADABLE = 0, 1, 2, 3
MAX_RANK_ROWS = 16  # more ranks: text and Markdown reports list the telling ones (as the heatmap)
HIGHEST_SHOWN, LOWEST_SHOWN = 5, 3
MORE_RANKS_HINT = "; --rank R for one rank, --format json for all"


def _resolve(
    run: str, logdir: str | None, executor: str | None = None, job: str | None = None
) -> tuple[RunService, str]:
    """A service and run name for RUN: a run name under --logdir, or a run directory's path;
    with `job`, the name of that job of the run's directory."""
    service, name = _resolve_directory(run, logdir, executor)
    return service, name if job is None else _job_run(service, name, job)


def _job_run(service: RunService, name: str, job: str) -> str:
    """The run name of job `job` (its id, or the start of one) of run `name`'s directory."""
    jobs = service.find_run(name).jobs
    if not jobs:
        raise InvalidArgument(f"--job {job!r}: run {name!r} holds one job")
    matches = [j for j in jobs if j.id == job] or [j for j in jobs if j.id.startswith(job)]
    if len(matches) != 1:
        listing = ", ".join(j.id for j in jobs)
        which = "matches several" if matches else "is not one"
        raise InvalidArgument(f"--job {job!r} {which} of the run's jobs (newest first: {listing})")
    return matches[0].run


def _resolve_directory(
    run: str, logdir: str | None, executor: str | None
) -> tuple[RunService, str]:
    if logdir is not None:
        service = RunService(logdir, executor=executor)
        if service.mirror is not None:  # a remote logdir: copy its run files before reading
            service.mirror.refresh(None)
        return service, run
    if not os.path.isdir(run):
        raise InvalidArgument(f"{run!r} is not a directory (give a run directory, or --logdir)")
    service = RunService(run, executor=executor)
    # an older job of a directory is a run too (`<name>@<job>`), picked with --job
    names = sorted(n for n, found in service.discover().items() if n == found.directory)
    if "." in names:
        return service, "."
    if len(names) == 1:
        return service, names[0]
    if not names:
        raise NotFound(f"no tb-perf run or torch.profiler trace under {run!r}")
    listing = ", ".join(names[:20]) + (" ..." if len(names) > 20 else "")
    raise InvalidArgument(f"{run!r} holds {len(names)} runs ({listing}); use --logdir {run} NAME")


def _ms(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1e6:.2f}"


def _emit(text: str) -> None:
    """Print to stdout. When the reader has closed the pipe (`| head -1`), the rest goes to
    /dev/null, so neither this nor the flush at exit raises, and the command still finishes:
    every file of an `ingest --run` is copied, a `diff` gate still exits 1."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _duration_text(ns: float) -> str:
    """Nanoseconds in the largest of s, ms, µs that keeps the number at 1 or more."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.0f} ns"


def _flop_text(n: float) -> str:
    for prefix, scale in (("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= scale:
            return f"{n / scale:.2f} {prefix}FLOP"
    return f"{n:g} FLOP"


# How evidence numbers read, by the unit the rules give them (docs/FINDINGS.md)
EVIDENCE_UNITS: dict[str, Callable[[float], str]] = {
    "ns": _duration_text,
    "bytes": memory_text,
    "fraction": "{:.1%}".format,
    "%": "{:.1f}%".format,
    "x": "{:.2f}×".format,
    "FLOP": _flop_text,
    "step": str,  # a step number: the name says it is a step
}


def evidence_text(item: dict[str, Any]) -> str:
    """A finding's evidence value (`{"value", "unit"}`) in human units, chosen by its unit, so
    that evidence a new rule adds reads right too; `A/B` is A's text per B (`bytes/step`:
    "1.06 MiB/step"). Text, and units not in EVIDENCE_UNITS (`ranks`, `TFLOP/s`, counts): the
    value and its unit as they are. `--format json` keeps the raw numbers."""
    value, unit = item["value"], item["unit"]
    base, slash, per = unit.partition("/")
    show = EVIDENCE_UNITS.get(base)
    if show is None or isinstance(value, bool) or not isinstance(value, int | float):
        return f"{value} {unit}" if unit else str(value)
    return show(value) + slash + per


def _summary_rows(summary: dict[str, Any], limit: int) -> tuple[list[str], list[list[str]]]:
    header = ["span", "calls", "total ms", "self ms", "mean ms", "p50 ms", "p95 ms", "% of step"]
    rows = [
        [
            s["name"],
            str(s["calls"]),
            _ms(s["total_ns"]),
            _ms(s["self_ns"]),
            _ms(s["mean_ns"]),
            _ms(s["p50_ns"]),
            _ms(s["p95_ns"]),
            "-" if s["pct_of_step"] is None else f"{s['pct_of_step']:.1f}",
        ]
        for s in summary["spans"][:limit]
    ]
    return header, rows


def telling_ranks(
    items: list[dict[str, Any]],
    value: Callable[[dict[str, Any]], float | None],
    named: set[int],
    order: str,
) -> tuple[list[dict[str, Any]], str | None]:
    """`items` (one per rank) or, past MAX_RANK_ROWS of them, the HIGHEST_SHOWN and LOWEST_SHOWN
    by `value` and the ranks in `named`, in rank order, with a line saying which were kept."""
    if len(items) <= MAX_RANK_ROWS:
        return items, None
    ordered = sorted((i for i in items if value(i) is not None), key=value)  # type: ignore[arg-type]
    keep = {i["rank"] for i in ordered[-HIGHEST_SHOWN:] + ordered[:LOWEST_SHOWN]} | named
    shown = [i for i in items if i["rank"] in keep]
    return shown, (
        f"{len(shown)} of {len(items)} ranks: the {HIGHEST_SHOWN} highest and {LOWEST_SHOWN} "
        f"lowest by {order}{', and those the findings name' if named else ''}"
    )


def mean_step_time(rank: dict[str, Any]) -> float | None:
    """A `summary` rank's mean step time (ns), what its ranks are ordered by."""
    return (rank["step_time_ns"] or {}).get("mean")


def named_ranks(findings: list[dict[str, Any]]) -> set[int]:
    """Ranks that findings about a few ranks name (not those of a finding collapsed across
    many ranks)."""
    return {r for f in findings if len(f["ranks"]) <= MAX_RANKS_APART for r in f["ranks"]}


def _rank_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]], str | None]:
    header = ["rank", "host", "status", "steps", "mean ms", "p50 ms", "p95 ms", "max ms"]
    named = named_ranks(summary["findings"])
    ranks, note = telling_ranks(summary["ranks"], mean_step_time, named, "mean step time")
    rows = []
    for r in ranks:
        stats = r["step_time_ns"] or {}
        rows.append(
            [
                str(r["rank"]),
                r["host"] or "-",  # a trace-only rank has no metadata, so no host
                r["status"],
                str(r["steps"]),
                _ms(stats.get("mean")),
                _ms(stats.get("p50")),
                _ms(stats.get("p95")),
                _ms(stats.get("max")),
            ]
        )
    return header, rows, note


def _rank_table(summary: dict[str, Any], table: Callable[..., str]) -> str:
    header, rows, note = _rank_rows(summary)
    return table(header, rows) + (f"\n({note}{MORE_RANKS_HINT})" if note else "")


def _text_table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    """Aligned columns: the first `left` (names) to the left, numbers to the right."""
    widths = [max(len(c) for c in column) for column in zip(header, *rows, strict=False)]
    lines = [
        "  ".join(
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        for cells in [header, *rows]
    ]
    return "\n".join(lines)


def _md_table(header: list[str], rows: list[list[str]], left: int = 1) -> str:
    def escape(cell: str) -> str:
        return cell.replace("|", "\\|")

    lines = [
        "| " + " | ".join(escape(c) for c in header) + " |",
        "|" + "|".join(["---"] * left + ["---:"] * (len(header) - left)) + "|",
    ]
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _findings_text(findings: list[dict[str, Any]], fmt: str) -> str:
    """Findings most severe first: severity, title, evidence, what to do."""
    if not findings:
        return "No findings: nothing crossed a threshold (docs/FINDINGS.md)."
    lines = ["## Findings" if fmt == "md" else "findings:"]
    for f in findings:
        evidence = ", ".join(
            f"{name} {evidence_text(item)}" for name, item in f["evidence"].items()
        )
        bullet = "-" if fmt == "md" else "*"
        lines.append(f"{bullet} [{f['severity']}] {f['kind']}: {f['title']}")
        lines.append(f"  evidence: {evidence}")
        lines.append(f"  fix: {f['recommendation']}")
    return "\n".join(lines)


def _top_modules(rows: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The `limit` modules with the most time (both phases) and the modules enclosing them, in
    tree order (`rows` are the modules route's): a module's time holds its children's, so the
    tree is cut where time gets small, and never-called containers (ModuleList) are kept."""
    timed = [i for i, row in enumerate(rows) if row["total"] is not None]
    timed.sort(key=lambda i: -rows[i]["total"]["total_ns"])
    at = {row["path"]: i for i, row in enumerate(rows)}
    keep: set[int] = set()
    for i in timed[:limit]:
        while i is not None and i not in keep:
            keep.add(i)
            i = at.get(rows[i]["parent"])
    return [rows[i] for i in sorted(keep)]


def _module_rows(
    modules: dict[str, Any], limit: int, indent: str
) -> tuple[list[str], list[list[tuple[str, float | None]]]]:
    """The module table of `analyze` and `report`: per cell its text and the number it shows
    (None for text), in tree order."""
    phases = [p for p in ("forward", "backward") if p in modules["phases"]]
    header = ["module", "type", "calls", *(f"{p} ms" for p in phases), "self ms", "% of step"]
    rows = []
    for row in _top_modules(modules["rows"], limit):
        total = row["total"] or {}
        pct = total.get("pct_of_step")
        calls = total.get("calls")
        rows.append([
            (indent * row["depth"] + (row["path"] or "(model)"), None),
            (row["type"], None),
            ("-" if calls is None else str(calls), calls),
            *((_ms(row[p] and row[p]["total_ns"]), row[p] and row[p]["total_ns"])
              for p in phases),
            (_ms(total.get("self_ns")), total.get("self_ns")),
            ("-" if pct is None else f"{pct:.1f}", pct),
        ])  # fmt: skip
    return header, rows


def _modules_text(modules: dict[str, Any], fmt: str, limit: int) -> str:
    """The module tree, cut to the modules with the most time; the notes that change how to
    read it (a compiled model timed whole, trace class names)."""
    source = (
        "ModuleProfiler records"
        if modules["source"] == "collector"
        else "torch.profiler traces, forward only"
    )
    called = sum(row["total"] is not None for row in modules["rows"])
    heading = "## Modules" if fmt == "md" else "modules:"
    notes = [f"note: {s['compiled']}" for s in modules["settings"] if s["compiled"]]
    if modules["class_names"]:
        notes.append("note: names are trace class names with a per-class counter, not paths")
    if not called:
        return "\n".join([heading, f"{source}: no module calls recorded", *notes])
    shown = f"the {min(limit, called)} of {called} called modules with the most time"
    header, cells = _module_rows(modules, limit, "\u00a0\u00a0" if fmt == "md" else "  ")
    rows = [[text for text, _ in row] for row in cells]
    table = _md_table if fmt == "md" else _text_table
    intro = f"{source}: {shown}, in tree order"
    return "\n".join([heading, intro, *notes]) + "\n\n" + table(header, rows, left=2)


def _memory_line(rank: dict[str, Any]) -> str:
    """One rank's memory in a line: its peak, RSS from first to last sample, the trend the
    leak rule fits, reserved memory above the peak."""
    parts = [f"rank {rank['rank']} ({rank['device']})"]
    top = rank["max_peak"]
    if top is not None:
        total = rank["device_total"]
        of = f" = {top['share']:.0%} of {memory_text(total)}" if top["share"] else ""
        parts.append(f"peak allocated {memory_text(top['bytes'])} at step {top['step']}{of}")
    if rank["rss_first"] is not None:
        parts.append(f"RSS {memory_text(rank['rss_first'])} -> {memory_text(rank['rss_last'])}")
    trend = rank["trend"]
    if trend is not None:
        leak = " (memory_leak)" if trend["leak"] else ""
        parts.append(f"{trend['series']} trend {memory_text(trend['slope'])}/step{leak}")
    if rank["fragmentation"] is not None:
        parts.append(f"reserved above peak {memory_text(rank['fragmentation']['unused'])}")
    return ", ".join(parts)


MEMORY_ORDER = "peak allocation (last RSS without CUDA)"


def memory_order(rank: dict[str, Any]) -> float | None:
    """What ranks' memory lines are ordered by (`memory_summary` rows): MEMORY_ORDER."""
    return rank["max_peak"]["bytes"] if rank["max_peak"] else rank["rss_last"]


def _memory_text(memory: list[dict[str, Any]], findings: list[dict[str, Any]], fmt: str) -> str:
    heading = "## Memory" if fmt == "md" else "memory:"
    bullet = "-" if fmt == "md" else "*"
    shown, note = telling_ranks(memory, memory_order, named_ranks(findings), MEMORY_ORDER)
    lines = [f"{bullet} {_memory_line(rank)}" for rank in shown]
    return "\n".join([heading, *lines, *([f"({note}{MORE_RANKS_HINT})"] if note else [])])


def memory_summary(memory: dict[str, Any]) -> list[dict[str, Any]]:
    """The memory route's ranks without their series (RSS: its first and last sample), as
    `analyze` reports them."""
    series = {"steps", "t_ns", "allocated", "reserved", "peak", "rss", "bucket"}
    out = []
    for rank in memory["ranks"]:
        rss = [v for v in rank["rss"] or [] if v is not None]
        out.append({
            **{k: v for k, v in rank.items() if k not in series},
            "rss_first": rss[0] if rss else None,
            "rss_last": rss[-1] if rss else None,
        })  # fmt: skip
    return out


def format_summary(summary: dict[str, Any], fmt: str, limit: int = 20) -> str:
    """The analyze report; `summary` is the summary route's answer plus "findings",
    "modules" (the modules route's answer, `None` for a run without module calls) and
    "memory" (`memory_summary` of the memory route, `[]` without MemorySampler records)."""
    if fmt == "json":
        return json.dumps(summary, indent=2)
    table = _md_table if fmt == "md" else _text_table
    steps = summary["steps"]
    title = f"run {summary['run']}" + (
        "" if summary["rank"] is None else f", rank {summary['rank']}"
    )
    parts = [
        ("# " if fmt == "md" else "") + title,
        f"{len(summary['ranks'])} rank(s), {steps['count']} step(s)"
        + ("" if steps["first"] is None else f" ({steps['first']}..{steps['last']})"),
        _findings_text(summary["findings"], fmt),
        _rank_table(summary, table),
        table(*_summary_rows(summary, limit)),
    ]
    if summary["memory"]:
        parts.append(_memory_text(summary["memory"], summary["findings"], fmt))
    if summary["modules"] is not None:
        parts.append(_modules_text(summary["modules"], fmt, limit))
    if summary.get("imported"):
        parts.append(_imported_text(summary["imported"], fmt))
    if summary["warnings"]:
        parts.append("warnings:\n" + "\n".join(f"- {w}" for w in summary["warnings"]))
    return "\n\n".join(parts)


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


def _imported_text(imported: list[dict[str, Any]], fmt: str) -> str:
    lines = ["## Imported files" if fmt == "md" else "imported files:"]
    bullet = "-" if fmt == "md" else "*"
    for f in imported:
        if f["kind"] is None:
            lines.append(f"{bullet} {f['file']}: not imported ({f['shows']})")
        else:
            state = "" if f["read"] else " (unreadable: see warnings)"
            what = f"{f['kind']}, rank {f['rank']}{state}"
            lines.append(f"{bullet} {f['file']}: {what} -> {f['shows']}")
    return "\n".join(lines)


def _analyze(args: argparse.Namespace) -> int:
    service, name = _resolve(args.run, args.logdir, args.executor, args.job)
    try:
        summary = service.summary(name, args.rank, wait_s=None)
        findings = service.findings(name, wait_s=None)["findings"]
        modules = service.modules(name, args.rank, wait_s=None)
        memory = service.memory(name, args.rank, wait_s=None)
        run = service.find_run(name)
        summary["imported"] = imported_summary(run, service.tables(run, wait_s=None))
    finally:
        service.close()
    if summary["rank"] is not None:
        findings = [f for f in findings if not f["ranks"] or summary["rank"] in f["ranks"]]
    summary["findings"] = findings
    if summary["run"] == ".":
        summary["run"] = args.run if args.logdir is None else args.logdir
    modules["run"] = summary["run"]
    summary["modules"] = modules if modules["source"] is not None else None
    summary["memory"] = memory_summary(memory)
    _emit(format_summary(summary, args.format, args.top))
    return EXIT_OK


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
    timeline: Timeline, steps: str | None, window: str | None
) -> tuple[int, int] | None:
    """--window in ms from the run's start, or --steps A:B (inclusive) as a window."""
    if steps is not None:
        first, last = _span(steps, "--steps")
        chosen = [s for s in timeline.steps_json() if first <= s["step"] <= last]
        if not chosen:
            known = [s["step"] for s in timeline.steps_json()]
            shown = f"{known[0]}..{known[-1]}" if known else "none"
            raise InvalidArgument(f"no steps {steps} in this run (steps: {shown})")
        return min(s["start"] for s in chosen), max(s["end"] for s in chosen)
    span = _span(window, "--window")
    return None if span is None else (int(span[0] * 1e6), int(span[1] * 1e6))


def _export(args: argparse.Namespace) -> int:
    service, name = _resolve(args.run, args.logdir, args.executor, args.job)
    try:
        timeline = service.timeline(service.find_run(name))
    finally:
        service.close()
    ranks = None
    if args.ranks:
        ranks = {int(r) for r in args.ranks.split(",") if r.strip().isdigit()}
        if not ranks or ranks - set(timeline.alignments):
            raise InvalidArgument(
                f"--ranks {args.ranks!r}: this run has ranks {sorted(timeline.alignments)}"
            )
    window = _export_window(timeline, args.steps, args.window)
    written = export_trace(timeline, args.output, ranks, window)
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
        if found.kind is None:
            raise Unreadable(f"{path}: not importable: {found.reason} (docs/IMPORT.md)")
        facts, tables = _file_facts(path, found.kind, DEFAULT_MAX_FILE_BYTES)
        checked.append((path, found, facts, tables))
    cache = TraceCache()
    for path, found, facts, tables in checked:
        try:
            copy, added = add_to_run(path, target)
        except OSError as exc:
            why = exc.strerror or exc
            raise InvalidArgument(f"cannot copy {path} into {target}: {why}") from None
        if tables is not None:  # TensorBoard then opens it from the cache
            cache.store(cache_key(copy, found.kind), tables)
        shown = os.path.relpath(copy, target)
        rank = Run.rank_in_file_name(copy)
        what = f"rank {rank}" if rank is not None else "rank 0 (no rank<N> in the file name)"
        verb = "added" if added else "already there, unchanged:"
        _emit(f"{verb} {path} -> {shown}: {found.kind.value} ({found.reason}), {what}; {facts}")
        _emit(f"  the plugin shows: {FEEDS[found.kind]}")
    _emit(
        f"run {target}: {len(checked)} file(s) in {os.path.join(*IMPORTED_FOLDER)}; "
        f"open it in the PERF tab or run tb-perf analyze {target}"
    )
    return EXIT_OK


def _fill_cache(run: str, logdir: str | None, executor: str | None) -> int:
    service, name = _resolve(run, logdir, executor)
    try:
        run = service.find_run(name)
        while isinstance(tables := service.tables(run, wait_s=1.0), Progress):
            print(
                f"ingesting {name}: {tables.to_json()['progress']['fraction']:.0%}", file=sys.stderr
            )
        timeline = service.timeline(run)
    finally:
        service.close()
    _emit(
        f"{name}: {len(tables.traces)} trace file(s), {timeline.n_events} events, "
        f"ranks {sorted(timeline.alignments)}; cached in {service.trace_cache.root}"
    )
    for warning in tables.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return EXIT_OK


def _delta_ms(ns: int | None) -> str:
    return "-" if ns is None else f"{ns / 1e6:+.2f}"


def _cut(name: str, width: int = 80) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _delta_rows(rows: list[dict[str, Any]], key: str, limit: int) -> list[list[str]]:
    return [
        [_cut(str(r[key]) + (f" ({r['phase']})" if "phase" in r else "")), r["status"],
         _ms(r["baseline_ns"]), _ms(r["candidate_ns"]), _delta_ms(r["delta_ns"])]
        for r in rows[:limit]
    ]  # fmt: skip


def _side_text(name: str, side: dict[str, Any], unit: str) -> str | None:
    if side["baseline"] is None and side["candidate"] is None:
        return None
    formats = {"bytes": memory_text, "%": lambda v: f"{v:.1f}%", "fraction": lambda v: f"{v:.1%}"}
    show = formats[unit]
    values = [("-" if side[k] is None else show(side[k])) for k in ("baseline", "candidate")]
    return f"{name}: {values[0]} -> {values[1]}"


def format_diff(body: dict[str, Any], fmt: str, limit: int = 10) -> str:
    """The diff report: `body` is the compare route's answer (docs/DIFF.md)."""
    if fmt == "json":
        return json.dumps(body, indent=2)
    table = _md_table if fmt == "md" else _text_table
    step = body["step_time"]
    head = "## " if fmt == "md" else ""
    parts = [
        ("# " if fmt == "md" else "") + f"diff {body['baseline']} -> {body['candidate']}",
        step["headline"],
        table(["steps", "baseline", "candidate"], [
            ["count", str(step["baseline"]["steps"]), str(step["candidate"]["steps"])],
            ["median ms", _ms(step["baseline"]["median_ns"]), _ms(step["candidate"]["median_ns"])],
            ["p95 ms", _ms(step["baseline"]["p95_ns"]), _ms(step["candidate"]["p95_ns"])],
        ]),
        f"ratio {step['ratio']} (candidate / baseline median), {1 - step['alpha']:.0%} interval "
        f"{step['ci']}: {step['verdict']}",
    ]  # fmt: skip
    if body["ranks"]["note"]:
        parts.append(f"note: {body['ranks']['note']}")
    if body["categories"]:
        rows = [[c["category"], _ms(c["baseline_ns"]), _ms(c["candidate_ns"]),
                 _delta_ms(c["delta_ns"])] for c in body["categories"]]  # fmt: skip
        columns = ["category", "baseline ms", "candidate ms", "delta ms"]
        title = f"{head}categories (mean per step, {body['category_source']})"
        parts.append(title + "\n\n" + table(columns, rows))
    header = ["name", "status", "baseline ms", "candidate ms", "delta ms"]
    for section, key in (("operators", "name"), ("kernels", "name"), ("modules", "path")):
        if body[section]:
            title = f"{head}{section} (per step, largest changes first)"
            parts.append(title + "\n\n" + table(header, _delta_rows(body[section], key, limit), 2))
    lines = [
        _side_text("peak allocated", body["memory"]["peak_bytes"], "bytes"),
        _side_text("peak reserved", body["memory"]["reserved_bytes"], "bytes"),
        _side_text("memory slope per step", body["memory"]["slope_bytes_per_step"], "bytes"),
        _side_text("GPU busy (traces)", body["gpu"]["trace_utilization"], "%"),
        _side_text("GPU utilization (GpuTracker)", body["gpu"]["tracker_utilization"], "%"),
        _side_text("straggler spread", body["balance"]["spread"], "fraction"),
    ]
    if any(lines):
        parts.append("\n".join(f"- {line}" for line in lines if line))
    findings = body["findings"]
    changes = [f"- appeared: [{f['severity']}] {f['title']}" for f in findings["appeared"]]
    changes += [f"- disappeared: [{f['severity']}] {f['title']}" for f in findings["disappeared"]]
    if changes:
        parts.append(f"{head}findings\n" + "\n".join(changes))
    return "\n\n".join(parts)


def _diff_body(args: argparse.Namespace) -> dict[str, Any]:
    """The compare answer for BASELINE and CANDIDATE: names in one --logdir, else two run
    directories (one service each, diffed on their facts)."""
    if args.logdir is not None:
        service = RunService(args.logdir, executor=args.executor)
        try:
            return service.compare(args.baseline, args.candidate, wait_s=None)
        finally:
            service.close()
    facts = []
    for path in (args.baseline, args.candidate):
        service, name = _resolve(path, None, args.executor)
        try:
            facts.append(service.facts(name, wait_s=None))
        finally:
            service.close()
        facts[-1].name = path
    return diff_runs(*facts)


def _diff(args: argparse.Namespace) -> int:
    if args.fail_on_regression is not None and args.fail_on_regression < 0:
        raise InvalidArgument("--fail-on-regression takes a percentage >= 0")
    body = _diff_body(args)
    for side in ("baseline", "candidate"):
        if body["step_time"][side]["steps"] < 2:
            raise Unreadable(f"{body[side]}: fewer than 2 step times could be read")
    _emit(format_diff(body, args.format, args.top))
    low = body["step_time"]["ci"][0]
    if args.fail_on_regression is not None and low > 1 + args.fail_on_regression / 100:
        print(f"tb-perf: regression: interval lower bound {low} > "
              f"{1 + args.fail_on_regression / 100:g}", file=sys.stderr)  # fmt: skip
        return EXIT_REGRESSION
    return EXIT_OK


def _report(args: argparse.Namespace) -> int:
    from .report import gather, render, write_report  # report.py imports this module

    service, name = _resolve(args.run, args.logdir, args.executor, args.job)
    try:
        answers = gather(service, name, args.rank, args.run if name == "." else None)
    finally:
        service.close()
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


def _executor_kind(text: str) -> str:
    try:
        return check_kind(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


EXECUTOR_HELP = (
    f"where per-file ingest runs: {', '.join(KINDS)} (default: TB_PERF_EXECUTOR or process)"
)


def _add_run_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "run", metavar="RUN", help="a run directory, or a run name when --logdir is given"
    )
    parser.add_argument("--logdir", help="the logdir RUN is a name in")
    parser.add_argument(
        "--job",
        help="a run directory a script was run into more than once holds several jobs: this "
        "one (its id or the start of it; default: the newest)",
    )
    parser.add_argument("--executor", type=_executor_kind, help=EXECUTOR_HELP)


class _VersionAction(argparse.Action):
    """`--version`: prints `tb-perf X.Y.Z` and exits 0; the number is read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print tb-perf's version and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from . import __version__

        print(f"tb-perf {__version__}")  # to stdout, as argparse's own version action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tb-perf", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", required=True)
    analyze = commands.add_parser(
        "analyze",
        help="findings, step times per rank, the span table, memory and the module tree of a run",
        description="Print a run's findings (most severe first, with evidence and what to "
        "change), its step-time statistics per rank, its span table, one memory line per rank "
        "when it has MemorySampler records and, when it has module calls (ModuleProfiler or "
        "traces), the modules with the most time.",
    )
    _add_run_arguments(analyze)
    analyze.add_argument("--rank", help="only this rank (default: all ranks)")
    analyze.add_argument("--format", choices=["text", "json", "md"], default="text")
    analyze.add_argument(
        "--top", type=int, default=20, help="span and module rows to print (text, md)"
    )
    analyze.set_defaults(handler=_analyze)

    export = commands.add_parser(
        "export-trace",
        help="one Chrome/Perfetto trace of a run, all ranks aligned",
        description="Write one trace of the run with every rank on rank 0's clock (pid = "
        "rank), MyTimer spans as their own threads, and counter tracks. Open it in "
        "ui.perfetto.dev or chrome://tracing.",
    )
    _add_run_arguments(export)
    export.add_argument("-o", "--output", required=True, help="merged.json or merged.json.gz")
    export.add_argument("--ranks", help="comma-separated ranks (default: all)")
    span = export.add_mutually_exclusive_group()
    span.add_argument("--steps", help="A:B, the steps to keep (inclusive)")
    span.add_argument("--window", help="T0:T1 in milliseconds from the run's start")
    export.set_defaults(handler=_export)

    ingest = commands.add_parser(
        "ingest",
        help="parse a run's traces into the cache ahead of time, or import files into a run",
        description="`tb-perf ingest RUN` parses every trace of the run into the cache "
        "(TB_PERF_CACHE_DIR), so TensorBoard opens it at once. `tb-perf ingest FILE... --run "
        "RUN` imports files from other tools (Nsight Systems SQLite, Nsight Compute CSV, "
        "cProfile/pstats, event CSV, torch.profiler traces; docs/IMPORT.md): each is checked "
        "and parsed, then copied verbatim into RUN/plugins/tb_perf/imported/.",
    )
    ingest.add_argument(
        "paths",
        nargs="+",
        metavar="RUN | FILE",
        help="a run (directory, or name with --logdir); with --run, the files to import",
    )
    ingest.add_argument(
        "--run",
        help="import the FILEs into this run (a directory, created if needed, or a name in "
        "--logdir): copied verbatim into its plugins/tb_perf/imported/",
    )
    ingest.add_argument("--logdir", help="the logdir RUN is a name in")
    ingest.add_argument("--executor", type=_executor_kind, help=EXECUTOR_HELP)
    ingest.set_defaults(handler=_ingest)

    diff = commands.add_parser(
        "diff",
        help="candidate against baseline: is it faster or slower per step, and where",
        description="Compare two runs (docs/DIFF.md): the step-time ratio of medians with a "
        "99%% bootstrap interval and a verdict, category, operator, kernel and module deltas, "
        "memory, GPU utilization, rank balance and findings that appeared or disappeared.",
    )
    diff.add_argument("baseline", metavar="BASELINE", help="a run directory, or a run name")
    diff.add_argument("candidate", metavar="CANDIDATE", help="a run directory, or a run name")
    diff.add_argument("--logdir", help="the logdir BASELINE and CANDIDATE are names in")
    diff.add_argument("--executor", type=_executor_kind, help=EXECUTOR_HELP)
    diff.add_argument("--format", choices=["text", "json", "md"], default="text")
    diff.add_argument("--top", type=int, default=10, help="rows of each delta table (text, md)")
    diff.add_argument(
        "--fail-on-regression",
        type=float,
        metavar="PCT",
        help="exit 1 when the interval's lower bound exceeds 1 + PCT/100",
    )
    diff.set_defaults(handler=_diff)

    report = commands.add_parser(
        "report",
        help="one self-contained offline HTML file of a run, for people without TensorBoard",
        description="Write one HTML file (inline CSS and SVG charts, nothing fetched) with the "
        "run's findings, step-time breakdown, step time per rank, span table, top operators, "
        "kernels and modules, memory and GPU summaries; with --baseline, the comparison too.",
    )
    _add_run_arguments(report)
    report.add_argument("--rank", help="only this rank (default: all ranks)")
    report.add_argument(
        "--baseline", help="a run to compare with (a run directory, or a name in --logdir)"
    )
    report.add_argument("-o", "--output", required=True, help="report.html")
    report.set_defaults(handler=_report)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (InvalidArgument, NotFound) as exc:
        print(f"tb-perf: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    except Unreadable as exc:
        print(f"tb-perf: unreadable input: {exc.message}", file=sys.stderr)
        return EXIT_UNREADABLE
    except TbPerfError as exc:
        print(f"tb-perf: {exc.message}", file=sys.stderr)
        return EXIT_UNREADABLE


if __name__ == "__main__":
    sys.exit(main())
