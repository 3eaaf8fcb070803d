"""Task-scoped profiling: torch.profiler traces of the pipeline stages you list, nothing else.

    with profile_task("DIT", timer=timer):      # profiled only if PROFILE_TASK_TYPES lists DIT
        latents = dit(latents, t)
    with profile_task("VAE", timer=timer):
        image = vae.decode(latents)

`PROFILE_TASK_TYPES=DIT,VAE` (comma separated, case-insensitive) selects the task types. Of each
listed type, the first `PROFILE_TASK_SKIP` invocations (default 1: a warm-up call) are skipped,
then the next `PROFILE_TASK_MAX` (default 2) are traced, one trace per invocation. A type that is
not listed gets a shared no-op context. Per task type and rank the run gets the traces
`<prefix>.task-<type>.<n>-<n>.pt.trace.json.gz` and a summary `<prefix>.task-<type>.summary.json`
with statistics of the operators matching `PROFILE_TASK_OPS` (a regex; default: all), computed
from the written traces on the export thread (docs/CAPTURE.md).

Invocations are windows of the one `WindowScheduler` (`Schedule(skip_first, wait=0, warmup=0,
active=1, repeat=max_captures)`); traces are written by `TorchProfilerBackend`.
"""

from __future__ import annotations

import atexit
import contextlib
import gzip
import json
import logging
import os
import re
import statistics
import threading
from collections.abc import Iterable
from typing import Any

from ._null import _NullRange
from ._schedule import Schedule, WindowScheduler
from ._timer import MyTimer
from ._writer import RunWriter

logger = logging.getLogger(__name__)
TYPES_ENV = "PROFILE_TASK_TYPES"
OPS_ENV = "PROFILE_TASK_OPS"
SKIP_ENV = "PROFILE_TASK_SKIP"
MAX_ENV = "PROFILE_TASK_MAX"
DEFAULT_SKIP_FIRST = 1
DEFAULT_MAX_CAPTURES = 2
SUMMARY_SCHEMA = "tb_perf.task_summary"
SUMMARY_VERSION = 1
_PROFILER_OPTIONS = {"cuda", "record_shapes", "with_stack", "profile_memory", "with_flops"}
_STAT_CATEGORIES = {"cpu_op": "cpu_op", "operator": "cpu_op", "kernel": "kernel"}


class _NullTask(_NullRange):
    """What an unlisted task type gets: a context manager (and start/stop) doing nothing."""

    __slots__ = ()

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


_NULL_TASK = _NullTask()


class _Task:
    """One listed task type: counts its invocations and traces the scheduled ones.

    `with task:` or `task.start()` ... `task.stop()`; invocations of one type must not nest.
    """

    def __init__(self, profiler: TaskProfiler, task_type: str) -> None:
        self.task_type = task_type
        self.slug = re.sub(r"[^A-Za-z0-9_-]+", "_", task_type)
        self._profiler = profiler
        self._scheduler = self._make_scheduler()
        self._count = 0
        self._current = -1
        self._durations: dict[tuple[str, str], list[int]] = {}
        self._invocations: list[dict[str, Any]] = []

    def start(self) -> None:
        self._current = index = self._count
        self._count = index + 1
        self._scheduler.begin_step(index)

    def stop(self) -> None:
        self._scheduler.end_step(self._current)

    def __enter__(self) -> None:
        self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _make_scheduler(self) -> WindowScheduler:
        from ._profile import TorchProfilerBackend

        profiler = self._profiler
        backend = TorchProfilerBackend(
            profiler.writer,
            timer=profiler.timer,
            label=f"task-{self.slug}",
            trace_metadata={"task_type": self.task_type},
            metadata_key=None,
            on_window=self._add_trace,
            **profiler.profiler_options,
        )
        schedule = Schedule(profiler.skip_first, 0, 0, 1, profiler.max_captures)
        return WindowScheduler(backend, schedule, origin=0)

    def close(self) -> None:
        self._scheduler.close()

    def _add_trace(self, window: dict[str, Any]) -> None:
        """On the export thread: fold the written trace into this type's summary."""
        invocation: dict[str, Any] = {
            "index": window["first"],
            **{k: window[k] for k in ("file", "error") if k in window},
        }
        if "file" in window:
            path = self._profiler.writer.data_dir / window["file"]
            with gzip.open(path, "rb") as f:
                events = json.load(f)["traceEvents"]
            own_range = f"task-{self.slug}#{window['first']}"
            pattern = self._profiler.ops
            for event in events:
                if event.get("ph") != "X":
                    continue
                name = event.get("name", "")
                if name == own_range:
                    invocation["duration_ns"] = round(event["dur"] * 1000)
                category = _STAT_CATEGORIES.get(str(event.get("cat", "")).lower())
                if category is not None and pattern.search(name):
                    durations = self._durations.setdefault((category, name), [])
                    durations.append(round(event["dur"] * 1000))
        self._invocations.append(invocation)
        self._profiler._write_summary(self)

    def summary(self) -> dict[str, Any]:
        """The summary file's content (docs/CAPTURE.md)."""
        operators: list[dict[str, Any]] = [
            {"name": name, "category": category, **operator_stats(durations)}
            for (category, name), durations in self._durations.items()
        ]
        operators.sort(key=lambda row: (-row["total_ns"], row["name"]))
        writer = self._profiler.writer
        return {
            "schema": SUMMARY_SCHEMA,
            "version": SUMMARY_VERSION,
            "task_type": self.task_type,
            "rank": writer.rank,
            "world_size": writer.world_size,
            "prefix": writer.file_prefix,
            "ops_pattern": self._profiler.ops.pattern,
            "invocations_seen": self._count,
            "invocations": list(self._invocations),
            "operators": operators,
        }


