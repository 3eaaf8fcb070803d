"""Unpickling a file nobody vouches for: `RestrictedUnpickler` admits plain containers and
scalars only (no global is ever looked up, so nothing in the file can run), and `check_pickle`,
run before it, walks the opcodes the unpickler would run and refuses what no pickler writes and
what would build more objects than the file's size allows (a pickle bomb). Memory snapshots
(snapshot.py) are read through both.
"""

from __future__ import annotations

import os
import pickle
import pickletools
from typing import Any

from .files import human_bytes

# The memory a pickle may make the unpickler build, as `check_pickle` estimates it: at most
# PICKLE_BYTES_PER_BYTE bytes of objects per byte of the file plus PICKLE_SLACK_BYTES, and
# never more than half the machine's memory. The shared real snapshots estimate at 3.5-16
# bytes per byte (CPython allocates 3.3-13 for them; the densest is a legacy at-OOM dump with a
# small dict every 19 bytes); a "set bomb" (an empty set per byte) estimates at 240.
PICKLE_BYTES_PER_BYTE = 32
PICKLE_SLACK_BYTES = 16 << 20


class RefusedGlobal(pickle.UnpicklingError):
    """The pickle asked for a global (a class or function): refused, nothing was called."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class PickleBomb(pickle.UnpicklingError):
    """Unpickling would build more objects than the budget allows (nothing was built)."""


class RestrictedUnpickler(pickle.Unpickler):
    """Admits plain containers and scalars only. Every callable a pickle could run (REDUCE,
    BUILD, NEWOBJ, INST, OBJ, EXT*) must first be looked up through `find_class`, which always
    refuses, so a hostile file cannot execute anything; persistent ids are refused too."""

    def find_class(self, module: str, name: str) -> Any:
        raise RefusedGlobal(f"{module[:200]}.{name[:200]}")

    def persistent_load(self, pid: Any) -> Any:
        raise RefusedGlobal(f"persistent id {repr(pid)[:200]}")


# --- the pre-check --------------------------------------------------------------------------
#
# `check_pickle` walks the opcodes the unpickler will run, without building anything, keeping
# a running estimate of the memory they would build (CPython 3.11+, 64-bit; what
# `sys.getsizeof` says, tracemalloc-checked in tests/plugin/test_snapshot_hostile.py):
# - every opcode that pushes onto the unpickler's stack: a reference (_REF), which later moves
#   into a container or stays on the stack;
# - every object an opcode makes: its size (_OBJECT_BYTES), strings, bytes and integers with
#   their characters, bytes and digits (their length in the file);
# - every element a container-filling opcode adds, counted from the stack depth since its
#   MARK (_ITEM_BYTES): per set element a hash table slot at the lowest fill CPython leaves,
#   per dict key or value half an entry (a dict of n entries: 88 B plus 48 B per entry with
#   its references, within 30 % of what CPython allocates); list and tuple elements are the
#   references already counted;
# - every memo entry: a slot of the memo array (_SLOT), which doubles as it grows;
# - the unpickler's stack and mark array as deep as they get (_REF per item, _SLOT per mark:
#   high-water marks, checked at every opcode that takes a MARK, every 64 KiB and the end).
# One-byte-length arguments (short strings, LONG1) whose length reaches beyond the data are
# the unpickler's to refuse; longer declared lengths are refused here.
# Repeated references (memo gets, DUP) build nothing but a reference, so shared objects cost
# once; the scan's budget check runs after every 64 KiB of opcodes and at the end.

_REF, _SLOT = 8, 16
_OBJECT_BYTES = {  # sizeof as pymalloc allocates it (16-byte aligned)
    "EMPTY_LIST": 64, "LIST": 64, "EMPTY_DICT": 80, "DICT": 80, "EMPTY_SET": 224,
    "FROZENSET": 224, "TUPLE": 48, "TUPLE1": 48, "TUPLE2": 64, "TUPLE3": 64,
    "INT": 32, "BININT": 32, "BININT2": 32, "LONG": 32, "LONG1": 32, "LONG4": 32,
    "FLOAT": 32, "BINFLOAT": 32,
    "STRING": 56, "BINSTRING": 56, "SHORT_BINSTRING": 56, "UNICODE": 56,
    "SHORT_BINUNICODE": 56, "BINUNICODE": 56, "BINUNICODE8": 56,
    "SHORT_BINBYTES": 48, "BINBYTES": 48, "BINBYTES8": 48, "BYTEARRAY8": 64,
    "SETITEM": 32,  # the entry beyond its key's and value's references (see below)
}  # fmt: skip
_ITEM_BYTES = {"ADDITEMS": 120, "FROZENSET": 120, "SETITEMS": 16, "DICT": 16}
# Opcodes that take the items above the last MARK (and the MARK): what each leaves
_MARK_USERS = {
    "APPENDS": 0, "SETITEMS": 0, "ADDITEMS": 0, "POP_MARK": 0,  # below the mark: the container
    "LIST": 1, "TUPLE": 1, "DICT": 1, "FROZENSET": 1, "OBJ": 1,
}  # fmt: skip
# Opcodes with a stack effect that make no new top of the stack (they fill what is there)
_NO_PUSH = frozenset(
    ("MEMOIZE", "MARK", "APPEND", "APPENDS", "SETITEM", "SETITEMS", "ADDITEMS", "BUILD")
)
_STOP, _MARK, _POP, _MEMOIZE = 0x2E, 0x28, 0x30, 0x94
_PUT, _LONG_BINPUT, _MEMO_PUTS = 0x70, 0x72, frozenset(b"pqr\x94")
_CHECK_EVERY = 1 << 16  # bytes of opcodes between budget checks
_LENGTH_FIELDS = {  # pickletools' code -> (bytes of the length field, signed)
    pickletools.TAKEN_FROM_ARGUMENT1: (1, False),
    pickletools.TAKEN_FROM_ARGUMENT4: (4, True),
    pickletools.TAKEN_FROM_ARGUMENT4U: (4, False),
    pickletools.TAKEN_FROM_ARGUMENT8U: (8, False),
}


def _opcode_tables() -> tuple[list[Any], ...]:
    """Per opcode byte: the size of its argument (pickletools' negative codes for sizes read
    from the data; None for bytes that are no opcode and for opcodes the unpickler refuses),
    the step of the scan's fast path (1 + the argument's size for plain fixed-size opcodes, 0
    for the rest), its cost and its change of the stack depth (see above), for opcodes that
    take a MARK the items they leave (else -1) and the cost of each item they take, and the
    branch of the scan's slow path that handles it (_KIND_*)."""
    sizes: list[int | None] = [None] * 256
    costs, deltas, leaves, item_bytes = [0] * 256, [0] * 256, [-1] * 256, [0] * 256
    kinds = [_KIND_OTHER] * 256
    for op in pickletools.opcodes:
        code = ord(op.code)
        if op.name not in ("GLOBAL", "INST", "PERSID"):
            sizes[code] = op.arg.n if op.arg else 0
            if sizes[code] == pickletools.TAKEN_FROM_ARGUMENT1:
                kinds[code] = _KIND_LENGTH1
        if op.name in _MARK_USERS:
            leaves[code] = _MARK_USERS[op.name]
            item_bytes[code] = _ITEM_BYTES.get(op.name, 0)
            kinds[code] = _KIND_TAKES_MARK
        elif op.name != "MARK":
            deltas[code] = len(op.stack_after) - len(op.stack_before)
        pushes = bool(op.stack_after) and op.name not in _NO_PUSH
        costs[code] = _OBJECT_BYTES.get(op.name, 0) + (_REF if pushes else 0)
    for code in _MEMO_PUTS:
        costs[code] = _SLOT
    kinds[_MEMOIZE], kinds[_MARK], kinds[_POP] = _KIND_MEMOIZE, _KIND_MARK, _KIND_POP
    slow = {c for c in range(256) if leaves[c] >= 0} | _MEMO_PUTS | {_STOP, _MARK, _POP}
    steps = [
        1 + size if size is not None and size >= 0 and code not in slow else 0
        for code, size in enumerate(sizes)
    ]  # fmt: skip
    return sizes, steps, costs, deltas, leaves, item_bytes, kinds


