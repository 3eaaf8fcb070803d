"""NVTX labels for Nsight Systems: the `nvtx` package, else `torch.cuda.nvtx`, else nothing.

    labeler = create_labeler()                  # labeler.backend says which one (docs/NVTX.md)
    FWD = labeler.register_label("forward")     # optional: registers the string once
    with labeler.range(FWD):
        ...
    token = labeler.start("h2d"); ...; labeler.stop(token)   # start/stop ranges may interleave
    labeler.mark("checkpoint saved")

A labeler is also MyTimer's "nvtx" mirror (`MyTimer(..., mirrors=("nvtx",))`): its `push(name)`
/ `pop()` are the timer's mirror interface. nvtx and torch are imported only by
`create_labeler()`, and not at all when the labeler is disabled.

Seam for tests and other tools: `create_labeler(backend=obj)` uses `obj` (a `LabelerBackend`)
instead of probing, and `BACKENDS` is the ordered list of probes `create_labeler()` tries (each
`probe(domain) -> LabelerBackend` or raises `BackendUnavailable`), which a test may replace.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

from ._env import switched_off
from ._null import _NULL_RANGE, _NullRange

_F = TypeVar("_F", bound=Callable[..., Any])


class BackendUnavailable(RuntimeError):
    """A probe's reason why its backend cannot be used here."""


class LabelerBackend(Protocol):
    """What a labeler drives. `register` returns the handle the other calls take."""

    name: str

    def register(self, name: str) -> Any: ...

    def push(self, handle: Any) -> None: ...

    def pop(self) -> None: ...

    def start(self, handle: Any) -> Any: ...

    def end(self, token: Any) -> None: ...

    def mark(self, handle: Any) -> None: ...


# --- backends ---------------------------------------------------------------------------------


class NvtxPackageBackend:
    """The `nvtx` package: one domain, messages as registered strings in cached attributes.

    Without a tool attached (no Nsight), nvtx hands out a dummy domain whose calls do nothing.
    """

    name = "nvtx"

    def __init__(self, domain: str) -> None:
        import nvtx

        self._domain = nvtx.get_domain(domain)
        self.push = self._domain.push_range
        self.pop = self._domain.pop_range
        self.start = self._domain.start_range
        self.end = self._domain.end_range
        self.mark = self._domain.mark

    def register(self, name: str) -> Any:
        return self._domain.get_event_attributes(message=name)


class TorchNvtxBackend:
    """`torch.cuda.nvtx`: the global domain (no domains, no string registration)."""

    name = "torch.cuda.nvtx"

    def __init__(self, domain: str) -> None:
        from torch.cuda import nvtx

        self.push = nvtx.range_push
        self.pop = nvtx.range_pop
        self.start = nvtx.range_start
        self.end = nvtx.range_end
        self.mark = nvtx.mark

    def register(self, name: str) -> str:
        return name


def _probe_nvtx_package(domain: str) -> LabelerBackend:
    try:
        return NvtxPackageBackend(domain)
    except ImportError:
        raise BackendUnavailable("nvtx not installed") from None
    except Exception as exc:  # a broken install must not stop training
        raise BackendUnavailable(f"nvtx: {type(exc).__name__}: {exc}") from None


def _probe_torch(domain: str) -> LabelerBackend:
    try:
        backend = TorchNvtxBackend(domain)
    except ImportError as exc:
        raise BackendUnavailable(f"torch.cuda.nvtx not importable: {exc}") from None
    try:  # a CPU build's stub raises here; one empty range and a token pair prove the calls work
        backend.push("tb_perf.probe")
        backend.pop()
        backend.end(backend.start("tb_perf.probe"))
    except Exception as exc:
        raise BackendUnavailable(f"torch.cuda.nvtx: {type(exc).__name__}: {exc}") from None
    return backend


BACKENDS: list[Callable[[str], LabelerBackend]] = [_probe_nvtx_package, _probe_torch]


# --- labelers ---------------------------------------------------------------------------------


class _Depth(threading.local):
    """Ranges this labeler pushed and has not popped, per thread."""

    depth = 0


class Label:
    """A registered name: `register_label()` returns one; start/push/range/mark take it."""

    __slots__ = ("name", "handle")

    def __init__(self, name: str, handle: Any) -> None:
        self.name = name
        self.handle = handle

    def __repr__(self) -> str:
        return f"Label({self.name!r})"


