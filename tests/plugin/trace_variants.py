"""Structural variants of real traces: whole kinds of events taken out, duplicated or shuffled.

A *base* is one real trace per rank from ../shared/data (SOURCES.md names their origins), cut
to a window of `max_events` events in time (metadata kept) so the suite stays fast. A *variant*
is a function of one rank's trace document that returns a new document: every derived trace
is still a trace the profiler could have written (CUPTI range profiling leaves no device
events, a trace of a CPU-only job has no runtime, a trimmed trace has no ProfilerStep, an
exporter that drops flow events, a merge tool that writes events twice or out of order...).

    for base in BASES.values():
        docs = load_base(shared_data, base)
        for name, make in VARIANTS.items():
            write_run(logdir / f"{base.name}/{name}", [make(doc) for doc in docs])
"""

from __future__ import annotations

import copy
import gzip
import json
import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

HTA = "traces/facebookresearch__HolisticTraceAnalysis/tests/data"
KINETO_SAMPLES = "traces/pytorch__kineto/tb_plugin/samples"

# Trace categories by what they are (lower-cased; the 2021 schema writes Kernel, Runtime...).
DEVICE_CATEGORIES = {
    "kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "memcpy", "memset",
    "mtia_ccp_events",
}  # fmt: skip
CPU_OP_CATEGORIES = {"cpu_op", "operator"}
RUNTIME_CATEGORIES = {
    "cuda_runtime", "cuda_driver", "runtime", "hip_runtime", "mtia_runtime",
    "privateuse1_runtime", "cuda_sync",
}  # fmt: skip
FLOW_PHASES = {"s", "t", "f"}

Doc = dict[str, Any]


@dataclass(frozen=True)
class Base:
    """A real run: one trace per rank (a path under ../shared/data), cut to the window of its
    `max_events` timed events after the first `skip` (by start)."""

    name: str
    shape: str  # what kind of trace it is, for the report
    traces: tuple[str, ...]  # rank r's trace is traces[r]
    max_events: int
    skip: int = 0


BASES = {
    base.name: base
    for base in (
        # V100 ResNet-50 training, 2021 Kineto schema (Operator/Runtime/Kernel, "async" flows,
        # [memory] instants without totals, ProfilerStep as Operator), deviceProperties only
        Base(
            "resnet",
            "GPU training, 2021 schema, ProfilerStep, memory instants",
            (f"{KINETO_SAMPLES}/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",),
            1500,
        ),
        # two ranks of one 128-rank NCCL job, same window, older schema (absolute µs,
        # distributedInfo, no deviceProperties), ProfilerStep as user_annotation, no flows
        Base(
            "nccl_pair",
            "distributed NCCL, two ranks, older schema without flows",
            (
                f"{HTA}/trace_filter/sampled_rank-0.json.gz",
                f"{HTA}/trace_filter/sampled_rank-1.json.gz",
            ),
            2450,  # both ProfilerSteps of each rank start within the first 2410
        ),
        # V100 DDP rank 1 of 2, 2022 schema: CUDA [memory] events with totals (counter
        # lanes), NCCL kernels, ac2g flows, deviceProperties and distributedInfo
        Base(
            "ddp_memory",
            "DDP rank 1 with memory totals, NCCL, ac2g flows",
            (f"{HTA}/df_index_resolver/df_index_resolver.json.gz",),
            1500,
            skip=3900,  # its [memory] events start at the 4038th event, inside ProfilerStep#2
        ),
    )
}


class _Head(msgspec.Struct):
    ph: Any = None
    ts: Any = None
    dur: Any = None


_HEAD = msgspec.json.Decoder(_Head)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_cut(path: Path, max_events: int, skip: int = 0) -> Doc:
    """The trace at `path` cut to a window: from the start of its `skip`-th timed event (by
    start) to that of the `skip + max_events`-th. Kept: every metadata event, the events that
    start in the window and the spans open when it opens (a ProfilerStep, the ops around the
    first event: the nesting stays whole); a flow's two ends by their own times, as a profiler
    stopped early leaves them. Only the kept events are decoded (the big traces stay fast)."""
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    outer = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
    raw_events = msgspec.json.decode(outer.pop("traceEvents", b"[]"), type=list[msgspec.Raw])
    heads = [_HEAD.decode(raw) for raw in raw_events]
    timed = sorted(h.ts for h in heads if h.ph != "M" and _number(h.ts))
    low = timed[min(skip, len(timed) - 1)] if timed else 0
    high = timed[skip + max_events - 1] if len(timed) > skip + max_events else math.inf

    def kept(head: _Head) -> bool:
        if head.ph == "M" or not _number(head.ts):
            return True
        if head.ts < low:  # open when the window opens
            return head.ph == "X" and _number(head.dur) and head.ts + head.dur >= low
        return head.ts <= high

    doc = {key: msgspec.json.decode(value) for key, value in outer.items()}
    doc["traceEvents"] = [
        msgspec.json.decode(raw) for raw, head in zip(raw_events, heads, strict=True) if kept(head)
    ]
    return doc


def load_base(shared_data: Path, base: Base) -> list[Doc]:
    return [read_cut(shared_data / trace, base.max_events, base.skip) for trace in base.traces]


