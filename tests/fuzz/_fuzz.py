"""The fuzz harness: seeded generators of damaged inputs and a runner that feeds them to a
parser, each case under a watchdog, and fails on anything but a result or `Unreadable`.

Every case draws from its own `random.Random(f"{seed}:{name}:{case}")`, so a failure replays
alone: the failure message names the seed and the case (`TB_PERF_FUZZ_SEED=S
TB_PERF_FUZZ_CASE=N`). Counts are small in CI and at least 10,000 per parser with
`TB_PERF_SOAK=1`.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import random
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tb_perf_plugin.errors import Unreadable

SOAK = os.environ.get("TB_PERF_SOAK", "").strip().lower() not in ("", "0", "false", "no", "off")
SOAK_CASES = 10_000
SEED = int(os.environ.get("TB_PERF_FUZZ_SEED", "20261130"))
ONLY_CASE = os.environ.get("TB_PERF_FUZZ_CASE")
# A case that runs this long is a hang. Generous: CI machines are shared and slow; a real hang
# runs forever.
CASE_TIMEOUT_S = float(os.environ.get("TB_PERF_FUZZ_TIMEOUT_S", "30"))


def case_count(ci: int, soak: int = SOAK_CASES) -> int:
    """How many generated inputs a parser gets in this run."""
    return soak if SOAK else ci


class Hang(BaseException):
    """A case ran past CASE_TIMEOUT_S. A BaseException, so no parser's `except Exception` can
    swallow it and turn a hang into an ordinary refusal."""


@contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Raise Hang in this (main) thread if the block runs longer than `seconds`."""

    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"no answer after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class FuzzReport:
    """What a run of cases gave: how many were read, how many refused, and the failures."""

    name: str
    cases: int = 0
    results: int = 0
    refused: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.name}: {self.cases} cases ({self.results} read, {self.refused} refused) "
            f"in {self.seconds:.1f} s, seed {SEED}"
        )


Case = tuple[str, bytes]  # (what was done to the input, the bytes)


def run_cases(
    name: str,
    parse: Callable[[str], Any],
    generate: Callable[[random.Random], Case],
    count: int,
    folder: Path,
    filename: str,
    check: Callable[[Any], None] | None = None,
) -> FuzzReport:
    """Write `count` generated inputs to `folder/filename` one after another and parse each;
    `check` (optional) asserts properties of a result. Fails the test, naming the seed and the
    case to replay, on any exception other than Unreadable or on a hang."""
    report = FuzzReport(name)
    path = folder / filename
    indices = [int(ONLY_CASE)] if ONLY_CASE is not None else range(count)
    started = time.perf_counter()
    for index in indices:
        rng = random.Random(f"{SEED}:{name}:{index}")
        label, data = generate(rng)
        path.write_bytes(data)
        report.cases += 1
        try:
            with watchdog(CASE_TIMEOUT_S):
                result = parse(str(path))
                if check is not None:
                    check(result)
            report.results += 1
        except Unreadable:
            report.refused += 1
        except (Exception, Hang) as exc:
            kept = folder / f"failure-{index}-{filename}"
            kept.write_bytes(data)
            report.failures.append(
                f"case {index} ({label}): {type(exc).__name__}: {str(exc)[:300]}\n"
                f"  input kept at {kept}; replay with TB_PERF_FUZZ_SEED={SEED} "
                f"TB_PERF_FUZZ_CASE={index}\n" + "".join(traceback.format_exception(exc)[-4:])
            )
            if len(report.failures) >= 5:
                break
    report.seconds = time.perf_counter() - started
    print(report.summary())
    assert not report.failures, report.summary() + "\n" + "\n".join(report.failures)
    return report


# --- byte-level mutations --------------------------------------------------------------------

BOUNDARIES = b'\n,{}[]":'
INTERESTING_BYTES = b'\x00\xff\x80\x7f"{}[],:\n\r\\'
NON_UTF8 = (b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80abc\xfe")
HUGE_NUMBERS = (
    b"1e400", b"-1e400", b"99999999999999999999999999", b"18446744073709551616",
    b"9223372036854775808", b"-9223372036854775809", b"NaN", b"Infinity", b"-Infinity",
    b"1.7976931348623157e308", b"4.9e-324", b"-0", b"0.000000001", b"1e-400",
)  # fmt: skip


def _span(rng: random.Random, n: int) -> tuple[int, int]:
    a = rng.randrange(n + 1)
    b = min(n, a + rng.choice((1, 2, 4, 16, 64, 256, 4096)))
    return a, b


def _boundary(rng: random.Random, data: bytes) -> int:
    """A random position just before or after one of the JSON/CSV structure bytes."""
    for _ in range(16):
        at = rng.randrange(len(data))
        if data[at] in BOUNDARIES:
            return at + rng.randrange(2)
    return rng.randrange(len(data) + 1)


def mutate_bytes(rng: random.Random, data: bytes) -> Case:
    """One to four random byte-level damages of `data`."""
    labels = []
    buf = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 4))):
        n = len(buf)
        op = rng.randrange(11) if n else 7
        if op == 0:
            for _ in range(rng.randint(1, 8)):
                if buf:
                    buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
            labels.append("bit flips")
        elif op == 1:
            buf[rng.randrange(n)] = rng.choice(INTERESTING_BYTES)
            labels.append("byte set")
        elif op == 2:
            del buf[rng.randrange(n + 1) :]
            labels.append("truncated anywhere")
        elif op == 3:
            del buf[_boundary(rng, bytes(buf)) :]
            labels.append("truncated at a boundary")
        elif op == 4:
            a, b = _span(rng, n)
            del buf[a:b]
            labels.append("chunk deleted")
        elif op == 5:
            a, b = _span(rng, n)
            at = rng.randrange(n + 1)
            buf[at:at] = buf[a:b] * rng.choice((1, 2, 8))
            labels.append("chunk duplicated")
        elif op == 6:
            at = rng.randrange(n + 1)
            buf[at:at] = rng.choice(NON_UTF8)
            labels.append("non-UTF-8 bytes")
        elif op == 7:
            at = rng.randrange(n + 1)
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
            labels.append("random bytes inserted")
        elif op == 8:
            a, b = _span(rng, n)
            c, d = _span(rng, n)
            if b <= c:
                buf[a:d] = buf[c:d] + buf[b:c] + buf[a:b]
            labels.append("chunks swapped")
        elif op == 9:
            buf = bytearray(replace_number(rng, bytes(buf)))
            labels.append("number replaced")
        else:
            at = _boundary(rng, bytes(buf))
            buf[at:at] = rng.choice((b"[" * 5000, b"{" * 3000, b'{"a":' * 3000, b"\n\n", b"\\"))
            labels.append("structure inserted")
    return "+".join(labels), bytes(buf)


