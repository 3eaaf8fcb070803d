"""In-process collectors that write tb-perf run artifacts (run format v1, docs/FORMAT.md).

Import cost is kept to the standard library: torch is imported only by the parts that use it.
"""

from ._clock import ClockSkew, sync_clocks
from ._gpu_events import CudaEventBackend, EventBackend
from ._mirror import Mirror, RecordFunctionMirror
from ._rank import RankInfo, detect_rank
from ._timer import MyTimer, TimerError
from ._writer import FORMAT_VERSION, RunWriter

__all__ = [
    "FORMAT_VERSION",
    "ClockSkew",
    "CudaEventBackend",
    "EventBackend",
    "Mirror",
    "MyTimer",
    "RankInfo",
    "RecordFunctionMirror",
    "RunWriter",
    "TimerError",
    "detect_rank",
    "sync_clocks",
]
