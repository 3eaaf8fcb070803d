"""The child process of `python_profile.read_python_profile`: reads a cProfile/pstats file under
resource limits and answers with JSON, so hostile `marshal` data never reaches the plugin's own
process.

The file is not given to `marshal.loads`: that would build every object the file declares
before anything is checked, including dictionaries and sets whose attacker-chosen keys all
hash alike (`hash(k * (2**61 - 1)) == 0` for every int k, with no per-process randomisation),
which costs quadratic time in the size of the file: 2.8 MB of such keys took the whole CPU
budget. (marshal.loads can also crash outright: CPython 3.11 segfaults on the 11 bytes
`\\xa9\\x01{r\\x00\\x00\\x00\\x00N0`, a dict keyed by the tuple still being read.) Instead
`parse` reads the marshal format itself, directed by the one shape a pstats dictionary has
(`{(file, line, name): (cc, nc, tt, ct, {(file, line, name): edge})}`, an edge being
`(cc, nc, tt, ct)` or, from the pure-Python `profile` module, a count): each value is checked
the moment it is read and anything else is refused at its first byte. A function key is
inserted into a dictionary only once it is a `(str, int, str)` with the line a C int
(`-2**31 <= line < 2**31`): string hashes are randomised per process and no two such lines
hash alike but -1 and -2, so keys collide by chance only; callers' keys are checked and never
hashed. Every step is linear in the file's size, and nothing nests deeper than the shape.

Run as a script with the standard library only (`python -I -S _pstats_child.py MAX_BYTES
MEMORY_BYTES CPU_S`), the file on stdin. Prints the SHA-256 of the bytes it read on the first
line (before parsing, so it is there even if the parse is killed), then one JSON object:
`{"error": message}`, or `{"rows": [[filename, line, name, primitive_calls, calls, self_ns,
cumulative_ns], ...], "total_ns", "calls", "primitive_calls"}` with the totals summed as
`pstats.Stats` sums them.
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
from collections.abc import Callable
from typing import Any

INT64 = 2**63
LINE_LIMIT = 2**31  # a line is a C int (code objects' co_firstlineno)
CHUNK_BYTES = 1 << 20
MAX_SECONDS = INT64 / 1e9  # in int64 nanoseconds (292 years); also refuses NaN and infinity
MAX_LONG_DIGITS = 5  # marshal's 15-bit digits: 75 bits, past every count, line and time

FLAG_REF = 0x80
_NULL, _REF = ord("0"), ord("r")
_TUPLE, _SMALL_TUPLE, _DICT = ord("("), ord(")"), ord("{")
_INT, _INT64, _LONG = ord("i"), ord("I"), ord("l")
_FLOAT, _BINARY_FLOAT = ord("f"), ord("g")
_UNICODE, _INTERNED = ord("u"), ord("t")
_ASCII, _ASCII_INTERNED = ord("a"), ord("A")
_SHORT_ASCII, _SHORT_ASCII_INTERNED = ord("z"), ord("Z")
_TYPE_NAMES = {  # with their article, as messages use them
    "0": "an end marker", "N": "None", "F": "a bool", "T": "a bool", "S": "StopIteration",
    ".": "Ellipsis", "i": "an int", "I": "an int", "l": "an int", "f": "a float",
    "g": "a float", "x": "a complex", "y": "a complex", "s": "a bytes", "t": "a str",
    "u": "a str", "a": "a str", "A": "a str", "z": "a str", "Z": "a str", "r": "a reference",
    "(": "a tuple", ")": "a tuple", "[": "a list", "{": "a dict", "<": "a set",
    ">": "a frozenset", "c": "a code object",
}  # fmt: skip
_TYPE_NAMES_BY_CODE = {ord(code): name for code, name in _TYPE_NAMES.items()}
_SCALARS = frozenset(map(ord, "iIlfgutaAzZ"))
_CONSTANTS = frozenset(map(ord, "NTF.S"))  # one byte each, never referenced
_IN_PROGRESS = "in progress"  # a reserved reference slot (marshal's own placeholder)
_I32 = struct.Struct("<i")
_I64 = struct.Struct("<q")
_F64 = struct.Struct("<d")


class BadStructure(Exception):
    """The data is marshal but not a pstats dictionary."""


class BadMarshal(Exception):
    """The data is not marshal data (what `marshal.loads` would have refused)."""


def _limit(memory_bytes: int, cpu_s: int) -> None:
    try:
        import resource
    except ImportError:  # not on this platform: the parent's wall-clock timeout still holds
        return
    for which, value in ((resource.RLIMIT_AS, memory_bytes), (resource.RLIMIT_CPU, cpu_s)):
        _, hard = resource.getrlimit(which)
        if hard == resource.RLIM_INFINITY or value < hard:
            resource.setrlimit(which, (value, hard if hard != resource.RLIM_INFINITY else value))


def _text(value: str) -> str:
    """`value` as JSON can carry it (lone surrogates, which marshal keeps, escaped)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value