# the slow path's branches, most frequent in real snapshots first
_KIND_MEMOIZE, _KIND_LENGTH1, _KIND_MARK, _KIND_TAKES_MARK, _KIND_POP, _KIND_OTHER = range(6)
_ARGUMENT_SIZES, _STEPS, _COSTS, _DELTAS, _LEAVES, _ITEM_COSTS, _KINDS = _opcode_tables()


def pickle_budget(file_bytes: int) -> int:
    """The bytes of objects a pickle of `file_bytes` may build (the limits above)."""
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        memory = 32 << 30
    return min(PICKLE_BYTES_PER_BYTE * file_bytes + PICKLE_SLACK_BYTES, memory // 2)


def check_pickle(data: bytes, max_object_bytes: int | None = None) -> int:
    """The pre-check of every load: walks the opcodes the unpickler will run, building nothing,
    and raises `pickle.UnpicklingError` for what no pickler writes and would make the
    unpickler allocate far beyond the file:
    - a memo index beyond the number of objects memoized so far (the C unpickler sizes its memo
      array by the largest index it is given: the 9 bytes `\\x80\\x02]r\\xff\\xff\\xff\\xff.`
      would make it allocate and clear 64 GB);
    - a declared length beyond the end of the data (the unpickler allocates it before reading);
    - `PickleBomb`: objects estimated at more than `max_object_bytes` (default:
      `pickle_budget(len(data))`), e.g. 12 MB of EMPTY_SET opcodes are 2.7 GB of sets.
    Returns the estimate (bytes). Stops at STOP and at anything the unpickler itself refuses
    (nothing after it is built)."""
    end = len(data)
    limit = pickle_budget(end) if max_object_bytes is None else max_object_bytes
    steps, costs, deltas, sizes, kinds = _STEPS, _COSTS, _DELTAS, _ARGUMENT_SIZES, _KINDS
    position, cost, depth, memoized, deepest, most_marks = 0, 0, 0, 0, 0, 0
    marks: list[int] = []
    while position < end:
        if depth > deepest:
            cost += (depth - deepest) * _REF
            deepest = depth
        if cost > limit:
            break
        chunk_end = min(position + _CHECK_EVERY, end)
        while position < chunk_end:
            code = data[position]
            step = steps[code]
            if step:
                position += step
                cost += costs[code]
                depth += deltas[code]
                continue
            kind = kinds[code]
            if kind == _KIND_MEMOIZE:
                position += 1
                cost += _SLOT
                memoized += 1
                continue
            if kind == _KIND_LENGTH1:  # short strings and bytes, LONG1: a length byte
                if position + 1 >= end:
                    return _within(cost, limit)
                length = data[position + 1]
                position += 2 + length
                cost += costs[code] + length
                depth += 1
                continue
            position += 1
            if kind == _KIND_MARK:
                marks.append(depth)
                continue
            cost += costs[code]
            if kind == _KIND_TAKES_MARK:
                # the stack and the marks are at their deepest before an opcode takes a mark
                if depth > deepest:
                    cost += (depth - deepest) * _REF
                    deepest = depth
                if len(marks) > most_marks:
                    cost += (len(marks) - most_marks) * _SLOT
                    most_marks = len(marks)
                mark = marks.pop() if marks else 0
                items = depth - mark
                depth = mark + _LEAVES[code]
                if items > 0:
                    cost += _ITEM_COSTS[code] * items
                continue
            if kind == _KIND_POP:  # pops the last MARK when nothing is above it
                if marks and depth <= marks[-1]:
                    marks.pop()
                else:
                    depth -= 1
                continue
            size = sizes[code]
            if size is None or code == _STOP:
                return _within(cost, limit)
            depth += deltas[code]
            if code in _MEMO_PUTS:
                index = 0
                if code == _LONG_BINPUT:
                    index = int.from_bytes(data[position : position + 4], "little")
                elif code == _PUT:
                    try:
                        index = int(data[position : data.find(b"\n", position)])
                    except ValueError:
                        return _within(cost, limit)
                if index > memoized:
                    raise pickle.UnpicklingError(
                        f"memo index {index} out of order ({memoized} objects memoized)"
                    )
                memoized += 1
            if size >= 0:
                position += size
            elif size == pickletools.UP_TO_NEWLINE:
                line_end = data.find(b"\n", position) + 1
                if line_end == 0:
                    return _within(cost, limit)
                cost += line_end - position
                position = line_end
            else:
                width, signed = _LENGTH_FIELDS[size]
                length = int.from_bytes(data[position : position + width], "little", signed=signed)
                position += width
                if length > end - position:
                    raise pickle.UnpicklingError(
                        "pickle data was truncated (an argument of "
                        f"{length} bytes, {end - position} left)"
                    )
                length = max(length, 0)
                position += length
                cost += length
    cost += max(depth - deepest, 0) * _REF + max(len(marks) - most_marks, 0) * _SLOT
    return _within(cost, limit)


def _within(cost: int, limit: int) -> int:
    if cost > limit:
        raise PickleBomb(
            f"unpickling it would build more than {human_bytes(limit)} of objects (at most "
            f"{PICKLE_BYTES_PER_BYTE} bytes per byte of the file: a pickle bomb?); nothing was "
            "built"
        )
    return cost


def check_memo_indices(data: bytes) -> None:
    """`check_pickle` without a budget (the name older callers know)."""
    check_pickle(data, max_object_bytes=1 << 62)