def operator_stats(durations_ns: list[int]) -> dict[str, int]:
    """count, total, mean, median, std (population), min, max of durations, in integer ns."""
    return {
        "count": len(durations_ns),
        "total_ns": sum(durations_ns),
        "mean_ns": round(statistics.fmean(durations_ns)),
        "median_ns": round(statistics.median(durations_ns)),
        "std_ns": round(statistics.pstdev(durations_ns)),
        "min_ns": min(durations_ns),
        "max_ns": max(durations_ns),
    }


class TaskProfiler:
    """Profiles the listed task types of one run; `task(task_type)` is the per-call entry.

    Args:
        run: a MyTimer (its spans are mirrored into the traces), a RunWriter, or None for a
            default RunWriter made when a listed type is first seen.
        types: task types to profile (a comma-separated string or names; case-insensitive);
            None reads `PROFILE_TASK_TYPES` (default: none).
        ops: regex selecting the operators of the summary; None reads `PROFILE_TASK_OPS`
            (default: every operator).
        skip_first / max_captures: invocations skipped first, then traced, per type; None
            reads `PROFILE_TASK_SKIP` / `PROFILE_TASK_MAX` (defaults 1 and 2; 0 traces all).
        profiler_options: `TorchProfilerBackend`'s: cuda, record_shapes, with_stack,
            profile_memory, with_flops.
    """

    def __init__(
        self,
        run: MyTimer | RunWriter | None = None,
        *,
        types: str | Iterable[str] | None = None,
        ops: str | None = None,
        skip_first: int | None = None,
        max_captures: int | None = None,
        **profiler_options: Any,
    ) -> None:
        self.timer = run if isinstance(run, MyTimer) else None
        self._writer = run if isinstance(run, RunWriter) else None
        if types is None:
            types = os.environ.get(TYPES_ENV, "")
        if isinstance(types, str):
            types = types.split(",")
        # lower-cased name -> the name as listed, which names the files of every spelling
        self._listed = {t.strip().lower(): t.strip() for t in types if t.strip()}
        given_writer = self.timer.writer if self.timer is not None else self._writer
        if given_writer is not None and not given_writer.enabled:  # a disabled timer or writer
            self._listed = {}
        self.types = frozenset(self._listed.values())
        if ops is None:
            ops = os.environ.get(OPS_ENV) or ".*"
        try:
            self.ops = re.compile(ops)
        except re.error as exc:
            raise ValueError(f"operator regex {ops!r} (ops= or {OPS_ENV}): {exc}") from None
        self.skip_first = _count_option("skip_first", skip_first, SKIP_ENV, DEFAULT_SKIP_FIRST)
        self.max_captures = _count_option(
            "max_captures", max_captures, MAX_ENV, DEFAULT_MAX_CAPTURES
        )
        unknown = sorted(set(profiler_options) - _PROFILER_OPTIONS)
        if unknown:
            raise TypeError(f"unknown torch.profiler option(s) {', '.join(unknown)}")
        self.profiler_options = profiler_options
        self._tasks: dict[str, _Task | _NullTask] = {}
        self._lock = threading.Lock()
        self._summary_failed = False  # warned once: a full disk fails every later summary too

    @property
    def writer(self) -> RunWriter:
        if self._writer is None:
            self._writer = self.timer.writer if self.timer is not None else RunWriter()
        return self._writer

    def task(self, task_type: str) -> _Task | _NullTask:
        """The context manager (also start/stop) for one invocation of `task_type`."""
        return self._tasks.get(task_type) or self._add(task_type)

    def _add(self, task_type: str) -> _Task | _NullTask:
        """First call with this spelling: the listed type's task (made once), or the no-op."""
        name = self._listed.get(task_type.strip().lower())
        if name is None:
            task: _Task | _NullTask = _NULL_TASK
        elif name in self._tasks:
            task = self._tasks[name]
        else:
            if not self._tasks_made():
                self._writer = self.writer  # made now: its close at exit runs after ours
                atexit.register(self.close)
            try:
                task = _Task(self, name)
            except Exception:  # e.g. torch unusable here: profiling turns off, training goes on
                logger.warning("profiling task type %r is off", name, exc_info=True)
                task = _NULL_TASK
            self._tasks[name] = task
            self._write_metadata()
        self._tasks[task_type] = task
        return task

    def _tasks_made(self) -> list[_Task]:
        return list({id(t): t for t in self._tasks.values() if isinstance(t, _Task)}.values())

    def close(self) -> None:
        """Write the traces under way, wait for their files, and rewrite the summaries with the
        final invocation counts."""
        atexit.unregister(self.close)
        for task in self._tasks_made():
            task.close()
            if task._invocations:  # the final count of invocations seen
                self._write_summary(task)

    def _write_summary(self, task: _Task) -> None:
        path = self.writer.data_dir / f"{self.writer.file_prefix}.task-{task.slug}.summary.json"
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(task.summary()))
            os.replace(tmp, path)
        except OSError as exc:  # the previous summary stays whole; training goes on
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            if not self._summary_failed:
                self._summary_failed = True
                logger.warning("profile_task: cannot write %s: %s; training goes on", path, exc)
            return
        self._write_metadata()

    def _write_metadata(self) -> None:
        with self._lock:
            tasks = self._tasks_made()
            self.writer.update_metadata(
                tasks={
                    "types": sorted(self.types),
                    "ops_pattern": self.ops.pattern,
                    "skip_first": self.skip_first,
                    "max_captures": self.max_captures,
                    "seen": {
                        t.task_type: {
                            "invocations": t._count,
                            "summary": f"{self.writer.file_prefix}.task-{t.slug}.summary.json",
                            "traces": [i.get("file") for i in t._invocations],
                        }
                        for t in tasks
                    },
                }
            )


