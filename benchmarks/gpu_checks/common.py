"""What every check shares: its verdict and the report section it becomes, the context
(where it writes, the device, the time left), the small training loop the checks run and
the readers of the records they write.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from collectors import MyTimer

REPO = Path(__file__).resolve().parents[2]
LIMIT_S = 450.0  # the whole run; the brief allows 8 minutes
MIN_START_S = 40.0  # a check needs at least this much of LIMIT_S left to start
MiB = 1 << 20
GiB = 1 << 30
MAX_READ_BYTES = 4 * GiB  # what the plugin's readers may read of a file here


# --- results ----------------------------------------------------------------------------------


@dataclass
class Verdict:
    """What one check found: pass / fail / skipped, why, and the numbers behind it."""

    status: str
    reason: str
    measured: dict[str, Any] = field(default_factory=dict)


@dataclass
class CheckResult:
    """One section of the report."""

    title: str
    status: str
    reason: str
    measured: dict[str, Any]
    seconds: float
    error: str | None = None  # the traceback when the check raised


@dataclass
class Context:
    """Where the checks write, which device they use, and how much time is left."""

    out: Path
    device: torch.device
    started: float = field(default_factory=time.monotonic)

    def seconds_left(self) -> float:
        return LIMIT_S - (time.monotonic() - self.started)

    def run_dir(self, check: str) -> Path:
        """The check's run in the logdir OUT_DIR/runs (created by its RunWriter)."""
        return self.out / "runs" / check

    def scratch(self, check: str) -> Path:
        """The check's other files (traces, the nsys report): beside the logdir, not in it."""
        path = self.out / "artifacts" / check
        path.mkdir(parents=True, exist_ok=True)
        return path


@dataclass(frozen=True)
class Check:
    name: str
    title: str
    run: Callable[[Context], Verdict]


def verdict(problems: list[str], passed: str, measured: dict[str, Any]) -> Verdict:
    """Fail with every problem found, else pass."""
    if problems:
        return Verdict("fail", "; ".join(problems), measured)
    return Verdict("pass", passed, measured)


# --- shared workload and readers --------------------------------------------------------------


def mlp(width: int, depth: int, device: torch.device) -> torch.nn.Sequential:
    """`depth` square Linear layers with ReLUs between: kernels of known shape and FLOPs."""
    layers: list[torch.nn.Module] = []
    for i in range(depth):
        if i:
            layers.append(torch.nn.ReLU())
        layers.append(torch.nn.Linear(width, width))
    return torch.nn.Sequential(*layers).to(device)


def span(timer: MyTimer | None, name: str) -> contextlib.AbstractContextManager:
    return timer.range(name) if timer is not None else contextlib.nullcontext()


def train_step(
    model: torch.nn.Module, optimizer: torch.optim.Optimizer, x: torch.Tensor, timer: MyTimer | None
) -> None:
    """One training step that synchronises with the device nowhere itself (no `.item()`), so
    any synchronisation a trace shows comes from what runs around it."""
    with span(timer, "forward"):
        loss = model(x).square().mean()
    with span(timer, "backward"):
        loss.backward()
    with span(timer, "optimizer"):
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


def read_records(run_dir: Path, kind: str) -> list[dict[str, Any]]:
    """Every record of the run's `<prefix>.<kind>.jsonl` files (docs/FORMAT.md), headers out."""
    records = []
    for path in sorted((run_dir / "plugins" / "tb_perf").glob(f"*.{kind}.jsonl")):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            if "k" in record:
                records.append(record)
    return records


def read_metadata(run_dir: Path) -> dict[str, Any]:
    (path,) = (run_dir / "plugins" / "tb_perf").glob("*.meta.json")
    return json.loads(path.read_text())


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(q / 100 * len(ordered)) - 1))]


def run_name(service: Any) -> str:
    """The name RunStore gives the run it was pointed at ('.' when the logdir is the run)."""
    names = sorted(service.discover())
    return "." if "." in names else names[0]


def keep_gpu_busy(device: torch.device, seconds: float) -> int:
    """Large matmuls for `seconds` (waited for each time, so it ends on time); how many ran."""
    a = torch.randn(8192, 8192, device=device)
    end, done = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        torch.mm(a, a)
        torch.cuda.synchronize(device)
        done += 1
    return done
