"""Hand-written ModuleProfiler runs (docs/FORMAT.md, `modules` records) with known numbers."""

from __future__ import annotations

import json
from pathlib import Path

T0 = 1_800_000_000_000_000_000
HEADER = {"schema": "tb_perf.modules", "version": 1}


def module(ident: int, path: str, kind: str, parent: int, params: int) -> dict:
    return {"k": "module", "id": ident, "path": path, "type": kind, "parent": parent,
            "params": params}  # fmt: skip


# Rank 0: a model with an encoder and a head, one plain step, then one block of steps 1..3
# (aggregate_steps=3), device times for step 0 only (the block's are still pending).
RANK0 = [
    module(1, "", "Net", 0, 100),
    module(2, "encoder", "Encoder", 1, 60),
    module(3, "encoder.0", "Linear", 2, 30),
    module(4, "head", "Linear", 1, 40),
    {"k": "calls", "step": 0, "last_step": 0,
     "fwd": [[1, 1, 500, 100, [500]], [2, 1, 300, 200, [300]], [3, 2, 100, 100, [40, 60]],
             [4, 1, 100, 100, [100]], [9, 1, 10, 10, [10]]],  # 9: never declared
     "bwd": [[1, 1, 400, 50, [400]], [2, 1, 250, 150, [250]], [3, 2, 100, 100, [50, 50]]]},
    {"k": "mgpu", "step": 0, "last_step": 0, "fwd": [[1, 450], [2, 280]], "bwd": [[1, 380]]},
    {"k": "future_kind", "anything": 1},  # a newer writer's record: skipped silently
    {"k": "shapes", "id": 3, "inputs": [[8, 16]], "output": [8, 16]},
    {"k": "calls", "step": 1, "last_step": 3,
     "fwd": [[1, 3, 1600, 300, [450, 550, 600]], [2, 3, 900, 600, [300, 300, 300]],
             [3, 6, 300, 300, [50] * 6], [4, 3, 400, 400, [100, 100, 200]]],
     "bwd": [[1, 3, 900, 150, [300, 300, 300]], [2, 3, 750, 450, [250] * 3],
             [3, 6, 300, 300, [50] * 6]]},
]  # fmt: skip
RANK0_MALFORMED = '{"k": "calls", "step": "x"}'
RANK0_PARTIAL = '{"k": "calls", "step": 4, "last_st'
RANK0_STEPS = [1000, 1000, 2000, 2000, 4000]  # steps 0..4; step 4 has no module records

# Rank 1: the same model declared in another order (ids differ), one step, forward only.
RANK1 = [
    module(1, "", "Net", 0, 100),
    module(2, "head", "Linear", 1, 40),
    module(3, "encoder", "Encoder", 1, 60),
    module(4, "encoder.0", "Linear", 3, 30),
    {"k": "calls", "step": 0, "last_step": 0,
     "fwd": [[1, 1, 1000, 200, [1000]], [3, 1, 500, 300, [500]], [4, 1, 200, 200, [200]],
             [2, 1, 300, 300, [300]]], "bwd": []},
]  # fmt: skip
RANK1_STEPS = [2000]

# The `modules` metadata of each rank (docs/FORMAT.md): rank 0 ran with the blocks of 3 steps
# and a CUDA backend its records show; rank 1 forward only, without a GPU, on a compiled model.
COMPILED_NOTE = (
    "the model is torch.compile'd: modules inside it run as compiled graphs that hooks would "
    "break, so only the whole model is timed; profile the eager model (or compile submodules) "
    "to see per-module times"
)
RANK0_SETTINGS = {
    "modules": 4, "max_depth": 2, "include": [], "exclude": ["encoder.1*"], "every_n_steps": 1,
    "aggregate_steps": 3, "flush_every_steps": 10, "backward": True, "gpu": "cuda",
    "compiled": None,
}  # fmt: skip
RANK1_SETTINGS = {
    **RANK0_SETTINGS, "max_depth": None, "exclude": [], "aggregate_steps": 1, "backward": False,
    "gpu": "off (torch.cuda.is_available() is False)", "compiled": COMPILED_NOTE,
}  # fmt: skip


def lines(records: list) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def write_rank(
    run_dir: Path,
    rank: int,
    step_ns: list[int],
    records: list,
    extra: str = "",
    header: dict = HEADER,
    settings: dict | None = None,
) -> Path:
    """meta, timer (step records only) and modules files of one rank; returns the modules file.
    `extra` is appended verbatim (malformed or partial lines); `settings` is the metadata's
    `modules` key (absent without)."""
    plugin = run_dir / "plugins" / "tb_perf"
    plugin.mkdir(parents=True, exist_ok=True)
    prefix = plugin / f"rank{rank}.node{rank}.{100 + rank}"
    meta = {"schema": "tb_perf.meta", "version": 1, "rank": rank, "world_size": 2,
            "host": f"node{rank}", "pid": 100 + rank, "started_unix_ns": T0,
            "closed_unix_ns": T0 + 10**9}  # fmt: skip
    if settings is not None:
        meta["modules"] = settings
    Path(f"{prefix}.meta.json").write_text(json.dumps(meta))
    steps, t = [], T0
    for step, ns in enumerate(step_ns):
        steps.append({"k": "step", "step": step, "t0": t, "t1": t + ns})
        t += ns
    Path(f"{prefix}.timer.jsonl").write_text(
        lines([{"schema": "tb_perf.timer", "version": 1}, *steps])
    )
    path = Path(f"{prefix}.modules.jsonl")
    path.write_text(lines([header, *records]) + extra)
    return path


def write_module_run(run_dir: Path) -> None:
    """Rank 0 with a malformed line and a partial last line, rank 1 plain; both with their
    ModuleProfiler settings in the metadata."""
    extra = RANK0_MALFORMED + "\n" + RANK0_PARTIAL
    write_rank(run_dir, 0, RANK0_STEPS, RANK0, extra, settings=RANK0_SETTINGS)
    write_rank(run_dir, 1, RANK1_STEPS, RANK1, settings=RANK1_SETTINGS)
