"""A structure-aware generator of gzip (and zlib) streams for the trace reader's fuzz
(`test_fuzz_gzip.py`): members built field by field from valid headers with random flags
(FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT), deflate bodies of stored, fixed and dynamic blocks cut
by flushes, several members, then damage with a known consequence: wrong CRC32 or ISIZE, a wrong
header CRC, reserved flags, another compression method, truncated trailers, trailing garbage,
zlib or raw deflate instead of gzip. Payloads are Kineto traces (valid, cut short, followed by
junk, padded with whitespace inside or before them), bombs of highly compressible text over the
limit, and text of no known kind; every payload carries `CANARY`, which no message may quote.

Each case says what a correct reader must do with it (`Case.expect`): `same` (a valid stream
of a payload within the limit: exactly what the plain payload gives), `limit` (a valid stream
of a payload over the limit: refused for the limit), `refused`, or `either`.
"""

from __future__ import annotations

import functools
import json
import random
import struct
import zlib
from dataclasses import dataclass

CANARY = "CANARY-q7Zk3"
FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT = 1, 2, 4, 8, 16
_HEAD = '{"schemaVersion": 1, "traceEvents": ['


@dataclass
class Case:
    label: str
    data: bytes  # the file's bytes
    payload: bytes  # what the stream inflates to (its valid members')
    expect: str  # "same", "limit", "refused" or "either"
    sniffs_as_trace: bool = False  # the head a sniffer inflates shows a Kineto trace


# --- payloads ---------------------------------------------------------------------------------


def _event(rng: random.Random, i: int) -> dict:
    kind = rng.randrange(6)
    base = {"pid": rng.choice((1, 2, "p")), "tid": rng.choice((1, 7, "main")), "ts": 1000 + i}
    if kind == 0:
        return {"ph": "M", "name": "thread_name", **base, "args": {"name": f"t{i} {CANARY}"}}
    if kind == 1:
        return {"ph": "i", "s": "t", "name": "[memory]", **base,
                "args": {"Bytes": 64 * i, "Total Allocated": 64 * i, "Device Type": 1,
                         "Device Id": 0, "Addr": 4096 + i}}  # fmt: skip
    if kind == 2:
        return {"ph": "X", "cat": "kernel", "name": f"gemm_{i % 7}", **base, "dur": 3,
                "args": {"device": 0, "stream": 7, "correlation": i}}  # fmt: skip
    name = f"aten::op{i % 11}" if kind < 5 else f"{CANARY} op \u540d {i}"
    return {"ph": "X", "cat": "cpu_op", "name": name, **base, "dur": rng.choice((0, 1, 2.5))}


def _trace_text(rng: random.Random, events: int, bare: bool = False) -> str:
    evs = [_event(rng, i) for i in range(events)]
    separators = rng.choice(((", ", ": "), (",", ":"), (",\n  ", ": ")))
    if bare:
        return json.dumps(evs, separators=separators)
    doc = {"schemaVersion": 1, "traceEvents": evs, "traceName": CANARY,
           "distributedInfo": {"rank": rng.randrange(4), "world_size": 4},
           "baseTimeNanoseconds": 1_700_000_000_000_000_000}  # fmt: skip
    return json.dumps(doc, separators=separators, indent=rng.choice((None, None, 1)))


BOMB_FACTOR = 32
_FILLERS = (b" ", b"\x00", b"a", b'{"ph":"X","name":"b","ts":1,"dur":1},')


