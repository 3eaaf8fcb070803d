"""Every kind of file tb-perf reads besides its own records (docs/IMPORT.md), in one registry.

Each kind registers once, in READERS: how its files are recognised (`sniff`, from their first
bytes), how they are read (`read`), the version of that reader (part of the trace cache key:
bump it whenever the reader's tables change, and cached ones miss), and what the file feeds.
Adding a trace source is one reader module (a `sniff` and a `read`) plus one `Reader` here.

A file's kind comes from its first bytes; its name only words the answer ("named .sqlite but
holds text"). A suffix can lie (a `.json.gz` that is plain JSON, a `.prof` someone saved a trace
as), and reading a file with the wrong reader gives a worse error than refusing it up front.

Kinds: `kineto` (torch.profiler / Chrome JSON trace, plain or gzip), `nsys` (Nsight Systems
SQLite export), `ncu` (Nsight Compute CSV), `events` (the generic event CSV of
`events_csv.py`) and `pstats` (cProfile / pstats / Lightning AdvancedProfiler `.prof` files,
marshal data). The timeline kinds (kineto, nsys, events) become trace tables
(`read_timeline_file`, cached by `cache.TraceCache`); `ncu` feeds the Kernels view and `pstats`
a Python function table. Memory snapshot pickles are read by `snapshot.py`, not through the
registry; `is_memory_snapshot` recognises one from its first opcodes, for discovery.
"""

from __future__ import annotations

import functools
import importlib
import os
import pickletools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..errors import Unreadable
from .files import HEAD_BYTES, Head, Verdict, open_input

if TYPE_CHECKING:
    from .tables import TraceTables

GZIP_MAGIC = b"\x1f\x8b"
SNAPSHOT_SUFFIXES = (".pickle", ".pkl")
SNAPSHOT_HEAD_BYTES = 4096  # a snapshot's first key comes within its first few dozen bytes
# How torch.cuda.memory._snapshot() pickles start: a dict keyed first by one of these, or (the
# plain torch.cuda.memory_snapshot() form) a list of segment dicts keyed first by one of these
_SNAPSHOT_FIRST_KEYS = frozenset({"segments", "device_traces"})
_SEGMENT_FIRST_KEYS = frozenset({"device", "address"})
_PICKLE_PLUMBING = frozenset({"PROTO", "FRAME", "MARK", "MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"})
_PICKLE_CONTAINERS = {"EMPTY_DICT": "dict", "DICT": "dict", "EMPTY_LIST": "list", "LIST": "list"}
_PICKLE_TEXTS = frozenset({"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE"})


class FileKind(str, Enum):
    """What an imported file is."""

    KINETO = "kineto"
    NSYS = "nsys"
    NCU = "ncu"
    EVENTS = "events"
    PSTATS = "pstats"


@dataclass(frozen=True)
class Reader:
    """One kind of file: how it is recognised and read, and what it feeds."""

    kind: FileKind
    module: str  # the reader's module in this package, imported when first asked
    reader: str  # its function (path, max_bytes) -> the file's tables; raises Unreadable
    feeds: str  # what the plugin shows of it, in words (`tb-perf ingest` prints it)
    timeline: bool = False  # `read` gives TraceTables, cached on disk and shown on the timeline
    version: int = 1  # of `read`, for timeline kinds: part of the trace cache key
    binary: bool = False  # `sniff` reads `Head.data` (never gzip-inflated), not `Head.text`
    gzipped: str = ""  # how a gzip-compressed file of this kind is named; "": not accepted so
    # Files named so are picked up from a run's own folder too (not only from its imported
    # folder); one named so that holds something else is refused with `misnamed` as the reason.
    suffixes: tuple[str, ...] = ()
    misnamed: str = ""

    def sniff(self, head: Head) -> Verdict | None:
        """The module's `sniff`: None if the head is not of this kind (ask the next reader)."""
        verdict: Verdict | None = _module(self.module).sniff(head)
        return verdict

    def read(self, path: str, max_bytes: int) -> Any:
        return getattr(_module(self.module), self.reader)(path, max_bytes)


