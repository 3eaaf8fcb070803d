"""MyTimer files (`*.timer.jsonl`) to span and step tables."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import numpy as np
import pandas as pd

from .records import Int64, read_appended

SCHEMA = "tb_perf.timer"


class SpanRecord(msgspec.Struct, tag_field="k", tag="span"):
    id: Int64
    parent: Int64
    name: str
    step: Int64
    t0: Int64
    t1: Int64


class StepRecord(msgspec.Struct, tag_field="k", tag="step"):
    step: Int64
    t0: Int64
    t1: Int64


class GpuRecord(msgspec.Struct, tag_field="k", tag="gpu"):
    step: Int64
    span: Int64
    gpu_ns: Int64


_DECODER = msgspec.json.Decoder(SpanRecord | StepRecord | GpuRecord)
_KINDS = frozenset({"span", "step", "gpu"})

SPAN_COLUMNS = ["id", "parent", "name", "step", "t0", "t1", "gpu_ns"]
STEP_COLUMNS = ["step", "t0", "t1"]


@dataclass
class TimerTables:
    """One timer file's records as columns. Times are int64 Unix-epoch ns of the writing rank."""

    spans: pd.DataFrame  # SPAN_COLUMNS; gpu_ns is <NA> where no GPU time (yet) exists
    steps: pd.DataFrame  # STEP_COLUMNS, one row per completed step
    bytes_read: int
    truncated_tail: bool
    problems: list[str] = field(default_factory=list)
    gpu_times: dict[tuple[int, int], int] = field(default_factory=dict)  # (step, span) -> ns
    # (device, inode, mtime_ns, size): a file that was replaced or rewritten rather than
    # appended to is read anew
    file_id: tuple[int, int, int, int] = (0, 0, 0, 0)


def _span_frame(spans: list[SpanRecord]) -> pd.DataFrame:
    n = len(spans)
    return pd.DataFrame({
        "id": np.fromiter((s.id for s in spans), np.int64, n),
        "parent": np.fromiter((s.parent for s in spans), np.int64, n),
        "name": [s.name for s in spans],
        "step": np.fromiter((s.step for s in spans), np.int64, n),
        "t0": np.fromiter((s.t0 for s in spans), np.int64, n),
        "t1": np.fromiter((s.t1 for s in spans), np.int64, n),
    })  # fmt: skip


def _step_frame(steps: list[StepRecord]) -> pd.DataFrame:
    n = len(steps)
    return pd.DataFrame({
        "step": np.fromiter((s.step for s in steps), np.int64, n),
        "t0": np.fromiter((s.t0 for s in steps), np.int64, n),
        "t1": np.fromiter((s.t1 for s in steps), np.int64, n),
    })  # fmt: skip


def read_timer_file(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None = None,
    previous: TimerTables | None = None,
) -> TimerTables:
    """Read a timer file; given the tables of an earlier read of the same file, read only the
    lines appended since (live training) and extend them."""
    lines, extends, file_id = read_appended(
        path, SCHEMA, _DECODER, _KINDS, max_bytes, on_progress, previous
    )
    if not extends:
        previous = None  # new, replaced, truncated or rewritten: read from the start
    new_spans = _span_frame([r for r in lines.records if type(r) is SpanRecord])
    new_steps = _step_frame([r for r in lines.records if type(r) is StepRecord])
    gpu_times = dict(previous.gpu_times) if previous is not None else {}
    for record in lines.records:
        if type(record) is GpuRecord:
            gpu_times[(record.step, record.span)] = record.gpu_ns
    if previous is not None:
        new_spans = pd.concat([previous.spans.drop(columns="gpu_ns"), new_spans], ignore_index=True)
        new_steps = pd.concat([previous.steps, new_steps], ignore_index=True)
    # GPU times arrive late, possibly in a later read: join on every read.
    new_spans["name"] = pd.Categorical(new_spans["name"])
    new_spans["gpu_ns"] = pd.array(
        [gpu_times.get(key) for key in zip(new_spans["step"], new_spans["id"], strict=True)],
        dtype="Int64",
    )
    problems = (previous.problems if previous is not None else []) + lines.skipped
    return TimerTables(
        new_spans[SPAN_COLUMNS],
        new_steps[STEP_COLUMNS],
        lines.bytes_read,
        lines.truncated_tail,
        problems,
        gpu_times,
        file_id,
    )