def _count_option(name: str, value: int | None, env: str, default: int) -> int:
    if value is None:
        text = os.environ.get(env, "").strip()
        try:
            value = int(text) if text else default
        except ValueError:
            raise ValueError(f"{env}={text!r}: expected an integer") from None
    if value < 0 or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer >= 0, not {value!r}")
    return value


_PROFILERS: dict[Any, TaskProfiler] = {}  # the default TaskProfiler per timer / writer / None


def profile_task(
    task_type: str, *, timer: MyTimer | None = None, writer: RunWriter | None = None
) -> _Task | _NullTask:
    """Profile this invocation of `task_type` if `PROFILE_TASK_TYPES` lists it.

    `with profile_task("DIT", timer=timer): ...` or `t = profile_task(...); t.start(); ...;
    t.stop()`. The first call per timer (or writer) reads the environment and makes a
    `TaskProfiler` for it, which later calls reuse; make a `TaskProfiler` yourself to set the
    options in code. An unlisted type costs a call and two dict lookups.
    """
    key = writer if timer is None else timer
    profiler = _PROFILERS.get(key)
    if profiler is None:
        profiler = _PROFILERS[key] = TaskProfiler(timer if timer is not None else writer)
    return profiler._tasks.get(task_type) or profiler._add(task_type)