@functools.cache
def _module(name: str) -> Any:
    """A reader's module, imported on first use: discovery and the command line need the
    registry, not numpy and the readers."""
    return importlib.import_module(f"{__package__}.{name}")


# In the order their sniffers are asked (binary kinds before text ones: a marshal'd dict can
# start with "{" too; Nsight Compute's CSV before the generic event CSV).
READERS: dict[FileKind, Reader] = {
    reader.kind: reader
    for reader in (
        Reader(
            FileKind.NSYS,
            "nsys",
            "read_nsys_sqlite",
            "timeline and kernels (kernels, memcpy, CUDA runtime, NVTX ranges)",
            timeline=True,
            version=2,  # 2: the call_stack column
            binary=True,
            suffixes=(".sqlite",),
            misnamed="named .sqlite but holds no SQLite database",
        ),
        Reader(
            FileKind.PSTATS,
            "python_profile",
            "read_python_profile",
            "Python function table and the python_hotspot finding",
            binary=True,
            suffixes=(".prof", ".pstats"),
            misnamed="named like a cProfile file but holds no marshal data",
        ),
        Reader(
            FileKind.KINETO,
            "kineto",
            "read_trace",
            "timeline, operators, kernels, steps (a torch.profiler trace)",
            timeline=True,
            version=3,  # 2: the call_stack column; 3: profiler_ranges
            gzipped="gzip-compressed JSON trace",
        ),
        Reader(
            FileKind.NCU,
            "ncu",
            "read_ncu_csv",
            "per-kernel metrics in the Kernels view",
        ),
        Reader(
            FileKind.EVENTS,
            "events_csv",
            "read_events_csv",
            "timeline (one slice per row; steps when it has a step column)",
            timeline=True,
            version=2,  # 2: the call_stack column
        ),
    )
}
# Views of the registry, for callers that ask one question of every kind
TIMELINE_KINDS = tuple(kind for kind, reader in READERS.items() if reader.timeline)
FEEDS = {kind: reader.feeds for kind, reader in READERS.items()}
DROPPED_SUFFIXES = tuple(suffix for reader in READERS.values() for suffix in reader.suffixes)
# "JSON trace": what a gzip file may hold, in words
_COMPRESSIBLE = " or ".join(
    r.gzipped.removeprefix("gzip-compressed ") for r in READERS.values() if r.gzipped
)


@dataclass(frozen=True)
class Sniffed:
    """A file's kind (None: not importable) and what its content looks like, in words."""

    kind: FileKind | None
    reason: str


def reader_version(kind: FileKind) -> int:
    """The version of the reader for `kind`: part of the trace cache key."""
    reader = READERS[kind]
    if not reader.timeline:
        raise ValueError(f"{kind.value} files are not cached as trace tables")
    return reader.version


def read_timeline_file(path: str, max_bytes: int, kind: FileKind | None = None) -> TraceTables:
    """Trace tables of a timeline file (kineto, nsys, events), sniffing its kind unless given.
    Raises `errors.Unreadable` for a file of another kind or one its reader refuses."""
    if kind is None:
        found = sniff(path)
        if found.kind is None:
            raise Unreadable(f"{os.path.basename(path)}: not importable: {found.reason}")
        kind = found.kind
    reader = READERS[kind]
    if not reader.timeline:
        raise Unreadable(f"{os.path.basename(path)}: a {kind.value} file has no timeline")
    return reader.read(path, max_bytes)


def sniff(path: str) -> Sniffed:
    """The kind of the file at `path`, from its first HEAD_BYTES bytes."""
    try:
        with open_input(path, None) as handle:  # only the head is read
            head = handle.read(HEAD_BYTES)
    except Unreadable as exc:
        return Sniffed(None, exc.message)
    except OSError as exc:
        return Sniffed(None, f"unreadable ({exc.strerror or exc})")
    return sniff_bytes(head, os.path.basename(path))


def sniff_bytes(head: bytes, name: str) -> Sniffed:
    """The kind of a file that starts with `head` (`name` only words the reason)."""
    if not head:
        return Sniffed(None, "empty file")
    if head.startswith(GZIP_MAGIC):
        return _sniff_gzip(head)
    found = _sniff_head(Head(head), inflated=False)
    if found.kind is None:
        lowered = name.lower()
        for reader in READERS.values():
            if reader.misnamed and lowered.endswith(reader.suffixes):
                return Sniffed(None, f"{reader.misnamed} ({found.reason})")
    return found


