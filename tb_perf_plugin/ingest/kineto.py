"""torch.profiler / Kineto / Chrome traces to typed columnar tables, streaming.

The trace is decompressed and decoded in chunks of whole events: peak memory stays near one
chunk plus the output columns, not the 3x the raw size a whole-document decode needs. Chunks are
cut between top-level events of the `traceEvents` array; a cut that lands anywhere else cannot
decode as a JSON array, so a failed chunk is simply merged with the next one.

Every schema seen in the wild is read: 2020 bare arrays, 2021 categories (Operator / Runtime /
Kernel / Memcpy / Memset, absolute epoch microseconds), 2023+ categories (cpu_op, cuda_runtime,
kernel, gpu_memcpy, ..., `baseTimeNanoseconds` plus relative microseconds), ROCm and non-CUDA
accelerators. All output times are int64 Unix-epoch nanoseconds on the tracing host's clock.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import mmap
import multiprocessing
import multiprocessing.connection
import os
import pickle
import re
import struct
import sys
import threading
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from ..errors import Unreadable
from .files import Head, Verdict, human_bytes, open_input
from .kineto_events import Event, NeedsOneProcess, Outer, TraceColumns
from .tables import TraceMeta, TraceTables

CHUNK_BYTES = 4 << 20
# Text held while no boundary between two events is found: events are rarely over 1 MiB, so
# more is not a trace (a trace head followed by a gigabyte of spaces), and is not buffered.
MAX_EVENT_BYTES = 64 << 20
TRACE_SUFFIXES = (".pt.trace.json", ".pt.trace.json.gz", ".json", ".json.gz")
# a block of the file's (inflated) bytes: a view of the helper's ring, or bytes read here
Block = bytes | memoryview


_EVENTS_DECODER = msgspec.json.Decoder(list[Event])
_RAW_LIST_DECODER = msgspec.json.Decoder(list[msgspec.Raw])
_EVENT_DECODER = msgspec.json.Decoder(Event)
_OUTER_DECODER = msgspec.json.Decoder(Outer)
_TRACE_EVENTS_KEY = re.compile(rb'"traceEvents"\s*:\s*\[')
_KEY_OVERLAP = 4096  # bytes searched again for the key when the next block comes
_EVENT_CUT = re.compile(rb"\}\s*,\s*\{")
# What Kineto's JSON writer puts first (other JSON with a `schemaVersion`, a container image
# manifest say, goes on with other keys)
_KINETO_HEADER = re.compile(
    r'\{\s*"schemaVersion"\s*:\s*\d+\s*,\s*"(deviceProperties|distributedInfo|record_shapes)"'
)


def sniff(head: Head) -> Verdict | None:
    """A JSON trace: an object with `traceEvents` in its head, or that starts as Kineto writes
    one (`schemaVersion` first, then its header: a many-rank job's `distributedInfo` can push
    `traceEvents` past the head), or a bare array of events."""
    text = head.text
    if text.startswith("{"):
        if '"traceEvents"' in text:
            return Verdict(True, "JSON trace")
        if _KINETO_HEADER.match(text):
            return Verdict(True, "Kineto trace (its header fills the first 64 KiB)")
        return Verdict(False, "JSON without `traceEvents` in its first 64 KiB (not a trace)")
    if text.startswith("["):
        if text[1:].lstrip().startswith("{") and '"ph"' in text:
            return Verdict(True, "JSON trace (a bare array of events)")
        return Verdict(False, "a JSON array that is not of trace events")
    return None


def _inflate_module() -> Any:
    """zlib-ng where its wheel is installed (zlib's interface and checks, inflating twice as
    fast: the helper inflates the whole file for both processes), else zlib."""
    try:
        return importlib.import_module("zlib_ng.zlib_ng")
    except ImportError:
        return zlib


_INFLATE = _inflate_module()
INFLATE_ERRORS = (zlib.error, _INFLATE.error)


def _inflater() -> Any:
    """An inflater of one gzip member (concatenated members are handled by the caller)."""
    return _INFLATE.decompressobj(wbits=47)


def _decompressed_blocks(path: str, max_bytes: int, block_bytes: int = 4 << 20) -> Iterator[bytes]:
    """The file's bytes (gunzipped if needed) in blocks of at most `block_bytes`, refusing more
    than `max_bytes` in all (a gzip bomb stops at the limit, not at the end of memory)."""
    name = os.path.basename(path)
    total = 0
    with open_input(path, max_bytes, "trace") as handle:
        gzipped = handle.read(2) == b"\x1f\x8b"
        handle.seek(0)
        inflater = _inflater() if gzipped else None
        while compressed := handle.read(1 << 20):
            while compressed:  # each piece counted as it comes: 1 MiB of a bomb is 1 GB
                if inflater is None:
                    piece, compressed = compressed, b""
                else:
                    piece = inflater.decompress(compressed, block_bytes)
                    compressed = inflater.unconsumed_tail
                    if inflater.eof and inflater.unused_data:  # concatenated gzip members
                        compressed = inflater.unused_data
                        inflater = _inflater()
                total += len(piece)
                if total > max_bytes:
                    raise Unreadable(
                        f"{name} holds more than the {human_bytes(max_bytes)} limit for one "
                        "trace (TB_PERF_MAX_FILE_MB raises it)"
                    )
                if piece:
                    yield piece
        if inflater is not None and not inflater.eof:
            raise Unreadable(f"{name} is a truncated gzip file (the job may still be writing it)")


def read_trace(
    path: str,
    max_bytes: int = 4 << 30,
    on_progress: Callable[[int], None] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    helper: bool | None = None,
) -> TraceTables:
    """Parse one trace file into tables; `on_progress(n)` is called with decompressed bytes.

    With `helper` (None: where `_helper_worthwhile` says so), a forked helper process reads the
    file and decodes the chunks it takes (`_Split`: whenever this process has two of its own
    still to decode) while this one decodes the rest: both see the same blocks, so they find
    the same chunk boundaries, and nothing but the helper's finished columns crosses between
    them, through a shared memory file. A gzipped file is inflated by the helper alone, which
    hands this process the inflated blocks through shared memory too (`_InflatedRing`). A
    trace the split cannot handle is read again in one process.
    """
    if helper is None:
        helper = _helper_worthwhile(path)
    if helper:
        try:
            with _ChunkHelper(path, max_bytes, chunk_bytes) as chunk_helper:
                columns, outer = _decode_stream(
                    path, max_bytes, on_progress, chunk_bytes, chunk_helper.split,
                    chunk_helper.blocks(),
                )  # fmt: skip
                columns.merge(chunk_helper.result())
                return _tables(columns, outer)
        except NeedsOneProcess:
            pass
    columns, outer = _decode_stream(path, max_bytes, on_progress, chunk_bytes, None)
    return _tables(columns, outer)


def _decode_stream(
    path: str,
    max_bytes: int,
    on_progress: Callable[[int], None] | None,
    chunk_bytes: int,
    split: _Split | None,
    blocks: Iterator[Block] | None = None,
    in_helper: bool = False,
) -> tuple[TraceColumns, Outer]:
    """Decode the file's events chunk by chunk; with a `split`, only the chunks it gives this
    process (the helper's, `in_helper`: it also skips the document's tail).
    `blocks`: the file's inflated bytes, when another process inflates them."""
    name = os.path.basename(path)
    meta = TraceMeta(path=path)
    columns = TraceColumns(meta)
    columns.pairs_begin_end = split is None
    if blocks is None:
        blocks = _block_source(path, max_bytes, chunk_bytes)
    chunk = attempt = 0  # chunks cut off the buffer; cuts tried (the same in both processes)
    try:
        header, buffer, bare = _read_header(blocks, name, on_progress)
        next_attempt = chunk_bytes
        for block in blocks:
            if on_progress is not None:
                on_progress(len(block))
            buffer += block
            if len(buffer) >= next_attempt:
                before = len(buffer)
                if split is None or split.decodes(attempt, in_helper):
                    buffer = _decode_complete_events(buffer, columns, chunk, split is None)
                else:
                    buffer = _skip_complete_events(buffer)
                attempt += 1
                chunk += len(buffer) < before
                if len(buffer) >= before and len(buffer) > MAX_EVENT_BYTES:
                    raise Unreadable(
                        f"{name}: no boundary between two events in "
                        f"{human_bytes(MAX_EVENT_BYTES)}: not a trace, or an event larger than "
                        "any torch.profiler writes"
                    )
                # after a failed cut, wait for another chunk's worth before trying again
                next_attempt = chunk_bytes if len(buffer) < before else len(buffer) + chunk_bytes
        if in_helper:
            return columns, Outer()
        # The rest is the last event(s), the array's end and the document's tail: with the
        # header in front it is a complete, small JSON document.
        outer = _decode_outer(header, buffer, bare, meta)
    except (*INFLATE_ERRORS, EOFError) as exc:
        raise Unreadable(f"{name}: corrupt compressed data ({exc})") from None
    if outer.traceEvents:
        columns.add(outer.traceEvents, chunk)
    return columns, outer


