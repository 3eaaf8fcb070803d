"""Reading profile_task's summary files (docs/CAPTURE.md, `<prefix>.task-<type>.summary.json`):
per task type and rank, the traced invocations and statistics of the selected operators."""

from __future__ import annotations

import os

import msgspec

from ..errors import Unreadable
from .files import open_input
from .records import Int64

SCHEMA = "tb_perf.task_summary"
VERSION = 1


class Invocation(msgspec.Struct, omit_defaults=True):
    index: Int64
    file: str | None = None
    duration_ns: Int64 | None = None
    error: str | None = None


class OperatorStats(msgspec.Struct):
    name: str
    category: str
    count: Int64
    total_ns: Int64
    mean_ns: Int64
    median_ns: Int64
    std_ns: Int64
    min_ns: Int64
    max_ns: Int64


class TaskSummary(msgspec.Struct):
    schema: str
    version: Int64
    task_type: str
    rank: Int64
    prefix: str
    ops_pattern: str = ""
    invocations_seen: Int64 = 0
    invocations: list[Invocation] = []
    operators: list[OperatorStats] = []
    world_size: Int64 | None = None


_DECODER = msgspec.json.Decoder(TaskSummary)


def read_task_summary(path: str, max_bytes: int) -> TaskSummary:
    """One summary file; raises Unreadable for another schema or version, or a malformed one."""
    name = os.path.basename(path)
    try:
        with open_input(path, max_bytes, "task summary") as handle:
            data = handle.read(max_bytes)
    except OSError as exc:
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        summary = _DECODER.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise Unreadable(f"{name}: not a task summary ({exc})") from None
    if (summary.schema, summary.version) != (SCHEMA, VERSION):
        raise Unreadable(
            f"{name}: schema {summary.schema!r} version {summary.version}, not {SCHEMA!r} "
            f"version {VERSION}"
        )
    return summary