@functools.cache
def bomb_member(filler: bytes, size: int) -> bytes:
    """One gzip member of `filler` repeated to `size` bytes (made once per session)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = filler * ((1 << 20) // len(filler))
    crc, left, out = 0, size, [b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"]
    while left > 0:
        piece = block[: min(left, len(block))]
        out.append(packer.compress(piece))
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    out.append(packer.flush())
    out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
    return b"".join(out)


def payload(rng: random.Random, limit: int) -> tuple[str, bytes, bool]:
    """(label, bytes, over the limit). A label starting "bomb ... x the limit" stands for the
    bytes followed by `bomb_member`."""
    op = rng.randrange(11)
    events = rng.choice((0, 1, 5, 50, 500, 3000))
    if op <= 2:
        return f"trace of {events} events", _trace_text(rng, events).encode(), False
    if op == 3:
        return f"bare array of {events} events", _trace_text(rng, events, True).encode(), False
    if op == 4:
        text = _trace_text(rng, max(events, 1)).encode()
        junk = rng.choice((b"\xff\xfe", b"}{", b"\x00" * 10, f" {CANARY}".encode(), b"]]]"))
        at = rng.choice((len(text), rng.randrange(len(text) + 1)))
        return "trace with junk", text[:at] + junk + text[at:], False
    if op == 5:
        text = _trace_text(rng, max(events, 1)).encode()
        return "trace cut short", text[: rng.randrange(len(text))], False
    if op in (6, 7):
        pad = rng.choice((1 << 10, 1 << 16, limit // 2, limit - 4096, 2 * limit, 8 * limit))
        fill = rng.choice((b" ", b"\n", b"\t", b" \r\n"))
        fill = fill * (pad // len(fill))
        text = _trace_text(rng, max(events, 1), bare=op == 7 and rng.random() < 0.5).encode()
        where = rng.randrange(3)
        if where == 0:  # before the document
            data, label = fill + text, "leading whitespace"
        elif where == 1:  # between two events
            cut = text.find(b"},") + 2 if b"}," in text else text.find(b"[") + 1
            data, label = text[:cut] + fill + text[cut:], "whitespace between events"
        else:  # after the document
            data, label = text + fill, "trailing whitespace"
        return f"{label} ({len(fill)} B)", data, len(data) > limit
    if op in (8, 9):
        filler = rng.choice(_FILLERS)
        head = (_HEAD + json.dumps(_event(rng, 0)) + ",").encode()
        if filler == b"a":
            head += b'{"name": "'
        if op == 9:  # inflates to 32 times the limit: one prebuilt member after the head
            return f"bomb of {filler[:12]!r} to {BOMB_FACTOR} x the limit", head, True
        size = rng.choice((2, 3)) * limit
        body = filler * ((size - len(head)) // len(filler) + 1)
        return f"bomb of {filler[:12]!r} to {size >> 20} MiB", head + body, True
    text = rng.choice((
        b"", b"name,start,end\nx,1,2\n", f"plain text {CANARY}".encode(),
        bytes(rng.randrange(256) for _ in range(200)), b"\x1f\x8b\x08", b"[1, 2, 3]",
        b'{"traceEvents": 5}', b'{"other": [' + CANARY.encode() + b"]}",
    ))  # fmt: skip
    return "no trace", text, False


# --- gzip members -----------------------------------------------------------------------------


def _deflate(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """Raw deflate of `data`: stored, fixed-Huffman, RLE or dynamic blocks, cut by flushes."""
    level = rng.choice((0, 1, 6, 9))
    strategy = rng.choice((zlib.Z_DEFAULT_STRATEGY, zlib.Z_FIXED, zlib.Z_RLE, zlib.Z_HUFFMAN_ONLY))
    packer = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    out, at, flushes = [], 0, 0
    while at < len(data):
        step = rng.choice((1, 100, 1 << 12, 1 << 16, len(data)))
        out.append(packer.compress(data[at : at + step]))
        at += step
        if rng.random() < 0.3:
            out.append(packer.flush(rng.choice((zlib.Z_SYNC_FLUSH, zlib.Z_FULL_FLUSH))))
            flushes += 1
    out.append(packer.flush())
    return b"".join(out), f"level {level}, strategy {strategy}, {flushes} flushes"


def _header(rng: random.Random) -> tuple[bytearray, int]:
    flags = sum(bit for bit in (FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT) if rng.random() < 0.4)
    head = bytearray(b"\x1f\x8b\x08")
    head.append(flags)
    head += struct.pack("<I", rng.choice((0, 1_700_000_000, 2**32 - 1)))
    head.append(rng.choice((0, 2, 4)))
    head.append(rng.choice((0, 3, 11, 255)))
    if flags & FEXTRA:
        extra = b""
        for _ in range(rng.randrange(3)):
            sub = bytes(rng.randrange(256) for _ in range(rng.choice((0, 4, 200))))
            extra += b"AP" + struct.pack("<H", len(sub)) + sub
        head += struct.pack("<H", len(extra)) + extra
    if flags & FNAME:
        head += f"rank0.{CANARY}.pt.trace.json".encode() + b"\x00"
    if flags & FCOMMENT:
        head += rng.choice((b"", f"comment \xe9 {CANARY}".encode("latin-1"))) + b"\x00"
    if flags & FHCRC:
        head += struct.pack("<H", zlib.crc32(head) & 0xFFFF)
    return head, flags


def _member(rng: random.Random, data: bytes) -> tuple[bytes, list[str]]:
    head, flags = _header(rng)
    body, how = _deflate(rng, data)
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return bytes(head) + body + trailer, [f"flags {flags:#x}, {how}"]


def _damage_member(rng: random.Random, member: bytes, flags: int) -> tuple[bytes, str, str]:
    """One damage to a member: (bytes, what, the expectation it implies)."""
    m = bytearray(member)
    op = rng.randrange(8)
    if op == 0:
        m[-8 + rng.randrange(4)] ^= 1 << rng.randrange(8)
        return bytes(m), "wrong CRC32", "refused"
    if op == 1:
        m[-4 + rng.randrange(4)] ^= 1 << rng.randrange(8)
        return bytes(m), "wrong ISIZE", "refused"
    if op == 2:
        m[3] |= rng.choice((0x20, 0x40, 0x80))
        return bytes(m), "a reserved flag set", "refused"
    if op == 3:
        m[2] = rng.choice((0, 7, 9, 255))
        return bytes(m), "another compression method", "refused"
    if op == 4 and flags & FHCRC:
        return bytes(m), "(a header CRC; see below)", "header-crc"
    if op == 5:
        at = rng.randrange(10, len(m))
        m[at] ^= 1 << rng.randrange(8)
        return bytes(m), f"bit flip at {at}", "either"
    if op == 6 and flags & FNAME:
        at = m.index(b"\x00", 10)
        del m[at]
        return bytes(m), "an unterminated file name", "either"
    return bytes(m), "no damage", "same"


def _has_trace_head(data: bytes) -> bool:
    """Whether the sniffer must call a stream of `data` a Kineto trace from its first 1 KiB:
    a JSON object with `"traceEvents"` near its start and no NUL in the sniffed head."""
    return (
        data.lstrip(b" \t\r\n")[:1] == b"{"
        and b'"traceEvents"' in data[:1024]
        and b"\x00" not in data[: 64 << 10]
    )


def gzip_case(rng: random.Random, limit: int) -> Case:
    label, data, over = payload(rng, limit)
    expect = "limit" if over else "same"
    if data[:2] == b"\x1f\x8b":  # plain, the reader takes it for gzip itself
        expect = "either"
    notes = [label]
    parts = [data]
    if rng.random() < 0.35 and data:  # several members
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randint(1, 3)))
        parts = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        notes.append(f"{len(parts)} members of {[len(p) for p in parts]} B")
    if rng.random() < 0.1:
        parts.insert(rng.randrange(len(parts) + 1), b"")
        notes.append("an empty member")
    members: list[bytes] = []
    for part in parts:
        member, how = _member(rng, part)
        members.append(member)
        notes += how
    if "x the limit" in label:
        filler = next(f for f in _FILLERS if repr(f[:12]) in label)
        members.append(bomb_member(filler, BOMB_FACTOR * limit))
    # the sniffer inflates the head of the first member: the trace head must be in it, intact
    head_intact = _has_trace_head(data) and _has_trace_head(parts[0])
    damaged = False
    if rng.random() < 0.4:
        which = rng.randrange(len(members))
        member, what, implied = _damage_member(rng, members[which], members[which][3])
        if implied == "header-crc":
            m = bytearray(member)
            m[_header_crc_offset(member)] ^= 0xFF
            member, what, implied = bytes(m), "a wrong header CRC", "refused"
        members[which] = member
        notes.append(f"member {which}: {what}")
        if implied != "same":
            damaged = True
            expect = implied  # "refused" (any refusal: the limit may come first) or "either"
            if which == 0:  # a member within the sniffed head is checked whole
                head_intact = False
    stream = b"".join(members)
    post = rng.random()
    if post < 0.08:
        start = len(stream) - len(members[-1])
        cut = rng.randrange(start + 1, len(stream))
        notes.append(f"cut at {cut} of {len(stream)} (inside the last member)")
        stream = stream[:cut]
        expect = "either" if damaged else "refused"
        head_intact = head_intact and (len(members) > 1 or cut > 2048)
    elif post < 0.16:
        noise = bytes(rng.randrange(1, 256) for _ in range(64))
        garbage = rng.choice((b"\x00" * 512, b"junk", noise, b"\x1f\x8b", b"\x1f\x8b\x08\x00"))
        stream += garbage
        notes.append(f"trailing garbage ({garbage[:8]!r})")
        # gzip(1) ignores zero padding; anything else after the last member is refused
        expect = "either" if damaged or garbage[0] == 0 else "refused"
    elif post < 0.2:
        stream = zlib.compress(data, 6) if rng.random() < 0.5 else _deflate(rng, data)[0]
        notes.append("zlib or raw deflate, no gzip header")
        expect = "refused" if data[:2] != b"\x1f\x8b" else "either"
        head_intact = False
    elif post < 0.23:
        stream = _member(rng, stream)[0]
        notes.append("gzip inside gzip")
        expect = "refused"
        head_intact = False
    return Case("; ".join(notes), stream, data, expect, head_intact)


def _header_crc_offset(member: bytes) -> int:
    flags = member[3]
    at = 10
    if flags & FEXTRA:
        at += 2 + struct.unpack_from("<H", member, at)[0]
    if flags & FNAME:
        at = member.index(b"\x00", at) + 1
    if flags & FCOMMENT:
        at = member.index(b"\x00", at) + 1
    return at