def _tables(columns: TraceColumns, outer: Outer) -> TraceTables:
    _fill_meta(columns.meta, outer)
    if columns.events == 0:
        raise Unreadable(f"{os.path.basename(columns.meta.path)}: the trace holds no events")
    return columns.finish()


# The helper takes a chunk when this process still has this many of its own to decode: enough
# to keep it busy while the helper decodes one instead of reading ahead
PENDING_CHUNKS = 2
_HELPER_TAKES, _THIS_TAKES = b"h", b"t"


class _Split:
    """Which of the two processes decodes each chunk, decided by the helper as it reaches the
    chunk's cut: it reads ahead of this process (it inflates the blocks, or reads them faster),
    so it takes the chunk when this process still has PENDING_CHUNKS of its own to decode, and
    says so over a pipe, a byte a cut; this process says in a shared word which cut it has
    reached. Neither waits for the other whatever the events cost to decode: the shares follow
    the trace's shape, the inflater's speed and the machine's load. Made before the fork."""

    def __init__(self) -> None:
        self.reached = mmap.mmap(-1, _LENGTH.size)  # the cut this process is at
        self.said_r, self.said_w = os.pipe()
        self._given: collections.deque[int] = collections.deque()  # (helper) cuts given here

    def decodes(self, attempt: int, in_helper: bool) -> bool:
        """Whether the process asking decodes the chunk of cut number `attempt`."""
        return self._helper_decodes(attempt) if in_helper else self._this_decodes(attempt)

    def _this_decodes(self, attempt: int) -> bool:
        _LENGTH.pack_into(self.reached, 0, attempt)
        said = os.read(self.said_r, 1)
        if not said:
            raise NeedsOneProcess("the helper process ended early")
        return said == _THIS_TAKES

    def _helper_decodes(self, attempt: int) -> bool:
        reached = _LENGTH.unpack_from(self.reached, 0)[0]  # a hint: a stale value is harmless
        given = self._given
        while given and given[0] < reached:
            given.popleft()
        takes = len(given) >= PENDING_CHUNKS
        if not takes:
            given.append(attempt)
        os.write(self.said_w, _HELPER_TAKES if takes else _THIS_TAKES)
        return takes

    def close(self, helper_ends: bool) -> None:
        """This process's ends (and the helper's while it has not started: once it has, they
        are closed apart, as a number closed twice may be another file's by then)."""
        _close_fds(self.said_r, *((self.said_w,) if helper_ends else ()))
        self.reached.close()


