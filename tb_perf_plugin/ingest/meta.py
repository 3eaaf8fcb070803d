"""Per-rank metadata files (`*.meta.json`)."""

from __future__ import annotations

import os
from typing import Any

import msgspec

from ..errors import Unreadable
from .files import open_input
from .records import SUPPORTED_VERSION, Int64

SCHEMA = "tb_perf.meta"
MAX_META_BYTES = 1 << 20


class ModuleSettings(msgspec.Struct):
    """How collectors.ModuleProfiler ran on the rank (docs/FORMAT.md, `modules` metadata): the
    Modules tab says what its numbers leave out. Defaults are the profiler's own, so an older
    or partial file reads as an ordinary run."""

    modules: int | None = None
    max_depth: int | None = None
    include: list[str] = []
    exclude: list[str] = []
    every_n_steps: int = 1
    aggregate_steps: int = 1
    flush_every_steps: int = 10
    backward: bool = True
    gpu: str | None = None
    compiled: str | None = None


class MemorySettings(msgspec.Struct):
    """How MemorySampler ran (metadata `memory`)."""

    device: str | None = None
    reset_peak: bool = False


class GpuInfo(msgspec.Struct):
    index: int
    name: str | None = None
    uuid: str | None = None
    mem_total: int | None = None


class SystemSettings(msgspec.Struct):
    """How GpuTracker ran (metadata `system`): `gpu_reason` says why there are no GPU samples."""

    interval_s: float | None = None
    gpu_backend: str | None = None
    gpu_reason: str | None = None
    gpus: list[GpuInfo] = []


class FlopsInfo(msgspec.Struct):
    """What collectors.FlopsCounter counted (metadata `flops`, docs/COMPUTE.md)."""

    per_step: float | None = None  # model FLOPs of one step
    sampled_step: int | None = None  # the step counted (slowed down by counting)
    regions: int = 1
    by_operator: list[tuple[str, float]] = []  # the top operators, most FLOPs first
    by_dtype: dict[str, float] = {}
    dtype: str | None = None  # the peak table's name of the dtype doing most FLOPs
    device_type: str | None = None
    device_name: str | None = None
    peak_flops: float | None = None  # the user's override, else None: the table decides
    peak_source: str | None = None
    counter: str | None = None


class CompileSettings(msgspec.Struct):
    """dynamo's settings when collectors.CompileMonitor started (metadata `compile`)."""

    recompile_limit: int | None = None
    accumulated_recompile_limit: int | None = None
    automatic_dynamic_shapes: bool | None = None
    assume_static_by_default: bool | None = None


class StoppedCollector(msgspec.Struct):
    """A collector that turned itself off during the run (metadata `stopped`): its data ends
    at `step` for `reason` ("disk full", ...), not because the job ended."""

    reason: str
    step: Int64 | None = None
    at_unix_ns: Int64 | None = None


# optional sections read on their own: a malformed one is left out, not the whole file
_LENIENT_SECTIONS = {
    "flops": FlopsInfo,
    "compile": CompileSettings,
    "stopped": dict[str, StoppedCollector],
}


class RankMeta(msgspec.Struct):
    """The fields the plugin uses; the file may hold more (they are ignored)."""

    rank: Int64
    world_size: Int64
    host: str
    pid: Int64
    started_unix_ns: Int64
    closed_unix_ns: Int64 | None = None
    writer_id: str | None = None  # absent from older collectors' files
    clock_sync: dict[str, Any] | None = None
    dataloader: dict[str, Any] | None = None  # collectors.timed_loader's loader settings
    modules: ModuleSettings | None = None  # absent unless ModuleProfiler ran
    memory: MemorySettings | None = None  # absent unless MemorySampler ran
    system: SystemSettings | None = None  # absent unless GpuTracker ran
    flops: FlopsInfo | None = None  # absent unless FlopsCounter counted a step
    compile: CompileSettings | None = None  # absent unless CompileMonitor ran
    stopped: dict[str, StoppedCollector] = {}  # collectors that turned themselves off
    problems: list[str] = []  # sections left out as malformed (not in the file)


def read_meta(path: str) -> RankMeta:
    name = os.path.basename(path)
    with open_input(path, MAX_META_BYTES, "metadata file") as handle:
        data = handle.read(MAX_META_BYTES)
    try:
        doc = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise Unreadable(f"{name}: not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise Unreadable(f"{name}: not a {SCHEMA} file")
    if doc.get("version") != SUPPORTED_VERSION:
        raise Unreadable(
            f"{name}: {SCHEMA} version {doc.get('version')!r} is not supported by this tb-perf "
            f"(it reads version {SUPPORTED_VERSION}); upgrade tb-perf to read it"
        )
    sections: dict[str, Any] = {}
    problems: list[str] = []
    for key, struct in _LENIENT_SECTIONS.items():
        value = doc.pop(key, None)
        if value is None:
            continue
        try:
            sections[key] = msgspec.convert(value, struct)
        except msgspec.ValidationError as exc:
            problems.append(f"{name}: `{key}` left out: {exc}")
    doc.pop("problems", None)
    try:
        meta = msgspec.convert(doc, RankMeta)
    except msgspec.ValidationError as exc:
        raise Unreadable(f"{name}: {exc}") from None
    for key, value in sections.items():
        setattr(meta, key, value)
    meta.problems = problems
    return meta