class _Range:
    __slots__ = ("_labeler", "_name")

    def __init__(self, labeler: NvtxLabeler, name: str | Label | None) -> None:
        self._labeler = labeler
        self._name = name

    def __enter__(self) -> None:
        if self._name is None:
            raise TypeError("range() needs a name when used as a context manager")
        self._labeler.push(self._name)

    def __exit__(self, *exc_info: object) -> None:
        self._labeler.pop()

    def __call__(self, func: _F) -> _F:
        labeler = self._labeler
        handle = labeler._handle(self._name if self._name is not None else func.__qualname__)
        push, pop = labeler._backend.push, labeler._backend.pop

        @functools.wraps(func)
        def labelled(*args: Any, **kwargs: Any) -> Any:
            push(handle)
            try:
                return func(*args, **kwargs)
            finally:
                pop()

        return cast(_F, labelled)  # wraps(func): the same signature


class NvtxLabeler:
    """Emits NVTX ranges and marks through one backend; see the module docstring.

    `backend` names it: "nvtx", "torch.cuda.nvtx" or "off (<reason>)". Names are registered on
    first use and cached, so use a bounded set of names. `push`/`pop` nest per thread; a `pop()`
    with no range pushed by this labeler on this thread is ignored (MyTimer's mirror contract).
    `start`/`stop` ranges may interleave and cross threads.
    """

    enabled = True

    def __init__(self, backend: LabelerBackend, domain: str = "tb_perf") -> None:
        self._backend = backend
        self.backend: str = backend.name
        self.domain = domain
        self._labels: dict[str, Label] = {}
        self._handles: dict[Any, Any] = {}  # name -> handle and Label -> handle
        self._local = _Depth()

    def __repr__(self) -> str:
        return f"<NvtxLabeler backend={self.backend!r} domain={self.domain!r}>"

    def register_label(self, name: str) -> Label:
        """Register `name` once with the backend; the returned Label is the cheapest to pass."""
        label = self._labels.get(name)
        if label is None:
            label = self._labels[name] = Label(name, self._backend.register(name))
            self._handles[name] = self._handles[label] = label.handle
        return label

    def _handle(self, name: str | Label) -> Any:
        try:
            return self._handles[name]
        except KeyError:  # first use, or a Label of another labeler
            return self.register_label(name.name if isinstance(name, Label) else name).handle

    def push(self, name: str | Label) -> None:
        """Open a nested range on this thread."""
        self._backend.push(self._handle(name))
        self._local.depth += 1

    def pop(self) -> None:
        """Close this thread's innermost range opened by `push`."""
        local = self._local
        if local.depth:
            local.depth -= 1
            self._backend.pop()

    def start(self, name: str | Label) -> Any:
        """Open a range that `stop(token)` closes; such ranges need not nest."""
        return self._backend.start(self._handle(name))

    def stop(self, token: Any) -> None:
        self._backend.end(token)

    def range(self, name: str | Label | None = None) -> _Range | _NullRange:
        """`with labeler.range(name):` or `@labeler.range()` (the function's name)."""
        return _Range(self, name)

    def mark(self, name: str | Label) -> None:
        """An instantaneous event."""
        self._backend.mark(self._handle(name))


class _OffLabeler(NvtxLabeler):
    """Disabled or no backend: every method does (almost) nothing."""

    enabled = False

    def __init__(self, reason: str, domain: str = "tb_perf") -> None:
        self.backend = f"off ({reason})"
        self.domain = domain

    def register_label(self, name: str) -> Label:
        return Label(name, None)

    def push(self, name: str | Label) -> None:
        pass

    def pop(self) -> None:
        pass

    def start(self, name: str | Label) -> None:
        return None

    def stop(self, token: Any) -> None:
        pass

    def range(self, name: str | Label | None = None) -> _NullRange:
        return _NULL_RANGE

    def mark(self, name: str | Label) -> None:
        pass


def create_labeler(
    enabled: bool | None = None,
    default_domain: str = "tb_perf",
    *,
    backend: LabelerBackend | None = None,
) -> NvtxLabeler:
    """An NVTX labeler, or a no-op one when disabled or when no backend works here.

    Args:
        enabled: None reads `ENABLE_NVTX` (default on); False gives the no-op labeler without
            importing nvtx or torch.
        default_domain: the NVTX domain of the `nvtx` package backend (torch.cuda.nvtx has
            only the global domain).
        backend: use this backend instead of probing `BACKENDS` (tests, other tools).
    """
    reason = switched_off("ENABLE_NVTX", enabled)
    if reason is not None:
        return _OffLabeler(reason, default_domain)
    if backend is not None:
        return NvtxLabeler(backend, default_domain)
    reasons = []
    for probe in BACKENDS:
        try:
            return NvtxLabeler(probe(default_domain), default_domain)
        except BackendUnavailable as exc:
            reasons.append(str(exc))
    return _OffLabeler("; ".join(reasons) or "no NVTX backend", default_domain)
