"""The decode floor of a torch.profiler trace: gunzip, then a typed msgspec decode of every event
into a Struct with `args` left raw. No tool that reads the events can be faster than this in
Python; `benchmarks/ingest.py` runs it in the same loop as ours and the anchors.

    python benchmarks/floor.py TRACE.json[.gz]

prints the event count, the raw size and the two phases' seconds.
"""

from __future__ import annotations

import gzip
import sys
import time

import msgspec


class Event(msgspec.Struct, gc=False):
    ph: str = ""
    name: str = ""
    cat: str = ""
    pid: int | str = 0
    tid: int | str = 0
    ts: int | float = 0
    dur: int | float = 0
    id: int | str | None = None
    args: msgspec.Raw = msgspec.Raw(b"")


class Trace(msgspec.Struct, gc=False):
    traceEvents: list[Event] = []


_DECODER = msgspec.json.Decoder(Trace)
_ARRAY_DECODER = msgspec.json.Decoder(list[Event])  # a 2020-era trace: a bare array of events


def read_raw(path: str) -> bytes:
    with open(path, "rb") as fh:
        data = fh.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def decode(raw: bytes) -> int:
    """The number of events of the trace's JSON."""
    if raw.lstrip()[:1] == b"[":
        return len(_ARRAY_DECODER.decode(raw))
    return len(_DECODER.decode(raw).traceEvents)


def floor(path: str) -> dict[str, float | int]:
    t0 = time.perf_counter()
    raw = read_raw(path)
    t1 = time.perf_counter()
    events = decode(raw)
    t2 = time.perf_counter()
    return {"events": events, "raw_bytes": len(raw), "gunzip_s": t1 - t0, "decode_s": t2 - t1}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(floor(sys.argv[1]))
