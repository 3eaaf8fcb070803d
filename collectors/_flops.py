"""FlopsCounter: a training step's model FLOPs, counted once, for achieved FLOP/s and MFU
(docs/COMPUTE.md, metadata `flops`)."""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import warnings
from collections import Counter
from types import TracebackType
from typing import Any

from ._env import env_enabled
from ._null import _NULL_RANGE, _NullRange
from ._timer import MyTimer

PEAK_FLOPS_ENV = "TB_PERF_PEAK_FLOPS"
# torch dtype names -> the names of the peak table (tb_perf_plugin/analysis/compute.py)
_DTYPE_NAMES = {
    "float32": "fp32", "bfloat16": "bf16", "float16": "fp16", "float64": "fp64", "int8": "int8",
}  # fmt: skip
_CONVOLUTIONS = {"convolution", "convolution_backward", "_convolution", "cudnn_convolution"}


class _CountingRegion:
    """One `with counter.count():` of the sampled step, under torch's FlopCounterMode.

    torch.compile'd code runs eagerly inside it (`torch.compiler.set_stance("force_eager")`):
    dynamo meeting an active FlopCounterMode stops compiling that code for new shapes for the
    rest of the process (checked on torch 2.13), which would change the training job itself.
    Eager execution counts the same operators."""

    __slots__ = ("_contexts", "_counter", "_mode")

    def __init__(self, counter: FlopsCounter) -> None:
        self._counter = counter
        self._contexts: contextlib.ExitStack | None = None
        self._mode: Any = None

    def __enter__(self) -> None:
        contexts = contextlib.ExitStack()
        try:
            contexts.enter_context(_eager_stance())
            self._mode = contexts.enter_context(self._counter._new_mode())
            self._contexts = contexts
        except Exception as exc:  # noqa: BLE001 - a counter must never stop training
            contexts.close()
            self._counter._give_up(f"cannot start torch's FlopCounterMode: {exc!r}")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        contexts, self._contexts = self._contexts, None
        if contexts is None:
            return
        try:
            contexts.__exit__(exc_type, exc, tb)
            self._counter._add(self._mode)
        except Exception as exc:  # noqa: BLE001
            self._counter._give_up(f"cannot read torch's FlopCounterMode: {exc!r}")


def _eager_stance() -> contextlib.AbstractContextManager:
    import torch

    set_stance = getattr(torch.compiler, "set_stance", None)  # torch >= 2.6
    return set_stance("force_eager") if set_stance is not None else contextlib.nullcontext()


