"""A minimal TensorBoard event-file writer for scalars.

Written by hand (the record framing and two protobuf messages are a few dozen bytes) so that
collectors need neither tensorboard nor protobuf at training time and start no writer thread,
unlike torch.utils.tensorboard.SummaryWriter. Each record is flushed to the OS immediately.
"""

from __future__ import annotations

import errno
import os
import socket
import struct
import time

_CRC32C_TABLE: list[int] = []
for _byte in range(256):
    _crc = _byte
    for _ in range(8):
        _crc = (_crc >> 1) ^ 0x82F63B78 if _crc & 1 else _crc >> 1
    _CRC32C_TABLE.append(_crc)


def _masked_crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    table = _CRC32C_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # int64 two's complement, as protobuf encodes negative steps
    out = bytearray()
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _length_delimited(field_tag: int, payload: bytes) -> bytes:
    return bytes([field_tag]) + _varint(len(payload)) + payload


def _event(wall_time: float, step: int, *, file_version: str = "", summary: bytes = b"") -> bytes:
    # tensorflow.Event: wall_time = 1 (double), step = 2 (int64), file_version = 3, summary = 5.
    out = b"\x09" + struct.pack("<d", wall_time) + b"\x10" + _varint(step)
    if file_version:
        out += _length_delimited(0x1A, file_version.encode())
    if summary:
        out += _length_delimited(0x2A, summary)
    return out


def _scalar_summary(tag: str, value: float) -> bytes:
    # Summary.value = 1 -> Summary.Value{tag = 1 (string), simple_value = 2 (float)}.
    value_msg = _length_delimited(0x0A, tag.encode()) + b"\x15" + struct.pack("<f", value)
    return _length_delimited(0x0A, value_msg)


class TfEventsWriter:
    """Appends scalar events to one `events.out.tfevents.*` file in `run_dir`."""

    def __init__(self, run_dir: str | os.PathLike) -> None:
        name = (
            f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.{os.getpid()}.tb_perf"
        )
        self.path = os.path.join(run_dir, name)
        self._file = open(self.path, "ab", buffering=0)
        self._write(_event(time.time(), 0, file_version="brain.Event:2"))

    def _write(self, data: bytes) -> None:
        header = struct.pack("<Q", len(data))
        record = (
            header
            + struct.pack("<I", _masked_crc32c(header))
            + data
            + struct.pack("<I", _masked_crc32c(data))
        )
        if os.fstat(self._file.fileno()).st_nlink == 0:  # unlinked: the run was deleted
            raise FileNotFoundError(errno.ENOENT, "run directory deleted", self.path)
        self._file.write(record)

    def add_scalar(self, tag: str, value: float, step: int, wall_time: float | None = None) -> None:
        wall = time.time() if wall_time is None else wall_time
        self._write(_event(wall, int(step), summary=_scalar_summary(tag, float(value))))

    def close(self) -> None:
        self._file.close()
