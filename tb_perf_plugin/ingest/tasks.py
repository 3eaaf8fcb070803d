"""Reading profile_task's summary files (docs/CAPTURE.md, `<prefix>.task-<type>.summary.json`):
per task type and rank, the traced invocations and statistics of the selected operators."""

from __future__ import annotations

import os

import msgspec

from ..errors import Unreadable
from .records import check_size

SCHEMA = "tb_perf.task_summary"
VERSION = 1


class Invocation(msgspec.Struct, omit_defaults=True):
    index: int
    file: str | None = None
    duration_ns: int | None = None
    error: str | None = None


class OperatorStats(msgspec.Struct):
    name: str
    category: str
    count: int
    total_ns: int
    mean_ns: int
    median_ns: int
    std_ns: int
    min_ns: int
    max_ns: int


class TaskSummary(msgspec.Struct):
    schema: str
    version: int
    task_type: str
    rank: int
    prefix: str
    ops_pattern: str = ""
    invocations_seen: int = 0
    invocations: list[Invocation] = []
    operators: list[OperatorStats] = []
    world_size: int | None = None


_DECODER = msgspec.json.Decoder(TaskSummary)


def read_task_summary(path: str, max_bytes: int) -> TaskSummary:
    """One summary file; raises Unreadable for another schema or version, or a malformed one."""
    name = os.path.basename(path)
    try:
        check_size(name, os.path.getsize(path), max_bytes, "task summary")
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise Unreadable(f"{name}: cannot be read ({exc.strerror or exc})") from None
    try:
        summary = _DECODER.decode(data)
    except msgspec.DecodeError as exc:
        raise Unreadable(f"{name}: not a task summary ({exc})") from None
    if (summary.schema, summary.version) != (SCHEMA, VERSION):
        raise Unreadable(
            f"{name}: schema {summary.schema!r} version {summary.version}, not {SCHEMA!r} "
            f"version {VERSION}"
        )
    return summary
