"""MyTimer files (`*.timer.jsonl`) to span and step tables."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import numpy as np
import pandas as pd

from .records import read_json_lines

SCHEMA = "tb_perf.timer"


class SpanRecord(msgspec.Struct, tag_field="k", tag="span"):
    id: int
    parent: int
    name: str
    step: int
    t0: int
    t1: int


class StepRecord(msgspec.Struct, tag_field="k", tag="step"):
    step: int
    t0: int
    t1: int


class GpuRecord(msgspec.Struct, tag_field="k", tag="gpu"):
    step: int
    span: int
    gpu_ns: int


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


def read_timer_file(
    path: str, max_bytes: int, on_progress: Callable[[int], None] | None = None
) -> TimerTables:
    lines = read_json_lines(path, SCHEMA, _DECODER, _KINDS, max_bytes, on_progress)
    spans = [r for r in lines.records if type(r) is SpanRecord]
    steps = [r for r in lines.records if type(r) is StepRecord]
    gpu_times = {(r.step, r.span): r.gpu_ns for r in lines.records if type(r) is GpuRecord}

    span_table = pd.DataFrame(
        {
            "id": np.fromiter((s.id for s in spans), np.int64, len(spans)),
            "parent": np.fromiter((s.parent for s in spans), np.int64, len(spans)),
            "name": pd.Categorical([s.name for s in spans]),
            "step": np.fromiter((s.step for s in spans), np.int64, len(spans)),
            "t0": np.fromiter((s.t0 for s in spans), np.int64, len(spans)),
            "t1": np.fromiter((s.t1 for s in spans), np.int64, len(spans)),
            "gpu_ns": pd.array([gpu_times.get((s.step, s.id)) for s in spans], dtype="Int64"),
        },
        columns=SPAN_COLUMNS,
    )
    step_table = pd.DataFrame(
        {
            "step": np.fromiter((s.step for s in steps), np.int64, len(steps)),
            "t0": np.fromiter((s.t0 for s in steps), np.int64, len(steps)),
            "t1": np.fromiter((s.t1 for s in steps), np.int64, len(steps)),
        },
        columns=STEP_COLUMNS,
    )
    return TimerTables(
        span_table, step_table, lines.bytes_read, lines.truncated_tail, lines.skipped
    )
