"""Windowed capture: Nsight Systems (cudaProfilerStart/Stop) or torch.profiler windows at chosen
steps, micro-batches or named hook points, per rank and role, configured from a dict or a file.

    capture = create_capture("capture.toml", timer=timer)   # ENABLE_CAPTURE=0: a no-op object
    for step, batch in enumerate(loader):
        timer.set_step(step)                      # step windows follow the timer
        for micro in batch.split(4):
            with capture.region("micro_batch"):   # micro-batch windows count these
                ...
        with capture.region("denoise"):           # a named hook point: hits are counted
            ...
    capture.close()

Run the job under `nsys profile --capture-range=cudaProfilerApi --capture-range-end=stop`
(docs/CAPTURE.md). Every trigger's windows are a `Windows` policy driven by the one
`WindowScheduler` (collectors/_schedule.py); the backends are `CudaProfilerBackend` and
`TorchProfilerBackend`. The process's role comes from `role=` or `TB_PERF_ROLE`.
"""

from __future__ import annotations

import atexit
import enum
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._env import switched_off
from ._null import _NULL_RANGE, _NullRange
from ._nvtx import NvtxLabeler, create_labeler
from ._rank import detect_rank
from ._schedule import Windows, WindowScheduler
from ._timer import MyTimer
from ._writer import RunWriter

logger = logging.getLogger(__name__)
ROLE_ENV = "TB_PERF_ROLE"
FORWARD = "forward"


class CaptureConfigError(ValueError):
    """A capture configuration that cannot be right (raised when it is loaded)."""


class Trigger(enum.Enum):
    STEP = "step"  # the collectors' step numbers (a MyTimer, or `set_step`)
    MICRO_BATCH = "micro_batch"  # hits of the hook point "micro_batch", counted from 0
    POINT = "point"  # hits of a named hook point, counted from 0


class BackendKind(enum.Enum):
    CUDA_PROFILER = "cuda_profiler"
    TORCH_PROFILER = "torch_profiler"


_BACKEND_OPTIONS: dict[BackendKind, dict[str, tuple[type, ...]]] = {
    BackendKind.CUDA_PROFILER: {"nvtx": (bool,)},
    BackendKind.TORCH_PROFILER: {
        "cuda": (bool, type(None)),
        "record_shapes": (bool,),
        "with_stack": (bool,),
        "profile_memory": (bool,),
        "with_flops": (bool,),
    },
}


@dataclass(frozen=True)
class CaptureSpec:
    """One trigger's windows, limited to some ranks and roles (None: all)."""

    trigger: Trigger
    name: str  # "step", "micro_batch" or the hook point's name
    windows: Windows
    ranks: frozenset[int] | None = None
    roles: frozenset[str] | None = None

    def selects(self, rank: int, role: str | None) -> bool:
        return (self.ranks is None or rank in self.ranks) and (
            self.roles is None or role in self.roles
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "trigger": self.trigger.value,
            "name": self.name,
            "windows": [{"start": a, "stop": b} for a, b in self.windows.windows],
            "warmup": self.windows.warmup,
            "ranks": None if self.ranks is None else sorted(self.ranks),
            "roles": None if self.roles is None else sorted(self.roles),
        }


@dataclass(frozen=True)
class CaptureConfig:
    """A validated capture configuration; `load_capture_config` makes one."""

    backend: BackendKind
    options: Mapping[str, Any]
    roles: tuple[str, ...]
    captures: tuple[CaptureSpec, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend.value,
            "options": dict(self.options),
            "roles": list(self.roles),
            "captures": [spec.to_dict() for spec in self.captures],
        }


# --- loading and validation --------------------------------------------------------------------


def load_capture_config(
    source: Mapping[str, Any] | str | os.PathLike | CaptureConfig,
) -> CaptureConfig:
    """Validate a configuration given as a dict, or read from a `.json`, `.toml` or `.yaml` /
    `.yml` file (YAML needs PyYAML). Raises `CaptureConfigError` naming what is wrong."""
    if isinstance(source, CaptureConfig):
        return source
    if isinstance(source, Mapping):
        return _parse_config(source, "config")
    path = Path(source)
    return _parse_config(_read_config_file(path), str(path))


