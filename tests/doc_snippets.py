"""The doc test's machinery (tests/test_doc_snippets.py): find the Python blocks of README.md
and docs/*.md, give them the user's side of a training script, and run them.

A block is a fragment of the user's script: it uses `model`, `loader`, `opt`, ... without making
them. `context()` makes those, small and deterministic, on the CPU; the block then runs as
written, in them. The collectors' objects (`MyTimer`, ...) are never made for a block: setting
them up is what the docs teach, so each block does it itself.

Run as `python -m tests.doc_snippets JOBS.json RESULTS.json`, this module is the runner. It
imports torch once and forks one process per rank of each run from there (a fresh interpreter
per run would import torch 72 times, over a minute of the 2 cores), sets the launcher's
environment in it as torchrun would, runs the context and the block, then exits the way the
interpreter does (non-daemon threads joined, atexit handlers run: the collectors close their
files there). A rank that outlives its timeout is killed; when one rank fails, the others are
stopped after a grace period, as torchrun stops them.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import signal
import socket
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PYTHON_INFO = frozenset({"python", "py", "python3"})
MARK = re.compile(r"^\*Not run by the doc test: (?P<reason>.+)\.\*$")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# A collectors switch is a variable read through collectors/_env.py's helpers.
_SWITCH = re.compile(r"""\b(?:env_enabled|switched_off)\(\s*["'](ENABLE_[A-Z0-9_]+)["']""")
# Launcher variables of every launcher detect_rank knows, the collectors' knobs and the
# frameworks' defaults: a run sees only those its mode sets, whatever pytest was started in.
_LAUNCHER_PREFIXES = ("SLURM_", "OMPI_", "PMI_", "PMIX_", "TORCHELASTIC_", "GROUP_", "ROLE_")
_LAUNCHER_NAMES = frozenset(
    {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}
    | {"MPI_LOCALRANKID", "TB_PERF_ROLE", "TB_PERF_CLOCK_SKEW"}
)
_KNOB_PREFIXES = ("ENABLE_", "PROFILE_TASK_", "PL_TRAINER_", "ACCELERATE_")
GRACE_S = 5.0  # after one rank fails, how long the others may go on (to print their own error)
POLL_S = 0.02


@dataclass(frozen=True)
class Block:
    """One fenced Python block: where it is, its code, and its mark's reason if it has one."""

    doc: str  # path relative to the repository, e.g. "docs/COMPUTE.md"
    line: int  # the opening fence's line, 1-based
    code: str
    skip: str | None = None

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def doc_files(repo: Path = REPO) -> list[Path]:
    """README.md and every docs/*.md: the documentation a user reads."""
    return [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]


def parse_blocks(text: str, doc: str) -> list[Block]:
    """The Python-fenced blocks of one Markdown text (CommonMark fences, indented ones too).

    A block is marked when the line right before its fence, blank lines ignored, is
    `*Not run by the doc test: <reason>.*`.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        fence, indent = opening["fence"], len(opening["indent"])
        info = opening["info"].strip()
        if fence[0] == "`" and "`" in info:  # an inline code span, not a fence
            i += 1
            continue
        end = i + 1
        while end < len(lines):
            closing = _FENCE.match(lines[end])
            if (
                closing is not None
                and closing["fence"][0] == fence[0]
                and len(closing["fence"]) >= len(fence)
                and not closing["info"].strip()
            ):
                break
            end += 1
        words = info.split()
        if words and words[0].lower() in PYTHON_INFO:
            # a fence indented in a list item: its lines lose that indentation
            body = [
                x[indent:] if not x[:indent].strip() else x.lstrip() for x in lines[i + 1 : end]
            ]
            before = next((line.strip() for line in reversed(lines[:i]) if line.strip()), "")
            mark = MARK.match(before)
            code = "\n".join(body) + "\n"
            blocks.append(Block(doc, i + 1, code, mark["reason"] if mark else None))
        i = end + 1
    return blocks


def find_blocks(repo: Path = REPO) -> list[Block]:
    """Every Python block of the docs, read from the files now."""
    blocks: list[Block] = []
    for path in doc_files(repo):
        blocks += parse_blocks(path.read_text(encoding="utf-8"), path.relative_to(repo).as_posix())
    return blocks


def stray_marks(repo: Path = REPO) -> list[str]:
    """`doc:line` of each mark that no Python fence follows: a mark left behind by an edit."""
    stray = []
    for path in doc_files(repo):
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if MARK.match(line.strip()):
                following = next((x.strip() for x in lines[n + 1 :] if x.strip()), "")
                opening = _FENCE.match(following)
                info = opening["info"].split() if opening else []
                if not info or info[0].lower() not in PYTHON_INFO:
                    stray.append(f"{path.relative_to(repo).as_posix()}:{n + 1}")
    return stray


def switches(repo: Path = REPO) -> list[str]:
    """Every `ENABLE_*` switch the collectors read (through collectors/_env.py), so a new one is
    turned off by the doc test's "off" mode without editing the test."""
    names: set[str] = set()
    for path in sorted((repo / "collectors").rglob("*.py")):
        names.update(_SWITCH.findall(path.read_text(encoding="utf-8")))
    return sorted(names)


FRAMEWORKS = {
    "lightning": r"^\s*(?:from|import)\s+(?:lightning|pytorch_lightning)\b",
    "accelerate": r"^\s*(?:from|import)\s+accelerate\b",
}


def framework(block: Block) -> str | None:
    """The training framework a block sets up itself ("lightning", "accelerate"), if any: it
    starts torch.distributed and wraps the model, so the context must not."""
    for name, pattern in FRAMEWORKS.items():
        if re.search(pattern, block.code, re.MULTILINE):
            return name
    return None


def run_env(base: dict[str, str], off: bool, repo: Path = REPO) -> dict[str, str]:
    """The environment of a run: `base` without launcher variables and collectors knobs, with
    every switch `=0` when `off`. CUDA is hidden: the doc test runs on the CPU everywhere."""
    env = {
        k: v
        for k, v in base.items()
        if k not in _LAUNCHER_NAMES and not k.startswith(_LAUNCHER_PREFIXES + _KNOB_PREFIXES)
    }
    if off:
        env.update(dict.fromkeys(switches(repo), "0"))
    env.update(CUDA_VISIBLE_DEVICES="", OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), env.get("PYTHONPATH")]))
    return env