def _sniff_head(head: Head, inflated: bool) -> Sniffed:
    """Ask each reader in turn: the first that claims or refuses the head decides."""
    readers = list(READERS.values())
    if not inflated:
        for reader in readers:
            if reader.binary and (verdict := reader.sniff(head)) is not None:
                return _sniffed(reader, verdict)
    if b"\x00" in head.data:
        return Sniffed(None, "binary data of no known kind")
    if not head.text.strip():  # no non-blank line; `lines` is left to the sniffers that use it
        return Sniffed(None, "no content")
    for reader in readers:
        if not reader.binary and (verdict := reader.sniff(head)) is not None:
            return _sniffed(reader, verdict)
    return Sniffed(None, "text of no known kind")


def _sniffed(reader: Reader, verdict: Verdict) -> Sniffed:
    return Sniffed(reader.kind if verdict.ours else None, verdict.reason)


def _sniff_gzip(head: bytes) -> Sniffed:
    """A gzip file is importable when what it holds is of a kind that may be compressed."""
    reasons = []
    try:
        for inflated in _inflated_heads(head):
            found = _sniff_head(Head(inflated), inflated=True)
            if found.kind is not None and READERS[found.kind].gzipped:
                return Sniffed(found.kind, READERS[found.kind].gzipped)
            reasons.append(found.reason)
    except zlib.error as exc:
        return Sniffed(None, f"corrupt gzip data ({exc})")
    return Sniffed(None, f"gzip file that holds no {_COMPRESSIBLE} ({reasons[0]})")


def _inflated_heads(head: bytes) -> Iterator[bytes]:
    """What the first gzip member in `head` holds, then with each next member added, up to
    HEAD_BYTES (a member may end before the trace's key does: writers that flush per block
    make one member each). The first member's damage is the file's; a later one's is left to
    the reader to report."""
    inflater = zlib.decompressobj(wbits=47)
    out = inflater.decompress(head, HEAD_BYTES)
    yield out
    while inflater.eof and inflater.unused_data.startswith(GZIP_MAGIC) and len(out) < HEAD_BYTES:
        head, inflater = inflater.unused_data, zlib.decompressobj(wbits=47)
        try:
            out += inflater.decompress(head, HEAD_BYTES - len(out))
        except zlib.error:
            return
        yield out


def is_snapshot_name(name: str) -> bool:
    """Named as a memory snapshot may be (`*.pickle`, `*.pkl`): discovery's first check."""
    return name.lower().endswith(SNAPSHOT_SUFFIXES)


def is_memory_snapshot(path: str) -> bool:
    """Whether the file starts as a pickled `torch.cuda.memory._snapshot()` does (a model
    checkpoint `.pkl` does not): its first SNAPSHOT_HEAD_BYTES bytes are parsed as pickle
    opcodes, nothing is unpickled."""
    try:
        with open_input(path, None) as handle:
            head = handle.read(SNAPSHOT_HEAD_BYTES)
    except (Unreadable, OSError):
        return False
    return snapshot_head(head)


def snapshot_head(head: bytes) -> bool:
    """`is_memory_snapshot` of a file that starts with `head`: the containers opened before
    the first string, and that string, are a snapshot's (a dict keyed `segments`, or a list of
    segment dicts). Anything else first (a global: a class, as checkpoints pickle) is not."""
    containers: list[str] = []
    try:
        for opcode, arg, _ in pickletools.genops(head):
            if opcode.name in _PICKLE_PLUMBING:
                continue
            if opcode.name in _PICKLE_CONTAINERS and len(containers) < 2:
                containers.append(_PICKLE_CONTAINERS[opcode.name])
                continue
            if opcode.name not in _PICKLE_TEXTS:
                return False
            if containers == ["dict"]:
                return arg in _SNAPSHOT_FIRST_KEYS
            return containers == ["list", "dict"] and arg in _SEGMENT_FIRST_KEYS
    except ValueError:  # not pickle opcodes, or the head ends before a first string
        return False
    return False