def _described(value: Any) -> str:
    """A value in a message: numbers as they are, anything else by its type (never the text
    of a string: a refusal names the problem, not the file's bytes)."""
    if type(value) in (int, float):
        return f"{value!r:.40}"
    return f"a {type(value).__name__}"


Stats = dict[tuple[str, int, str], tuple[int, int, float, float]]


class _Kind:
    """Stands for a value of a type no slot takes (read no further)."""

    __slots__ = ("name",)

    def __init__(self, code: int) -> None:
        self.name = _TYPE_NAMES_BY_CODE[code]


def _slot_described(value: Any, kind: str | None) -> str:
    if kind == "type":
        return value.name
    if kind in ("function", "entry", "edge"):
        return "a tuple"
    if kind == "callers":
        return "a dict"
    return _described(value)


def _not_a(what: str, value: Any, kind: str | None, expected: str) -> BadStructure:
    return BadStructure(f"{what} is {_slot_described(value, kind)}, not {expected}")


def _type_name(code: int) -> str:
    if code not in _TYPE_NAMES_BY_CODE:
        raise BadMarshal("bad marshal data (unknown type code)")
    return _TYPE_NAMES_BY_CODE[code]


def _long(data: bytes, pos: int) -> tuple[int, int]:
    n = _I32.unpack_from(data, pos)[0]
    size = abs(n)
    if size > MAX_LONG_DIGITS:  # normalized, so at least 2**75: no slot's value
        raise BadStructure(f"a number of {size} digits is out of range for every field")
    digits = struct.unpack_from(f"<{size}H", data, pos + 4)
    if any(d >= 1 << 15 for d in digits):
        raise BadMarshal("bad marshal data (digit out of range in long)")
    if size and digits[-1] == 0:
        raise BadMarshal("bad marshal data (unnormalized long data)")
    value = sum(d << (15 * i) for i, d in enumerate(digits))
    return (-value if n < 0 else value), pos + 4 + 2 * size


def _cut(data: bytes, start: int, n: int) -> tuple[bytes, int]:
    end = start + n
    if n < 0 or end > len(data):
        raise BadMarshal("marshal data too short")
    return data[start:end], end


def _rare_scalar(data: bytes, code: int, pos: int) -> tuple[Any, int]:
    """The less common scalar types (`pos` just past the type code); `_Kind` for a type that
    is no scalar."""
    if code in (_UNICODE, _INTERNED):
        raw, pos = _cut(data, pos + 4, _I32.unpack_from(data, pos)[0])
        try:
            return raw.decode("utf-8", "surrogatepass"), pos
        except UnicodeDecodeError as exc:
            raise BadMarshal(str(exc)) from None
    if code in (_ASCII, _ASCII_INTERNED):
        raw, pos = _cut(data, pos + 4, _I32.unpack_from(data, pos)[0])
        return raw.decode("latin-1"), pos
    if code == _LONG:
        return _long(data, pos)
    if code == _FLOAT:
        raw, pos = _cut(data, pos + 1, data[pos])
        if any(c in b" \t\n\r\x0b\x0c_" for c in raw):  # float() takes these, marshal not
            raise BadMarshal(f"could not convert string to float: {len(raw)} bytes")
        try:
            return float(raw.decode("ascii")), pos
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadMarshal(str(exc)) from None
    if code == _INT64:
        return _I64.unpack_from(data, pos)[0], pos + 8
    _type_name(code)
    return _Kind(code), pos