class FlopsCounter:
    """Counts the model FLOPs of one training step and writes them to the run's metadata.

    Usage::

        timer = MyTimer("runs/exp1")
        flops = FlopsCounter(timer, peak_flops=989e12)   # or TB_PERF_PEAK_FLOPS, or the table
        for batch in loader:
            timer.set_step(step)
            with flops.count():                           # every step; counts one only
                loss = model(batch); loss.backward(); opt.step(); opt.zero_grad()

    Only the regions of one step (the first at or after `sample_step`) are counted, with
    `torch.utils.flop_counter.FlopCounterMode`: it runs every operator through a Python
    dispatch mode, so that step is slower (by default step 1, inside the warm-up the findings
    leave out). On every other step `count()` returns a shared no-op context manager. Several
    regions in the sampled step (gradient accumulation) add up. The FLOPs are written when
    the sampled step ends, with the dtype that did most of them and the device, so the plugin
    finds the device's peak FLOP/s for that dtype (docs/COMPUTE.md) unless `peak_flops` says.

    FlopCounterMode counts operators with a FLOP formula (matmuls, convolutions, attention):
    elementwise work is not counted, as MFU conventionally leaves it out. Counted on the CPU
    here; on CUDA the same mode applies (not tested on a GPU here).

    Args:
        timer: the MyTimer whose steps say which step is counted and whose run gets the result.
        sample_step: count the first step numbered at least this.
        peak_flops: the device's peak FLOP/s for the run's dtype, overriding the plugin's
            table; None reads `TB_PERF_PEAK_FLOPS` (e.g. `989e12`), else the table decides.
        dtype: the dtype name for the peak table (`"bf16"`, `"tf32"`, ...); None: the dtype
            that did most of the counted FLOPs (fp32 matmuls on CUDA count as tf32 when
            `torch.get_float32_matmul_precision()` allows it).
        top_operators: how many operators the per-operator breakdown keeps.
        enabled: None reads `ENABLE_FLOPS_COUNTER` (default on); a disabled timer disables it.
    """

    def __init__(
        self,
        timer: MyTimer,
        *,
        sample_step: int = 1,
        peak_flops: float | None = None,
        dtype: str | None = None,
        top_operators: int = 8,
        enabled: bool | None = None,
    ) -> None:
        if enabled is None:
            enabled = env_enabled("ENABLE_FLOPS_COUNTER")
        self.timer = timer
        self.sample_step = int(sample_step)
        self.dtype = dtype
        self.top_operators = top_operators
        self.peak_flops, self._peak_source = _peak_override(peak_flops)
        self.enabled = bool(enabled) and timer.enabled
        self._counting_step: int | None = None  # the step being counted
        self._done = not self.enabled
        self._regions = 0
        self._by_operator: Counter[str] = Counter()
        self._by_dtype: Counter[str] = Counter()
        self._devices: Counter[str] = Counter()
        self._mode_class: Any = None
        self._attached = self.enabled
        if self.enabled:
            timer.add_step_callback(self._on_step)
            atexit.register(self.close)

    @property
    def flops_per_step(self) -> int | None:
        """The counted step's FLOPs once counted, else None."""
        return sum(self._by_operator.values()) if self._regions else None

    def count(self) -> _CountingRegion | _NullRange:
        """The step region to count: `with counter.count():` around forward, backward and
        optimizer, every step. Free (a shared no-op) outside the sampled step."""
        if self._done:
            return _NULL_RANGE
        step = self.timer.current_step
        step = 0 if step is None else step  # the timer's first step before any call
        if self._counting_step is None:
            if step < self.sample_step:
                return _NULL_RANGE
            self._counting_step = step
        elif step != self._counting_step:
            self._finish()
            return _NULL_RANGE
        return _CountingRegion(self)

    def close(self) -> None:
        """Write what was counted if the sampled step has not ended yet, and stop."""
        if not self._done:
            self._finish()

    def __enter__(self) -> FlopsCounter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- internals ---------------------------------------------------------------------------

    def _on_step(self, new_step: int) -> None:
        if self._counting_step is not None and new_step != self._counting_step:
            self._finish()

    def _new_mode(self) -> Any:
        if self._mode_class is None:
            self._mode_class = _dtype_recording_mode()
        return self._mode_class(display=False)

    def _add(self, mode: Any) -> None:
        self._regions += 1
        for packet, flops in mode.get_flop_counts().get("Global", {}).items():
            self._by_operator[str(packet)] += int(flops)
        self._by_dtype.update(mode.flops_by_dtype)
        self._devices.update(mode.flops_by_device)

    def _give_up(self, why: str) -> None:
        self.timer.writer.collector_stopped("FlopsCounter", self._counting_step, why)
        self._regions = 0
        self._stop()

    def _stop(self) -> None:
        self._done = True
        if self._attached:
            self._attached = False
            self.timer.remove_step_callback(self._on_step)
            atexit.unregister(self.close)

    def _finish(self) -> None:
        self._stop()
        if not self._regions:
            return
        try:
            self.timer.writer.update_metadata(flops=self._metadata())
        except (OSError, ValueError) as exc:
            warnings.warn(
                f"FlopsCounter cannot write the run metadata: {exc}", RuntimeWarning, stacklevel=3
            )

    def _metadata(self) -> dict[str, Any]:
        device = self._devices.most_common(1)[0][0] if self._devices else "cpu"
        dtype = self.dtype or (self._by_dtype.most_common(1)[0][0] if self._by_dtype else None)
        return {
            "per_step": self.flops_per_step,
            "sampled_step": self._counting_step,
            "regions": self._regions,
            "by_operator": [[op, n] for op, n in self._by_operator.most_common(self.top_operators)],
            "by_dtype": dict(self._by_dtype),
            "dtype": dtype,
            "device_type": device.partition(":")[0],
            "device_name": _device_name(device),
            "peak_flops": self.peak_flops,
            "peak_source": self._peak_source,
            "counter": "torch.utils.flop_counter.FlopCounterMode",
        }