_GZIP_MIN_BYTES = 18  # header and trailer
HELPER_MIN_BYTES = 48 << 20  # decompressed; smaller traces are not worth a process


def _helper_worthwhile(path: str) -> bool:
    """A helper pays off for a large trace, with a second CPU, where forking is safe: on Linux,
    from a process with no other threads (whose locks a fork could copy mid-use)."""
    if sys.platform != "linux" or threading.active_count() > 1:
        return False
    if len(os.sched_getaffinity(0)) < 2:
        return False
    return _decompressed_size(path) >= HELPER_MIN_BYTES


def _decompressed_size(path: str) -> int:
    """The gzip trailer's size (modulo 4 GiB, of the last member), else the file's size."""
    with open_input(path, None) as handle:
        size = os.fstat(handle.fileno()).st_size
        if handle.read(2) != b"\x1f\x8b" or size < _GZIP_MIN_BYTES:
            return size
        handle.seek(-4, os.SEEK_END)
        return int.from_bytes(handle.read(4), "little")


def _block_source(path: str, max_bytes: int, chunk_bytes: int) -> Iterator[bytes]:
    return _decompressed_blocks(path, max_bytes, min(chunk_bytes, 4 << 20))


_LENGTH = struct.Struct("<q")
_DONE, _FAILED = -1, -2  # in place of a block's length
RING_BYTES = 64 << 20  # inflated bytes the helper may be ahead of this process by


