"""NTP-style clock sync with rank 0: `sync_clocks` measures this rank's offset (and, over
several calls, drift) to rank 0's clock and records it in the rank's metadata.

It reads the writer's clock (`_clock.Clock`), the one every timestamp of the run is written
with, so the offsets it records apply to the files as they are. A module of its own so that
`_clock` (which `_writer` imports) needs no RunWriter: no `_clock` <-> `_writer` cycle.
"""

from __future__ import annotations

import math
import socket
import struct
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from ._writer import RunWriter

DEFAULT_ROUNDS = 16
# Reading a clock is exact to its resolution; rank 0's and this rank's readings each add one step.
_RESOLUTION_NS = max(1, math.ceil(time.get_clock_info("perf_counter").resolution * 1e9))
_READ_GRANULARITY_NS = 2 * _RESOLUTION_NS + 1  # +1: offsets are halved and rounded to whole ns


@dataclass(frozen=True)
class ClockSample:
    """One request/response round: this rank's time at its midpoint, rank 0's clock minus this
    rank's, and the round trip less rank 0's turnaround (the offset is exact to ±rtt/2)."""

    at_unix_ns: int
    offset_ns: int
    rtt_ns: int

    @classmethod
    def from_round(cls, t1: int, t2: int, t3: int, t4: int) -> ClockSample:
        """t1: request sent (here), t2: received (rank 0), t3: answered (rank 0), t4: answer
        received (here)."""
        return cls((t1 + t4) // 2, ((t2 - t1) + (t3 - t4)) // 2, (t4 - t1) - (t3 - t2))


def sync_clocks(
    writer: RunWriter,
    *,
    address: tuple[str, int] | None = None,
    rounds: int = DEFAULT_ROUNDS,
    timeout_s: float = 60.0,
) -> dict[str, Any] | None:
    """Measure this rank's clock offset to rank 0 and record it as `clock_sync` in its metadata.

    A collective: every rank of the job calls it. Over the TCP `address` when given (rank 0
    listens there, the others connect: for processes outside a process group), else over the
    initialized torch.distributed world (send/recv of CPU tensors; with a backend other than
    gloo, over a gloo group made for the call). Each call runs `rounds` NTP-style rounds per rank
    and keeps the one with the shortest round trip. Call it again later (e.g. at the end of
    training) to measure drift: the samples of earlier calls on this writer are kept and a line
    is fitted through them. Returns the record written.

    A job of one process (world size 1, no process group, no address) is its own reference:
    offset 0, uncertainty 0. A disabled writer records nothing and returns None; so does an
    exchange that fails (a peer that never comes, no process group in a job of several
    ranks), after a warning: the plugin then aligns the ranks without it.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, not {rounds}")
    if not writer.enabled:
        return None
    clock = writer.clock
    try:
        record = _exchange(writer, address, rounds, timeout_s)
    except Exception as exc:  # noqa: BLE001 - never stop training for a clock measurement
        warnings.warn(
            f"sync_clocks: clocks not synchronized ({exc}); training goes on",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    if record is None:  # one process: the reference itself
        record = _reference_record("single process", 0, clock.now_unix_ns())
    writer.update_metadata(clock_sync=record)
    return record


def _exchange(
    writer: RunWriter, address: tuple[str, int] | None, rounds: int, timeout_s: float
) -> dict[str, Any] | None:
    """The rounds of `sync_clocks` and the record they give; None in a job of one process."""
    clock = writer.clock
    if address is not None:
        method = "tcp"
        exchange: _TcpExchange | _DistExchange = _TcpExchange(
            address, writer.rank, writer.world_size, timeout_s
        )
    elif _dist_initialized():
        method = "torch.distributed"
        exchange = _DistExchange()
    elif writer.world_size == 1:
        return None
    else:
        raise RuntimeError(
            f"world size {writer.world_size} but torch.distributed is not initialized; call "
            "sync_clocks after init_process_group, or pass address=(host, port)"
        )
    with exchange:
        if exchange.rank == 0:
            exchange.serve(clock.now_unix_ns, rounds)
            return _reference_record(method, rounds, clock.now_unix_ns())
        best = min(exchange.ask(clock.now_unix_ns, rounds), key=lambda s: s.rtt_ns)
        previous = writer.metadata.get("clock_sync") or {}
        samples = [ClockSample(**s) for s in previous.get("samples", [])] + [best]
        return _fit(samples, method, rounds)


def _dist_initialized() -> bool:
    """Whether this process is in a torch.distributed world (torch imported only if the program
    did: a script that never touched torch has no process group)."""
    if "torch" not in sys.modules:
        return False
    import torch.distributed as dist

    return dist.is_available() and dist.is_initialized()


def _reference_record(method: str, rounds: int, now: int) -> dict[str, Any]:
    return {
        "method": method,
        "reference_rank": 0,
        "offset_ns": 0,
        "uncertainty_ns": 0,
        "drift_ns_per_s": 0.0,
        "measured_at_unix_ns": now,
        "rounds": rounds,
        "samples": [],
    }


def _fit(samples: list[ClockSample], method: str, rounds: int) -> dict[str, Any]:
    """Offset at the latest sample and, from two samples on, drift by least squares.

    The uncertainty bounds the mapping's error at every sample: the fit's miss there plus the
    sample's own ±rtt/2 (and how far the clocks drift apart within that round), plus clock
    read granularity.
    """
    at = samples[-1].at_unix_ns
    xs = [s.at_unix_ns - at for s in samples]  # distinct: every exchange takes time
    ys = [s.offset_ns for s in samples]
    slope: float | None = None
    offset = float(ys[-1])
    if len(samples) > 1:
        mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum(
            (x - mean_x) ** 2 for x in xs
        )
        offset = mean_y - slope * mean_x
    rate = slope or 0.0
    worst = max(
        abs(offset + rate * (s.at_unix_ns - at) - s.offset_ns) + s.rtt_ns / 2 * (1 + abs(rate))
        for s in samples
    )
    return {
        "method": method,
        "reference_rank": 0,
        "offset_ns": round(offset),
        "uncertainty_ns": math.ceil(worst) + _READ_GRANULARITY_NS,
        "drift_ns_per_s": None if slope is None else slope * 1e9,
        "measured_at_unix_ns": at,
        "rounds": rounds,
        "samples": [asdict(s) for s in samples],
    }


class _DistExchange:
    """Rounds over torch.distributed send/recv of int64 CPU tensors; rank 0 serves each rank in
    turn."""

    def __init__(self) -> None:
        import torch
        import torch.distributed as dist

        self._dist = dist
        # CPU tensors need gloo; NCCL would add a device copy and sync to every reading.
        self._group = dist.new_group(backend="gloo") if dist.get_backend() != "gloo" else None
        self.rank = dist.get_rank()
        self._world_size = dist.get_world_size()
        self._buf = torch.zeros(2, dtype=torch.int64)

    def __enter__(self) -> _DistExchange:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._group is not None:
            self._dist.destroy_process_group(self._group)

    def serve(self, now: Callable[[], int], rounds: int) -> None:
        dist, buf, group = self._dist, self._buf, self._group
        for peer in range(1, self._world_size):
            for _ in range(rounds + 1):  # +1: the first round waits for the peer to arrive
                dist.recv(buf, peer, group=group)
                t2 = now()
                buf[0] = t2
                buf[1] = now()
                dist.send(buf, peer, group=group)

    def ask(self, now: Callable[[], int], rounds: int) -> list[ClockSample]:
        dist, buf, group = self._dist, self._buf, self._group
        samples = []
        for i in range(rounds + 1):
            t1 = now()
            dist.send(buf, 0, group=group)
            dist.recv(buf, 0, group=group)
            t4 = now()
            if i:
                samples.append(ClockSample.from_round(t1, int(buf[0]), int(buf[1]), t4))
        return samples


_REQUEST = struct.Struct("<q")  # the asking rank, rank 0's go-ahead, then one per round
_ANSWER = struct.Struct("<qq")  # t2, t3 on rank 0's clock


class _TcpExchange:
    """Rounds over TCP: rank 0 listens on `address` and serves the other ranks one at a time."""

    def __init__(
        self, address: tuple[str, int], rank: int, world_size: int, timeout_s: float
    ) -> None:
        self._address, self.rank, self._world_size = address, rank, world_size
        self._deadline = time.monotonic() + timeout_s
        self._sock: socket.socket | None = None

    def __enter__(self) -> _TcpExchange:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._sock is not None:
            self._sock.close()

    def _remaining(self) -> float:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"sync_clocks over TCP {self._address}: timed out")
        return left

    def serve(self, now: Callable[[], int], rounds: int) -> None:
        self._sock = server = socket.create_server(self._address)
        for _ in range(self._world_size - 1):
            server.settimeout(self._remaining())
            conn, _ = server.accept()
            with conn:
                conn.settimeout(self._remaining())
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                _recv_exactly(conn, _REQUEST.size)  # the peer's rank: informative only
                conn.sendall(_REQUEST.pack(0))  # "your turn": rounds start when it can be served
                for _ in range(rounds):
                    _recv_exactly(conn, _REQUEST.size)
                    t2 = now()
                    conn.sendall(_ANSWER.pack(t2, now()))

    def ask(self, now: Callable[[], int], rounds: int) -> list[ClockSample]:
        while True:  # rank 0 may not be listening yet
            remaining = self._remaining()  # raises at the deadline
            try:
                self._sock = conn = socket.create_connection(self._address, remaining)
                break
            except ConnectionRefusedError:
                time.sleep(0.05)
        conn.settimeout(self._remaining())
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn.sendall(_REQUEST.pack(self.rank))
        _recv_exactly(conn, _REQUEST.size)
        samples = []
        for _ in range(rounds):
            t1 = now()
            conn.sendall(_REQUEST.pack(t1))
            t2, t3 = _ANSWER.unpack(_recv_exactly(conn, _ANSWER.size))
            samples.append(ClockSample.from_round(t1, t2, t3, now()))
        return samples


def _recv_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ConnectionError("sync_clocks over TCP: the peer closed the connection")
        data += chunk
    return data
