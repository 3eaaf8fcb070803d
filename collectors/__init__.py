"""In-process collectors that write tb-perf run artifacts (run format v1, docs/FORMAT.md).

Import cost is kept to the standard library: torch is imported only by the parts that use it.
"""

from ._capture import (
    CaptureConfig,
    CaptureConfigError,
    CaptureController,
    CudaProfilerBackend,
    capture_forward,
    create_capture,
    load_capture_config,
)
from ._clock import ClockSkew
from ._clock_sync import sync_clocks
from ._compile import CompileMonitor
from ._flops import FlopsCounter
from ._gpu_events import CudaEventBackend, EventBackend
from ._loader import TimedLoader, timed_loader
from ._memory import MemorySampler
from ._mirror import Mirror, RecordFunctionMirror
from ._modules import ModuleProfiler
from ._nvtx import NvtxLabeler, create_labeler
from ._profile import StepProfiler, TorchProfilerBackend, profile_steps
from ._rank import RankInfo, detect_rank
from ._schedule import CaptureBackend, Phase, Policy, Schedule, Windows, WindowScheduler
from ._snapshot import MemorySnapshotter
from ._system import GpuBackend, GpuTracker, NvmlBackend
from ._tasks import TaskProfiler, profile_task
from ._timer import MyTimer, TimerError
from ._version import __version__ as __version__
from ._writer import FORMAT_VERSION, RunWriter

__all__ = [
    "FORMAT_VERSION",
    "CaptureBackend",
    "CaptureConfig",
    "CaptureConfigError",
    "CaptureController",
    "ClockSkew",
    "CompileMonitor",
    "CudaEventBackend",
    "CudaProfilerBackend",
    "EventBackend",
    "FlopsCounter",
    "GpuBackend",
    "GpuTracker",
    "MemorySampler",
    "MemorySnapshotter",
    "Mirror",
    "ModuleProfiler",
    "MyTimer",
    "NvmlBackend",
    "NvtxLabeler",
    "Phase",
    "Policy",
    "RankInfo",
    "RecordFunctionMirror",
    "RunWriter",
    "Schedule",
    "StepProfiler",
    "TaskProfiler",
    "TimedLoader",
    "TimerError",
    "TorchProfilerBackend",
    "WindowScheduler",
    "Windows",
    "capture_forward",
    "create_capture",
    "create_labeler",
    "detect_rank",
    "load_capture_config",
    "profile_steps",
    "profile_task",
    "sync_clocks",
    "timed_loader",
]