def replace_number(rng: random.Random, data: bytes) -> bytes:
    """Replace one digit run near a random position with a huge, tiny or non-finite number."""
    for _ in range(16):
        at = rng.randrange(len(data)) if data else 0
        if at < len(data) and 0x30 <= data[at] <= 0x39:
            start = end = at
            while start > 0 and data[start - 1] in b"0123456789.-eE+":
                start -= 1
            while end < len(data) and data[end] in b"0123456789.-eE+":
                end += 1
            return data[:start] + rng.choice(HUGE_NUMBERS) + data[end:]
    return data


# --- structure-aware JSON mutations ----------------------------------------------------------


def _confused(rng: random.Random, value: Any) -> Any:
    """A value of another type, or an extreme one of the same type."""
    choices: list[Any] = [
        None, True, False, 0, -1, 2**63, 2**64, -(2**63) - 1, 10**30, 1.5, -1e308,
        math.nan, math.inf, -math.inf, "", "x" * rng.choice((1, 100, 10_000)),
        "\udcff\u0000\ufffe", "名前", [], {}, [value], {"k": value}, [[[[[[[[]]]]]]]],
    ]  # fmt: skip
    if isinstance(value, str):
        choices += [value + "\x00", value[::-1], value * 3]
    return rng.choice(choices)


def _nodes(doc: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, doc
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield from _nodes(value, (*path, index))


def _sample_node(rng: random.Random, doc: Any, limit: int = 2000) -> tuple[tuple, Any]:
    """A random node (reservoir sample over the first `limit` nodes, then a random walk)."""
    chosen: tuple[tuple, Any] = ((), doc)
    for seen, node in enumerate(_nodes(doc)):
        if seen >= limit:
            break
        if rng.randrange(seen + 1) == 0:
            chosen = node
    return chosen


def _set(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def _delete(doc: Any, path: tuple) -> Any:
    if not path:
        return doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return doc


def deep_nesting(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def mutate_json(rng: random.Random, doc: Any) -> tuple[str, Any]:
    """One structural damage of a decoded JSON document (mutated in place and returned)."""
    path, value = _sample_node(rng, doc)
    op = rng.randrange(6)
    if op == 0:
        return f"type-confused at {path[-3:]}", _set(doc, path, _confused(rng, value))
    if op == 1 and path:
        return f"deleted {path[-3:]}", _delete(doc, path)
    if op == 2 and isinstance(value, dict):
        value[rng.choice(("\udcff", "", "k" * 300, "名", "0"))] = _confused(rng, None)
        return f"unknown key at {path[-3:]}", doc
    if op == 3 and isinstance(value, list) and value:
        value.extend(value[: rng.randint(1, 4)] * rng.choice((1, 10, 100)))
        return f"entries repeated at {path[-3:]}", doc
    if op == 4:
        return f"deep nesting at {path[-3:]}", _set(doc, path, deep_nesting(rng.choice((50, 200))))
    return f"huge number at {path[-3:]}", _set(doc, path, rng.choice((2**64, -(2**70), 1e308)))


def dumps(doc: Any) -> bytes:
    """JSON text of `doc`, NaN/Infinity literals and lone surrogates included (both occur in
    files written by other tools)."""
    return json.dumps(doc, allow_nan=True).encode("utf-8", "surrogatepass")


def wrong_compression(rng: random.Random, data: bytes) -> Case:
    """gzip where plain is expected and vice versa, doubly gzipped, or a gzip cut short."""
    gzipped = data[:2] == b"\x1f\x8b"
    op = rng.randrange(4)
    if op == 0 and gzipped:
        return "gunzipped (plain under a .gz name)", gzip.decompress(data)
    if op == 1:
        return "gzipped again", gzip.compress(data, 1)
    if op == 2:
        packed = data if gzipped else gzip.compress(data, 1)
        return "gzip cut short", packed[: rng.randrange(len(packed) + 1)]
    packed = data if gzipped else gzip.compress(data, 1)
    buf = bytearray(packed)
    for _ in range(rng.randint(1, 4)):
        buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
    return "gzip with flipped bits", bytes(buf)


def gzip_bomb(raw_bytes: int, prefix: bytes = b"", fill: bytes = b"\x00") -> bytes:
    """`prefix` then `fill` bytes up to `raw_bytes`, gzipped (about 1 MB per GB), built in
    pieces."""
    compressor = gzip.zlib.compressobj(9, gzip.zlib.DEFLATED, 31)
    out = [compressor.compress(prefix)]
    block = fill * (1 << 20)
    left = raw_bytes - len(prefix)
    while left > 0:
        out.append(compressor.compress(block[: min(left, len(block))]))
        left -= len(block)
    out.append(compressor.flush())
    return b"".join(out)