def parse(data: bytes) -> Stats:
    """The pstats dictionary in `data` (marshal versions 0 to 4), its callers checked and not
    kept: BadMarshal or BadStructure naming the first thing that does not fit.

    Each reader below takes one slot of the shape at a position and answers its value and the
    position after it. marshal references (`r`, versions 3 and 4) resolve to a value read
    (and checked) before; it must fit the slot too: `kinds` says which slot a container was
    checked as (None for a scalar, checked again where referenced)."""
    refs: list[Any] = []  # marshal's reference table, index for index
    kinds: list[str | None] = []
    i32 = _I32.unpack_from
    f64 = _F64.unpack_from
    size_of_data = len(data)

    def reference(pos: int) -> tuple[Any, str | None, int]:
        index = i32(data, pos)[0]
        if not 0 <= index < len(refs) or kinds[index] == _IN_PROGRESS:
            raise BadMarshal("bad marshal data (invalid reference)")
        return refs[index], kinds[index], pos + 4

    def scalar(pos: int) -> tuple[Any, str | None, int]:
        """An int, float or str (or a reference): (value, kind, position after)."""
        byte = data[pos]
        code = byte & 0x7F
        pos += 1
        if code == _REF:
            return reference(pos)
        if code == _INT:
            value = i32(data, pos)[0]
            pos += 4
        elif code == _BINARY_FLOAT:
            value = f64(data, pos)[0]
            pos += 8
        elif code == _SHORT_ASCII or code == _SHORT_ASCII_INTERNED:
            start = pos + 1
            pos = start + data[pos]
            if pos > size_of_data:
                raise BadMarshal("marshal data too short")
            value = data[start:pos].decode("latin-1")
        else:
            value, pos = _rare_scalar(data, code, pos)
            if type(value) is _Kind:
                return value, "type", pos
        if byte & FLAG_REF:
            refs.append(value)
            kinds.append(None)
        return value, None, pos

    def tuple_of(pos: int, code: int) -> tuple[int, int]:
        if code == _SMALL_TUPLE:
            return data[pos], pos + 1
        return i32(data, pos)[0], pos + 4

    def reserve(byte: int) -> int:
        if not byte & FLAG_REF:
            return -1
        refs.append(None)
        kinds.append(_IN_PROGRESS)
        return len(refs) - 1

    def fill(slot: int, value: Any, kind: str) -> None:
        if slot >= 0:
            refs[slot] = value
            kinds[slot] = kind

    def at_null(pos: int) -> bool:
        return pos < size_of_data and data[pos] & 0x7F == _NULL

    def count(pos: int, what: str) -> tuple[int, int]:
        value, kind, pos = scalar(pos)
        if kind is not None or type(value) is not int or not 0 <= value < INT64:
            raise _not_a(what, value, kind, "a count")
        return value, pos

    def seconds(pos: int, what: str) -> tuple[float, int]:
        value, kind, pos = scalar(pos)
        if kind is not None or type(value) not in (int, float) or not abs(value) < MAX_SECONDS:
            raise _not_a(what, value, kind, "a time in seconds")
        return value, pos

    def function(pos: int) -> tuple[tuple[str, int, str] | None, int]:
        """A key, or None where a key that is no tuple is followed by the end marker: marshal
        then ends the dict and drops the key (None, at the marker)."""
        byte = data[pos]
        code = byte & 0x7F
        if code == _REF:
            value, kind, after = reference(pos + 1)
            if kind == "function":
                return value, after
            if at_null(after):
                return None, after
            raise _not_a("a function key", value, kind, "(file, line, name)")
        if code != _SMALL_TUPLE and code != _TUPLE:
            if code in _CONSTANTS:
                after = pos + 1
            elif code in _SCALARS:
                _, _, after = scalar(pos)
            else:
                after = -1
            if after >= 0 and at_null(after):
                return None, after
            raise BadStructure(f"a function key is {_type_name(code)}, not (file, line, name)")
        size, pos = tuple_of(pos + 1, code)
        if size != 3:
            raise BadStructure(f"a function key is a tuple of {size}, not (file, line, name)")
        slot = reserve(byte)
        filename, kind, pos = scalar(pos)
        if kind is not None or type(filename) is not str:
            raise _not_a("a function's file", filename, kind, "a str")
        line, kind, pos = scalar(pos)
        if kind is not None or type(line) is not int or not -LINE_LIMIT <= line < LINE_LIMIT:
            raise _not_a("the line of a function", line, kind, "a line number (a C int)")
        name, kind, pos = scalar(pos)
        if kind is not None or type(name) is not str:
            raise _not_a("a function's name", name, kind, "a str")
        key = (filename, line, name)
        fill(slot, key, "function")
        return key, pos

    def edge(pos: int) -> int:
        """One caller's edge: cProfile's (cc, nc, tt, ct) or the pure-Python profile's count."""
        byte = data[pos]
        code = byte & 0x7F
        if code == _SMALL_TUPLE or code == _TUPLE:
            size, pos = tuple_of(pos + 1, code)
            if size != 4:
                raise BadStructure(f"a caller's call count is a tuple of {size}, not a count")
            slot = reserve(byte)
            _, pos = count(pos, "a caller's call count")
            _, pos = count(pos, "a caller's call count")
            _, pos = seconds(pos, "a caller's time")
            _, pos = seconds(pos, "a caller's time")
            fill(slot, None, "edge")
            return pos
        value, kind, pos = scalar(pos)
        if kind != "edge" and (
            kind is not None or type(value) is not int or not 0 <= value < INT64
        ):
            raise _not_a("a caller's call count", value, kind, "a count")
        return pos

    def callers(pos: int) -> int:
        """Checked and not kept: callers' keys are never hashed."""
        byte = data[pos]
        code = byte & 0x7F
        if code == _REF:
            value, kind, pos = reference(pos + 1)
            if kind != "callers":
                raise _not_a("callers", value, kind, "a dict")
            return pos
        if code != _DICT:
            raise BadStructure(f"callers are {_type_name(code)}, not a dict")
        slot = reserve(byte)
        pos += 1
        while not at_null(pos):
            key, pos = function(pos)
            if key is None or at_null(pos):  # marshal: a key without a value ends the dict
                break
            pos = edge(pos)
        fill(slot, None, "callers")
        return pos + 1

    def entry(pos: int) -> tuple[tuple[int, int, float, float], int]:
        byte = data[pos]
        code = byte & 0x7F
        if code == _REF:
            value, kind, pos = reference(pos + 1)
            if kind != "entry":
                raise _not_a("the entry of a function", value, kind, "(cc, nc, tt, ct, callers)")
            return value, pos
        if code != _SMALL_TUPLE and code != _TUPLE:
            raise BadStructure(
                f"the entry of a function is {_type_name(code)}, not (cc, nc, tt, ct, callers)"
            )
        size, pos = tuple_of(pos + 1, code)
        if size != 5:
            raise BadStructure(
                f"the entry of a function is a tuple of {size}, not (cc, nc, tt, ct, callers)"
            )
        slot = reserve(byte)
        cc, pos = count(pos, "a primitive call count")
        nc, pos = count(pos, "a call count")
        tt, pos = seconds(pos, "a self time")
        ct, pos = seconds(pos, "a cumulative time")
        pos = callers(pos)
        value = (cc, nc, tt, ct)
        fill(slot, value, "entry")
        return value, pos

    try:
        byte = data[0]
        code = byte & 0x7F
        if code == _REF:
            raise BadMarshal("bad marshal data (invalid reference)")
        if code == _NULL:
            raise BadMarshal("NULL object in marshal data for object")
        if code != _DICT:
            raise BadStructure(f"the top level is {_type_name(code)}, not a dict of functions")
        reserve(byte)  # stays in progress: nothing may refer to the whole
        stats: Stats = {}
        pos = 1
        while not at_null(pos):
            key, pos = function(pos)
            if key is None or at_null(pos):
                break
            # a key hashed only now that it is (str, C int, str); a repeated key keeps the
            # last value, as a dict does
            stats[key], pos = entry(pos)
        return stats  # what follows the dictionary is ignored, as marshal.loads does
    except (IndexError, struct.error):
        raise BadMarshal("EOF read where object expected") from None