# --- the variants -----------------------------------------------------------------------------


def _category(event: dict[str, Any]) -> str:
    category = event.get("cat")
    return category.lower() if isinstance(category, str) else ""


def _is_device(event: dict[str, Any]) -> bool:
    return event.get("ph") == "X" and _category(event) in DEVICE_CATEGORIES


def _keep(doc: Doc, keep: Callable[[dict[str, Any]], bool]) -> Doc:
    return {**doc, "traceEvents": [e for e in doc["traceEvents"] if keep(e)]}


def _without_key(doc: Doc, key: str) -> Doc:
    return {k: v for k, v in doc.items() if k != key}


def full(doc: Doc) -> Doc:
    return doc


def no_device_events(doc: Doc) -> Doc:
    """Runtime launches (with correlation ids and flow starts) but no kernels, copies or
    sets: a CUPTI range-profiler trace (issue 16, item 11)."""
    return _keep(doc, lambda e: not _is_device(e))


def no_cpu_ops(doc: Doc) -> Doc:
    return _keep(doc, lambda e: not (e.get("ph") == "X" and _category(e) in CPU_OP_CATEGORIES))


def no_runtime(doc: Doc) -> Doc:
    return _keep(doc, lambda e: not (e.get("ph") == "X" and _category(e) in RUNTIME_CATEGORIES))


def no_flows(doc: Doc) -> Doc:
    return _keep(doc, lambda e: e.get("ph") not in FLOW_PHASES)


def no_profiler_step(doc: Doc) -> Doc:
    return _keep(doc, lambda e: not str(e.get("name", "")).startswith("ProfilerStep"))


def gpu_only(doc: Doc) -> Doc:
    """Device events and the metadata naming their processes and streams, nothing else."""
    return _keep(doc, lambda e: e.get("ph") == "M" or _is_device(e))


def one_thread(doc: Doc) -> Doc:
    """The busiest host thread and the device streams (kernels launched from other threads
    keep correlation ids whose launches are gone)."""
    events = doc["traceEvents"]

    def thread(event: dict[str, Any]) -> tuple[str, str]:
        return str(event.get("pid")), str(event.get("tid"))

    host = Counter(
        thread(e) for e in events
        if e.get("ph") == "X" and not _is_device(e) and _category(e) != "trace"
    )  # fmt: skip
    if not host:
        return doc
    keep = {host.most_common(1)[0][0]} | {thread(e) for e in events if _is_device(e)}
    return _keep(doc, lambda e: e.get("ph") == "M" or thread(e) in keep)


def no_device_properties(doc: Doc) -> Doc:
    return _without_key(doc, "deviceProperties")


def no_distributed_info(doc: Doc) -> Doc:
    return _without_key(doc, "distributedInfo")


def duplicated(doc: Doc) -> Doc:
    """Every event written twice (a merge tool run twice over the same file)."""
    events = doc["traceEvents"]
    return {**doc, "traceEvents": events + copy.deepcopy(events)}


def out_of_order(doc: Doc) -> Doc:
    """The same events in a seeded random order (nothing in a trace promises order)."""
    events = list(doc["traceEvents"])
    random.Random(16).shuffle(events)
    return {**doc, "traceEvents": events}


def empty_events(doc: Doc) -> Doc:
    """The outer document as the profiler writes it, with an empty traceEvents list."""
    return {**doc, "traceEvents": []}


VARIANTS: dict[str, Callable[[Doc], Doc]] = {
    make.__name__: make
    for make in (
        full, no_device_events, no_cpu_ops, no_runtime, no_flows, no_profiler_step, gpu_only,
        one_thread, no_device_properties, no_distributed_info, duplicated, out_of_order,
        empty_events,
    )
}  # fmt: skip


def trace_name(rank: int) -> str:
    return f"worker{rank}.1.pt.trace.json"


def write_run(run_dir: Path, docs: list[Doc], age_s: float = 0.0) -> None:
    """Rank r's document as `<run_dir>/worker<r>.1.pt.trace.json`, its modification time
    `age_s` seconds in the past (an old file is a finished one: no "still being written")."""
    run_dir.mkdir(parents=True, exist_ok=True)
    for rank, doc in enumerate(docs):
        path = run_dir / trace_name(rank)
        path.write_text(json.dumps(doc), encoding="utf-8")
        if age_s:
            then = time.time() - age_s
            os.utime(path, (then, then))


def counts(doc: Doc) -> dict[str, int]:
    """How many events of each broad kind the document holds (to check a variant did what
    its name says)."""
    out: Counter[str] = Counter()
    for event in doc["traceEvents"]:
        category = _category(event)
        if event.get("ph") in FLOW_PHASES:
            out["flow"] += 1
        elif event.get("ph") == "M":
            out["metadata"] += 1
        elif _is_device(event):
            out["device"] += 1
        elif event.get("ph") == "X" and category in CPU_OP_CATEGORIES:
            out["cpu_op"] += 1
        elif event.get("ph") == "X" and category in RUNTIME_CATEGORIES:
            out["runtime"] += 1
        if str(event.get("name", "")).startswith("ProfilerStep"):
            out["profiler_step"] += 1
    return dict(out)
