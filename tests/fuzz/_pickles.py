"""A structure-aware generator of pickles: random opcode streams that a pickler could have
written (containers filled through MARKs, memo puts and gets of objects that exist, counted and
newline-ended arguments, frames, every protocol 2-5), shaped like memory snapshots half of the
time, with the hostile constructs of issue 16 mixed in: repeated empty containers (the set
bomb), long runs of shared references, DUP runs, deep nesting, nested marks, declared lengths
far beyond the data, memo indices out of order, frames of the wrong length, odd values in
snapshot fields, and a cut or a missing STOP.

`generate(rng) -> (label, bytes)` is the fuzz harness's generator (tests/fuzz/_fuzz.py)."""

from __future__ import annotations

import random
import struct

# snapshot keys and values (ingest/snapshot.py), so generated dicts often look like one
SNAPSHOT_KEYS = (
    "segments", "device_traces", "allocator_settings", "external_annotations", "blocks",
    "frames", "address", "total_size", "allocated_size", "active_size", "requested_size",
    "stream", "segment_type", "device", "size", "state", "history", "addr", "real_size",
    "action", "time_us", "filename", "line", "name", "stage", "is_expandable",
)  # fmt: skip
TEXTS = (
    "alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "oom",
    "active_allocated", "inactive", "active_pending_free", "large", "small", "train.py",
    "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", "forward", "", "名前",
    "\U0001f600", "x" * 300,
)  # fmt: skip
# one-byte opcodes that each make a new object (or a reference) from nothing: bomb fragments
BOMB_FRAGMENTS = (b"\x8f", b"]", b"}", b"(\x91", b")", b"N\x85", b"N", b"\x88", b"(t", b"(l")