def _peak_override(argument: float | None) -> tuple[float | None, str | None]:
    if argument is not None:
        if not argument > 0:
            raise ValueError(f"peak_flops must be a positive number of FLOP/s, not {argument!r}")
        return float(argument), "argument"
    text = os.environ.get(PEAK_FLOPS_ENV, "").strip()
    if not text:
        return None, None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        warnings.warn(
            f"{PEAK_FLOPS_ENV}={text!r} is not a positive number of FLOP/s: ignored",
            RuntimeWarning,
            stacklevel=3,
        )
        return None, None
    return value, PEAK_FLOPS_ENV


def dtype_name(dtype: Any, device_type: str, convolution: bool) -> str:
    """The peak-table name of a torch dtype as a matmul or convolution on `device_type` uses
    it: fp32 on CUDA is tf32 when torch lets matmuls (or cuDNN convolutions) use TF32."""
    torch = sys.modules["torch"]
    text = str(dtype).removeprefix("torch.")
    if text.startswith("float8"):
        return "fp8"
    name = _DTYPE_NAMES.get(text, text)
    if name == "fp32" and device_type == "cuda":
        return "tf32" if _uses_tf32(torch, convolution) else "fp32"
    return name


def _uses_tf32(torch: Any, convolution: bool) -> bool:
    """Whether fp32 matmuls (or cuDNN convolutions) may run as TF32. torch 2.9+ has per-backend
    `fp32_precision` settings; once a program sets those, the legacy getters raise."""
    backend = torch.backends.cudnn.conv if convolution else torch.backends.cuda.matmul
    precision = getattr(backend, "fp32_precision", None)
    if precision in ("tf32", "ieee"):
        return precision == "tf32"
    if convolution:
        return bool(torch.backends.cudnn.allow_tf32)
    return torch.get_float32_matmul_precision() != "highest"


def _dtype_recording_mode() -> type:
    """A FlopCounterMode that also adds up each counted operator's FLOPs by the dtype and
    device of its first tensor argument (defined on first use: torch is imported then)."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode

    class DtypeRecordingFlopCounterMode(FlopCounterMode):
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.flops_by_dtype: Counter[str] = Counter()
            self.flops_by_device: Counter[str] = Counter()

        def _count_flops(self, func_packet: Any, out: Any, args: Any, kwargs: Any) -> Any:
            before = self.flop_counts["Global"].get(func_packet, 0)
            result = super()._count_flops(func_packet, out, args, kwargs)
            added = self.flop_counts["Global"].get(func_packet, 0) - before
            tensor = next((a for a in args if isinstance(a, torch.Tensor)), None)
            if added and tensor is not None:
                device = tensor.device
                convolution = getattr(func_packet, "__name__", "") in _CONVOLUTIONS
                try:
                    dtype = dtype_name(tensor.dtype, device.type, convolution)
                except Exception:  # noqa: BLE001 - bookkeeping must never fail the forward
                    dtype = str(tensor.dtype).removeprefix("torch.")
                self.flops_by_dtype[dtype] += added
                self.flops_by_device[str(device)] += added
            return result

    return DtypeRecordingFlopCounterMode


def _device_name(device: str) -> str | None:
    """The product name of a device (`"NVIDIA H100 80GB HBM3"`, the CPU's model name)."""
    kind, _, index = device.partition(":")
    if kind == "cuda":
        torch = sys.modules["torch"]
        try:
            return torch.cuda.get_device_name(int(index) if index else None)
        except (RuntimeError, AssertionError, ValueError):
            return None
    if kind == "cpu":
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
                for line in cpuinfo:
                    if line.startswith("model name"):
                        return line.partition(":")[2].strip()
        except OSError:
            pass
        import platform

        return platform.processor() or None
    return None