def torchrun_env(rank: int, world_size: int, port: int) -> dict[str, str]:
    """What torchrun sets for one of `world_size` workers on one node."""
    return {
        "RANK": str(rank),
        "LOCAL_RANK": str(rank),
        "WORLD_SIZE": str(world_size),
        "LOCAL_WORLD_SIZE": str(world_size),
        "GROUP_RANK": "0",
        "GROUP_WORLD_SIZE": "1",
        "ROLE_RANK": str(rank),
        "ROLE_WORLD_SIZE": str(world_size),
        "ROLE_NAME": "default",
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": str(port),
        "TORCHELASTIC_RUN_ID": "doc-test",
        "TORCHELASTIC_RESTART_COUNT": "0",
        "TORCHELASTIC_MAX_RESTARTS": "0",
    }


def free_port() -> int:
    """A TCP port nothing listens on now, for one run's rendezvous."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the context: the user's side of the script -------------------------------------------------

SEED = 0
SAMPLES, BATCH = 32, 8  # 4 batches in one process, 2 per rank of 2


def context(block: Block) -> dict[str, Any]:
    """The names a block may use without making them, as a user's script would have them.

    - `torch`; `device`: `cuda` when available, else `cpu` (the doc test hides CUDA).
    - `model`: a seeded 4-8-1 MLP on `device`. As one of 2 ranks it is wrapped in DDP, after
      `init_process_group("gloo")` as a torchrun script does, unless the block's framework
      (Lightning, Accelerate) does that itself; in a Lightning block, a LightningModule around
      the same MLP.
    - `loss_fn`: `mse_loss`; `opt` and `optimizer`: one SGD of `model` (the docs use both).
    - `loader`, `train_loader`, `val_loader`: 32 fixed `(x, y)` samples in batches of 8,
      unshuffled, split between the ranks; `train()`: one epoch of the usual loop over `loader`.
    - `epochs` 2, `run_dir` `runs/exp1`.
    - `prompts`, `text_encoder`, `dit`, `vae`, `latents`, `timesteps`: a tiny text-to-image
      pipeline (docs/CAPTURE.md).

    The frameworks get what their launchers would set to use the ranks on the CPU: for 2 ranks
    Lightning's Trainer `PL_TRAINER_DEVICES=2` (its documented environment defaults; its CPU
    default is one device: two independent runs), Accelerate `ACCELERATE_USE_CPU=true` (as
    `accelerate launch --cpu` sets; without it each process runs alone as rank 0).

    torch.compile compiles with `backend="eager"` here, as the project's tests do: inductor's
    default builds C++ for seconds to a minute in every process. The cwd gets `capture.toml`,
    the configuration docs/CAPTURE.md shows (its copy in tests/fixtures/capture).
    """
    import functools

    import torch
    from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

    torch.manual_seed(SEED)
    torch.compile = functools.partial(torch.compile, backend="eager")  # type: ignore[assignment]
    fixture = REPO / "tests" / "fixtures" / "capture" / "pipeline.toml"
    Path("capture.toml").write_text(fixture.read_text(encoding="utf-8"), encoding="utf-8")

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
    net = net.to(device)
    data = TensorDataset(torch.randn(SAMPLES, 4), torch.randn(SAMPLES, 1))
    world_size = int(os.environ.get("WORLD_SIZE", "1"))
    kind = framework(block)
    model: torch.nn.Module = net
    sampler = None
    if world_size > 1 and kind is None:
        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel

        dist.init_process_group("gloo")
        atexit.register(dist.destroy_process_group)  # registered first: runs last
        model = DistributedDataParallel(net)
        sampler = DistributedSampler(data, shuffle=False)
    loader = DataLoader(data, batch_size=BATCH, sampler=sampler)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = torch.nn.functional.mse_loss

    def train() -> None:
        for x, y in loader:
            loss_fn(model(x.to(device)), y.to(device)).backward()
            optimizer.step()
            optimizer.zero_grad()

    if kind == "lightning":
        model = _lightning_module(net, loss_fn)
        if world_size > 1:  # the Trainer's own environment defaults: one DDP run over the ranks
            os.environ.update(
                PL_TRAINER_ACCELERATOR=device.type, PL_TRAINER_DEVICES=str(world_size)
            )
    if kind == "accelerate" and device.type == "cpu":
        os.environ["ACCELERATE_USE_CPU"] = "true"  # as `accelerate launch --cpu` sets it

    class Denoiser(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.proj = torch.nn.Linear(4, 4)

        @torch.no_grad()
        def forward(self, latents: Any, t: int, context: Any = None) -> Any:
            shift = 0.0 if context is None else context.mean()
            return latents - 0.1 * (self.proj(latents) + shift + t)

    class Vae(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.up = torch.nn.Linear(4, 12)

        @torch.no_grad()
        def decode(self, latents: Any) -> Any:
            return self.up(latents).reshape(-1, 3, 2, 2)

    embed = torch.nn.Embedding(128, 4).requires_grad_(False)

    def text_encoder(prompt: str) -> Any:
        return embed(torch.tensor([min(ord(c), 127) for c in prompt])).mean(0, keepdim=True)

    return {
        "__name__": "__main__",
        "torch": torch,
        "device": device,
        "model": model,
        "loss_fn": loss_fn,
        "opt": optimizer,
        "optimizer": optimizer,
        "loader": loader,
        "train_loader": loader,
        "val_loader": DataLoader(data, batch_size=BATCH),
        "train": train,
        "epochs": 2,
        "run_dir": "runs/exp1",
        "prompts": ["a red cube", "a blue sphere"],
        "text_encoder": text_encoder,
        "dit": Denoiser().to(device),
        "vae": Vae().to(device),
        "latents": torch.randn(2, 4, device=device),
        "timesteps": range(3, 0, -1),
    }


def _lightning_module(net: Any, loss_fn: Any) -> Any:
    """`net` as the LightningModule a Lightning user would hand `Trainer.fit`."""
    import lightning.pytorch as pl
    import torch

    class Net(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: Any) -> Any:
            return self.net(x)

        def training_step(self, batch: Any, batch_idx: int) -> Any:
            x, y = batch
            return loss_fn(self(x), y)

        def validation_step(self, batch: Any, batch_idx: int) -> None:
            x, y = batch
            self.log("val_loss", loss_fn(self(x), y))

        def configure_optimizers(self) -> Any:
            return torch.optim.SGD(self.parameters(), lr=0.1)

    return Net()


def digest(names: dict[str, Any]) -> dict[str, Any]:
    """What the block computed: a SHA-256 of every tensor and module (parameters, buffers and
    gradients) among its top-level names, bit for bit, and which names went into it."""
    import torch

    h = hashlib.sha256()
    used = []

    def add(label: str, tensor: Any) -> None:
        t = tensor.detach().cpu().contiguous().reshape(-1)
        h.update(f"{label}:{t.dtype}:{t.numel()};".encode())
        h.update(t.view(torch.uint8).numpy().tobytes())

    for name in sorted(names):
        value = names[name]
        if isinstance(value, torch.Tensor):
            add(name, value)
        elif isinstance(value, torch.nn.Module):
            for key, tensor in sorted(value.state_dict(keep_vars=True).items()):
                add(f"{name}.{key}", tensor)
                if getattr(tensor, "grad", None) is not None:
                    add(f"{name}.{key}.grad", tensor.grad)
        else:
            continue
        used.append(name)
    return {"sha256": h.hexdigest(), "names": used}


# --- the runner ---------------------------------------------------------------------------------


def job_block(job: dict[str, Any]) -> Block:
    """The block a job names (`doc`, relative to the repository or absolute, and `line`), read
    from the file when the job starts."""
    path = Path(job["doc"]) if Path(job["doc"]).is_absolute() else REPO / job["doc"]
    for block in parse_blocks(path.read_text(encoding="utf-8"), job["doc"]):
        if block.line == job["line"]:
            return block
    raise LookupError(f"{job['doc']}:{job['line']}: no Python block opens on that line")


def _interpreter_exit(rc: int) -> int:
    """Finish a forked rank as the interpreter finishes a script, then flush: the collectors'
    at-exit closing is part of what a block relies on ("also done at exit")."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # joins non-daemon threads
    except Exception:  # noqa: BLE001 - a failing thread join must not hide the block's result
        traceback.print_exc()
        rc = rc or 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            pass
    return rc