class _Writer:
    """Emits the opcodes of random values, keeping count of the memo so that gets and puts
    name objects that exist (but for the deliberate mistakes)."""

    def __init__(self, rng: random.Random, protocol: int) -> None:
        self.rng = rng
        self.protocol = protocol
        self.out: list[bytes] = []
        self.memo = 0
        self.labels: list[str] = []
        self.budget = rng.choice((200, 2_000, 20_000))  # values left to write
        self.mistakes = 0.002 if rng.random() < 0.25 else 0.0  # rate of deliberate mistakes
        self.shared: dict[str, list[int]] = {"frames": [], "frame": []}  # memo indices

    def emit(self, *parts: bytes) -> None:
        """One opcode with its argument (or a run of whole opcodes): frames split between."""
        self.out.append(b"".join(parts))

    # --- the memo -----------------------------------------------------------------------------

    def put(self) -> int | None:
        """Memoize the top of the stack (most of the time: picklers memoize nearly every
        container and string); its memo index."""
        rng = self.rng
        if rng.random() < 0.3:
            return None
        index = self.memo
        if rng.random() < self.mistakes:
            index = rng.choice((self.memo + 1, 2**31, 2**32 - 1, 10**9))
            self.labels.append("memo index out of order")
        if self.protocol >= 4 and index == self.memo and rng.random() < 0.8:
            self.emit(b"\x94")
        elif index < 256 and rng.random() < 0.7:
            self.emit(b"q", bytes([index]))
        elif index < 2**32 and rng.random() < 0.8:
            self.emit(b"r", struct.pack("<I", index))
        else:
            self.emit(b"p", str(index).encode(), b"\n")
        self.memo += 1
        return index if index < self.memo else None

    def get(self, index: int | None = None) -> None:
        """A reference to memo entry `index` (default: any)."""
        rng = self.rng
        index = rng.randrange(self.memo) if index is None else index
        if rng.random() < self.mistakes:
            index = self.memo + rng.randrange(1000)  # a get of nothing: refused by the unpickler
            self.labels.append("memo get of nothing")
        if index < 256 and rng.random() < 0.8:
            self.emit(b"h", bytes([index]))
        elif rng.random() < 0.8:
            self.emit(b"j", struct.pack("<I", index))
        else:
            self.emit(b"g", str(index).encode(), b"\n")

    # --- values -------------------------------------------------------------------------------

    def text(self, value: str | None = None) -> None:
        rng = self.rng
        value = rng.choice(TEXTS) if value is None else value
        raw = value.encode("utf-8", "surrogatepass")
        if rng.random() < self.mistakes:
            raw = raw + b"\xff\xfe"  # not UTF-8
            self.labels.append("not UTF-8")
        kind = rng.random()
        if len(raw) < 256 and kind < 0.6 and self.protocol >= 4:
            self.emit(b"\x8c", bytes([len(raw)]), raw)
        elif kind < 0.85 or self.protocol < 4:
            self.emit(b"X", struct.pack("<I", len(raw)), raw)
        else:
            self.emit(b"\x8d", struct.pack("<Q", len(raw)), raw)
        self.put()

    def integer(self, sane: bool = False) -> None:
        """An integer: of any size, or (`sane`) one a snapshot field could hold but for the
        rate of mistakes."""
        rng = self.rng
        if sane and rng.random() >= self.mistakes * 10:
            value = rng.choice((0, 1, 7, 512, 4096, 2**20, 2**21, rng.randrange(2**40)))
        else:
            value = rng.choice((
                0, 1, 255, 256, 65535, 65536, 2**31 - 1, -(2**31), 2**40 + 7, 2**63 - 1,
                -(2**63), 2**64, 1776479641085368, rng.randrange(2**48), -1,
            ))  # fmt: skip
        kind = rng.random()
        if 0 <= value < 256 and kind < 0.7:
            self.emit(b"K", bytes([value]))
        elif 0 <= value < 65536 and kind < 0.7:
            self.emit(b"M", struct.pack("<H", value))
        elif -(2**31) <= value < 2**31 and kind < 0.8:
            self.emit(b"J", struct.pack("<i", value))
        elif kind < 0.95:
            raw = value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)
            self.emit(b"\x8a", bytes([len(raw)]), raw)
        else:
            self.emit(b"L", str(value).encode(), b"L\n")

    def scalar(self) -> None:
        rng = self.rng
        kind = rng.randrange(11) if rng.random() >= self.mistakes else 11
        if kind < 4:
            self.integer()
        elif kind < 7:
            self.text()
        elif kind == 7:
            self.emit(rng.choice((b"N", b"\x88", b"\x89", b")")))
        elif kind == 8:
            self.emit(b"G", struct.pack(">d", rng.choice((0.5, -1e308, float("nan")))))
        elif kind == 9:
            raw = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
            if rng.random() < 0.5:
                self.emit(b"C", bytes([len(raw)]), raw)
            elif self.protocol >= 5 and rng.random() < 0.5:
                self.emit(b"\x96", struct.pack("<Q", len(raw)), raw)
            else:
                self.emit(b"B", struct.pack("<I", len(raw)), raw)
            self.put()
        elif kind == 10:  # protocol 0 texts, which the unpickler still reads
            self.emit(rng.choice((b"I42\n", b"I01\n", b"F1.5\n", b"S'abc'\n", b"Vx\\u20ac\n")))
        else:
            self.hostile_scalar()

    def hostile_scalar(self) -> None:
        """A counted argument declaring far more than the data holds (the unpickler allocates
        the declared size first), or a protocol 0 integer of many digits."""
        rng = self.rng
        big = rng.choice((2**31 - 1, 2**32 - 1, 2**40, 2**62, 2**64 - 1))
        op = rng.choice((b"X", b"B", b"T", b"\x8b", b"\x8d", b"\x8e", b"\x96", b"L"))
        self.labels.append(f"declared length {big} ({op!r})")
        if op == b"L":
            self.emit(b"L", b"9" * rng.choice((100, 5000)), b"\n")
        elif op in (b"X", b"B", b"T", b"\x8b"):
            self.emit(op, struct.pack("<I", big % 2**32), b"abc")
        else:
            self.emit(op, struct.pack("<Q", big % 2**64), b"abc")

    def value(self, depth: int) -> None:
        rng = self.rng
        self.budget -= 1
        if self.memo and rng.random() < 0.25:
            self.get()
            return
        if depth <= 0 or self.budget <= 0 or rng.random() < 0.45:
            self.scalar()
            return
        kind = rng.randrange(9)
        items = rng.choice((0, 1, 2, 3, 5, 20, 200))
        if kind < 3:
            self.list_of(lambda: self.value(depth - 1), items)
        elif kind < 6:
            self.dict_of(lambda: self.key(), lambda: self.value(depth - 1), items)
        elif kind == 6:
            self.tuple_of(lambda: self.value(depth - 1), items)
        elif kind == 7:
            self.emit(b"\x8f")
            self.put()
            self.emit(b"(")
            for _ in range(self.allowed(items)):
                self.scalar()
            self.emit(b"\x90")
        else:
            self.emit(b"(")
            for _ in range(self.allowed(items)):
                self.scalar()
            self.emit(b"\x91")
            self.put()

    def allowed(self, items: int) -> int:
        """How many of `items` to write: all while the value budget lasts (each counts)."""
        items = max(0, min(items, self.budget))
        self.budget -= items
        return items

    def key(self) -> None:
        if self.rng.random() < 0.9:
            self.text(self.rng.choice(SNAPSHOT_KEYS))
        else:
            self.scalar()

    def list_of(self, item, items: int) -> int | None:
        """A list of `items` values `item()` writes; its memo index."""
        rng = self.rng
        items = self.allowed(items)
        if rng.random() < 0.15:  # protocol 0/1 style: MARK items LIST
            self.emit(b"(")
            for _ in range(items):
                item()
            self.emit(b"l")
            return self.put()
        self.emit(b"]")
        index = self.put()
        if items == 1 and rng.random() < 0.5:
            item()
            self.emit(b"a")
            return index
        for start in range(0, items, 1000):  # batches of 1,000, as the pickler writes them
            self.emit(b"(")
            for _ in range(min(1000, items - start)):
                item()
            self.emit(b"e")
        return index

    def dict_of(self, key, value, items: int) -> int | None:
        """A dict of `items` entries: `key()` writes a key (or, with `value` None, a whole
        entry), `value()` its value."""
        rng = self.rng
        items = min(items, max(self.budget, 9))
        self.budget -= items

        def entries() -> None:
            for _ in range(items):
                key()
                if value is not None:
                    value()

        if rng.random() < 0.1:
            self.emit(b"(")
            entries()
            self.emit(b"d")
            return self.put()
        self.emit(b"}")
        index = self.put()
        if items == 1 and rng.random() < 0.5:
            entries()
            self.emit(b"s")
        elif items:
            self.emit(b"(")
            entries()
            self.emit(b"u")
        return index

    def tuple_of(self, item, items: int) -> None:
        if 1 <= items <= 3 and self.rng.random() < 0.7:
            for _ in range(items):
                item()
            self.emit(b"\x84\x85\x86\x87"[items : items + 1])
        else:
            self.emit(b"(")
            for _ in range(items):
                item()
            self.emit(b"t")
        self.put()

    # --- snapshots ----------------------------------------------------------------------------

    def field(self, name: str, make) -> None:
        """One snapshot field: its key, then its proper value (any value at the rate of
        mistakes)."""
        self.text(name)
        if self.rng.random() < self.mistakes * 10:
            self.value(2)
        else:
            make()

    def frames(self) -> None:
        """A frames list: mostly one shared with other entries (torch shares one list per
        distinct stack and one dict per distinct frame), sometimes a long one."""
        rng = self.rng
        if self.shared["frames"] and rng.random() < 0.6:
            self.get(rng.choice(self.shared["frames"]))
            return

        def frame() -> None:
            if self.shared["frame"] and rng.random() < 0.5:
                self.get(rng.choice(self.shared["frame"]))
                return
            index = self.dict_of(iter_fields(self, (
                ("filename", lambda: self.text(rng.choice(TEXTS[11:]))),
                ("line", lambda: self.integer(sane=True)), ("name", self.text),
            )), None, 3)  # fmt: skip
            if index is not None:
                self.shared["frame"].append(index)

        index = self.list_of(frame, rng.choice((0, 1, 3, 10, 10, 300)))
        if index is not None:
            self.shared["frames"].append(index)

    def segment(self) -> None:
        rng = self.rng
        sane = lambda: self.integer(sane=True)  # noqa: E731

        def block() -> None:
            self.dict_of(iter_fields(self, (
                ("address", sane), ("size", sane), ("requested_size", sane),
                ("state", lambda: self.text(rng.choice(TEXTS[6:9]))), ("frames", self.frames),
            )), None, 5)  # fmt: skip

        self.dict_of(iter_fields(self, (
            ("device", lambda: self.emit(b"K", bytes([rng.choice((0, 0, 1, 255))]))),
            ("address", sane), ("total_size", sane), ("allocated_size", sane),
            ("active_size", sane), ("requested_size", sane), ("stream", sane),
            ("segment_type", lambda: self.text(rng.choice(("large", "small")))),
            ("blocks", lambda: self.list_of(block, rng.choice((0, 1, 2, 5)))),
        )), None, 9)  # fmt: skip

    def entry(self) -> None:
        rng = self.rng
        sane = lambda: self.integer(sane=True)  # noqa: E731
        self.dict_of(iter_fields(self, (
            ("action", lambda: self.text(rng.choice(TEXTS[:6]))), ("addr", sane),
            ("size", sane), ("stream", sane),
            ("time_us", lambda: self.emit(b"\x8a\x07", _time_us(rng))),
            ("frames", self.frames),
        )), None, 6)  # fmt: skip

    def snapshot(self) -> None:
        rng = self.rng
        self.dict_of(iter_fields(self, (
            ("segments", lambda: self.list_of(self.segment, rng.choice((0, 1, 3, 10)))),
            ("device_traces", lambda: self.list_of(
                lambda: self.list_of(self.entry, rng.choice((0, 1, 10, 100))), rng.choice((1, 2))
            )),
            ("allocator_settings", lambda: self.value(2)),
        )), None, 3)  # fmt: skip

    # --- bombs ----------------------------------------------------------------------------------

    def bomb(self) -> None:
        """A value that would build far more than its bytes (when repeated enough)."""
        rng = self.rng
        count = rng.choice((1_000, 10_000, 100_000, 300_000))
        kind = rng.randrange(6)
        if kind == 0:
            fragment = rng.choice(BOMB_FRAGMENTS)
            self.labels.append(f"{count} x {fragment!r} in a list")
            self.emit(b"](", fragment * count, b"e")
        elif kind == 1 and self.memo:
            self.labels.append(f"a list of {count} shared references")
            index = rng.randrange(min(self.memo, 256))
            self.emit(b"](", (b"h" + bytes([index])) * count, b"e")
        elif kind == 2:
            self.labels.append(f"a set of {count} DUPs")
            self.emit(b"\x8f(N", b"2" * count, b"\x90")
        elif kind == 3:
            depth = min(count, 100_000)
            self.labels.append(f"lists nested {depth} deep")
            self.emit(b"]" * depth, b"a" * (depth - 1))
        elif kind == 4:
            self.labels.append(f"{count} nested marks")
            self.emit(b"N", b"(" * count, b"1" * count)
        else:
            self.labels.append(f"{count // 100} frozensets of the same 64 memoized ints")
            base = self.memo
            ints = (struct.pack("<cHcI", b"M", 300 + i, b"r", base + i) for i in range(64))
            self.emit(b"(", *ints, b"1")  # each int memoized, then the mark popped
            self.memo += 64
            gets = b"".join(b"j" + struct.pack("<I", base + i) for i in range(64))
            self.emit(b"](", (b"(" + gets + b"\x91") * (count // 100), b"e")


def _time_us(rng: random.Random) -> bytes:
    """A LONG1 argument: a time in 2026, in us, as 7 little-endian bytes."""
    return struct.pack("<Q", 1776479641085368 + rng.randrange(10**6))[:7]


def iter_fields(writer: _Writer, fields: tuple):
    """A `dict_of` key maker that writes each field (key and value) in turn: `dict_of` then
    calls it once per item and the value maker (None) is skipped."""
    queue = list(fields)
    writer.rng.shuffle(queue)
    if writer.rng.random() < writer.mistakes * 25:
        queue.pop(writer.rng.randrange(len(queue)))  # a missing field

    def next_field() -> None:
        if queue:
            name, make = queue.pop()
            writer.field(name, make)
        else:
            writer.text(writer.rng.choice(SNAPSHOT_KEYS))
            writer.scalar()

    return next_field


def _framed(rng: random.Random, chunks: list[bytes], mistakes: float) -> bytes:
    """Whole opcodes grouped into protocol 4 frames of about a target size, as the pickler
    frames them (at the rate `mistakes` declaring the wrong length)."""
    out: list[bytes] = []
    target = rng.choice((1 << 16, 1 << 10, 37))
    frame: list[bytes] = []
    size = 0
    for chunk in [*chunks, b""]:
        if frame and (size + len(chunk) > target or not chunk):
            declared = size if rng.random() >= mistakes else rng.choice((0, size + 1, 2**40))
            out.append(b"\x95" + struct.pack("<Q", declared) + b"".join(frame))
            frame, size = [], 0
        frame.append(chunk)
        size += len(chunk)
    return b"".join(out)


def generate(rng: random.Random) -> tuple[str, bytes]:
    protocol = rng.choice((2, 3, 4, 4, 4, 5))
    writer = _Writer(rng, protocol)
    shape = "a snapshot" if rng.random() < 0.5 else "random values"
    if shape == "a snapshot":
        writer.snapshot()
    else:
        writer.value(rng.choice((1, 3, 6)))
    if rng.random() < 0.35:
        if shape == "a snapshot":  # a bomb under a key of the snapshot
            writer.text("bomb")
            writer.bomb()
            writer.emit(b"s")
        else:  # a bomb in a list beside the value
            writer.out.insert(0, b"](")
            writer.bomb()
            writer.emit(b"e")
    if rng.random() < 0.97:
        writer.emit(b".")
    else:
        writer.labels.append("no STOP")
    if protocol >= 4 and rng.random() < 0.5:
        body = _framed(rng, writer.out, writer.mistakes)
    else:
        body = b"".join(writer.out)
    data = b"\x80" + bytes([protocol]) + body
    if rng.random() < 0.05:
        cut = rng.randrange(2, len(data))
        data = data[:cut]
        writer.labels.append(f"cut at {cut}")
    label = f"protocol {protocol}, {shape}" + "".join(f"; {x}" for x in writer.labels)
    return label, data