class _InflatedRing:
    """The helper's inflated blocks handed to this process in shared memory (mapped before the
    fork), so only one process gunzips the file: the helper writes each block into the ring and
    its length into one pipe; this process copies it out and says how far it has taken in the
    other. The helper waits only when it is a whole ring ahead."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.memory = mmap.mmap(-1, size)  # anonymous and shared: the child writes, we read
        self.ready_r, self.ready_w = os.pipe()
        self.taken_r, self.taken_w = os.pipe()

    def publish(self, blocks: Iterator[bytes]) -> Iterator[bytes]:
        """The helper's side: each block written to the ring, then passed on (the helper
        decodes its share from them). A failure is signalled before it propagates."""
        written = taken = 0
        try:
            for block in blocks:
                while written + len(block) - taken > self.size:
                    taken = _read_length(self.taken_r)
                self._copy_in(written, block)
                written += len(block)
                os.write(self.ready_w, _LENGTH.pack(len(block)))
                yield block
        except BaseException:
            with contextlib.suppress(OSError):
                os.write(self.ready_w, _LENGTH.pack(_FAILED))
            raise
        os.write(self.ready_w, _LENGTH.pack(_DONE))

    def blocks(self) -> Iterator[Block]:
        """This process's side: the blocks in order, each a view of the ring valid until the
        next is asked for (taken out of it by then: the helper may write over it after);
        `NeedsOneProcess` if the helper failed or died (the file is then read again here,
        which says what is wrong with it)."""
        taken = 0
        ring = memoryview(self.memory)
        while (length := _read_length(self.ready_r)) != _DONE:
            if length < 0:
                raise NeedsOneProcess("the helper could not inflate the file")
            start = taken % self.size
            # a block that wraps around the ring's end is copied out whole
            wraps = start + length > self.size
            yield self._copy_out(taken, length) if wraps else ring[start : start + length]
            taken += length
            with contextlib.suppress(BrokenPipeError):  # a helper past its last block
                os.write(self.taken_w, _LENGTH.pack(taken))

    def _copy_in(self, at: int, block: bytes) -> None:
        start, view = at % self.size, memoryview(block)
        first = min(len(block), self.size - start)
        self.memory[start : start + first] = view[:first]
        self.memory[: len(block) - first] = view[first:]

    def _copy_out(self, at: int, length: int) -> bytes:
        start = at % self.size
        return self.memory[start:] + self.memory[: length - (self.size - start)]


def _close_fds(*fds: int) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _read_length(fd: int) -> int:
    data = os.read(fd, _LENGTH.size)  # written whole (< PIPE_BUF), so read whole
    if len(data) != _LENGTH.size:
        raise NeedsOneProcess("the helper process ended early")
    value: int = _LENGTH.unpack(data)[0]
    return value


def _is_gzip(path: str) -> bool:
    with open_input(path, None) as handle:
        return handle.read(2) == b"\x1f\x8b"


class _ChunkHelper:
    """A forked process decoding its share of a trace's chunks into columns of its own, handed
    back by `result()`, and inflating a gzipped file for both (`blocks()`). Lives only inside a
    `with` block."""

    def __init__(self, path: str, max_bytes: int, chunk_bytes: int) -> None:
        self._args = (path, max_bytes, chunk_bytes)
        # the helper's columns, written where this process maps them (no copy through a pipe
        # after this process's last chunk: the helper writes them while it is still decoding)
        try:
            self._result_fd = os.memfd_create("tb_perf trace decode")
        except (AttributeError, OSError) as exc:  # not Linux, or no memory
            raise NeedsOneProcess(f"no shared file for the helper's columns: {exc}") from None
        self._ring = _InflatedRing(RING_BYTES) if _is_gzip(path) else None
        self.split = _Split()

    def __enter__(self) -> _ChunkHelper:
        context = multiprocessing.get_context("fork")
        self._conn, child = context.Pipe(duplex=False)
        self._process = context.Process(
            target=_helper_main,
            args=(child, *self._args, self._ring, self._result_fd, self.split),
            name="tb_perf trace decode",
        )  # fmt: skip
        try:
            self._process.start()
        except (AssertionError, OSError) as exc:  # e.g. a daemonic caller may have no children
            self._conn.close()
            os.close(self._result_fd)
            self.split.close(helper_ends=True)
            if self._ring is not None:
                _close_fds(self._ring.ready_r, self._ring.ready_w, self._ring.taken_r,
                                 self._ring.taken_w)  # fmt: skip
            raise NeedsOneProcess(f"no helper process: {exc}") from None
        finally:
            child.close()
        os.close(self.split.said_w)  # the helper's ends
        if self._ring is not None:
            _close_fds(self._ring.ready_w, self._ring.taken_r)
        return self

    def blocks(self) -> Iterator[Block] | None:
        """The inflated blocks of a gzipped file, from the helper; None: read the file here."""
        return None if self._ring is None else self._ring.blocks()

    def result(self) -> dict[str, Any]:
        """The helper's columns (`TraceColumns.export`), their arrays mapped from its file."""
        try:
            outcome = self._conn.recv()
        except EOFError:
            outcome = "the helper process ended without an answer"
        if isinstance(outcome, str):
            raise NeedsOneProcess(outcome)
        head_bytes, buffer_sizes = outcome
        size = head_bytes + sum(buffer_sizes)
        # populated at once: faulting its pages in one by one costs more than reading them
        flags = mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
        view = memoryview(mmap.mmap(self._result_fd, size, flags=flags))
        buffers, at = [], head_bytes
        for length in buffer_sizes:
            buffers.append(view[at : at + length])
            at += length
        exported: dict[str, Any] = pickle.loads(view[:head_bytes], buffers=buffers)
        return exported

    def __exit__(self, error_type: type | None, *exc_info: object) -> None:
        self._conn.close()
        if error_type is None:
            self._process.join(timeout=5)
        if self._process.is_alive():  # this side failed first: the helper's work is not needed
            self._process.kill()
            self._process.join()
        os.close(self._result_fd)  # its mapping, held by the columns taken from it, stays
        self.split.close(helper_ends=False)
        if self._ring is not None:
            _close_fds(self._ring.ready_r, self._ring.taken_w)
            # a failure's traceback may still hold a view of it: then it goes with the view
            with contextlib.suppress(BufferError):
                self._ring.memory.close()