def tabulate(stats: Stats) -> dict[str, Any]:
    if not stats:
        raise BadStructure("it holds no profiled functions")
    rows = []
    total_tt: float = 0
    calls, primitive = 0, 0
    for (filename, line, name), (cc, nc, tt, ct) in stats.items():
        total_tt += tt  # in the file's order, one addition at a time: pstats' own total
        calls += nc
        primitive += cc
        rows.append([_text(filename), line, _text(name), cc, nc, round(tt * 1e9), round(ct * 1e9)])
    return {
        "rows": rows,
        "total_ns": round(total_tt * 1e9),
        "calls": calls,
        "primitive_calls": primitive,
    }


def _read_at_most(max_bytes: int) -> bytes | None:
    """stdin's bytes, or None past `max_bytes` (read in chunks: one `read(max_bytes)` would
    allocate the whole limit up front)."""
    chunks, size = [], 0
    while chunk := sys.stdin.buffer.read(CHUNK_BYTES):
        size += len(chunk)
        if size > max_bytes:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def main(argv: list[str], on_digest: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The answer for the file on stdin; `on_digest` gets the SHA-256 of its bytes first."""
    max_bytes, memory_bytes, cpu_s = (int(a) for a in argv)
    _limit(memory_bytes, cpu_s)
    data = _read_at_most(max_bytes)
    if data is None:
        return {"error": "too_big"}
    if on_digest is not None:
        on_digest(hashlib.sha256(data).hexdigest())
    try:
        return tabulate(parse(data))
    except MemoryError:
        return {"error": "memory"}
    except BadMarshal as exc:
        return {"error": f"not marshal data ({exc})"}
    except BadStructure as exc:
        return {"error": f"not a cProfile/pstats dictionary: {exc}"}


def _print_digest(digest: str) -> None:
    sys.stdout.write(f"sha256:{digest}\n")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        answer = main(sys.argv[1:], _print_digest)
    except MemoryError:
        answer = {"error": "memory"}
    json.dump(answer, sys.stdout, allow_nan=False)