def _rank_main(block: Block, job: dict[str, Any], rank: int) -> int:
    """One rank of one run, in the forked child: its own process group, cwd, output files and
    environment; the context, the block, and its digest."""
    os.setpgrp()
    workdir = Path(job["dir"])
    os.chdir(workdir)
    for fd, name in ((1, f"rank{rank}.stdout"), (2, f"rank{rank}.stderr")):
        target = os.open(workdir / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    os.environ.clear()
    os.environ.update(job["env"])
    if job["nprocs"] > 1:
        os.environ.update(torchrun_env(rank, job["nprocs"], job["port"]))
    path = str(REPO / block.doc)  # REPO / an absolute path is that path
    sys.argv = [path]
    rc = 0
    try:
        # Line numbers as in the doc, so a traceback shows the doc's own line.
        code = compile("\n" * block.line + block.code, path, "exec")
        names = context(block)
        exec(code, names)
        (workdir / f"rank{rank}.result.json").write_text(json.dumps(digest(names)))
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - the block's error is the result
        traceback.print_exc()
        rc = 1
    return _interpreter_exit(rc)


def _fork_rank(block: Block, job: dict[str, Any], rank: int) -> int:
    """Start one rank; its pid. The child never returns into the runner's loop."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        rc = 70
        try:
            rc = _rank_main(block, job, rank)
        finally:
            os._exit(rc)
    return pid


def _kill(pid: int) -> None:
    """A rank and what it started (its process group; the rank itself too, should it not have
    made its group yet)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@dataclass
class _Running:
    """A run whose ranks are not all done: who is left, and since when one failed."""

    job: dict[str, Any]
    pids: dict[int, int]  # pid -> rank
    started: float
    ranks: dict[int, dict[str, Any]]
    failed_at: float | None = None


def run_jobs(jobs: list[dict[str, Any]], slots: int) -> dict[str, Any]:
    """Run every job, at most `slots` processes at once (a run of 2 ranks takes 2)."""
    queue = sorted(jobs, key=lambda j: -j.get("weight", 1))
    running: list[_Running] = []
    results: dict[str, Any] = {}
    while queue or running:
        busy = sum(len(r.pids) for r in running)
        while queue and (busy + queue[0]["nprocs"] <= slots or not running):
            job = queue.pop(0)
            job["port"] = free_port()
            block = job_block(job)
            Path(job["dir"]).mkdir(parents=True, exist_ok=True)
            pids = {_fork_rank(block, job, rank): rank for rank in range(job["nprocs"])}
            running.append(_Running(job, pids, time.monotonic(), {}))
            busy += job["nprocs"]
        time.sleep(POLL_S)
        now = time.monotonic()
        for run in list(running):
            for pid, rank in list(run.pids.items()):
                done, status = os.waitpid(pid, os.WNOHANG)
                if done == 0:
                    continue
                rc = os.waitstatus_to_exitcode(status)
                run.ranks[rank] = {"rc": rc, "wall_s": round(now - run.started, 2)}
                del run.pids[pid]
                if rc != 0 and run.failed_at is None:
                    run.failed_at = now
            overdue = now - run.started > run.job["timeout_s"]
            grace = run.job.get("grace_s", GRACE_S)
            stopped = run.failed_at is not None and now - run.failed_at > grace
            if run.pids and (overdue or stopped):
                why = (
                    f"killed after {run.job['timeout_s']} s (the run's timeout)"
                    if overdue
                    else f"stopped {grace:g} s after another rank failed (as torchrun does)"
                )
                for pid, rank in run.pids.items():
                    _kill(pid)
                    os.waitpid(pid, 0)
                    run.ranks[rank] = {
                        "rc": -9,
                        "killed": why,
                        "wall_s": round(now - run.started, 2),
                    }
                run.pids.clear()
            if not run.pids:
                running.remove(run)
                results[run.job["key"]] = {
                    "ranks": [run.ranks[r] for r in sorted(run.ranks)],
                    "wall_s": round(now - run.started, 2),
                }
    return results


def main(argv: list[str]) -> int:
    """`JOBS.json RESULTS.json [SLOTS]`: run the jobs, write what each rank did."""
    jobs = json.loads(Path(argv[0]).read_text())
    # Twice the cores: a rank waits now and then (rendezvous, files), the others use the time.
    slots = int(argv[2]) if len(argv) > 2 else 2 * (os.cpu_count() or 1)
    # Loaded once here, shared by every forked rank; no thread, CUDA or process group yet.
    # torch._dynamo: every optimizer's constructor imports it (1.5-3 s).
    import torch  # noqa: F401
    import torch._dynamo  # noqa: F401
    import torch.distributed  # noqa: F401
    import torch.nn.parallel  # noqa: F401
    import torch.utils.data  # noqa: F401

    assert threading.active_count() == 1, "the runner must not fork with threads running"
    results = run_jobs(jobs, slots)
    Path(argv[1]).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