def _helper_main(
    conn: multiprocessing.connection.Connection,
    path: str,
    max_bytes: int,
    chunk_bytes: int,
    ring: _InflatedRing | None,
    result_fd: int,
    split: _Split,
) -> None:
    try:
        blocks = None
        if ring is not None:
            _close_fds(ring.ready_r, ring.taken_w)  # the parent's ends
            blocks = ring.publish(_block_source(path, max_bytes, chunk_bytes))
        os.close(split.said_r)  # the parent's end
        columns, _ = _decode_stream(path, max_bytes, None, chunk_bytes, split, blocks, True)
        outcome: tuple[int, list[int]] | str = _write_result(result_fd, columns.export())
    except Exception as exc:  # reported to the parent, which then reads in one process
        outcome = f"{type(exc).__name__}: {exc}"
    with contextlib.suppress(OSError):
        conn.send(outcome)


def _write_result(fd: int, exported: dict[str, Any]) -> tuple[int, list[int]]:
    """The helper's columns into the shared file: the pickle, then its arrays' bytes out of
    band (protocol 5), each mapped by the parent as it is. Returns the sizes of the parts."""
    buffers: list[pickle.PickleBuffer] = []
    head = pickle.dumps(exported, protocol=5, buffer_callback=buffers.append)
    raws = [buffer.raw() for buffer in buffers]
    with open(fd, "wb", closefd=False) as out:
        out.write(head)
        for raw in raws:
            out.write(raw)
    return len(head), [raw.nbytes for raw in raws]


