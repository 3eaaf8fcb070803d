"""Device-side timing through events that are read later, never waited on per step."""

from __future__ import annotations

from typing import Any, Protocol


class EventBackend(Protocol):
    """Records device events and reads their elapsed time once both completed.

    The timer records a start and an end event around each span, polls `query()` at later step
    boundaries and calls `synchronize()` only at close, so it adds no host-device sync per step.
    """

    name: str

    def record(self) -> Any:
        """Record an event on the current stream and return it."""

    def query(self, event: Any) -> bool:
        """True once the device has passed `event`; must not block."""

    def elapsed_ns(self, start: Any, end: Any) -> int:
        """Device time between two completed events."""

    def synchronize(self, event: Any) -> None:
        """Block until `event` completed (used only at close)."""


class CudaEventBackend:
    """torch.cuda.Event with timing on the current CUDA stream."""

    name = "cuda"

    def __init__(self) -> None:
        import torch

        self._event_type = torch.cuda.Event

    def record(self) -> Any:
        event = self._event_type(enable_timing=True)
        event.record()
        return event

    def query(self, event: Any) -> bool:
        return event.query()

    def elapsed_ns(self, start: Any, end: Any) -> int:
        return round(start.elapsed_time(end) * 1e6)  # elapsed_time is in ms

    def synchronize(self, event: Any) -> None:
        event.synchronize()


def cuda_backend_if_available() -> tuple[EventBackend | None, str]:
    """The CUDA backend when torch sees a GPU, else None with the reason (for metadata)."""
    try:
        import torch
    except ImportError:
        return None, "torch is not installed"
    try:
        if not torch.cuda.is_available():
            return None, "torch.cuda.is_available() is False"
        return CudaEventBackend(), "cuda"
    except RuntimeError as exc:
        return None, f"CUDA unusable: {exc}"


def pick_event_backend(gpu: bool | EventBackend | None) -> tuple[EventBackend | None, str]:
    """The backend a collector's `gpu=` argument asks for, and its status for the metadata:
    None → CUDA when available; True → CUDA or an error; False → off; an object → itself."""
    if gpu is False:
        return None, "off"
    if gpu is None or gpu is True:
        backend, status = cuda_backend_if_available()
        if backend is None and gpu is True:
            raise RuntimeError(f"gpu=True but GPU timing is unavailable: {status}")
        return backend, status if backend else f"off ({status})"
    return gpu, getattr(gpu, "name", type(gpu).__name__)