def _read_config_file(path: Path) -> Any:
    suffix = path.suffix.lower()
    if suffix not in (".json", ".toml", ".yaml", ".yml"):
        raise CaptureConfigError(f"{path}: unknown config format {suffix!r} (.json, .toml, .yaml)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CaptureConfigError(f"{path}: cannot read the capture config: {exc}") from None
    try:
        if suffix == ".json":
            return json.loads(data)
        if suffix == ".toml":
            return _toml_module().loads(data.decode())
        try:
            import yaml
        except ImportError:
            raise CaptureConfigError(
                f"{path}: reading YAML configs needs PyYAML (pip install pyyaml), which is not "
                "installed; use a .json or .toml file instead"
            ) from None
        return yaml.safe_load(data)
    except CaptureConfigError:
        raise
    except Exception as exc:  # each parser has its own error classes
        raise CaptureConfigError(f"{path}: not valid {suffix[1:].upper()}: {exc}") from None


def _toml_module() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    try:
        import tomli
    except ImportError:
        raise CaptureConfigError(
            "reading TOML configs needs Python >= 3.11 or the tomli package"
        ) from None
    return tomli


def _check_keys(where: str, obj: Any, required: set[str], optional: set[str]) -> None:
    if not isinstance(obj, Mapping):
        raise CaptureConfigError(f"{where}: expected a table/object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - required - optional)
    if unknown:
        known = ", ".join(sorted(required | optional))
        raise CaptureConfigError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {known})")
    missing = sorted(required - set(obj))
    if missing:
        raise CaptureConfigError(f"{where}: missing key(s) {', '.join(missing)}")


def _int(where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaptureConfigError(f"{where}: expected an integer, got {value!r}")
    if value < 0:
        raise CaptureConfigError(f"{where}: must be >= 0, not {value}")
    return value


def _enum(where: str, kind: type[enum.Enum], value: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(repr(k.value) for k in kind)
        raise CaptureConfigError(f"{where}: unknown value {value!r} (known: {known})") from None


def _parse_config(raw: Any, where: str) -> CaptureConfig:
    _check_keys(where, raw, {"captures"}, {"backend", "options", "roles"})
    backend = _enum(f"{where}.backend", BackendKind, raw.get("backend", "cuda_profiler"))
    options = raw.get("options", {})
    allowed = _BACKEND_OPTIONS[backend]
    _check_keys(f"{where}.options ({backend.value})", options, set(), set(allowed))
    for key, value in options.items():
        if not isinstance(value, allowed[key]):
            raise CaptureConfigError(f"{where}.options.{key}: unexpected value {value!r}")
    roles = raw.get("roles", [])
    if not isinstance(roles, list) or not all(isinstance(r, str) and r for r in roles):
        raise CaptureConfigError(f"{where}.roles: expected a list of role names, got {roles!r}")
    captures = raw["captures"]
    if not isinstance(captures, list) or not captures:
        raise CaptureConfigError(f"{where}.captures: expected a non-empty list of captures")
    specs = tuple(
        _parse_spec(f"{where}.captures[{i}]", c, set(roles)) for i, c in enumerate(captures)
    )
    _check_overlaps(where, specs)
    return CaptureConfig(backend, dict(options), tuple(roles), specs)


def _parse_spec(where: str, raw: Any, roles: set[str]) -> CaptureSpec:
    _check_keys(where, raw, {"trigger", "windows"}, {"name", "warmup", "ranks", "roles"})
    trigger = _enum(f"{where}.trigger", Trigger, raw["trigger"])
    if trigger is Trigger.POINT:
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise CaptureConfigError(f"{where}: a 'point' trigger needs a 'name'")
    elif "name" in raw:
        raise CaptureConfigError(f"{where}.name: only 'point' triggers take a name")
    else:
        name = trigger.value
    windows = raw["windows"]
    if not isinstance(windows, list) or not windows:
        raise CaptureConfigError(f"{where}.windows: expected a non-empty list of windows")
    bounds = []
    for i, window in enumerate(windows):
        here = f"{where}.windows[{i}]"
        _check_keys(here, window, {"start", "stop"}, set())
        start, stop = _int(f"{here}.start", window["start"]), _int(f"{here}.stop", window["stop"])
        if stop <= start:
            raise CaptureConfigError(
                f"{here}: stop ({stop}) must be after start ({start}); windows record "
                "start <= n < stop"
            )
        bounds.append((start, stop))
    bounds.sort()
    warmup = _int(f"{where}.warmup", raw.get("warmup", 0))
    try:
        policy = Windows(bounds, warmup)
    except ValueError as exc:
        raise CaptureConfigError(f"{where}.windows: {exc}") from None
    ranks = raw.get("ranks")
    if ranks is not None:
        if not isinstance(ranks, list) or not ranks:
            raise CaptureConfigError(f"{where}.ranks: expected a non-empty list of ranks")
        ranks = frozenset(_int(f"{where}.ranks", r) for r in ranks)
    spec_roles = raw.get("roles")
    if spec_roles is not None:
        if not isinstance(spec_roles, list) or not spec_roles:
            raise CaptureConfigError(f"{where}.roles: expected a non-empty list of roles")
        unknown = sorted(set(map(str, spec_roles)) - roles)
        if unknown:
            raise CaptureConfigError(
                f"{where}.roles: unknown role(s) {', '.join(unknown)}; the config's roles are "
                f"{sorted(roles) or 'not declared (add a top-level roles list)'}"
            )
        spec_roles = frozenset(spec_roles)
    return CaptureSpec(trigger, name, policy, ranks, spec_roles)


def _check_overlaps(where: str, specs: tuple[CaptureSpec, ...]) -> None:
    """Two captures of one trigger may not record the same step in the same process."""
    for i, a in enumerate(specs):
        for j in range(i + 1, len(specs)):
            b = specs[j]
            if a.name != b.name:
                continue
            if a.ranks is not None and b.ranks is not None and not a.ranks & b.ranks:
                continue
            if a.roles is not None and b.roles is not None and not a.roles & b.roles:
                continue
            for a0, a1 in a.windows.windows:
                for b0, b1 in b.windows.windows:
                    if a0 - a.windows.warmup < b1 and b0 - b.windows.warmup < a1:
                        raise CaptureConfigError(
                            f"{where}.captures[{i}] and [{j}]: windows [{a0}, {a1}) and "
                            f"[{b0}, {b1}) of trigger {a.name!r} overlap for the same ranks "
                            "and roles"
                        )


# --- backends ----------------------------------------------------------------------------------


def _cuda_profiler_api() -> tuple[Any, str]:
    """torch.cuda.profiler (cudaProfilerStart/Stop) and "on", or None and "off (<reason>)"."""
    try:
        import torch
    except ImportError as exc:
        return None, f"off (torch not importable: {exc})"
    from ._profile import _cuda_status

    status = _cuda_status(torch, None)
    return (torch.cuda.profiler, status) if status == "on" else (None, status)


class CudaProfilerBackend:
    """A `CaptureBackend` for Nsight Systems: cudaProfilerStart when a window starts and
    cudaProfilerStop when it ends (`nsys --capture-range=cudaProfilerApi`), each window inside an
    NVTX range `tb_perf <label> <first>` when a labeler is given. Where CUDA is unavailable it
    does nothing; `status` says why."""

    def __init__(
        self,
        label: str = "capture",
        *,
        api: Any = None,
        status: str | None = None,
        labeler: NvtxLabeler | None = None,
    ) -> None:
        if api is None and status is None:
            api, status = _cuda_profiler_api()
        self.label = label
        self.status = status or "on"
        self._api = api
        self._labeler = labeler if labeler is not None and labeler.enabled else None
        self._token: Any = None
        self._started = False

    def prepare(self) -> None:
        pass

    def start(self, step: int) -> None:
        if self._api is None:
            return
        self._api.start()
        self._started = True
        if self._labeler is not None:
            self._token = self._labeler.start(f"tb_perf {self.label} {step}")

    def step(self, step: int) -> None:
        pass

    def stop(self, first_step: int, last_step: int) -> None:
        self.cancel()

    def cancel(self) -> None:
        if self._token is not None and self._labeler is not None:  # a token comes from a labeler
            token, self._token = self._token, None
            self._labeler.stop(token)
        if self._started:
            self._started = False
            self._api.stop()

    def close(self) -> None:
        pass


class _Recorder:
    """Wraps one capture's backend: records the windows it fires, with the collectors' clock
    times, and refuses a window while another capture of the controller has one open."""

    def __init__(self, controller: CaptureController, spec: CaptureSpec, backend: Any) -> None:
        self.controller = controller
        self.spec = spec
        self.backend = backend
        self._started_ns = 0

    def _claim(self) -> None:
        owner = self.controller._open_by
        if owner is not None and owner is not self:
            raise RuntimeError(
                f"capture {self.spec.name!r} would open a window while {owner.spec.name!r} has "
                "one open: windows of different triggers must not overlap in time"
            )
        self.controller._open_by = self

    def _release(self) -> None:
        if self.controller._open_by is self:
            self.controller._open_by = None

    def prepare(self) -> None:
        self._claim()
        self.backend.prepare()

    def start(self, step: int) -> None:
        self._claim()
        self.backend.start(step)
        self._started_ns = self.controller._now_ns()

    def step(self, step: int) -> None:
        self.backend.step(step)

    def stop(self, first_step: int, last_step: int) -> None:
        self._release()
        self.backend.stop(first_step, last_step)
        self.controller._record_window(
            {
                "trigger": self.spec.trigger.value,
                "name": self.spec.name,
                "first": first_step,
                "last": last_step,
                "start_unix_ns": self._started_ns,
                "stop_unix_ns": self.controller._now_ns(),
            }
        )

    def cancel(self) -> None:
        self._release()
        self.backend.cancel()

    def close(self) -> None:
        self.backend.close()


# --- the controller ----------------------------------------------------------------------------


class _Point:
    """A hook point's hit counter and the schedulers that follow it; also `region(name)`."""

    __slots__ = ("schedulers", "count", "current")

    def __init__(self) -> None:
        self.schedulers: list[WindowScheduler] = []
        self.count = 0
        self.current = -1

    def __enter__(self) -> None:
        self.current = index = self.count
        self.count = index + 1
        for scheduler in self.schedulers:
            scheduler.begin_step(index)

    def __exit__(self, *exc_info: object) -> None:
        for scheduler in self.schedulers:
            scheduler.end_step(self.current)


class CaptureController:
    """What `create_capture` returns: fires the configured windows of this rank and role.

    Steps follow the timer (or `set_step(n)` without one). Hook points are counted by
    `begin(name)` / `end(name)` or `with region(name):`; micro-batches are the point
    "micro_batch". A name no capture uses costs a dict lookup. `close()` (or leaving `with`)
    writes the window open now, removes hooks and records everything in the metadata.
    """

    enabled = True

    def __init__(
        self,
        config: CaptureConfig,
        specs: list[CaptureSpec],
        *,
        timer: MyTimer | None,
        writer: RunWriter | None,
        rank: int,
        role: str | None,
        backend: Callable[[str], Any] | None = None,
    ) -> None:
        self.config = config
        self.timer = timer
        self.writer = writer
        self.rank = rank
        self.role = role
        self.windows: list[dict[str, Any]] = []  # windows fired, as in the metadata
        self.traces: list[dict[str, Any]] = []  # torch_profiler: the files written
        self._open_by: _Recorder | None = None
        self._lock = threading.Lock()
        self._points: dict[str, _Point] = {}
        self._step_schedulers: list[WindowScheduler] = []
        self._on_close: list[Callable[[], None]] = []
        self._closed = False
        self.backend_status = "on"
        labeler = None
        api = status = None
        if backend is not None:
            self.backend_status = "custom"
        elif config.backend is BackendKind.CUDA_PROFILER:
            api, status = _cuda_profiler_api()
            self.backend_status = status
            if api is None:
                logger.warning("capture: CUDA profiler windows are not recorded here: %s", status)
            elif config.options.get("nvtx", True):
                labeler = create_labeler()
        elif writer is None:
            raise ValueError("the torch_profiler capture backend needs a timer= or writer=")
        for spec in specs:
            label = spec.name if spec.trigger is not Trigger.POINT else f"point-{spec.name}"
            made = (
                backend(label) if backend else self._make_backend(spec, label, api, status, labeler)
            )
            scheduler = WindowScheduler(_Recorder(self, spec, made), spec.windows, origin=0)
            if spec.trigger is Trigger.STEP:
                self._step_schedulers.append(scheduler)
            else:
                self._points.setdefault(spec.name, _Point()).schedulers.append(scheduler)
        self._write_metadata()
        if timer is not None:
            for scheduler in self._step_schedulers:
                timer.add_step_callback(scheduler.begin_step)
                if timer.current_step is not None:
                    scheduler.begin_step(timer.current_step)
        atexit.register(self.close)

    def _make_backend(
        self, spec: CaptureSpec, label: str, api: Any, status: Any, labeler: Any
    ) -> Any:
        if self.config.backend is BackendKind.CUDA_PROFILER:
            return CudaProfilerBackend(label, api=api, status=status, labeler=labeler)
        from ._profile import TorchProfilerBackend

        if self.writer is None:  # as __init__ says before it gets here
            raise ValueError("the torch_profiler capture backend needs a timer= or writer=")
        return TorchProfilerBackend(
            self.writer,
            timer=self.timer,
            label=None if spec.trigger is Trigger.STEP else re.sub(r"[^\w.-]+", "_", label),
            trace_metadata={"capture": {"trigger": spec.trigger.value, "name": spec.name}},
            metadata_key=None,
            on_window=self._record_trace,
            **self.config.options,
        )

    # --- the training loop's calls --------------------------------------------------------------

    def set_step(self, step: int) -> None:
        """Step `step` begins (without a timer; with one, its steps are followed)."""
        if self.timer is not None:
            raise RuntimeError("this capture follows its timer's steps: call timer.set_step()")
        for scheduler in self._step_schedulers:
            scheduler.begin_step(step)

    def begin(self, name: str) -> None:
        """A hit of hook point `name` begins (hits count from 0)."""
        point = self._points.get(name)
        if point is not None:
            point.__enter__()

    def end(self, name: str) -> None:
        """The hit of `name` under way ends: a window whose last hit this is stops here."""
        point = self._points.get(name)
        if point is not None:
            point.__exit__()

    def region(self, name: str) -> _Point | _NullRange:
        """`with capture.region(name):` = `begin(name)` ... `end(name)`; not reentrant."""
        return self._points.get(name, _NULL_RANGE)

    def close(self) -> None:
        """Write the window open now, remove hooks and step callbacks; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self.close)
        for undo in self._on_close:
            undo()
        for scheduler in self._step_schedulers:
            if self.timer is not None:
                self.timer.remove_step_callback(scheduler.begin_step)
        for scheduler in self._all_schedulers():
            scheduler.close()
        self._write_metadata()

    def __enter__(self) -> CaptureController:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- records ---------------------------------------------------------------------------------

    def _all_schedulers(self) -> list[WindowScheduler]:
        points = [s for point in self._points.values() for s in point.schedulers]
        return self._step_schedulers + points

    def _now_ns(self) -> int:
        return self.writer.clock.now_unix_ns() if self.writer is not None else time.time_ns()

    def _record_window(self, window: dict[str, Any]) -> None:
        with self._lock:
            self.windows.append(window)
        self._write_metadata()

    def _record_trace(self, trace: dict[str, Any]) -> None:
        with self._lock:
            self.traces.append(trace)
        self._write_metadata()

    def _write_metadata(self) -> None:
        if self.writer is None:
            return
        with self._lock:
            info = {
                "enabled": True,
                "config": self.config.to_dict(),
                "rank": self.rank,
                "role": self.role,
                "backend": self.config.backend.value,
                "backend_status": self.backend_status,
                "windows": list(self.windows),
            }
            if self.config.backend is BackendKind.TORCH_PROFILER:
                info["traces"] = list(self.traces)
            self.writer.update_metadata(capture=info)


class _DisabledCapture(CaptureController):
    """ENABLE_CAPTURE=0, or nothing configured for this rank and role: every call is a no-op."""

    enabled = False

    def __init__(self, reason: str, writer: RunWriter | None = None) -> None:
        self.reason = reason
        self.windows = []
        self.traces = []
        if writer is not None:
            writer.update_metadata(capture={"enabled": False, "reason": reason})

    def set_step(self, step: int) -> None:
        pass

    def begin(self, name: str) -> None:
        pass

    def end(self, name: str) -> None:
        pass

    def region(self, name: str) -> _NullRange:
        return _NULL_RANGE

    def close(self) -> None:
        pass


def create_capture(
    config: Mapping[str, Any] | str | os.PathLike | CaptureConfig,
    *,
    timer: MyTimer | None = None,
    writer: RunWriter | None = None,
    rank: int | None = None,
    role: str | None = None,
    enabled: bool | None = None,
    backend: Callable[[str], Any] | None = None,
) -> CaptureController:
    """A capture controller for this process, or a no-op one.

    Args:
        config: a dict or a .json / .toml / .yaml file (docs/CAPTURE.md); validated here, even
            when capture is disabled: a misconfiguration raises `CaptureConfigError`.
        timer: step windows follow its steps, and the run gets the metadata; or give `writer=`.
        rank: this process's rank (default: the writer's, else detected as the writer does).
        role: this process's role (default: `TB_PERF_ROLE`); where the config declares roles,
            it must be one of them. Captures that name roles select only those roles.
        enabled: None reads `ENABLE_CAPTURE` (default on); False gives the no-op controller.
        backend: make each capture's backend with `backend(label)` instead of the configured
            one (tests, other tools); its status reads "custom".
    """
    parsed = load_capture_config(config)
    if role is None:
        role = os.environ.get(ROLE_ENV) or None
    if role is not None and parsed.roles and role not in parsed.roles:
        raise CaptureConfigError(
            f"this process's role {role!r} (role= or {ROLE_ENV}) is not one of the config's "
            f"roles {list(parsed.roles)}"
        )
    if timer is not None:
        writer = timer.writer
    if rank is None:
        rank = writer.rank if writer is not None else detect_rank().rank
    reason = switched_off("ENABLE_CAPTURE", enabled)
    if reason is not None:
        return _DisabledCapture(reason, writer)
    if writer is not None and not writer.enabled:
        return _DisabledCapture("the timer or writer is disabled", writer)
    specs = [spec for spec in parsed.captures if spec.selects(rank, role)]
    if not specs:
        return _DisabledCapture(f"no capture selects rank {rank}, role {role!r}", writer)
    return CaptureController(
        parsed, specs, timer=timer, writer=writer, rank=rank, role=role, backend=backend
    )


def capture_forward(
    model: Any,
    start_iter: int,
    stop_iter: int,
    rank_only: int | None = None,
    *,
    backend: str = "cuda_profiler",
    options: Mapping[str, Any] | None = None,
    timer: MyTimer | None = None,
    writer: RunWriter | None = None,
    enabled: bool | None = None,
) -> CaptureController:
    """Capture forward calls `start_iter <= n < stop_iter` of `model` (counted from 0 by forward
    hooks), on rank `rank_only` only (None: every rank). `close()` (or `with`) removes the
    hooks; a disabled controller installs none."""
    config: dict[str, Any] = {
        "backend": backend,
        "captures": [
            {
                "trigger": "point",
                "name": FORWARD,
                "windows": [{"start": start_iter, "stop": stop_iter}],
                **({} if rank_only is None else {"ranks": [rank_only]}),
            }
        ],
    }
    if options:
        config["options"] = dict(options)
    capture = create_capture(config, timer=timer, writer=writer, enabled=enabled)
    if capture.enabled:
        point = capture._points[FORWARD]
        pre = model.register_forward_pre_hook(lambda module, args: point.__enter__())
        post = model.register_forward_hook(lambda module, args, output: point.__exit__())
        capture._on_close += [pre.remove, post.remove]
    return capture