def _read_header(
    blocks: Iterator[Block], name: str, on_progress: Callable[[int], None] | None
) -> tuple[bytes, bytearray, bool]:
    """Consume blocks until the start of the events array; return (header, rest, is_bare),
    where `rest` starts with the array's "[" and the header is what comes before it."""
    seen = bytearray()
    leading = 0  # whitespace before the document, dropped as it comes
    for view in blocks:
        block = bytes(view)  # the head only (a copy of a view of the ring; bytes stay as they are)
        if on_progress is not None:
            on_progress(len(block))
        if not seen:
            stripped = block.lstrip()
            leading += len(block) - len(stripped)
            if not stripped:
                if leading > MAX_EVENT_BYTES:
                    break
                continue
            if stripped[:1] == b"[":  # 2020 schema: the whole file is the events array
                return b"", bytearray(stripped), True
            if stripped[:1] != b"{":
                raise Unreadable(f"{name}: not a JSON trace (it does not start with {{ or [)")
            block = stripped
        resume = max(0, len(seen) - _KEY_OVERLAP)  # the key may straddle two blocks
        seen += block
        match = _TRACE_EVENTS_KEY.search(seen, resume)
        if match:
            return bytes(seen[: match.end() - 1]), bytearray(seen[match.end() - 1 :]), False
        if len(seen) > MAX_EVENT_BYTES:
            break
    if seen:
        raise Unreadable(f'{name}: no "traceEvents" array found; not a Chrome/Kineto trace')
    raise Unreadable(
        f"{name}: the file holds nothing but whitespace"
        if leading
        else f"{name}: the file is empty"
    )


def _last_cut(buffer: bytearray, end: int) -> re.Match | None:
    """The last place before `end` that looks like the boundary between two events, searched
    for in the last 64 KiB, then the last 1 MiB (events are rarely longer)."""
    for window in (1 << 16, 1 << 20):
        last = None
        for match in _EVENT_CUT.finditer(buffer, max(0, end - window), end):
            last = match
        if last is not None or window >= end:
            return last
    return None


def _skip_complete_events(buffer: bytearray) -> bytearray:
    """Drop the whole events at the front of `buffer` (the other process decodes them), cut
    where `_decode_complete_events` cuts first; the buffer to go on with."""
    cut = _last_cut(buffer, len(buffer))
    return buffer if cut is None else _drop_front(buffer, cut)


def _drop_front(buffer: bytearray, cut: re.Match) -> bytearray:
    """Drop the events before `cut` (a `}, {` match), keeping one array that starts with "[":
    in place, so its memory is used again by the next blocks (a new buffer per chunk cost its
    pages faulted in and zeroed, 10 % of a read; deleting a bytearray's front is O(1)). Where
    something still holds a view of the decoded events (seen twice on Dask workers, never in
    a pool: another thread holding a returning frame keeps its locals alive), a copy of what
    is left instead: the buffer to go on with."""
    try:
        del buffer[: cut.end() - 2]
    except BufferError:
        buffer = bytearray(memoryview(buffer)[cut.end() - 2 :])
    buffer[0] = ord("[")  # over the "," or the space before the next event's "{"
    return buffer


def _decode_complete_events(
    buffer: bytearray, columns: TraceColumns, chunk: int, may_cut_earlier: bool = True
) -> bytearray:
    """Decode the whole events at the front of `buffer` (which starts with "[") and drop them
    from it (`_drop_front`); the buffer to go on with, starting with "[", holding what is left
    undecoded.

    The byte after the cut is overwritten with "]" so the front decodes in place, without a
    copy. Tries the last two cut candidates: a candidate inside an event leaves unbalanced
    brackets or an open string and fails to decode. If both fail, nothing is consumed. When the
    other process cut at the first candidate (`may_cut_earlier` False), a failed first
    candidate means the split cannot go on.
    """
    end = len(buffer)
    for _ in range(2):
        cut = _last_cut(buffer, end)
        if cut is None:
            return buffer
        close_at = cut.start() + 1
        saved = buffer[close_at]
        buffer[close_at] = ord("]")
        piece = memoryview(buffer)[: close_at + 1]
        try:
            try:
                events = _EVENTS_DECODER.decode(piece)
            except msgspec.ValidationError:  # also raised before a syntax error further on
                events = _decode_leniently(bytes(piece), columns.meta)
        except (msgspec.DecodeError, RecursionError):
            del piece
            buffer[close_at] = saved
            if not may_cut_earlier:
                raise NeedsOneProcess("a chunk boundary fell inside a string") from None
            end = cut.start()
            continue
        del piece
        columns.add(events, chunk)
        del events  # msgspec.Raw values may hold views of the buffer
        return _drop_front(buffer, cut)
    return buffer


def _decode_leniently(piece: bytes, meta: TraceMeta) -> list:
    """Event by event, skipping the ones whose fields have unexpected types."""
    events, skipped = [], 0
    for raw in _RAW_LIST_DECODER.decode(piece):
        try:
            events.append(_EVENT_DECODER.decode(raw))
        except (msgspec.ValidationError, RecursionError):
            skipped += 1
    if skipped:
        meta.problems.append(f"{skipped} event(s) with unexpected field types skipped")
    return events


def _decode_outer(header: bytes, rest: bytearray, bare: bool, meta: TraceMeta) -> Outer:
    document = bytes(rest) if bare else header + rest
    try:
        try:
            if bare:
                return Outer(traceEvents=_EVENTS_DECODER.decode(document))
            return _OUTER_DECODER.decode(document)
        except msgspec.ValidationError:  # also raised before a syntax error further on
            return _decode_outer_leniently(document, bare, meta)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise Unreadable(
            f"{os.path.basename(meta.path)}: truncated or malformed JSON ({exc})"
        ) from None


def _decode_outer_leniently(document: bytes, bare: bool, meta: TraceMeta) -> Outer:
    """The document with its events decoded one by one and trace-level fields of unexpected
    types ignored."""
    if bare:
        return Outer(traceEvents=_decode_leniently(document, meta))
    raw = msgspec.json.decode(document)
    events = raw.pop("traceEvents", []) if isinstance(raw, dict) else []
    fields = {k: v for k, v in raw.items() if k in Outer.__struct_fields__}
    try:
        outer = msgspec.convert(fields, Outer, strict=False)
    except msgspec.ValidationError as exc:
        meta.problems.append(f"trace-level fields ignored: {exc}")
        outer = Outer()
    outer.traceEvents = _decode_leniently(msgspec.json.encode(events), meta)
    return outer


def _fill_meta(meta: TraceMeta, outer: Outer) -> None:
    meta.base_time_ns = outer.baseTimeNanoseconds
    meta.distributed_info = outer.distributedInfo
    meta.device_properties = outer.deviceProperties
    tb_perf = outer.tb_perf
    if isinstance(tb_perf, str):  # add_metadata_json stores a JSON string on some versions
        try:
            tb_perf = msgspec.json.decode(tb_perf)
        except (msgspec.DecodeError, RecursionError):
            tb_perf = None
    meta.tb_perf = tb_perf if isinstance(tb_perf, dict) else None
    for source in (meta.tb_perf or {}, meta.distributed_info):
        if meta.rank is None and isinstance(source.get("rank"), int):
            meta.rank = source["rank"]
        if meta.world_size is None and isinstance(source.get("world_size"), int):
            meta.world_size = source["world_size"]
