"""NVTX ranges (MyTimer's mirror, a labeler range) in an Nsight Systems export, read
with sqlite3 and by the plugin's nsys ingest (`nvtx_nsys`).
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from .common import MAX_READ_BYTES, REPO, Context, Verdict, verdict

# --- 7. NVTX ranges under Nsight Systems -------------------------------------------------------

NVTX_NAMES = ("gpu_check_span", "gpu_check_range")  # MyTimer's mirror, a labeler range
NSYS_MAX_S = 240.0
NSYS_CHILD = """\
import sys

sys.path.insert(0, {repo!r})
import torch

from collectors import MyTimer, create_labeler

labeler = create_labeler()
timer = MyTimer(sys.argv[1], mirrors=("nvtx",))
x = torch.randn(1024, 1024, device="cuda")
timer.set_step(0)
for _ in range(3):
    with timer.range({span!r}):
        with labeler.range({labeled!r}):
            torch.mm(x, x)
    timer.step()
torch.cuda.synchronize()
timer.close()
print(labeler.backend)
"""


def sqlite_nvtx_names(path: Path) -> set[str]:
    """NVTX range names in an Nsight Systems SQLite export, read with sqlite3 alone (names are
    `text`, or a `textId` into StringIds for registered strings)."""
    with contextlib.closing(sqlite3.connect(str(path))) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "NVTX_EVENTS" not in tables:
            return set()
        columns = {row[1] for row in db.execute("PRAGMA table_info(NVTX_EVENTS)")}
        if "textId" in columns and "StringIds" in tables:
            query = (
                "SELECT COALESCE(e.text, s.value) FROM NVTX_EVENTS e "
                "LEFT JOIN StringIds s ON s.id = e.textId"
            )
        else:
            query = "SELECT text FROM NVTX_EVENTS"
        return {row[0] for row in db.execute(query) if row[0]}


def plugin_nvtx_names(path: Path) -> set[str]:
    """The USER_ANNOTATION slice names the plugin's nsys ingest makes of the export."""
    from tb_perf_plugin.ingest.nsys import read_nsys_sqlite
    from tb_perf_plugin.ingest.tables import Kind

    tables = read_nsys_sqlite(str(path), MAX_READ_BYTES)
    kinds, names = tables.slices["kind"].tolist(), tables.slices["name"].tolist()
    return {tables.names[n] for k, n in zip(kinds, names, strict=True) if k == Kind.USER_ANNOTATION}


def nsys_export(nsys: str, scratch: Path, run_dir: Path, timeout: float) -> tuple[Path, str]:
    """Run the child under `nsys profile` with an SQLite export; the export and the child's
    output (its labeler backend)."""
    child = scratch / "nvtx_child.py"
    child.write_text(NSYS_CHILD.format(repo=str(REPO), span=NVTX_NAMES[0], labeled=NVTX_NAMES[1]))
    base = scratch / "nvtx"
    command = [
        nsys, "profile", "--trace=cuda,nvtx", "--sample=none", "--cpuctxsw=none",
        "--force-overwrite=true", "--export=sqlite", "--output", str(base),
        sys.executable, str(child), str(run_dir),
    ]  # fmt: skip
    began = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    if done.returncode != 0:
        raise RuntimeError(f"nsys profile exited {done.returncode}: {done.stderr[-1000:]}")
    export = base.with_suffix(".sqlite")
    report = base.with_suffix(".nsys-rep")
    if not export.exists() and report.exists():  # an nsys that did not export as asked
        left = max(timeout - (time.monotonic() - began), 10.0)
        subprocess.run(
            [nsys, "export", "--type=sqlite", f"--output={export}", str(report)],
            capture_output=True, text=True, timeout=left, check=True,
        )  # fmt: skip
    return export, done.stdout


def check_nvtx_nsys(ctx: Context) -> Verdict:
    nsys = shutil.which("nsys")
    if nsys is None:
        return Verdict("skipped", "nsys (Nsight Systems) is not on PATH")
    timeout = min(NSYS_MAX_S, ctx.seconds_left() - 20)
    export, output = nsys_export(nsys, ctx.scratch("nvtx_nsys"), ctx.run_dir("nvtx_nsys"), timeout)
    version = subprocess.run([nsys, "--version"], capture_output=True, text=True, timeout=30)
    in_sqlite, in_plugin = sqlite_nvtx_names(export), plugin_nvtx_names(export)
    measured = {
        "nsys": version.stdout.strip(),
        "labeler_backend": output.strip().splitlines()[-1] if output.strip() else None,
        "export": str(export),
        "expected": list(NVTX_NAMES),
        "in_sqlite": sorted(in_sqlite)[:20],
        "in_plugin": sorted(in_plugin)[:20],
    }
    problems = []
    if missing := [n for n in NVTX_NAMES if n not in in_sqlite]:
        problems.append(f"not in the export's NVTX_EVENTS: {missing}")
    if missing := [n for n in NVTX_NAMES if n not in in_plugin]:
        problems.append(f"not among the plugin's annotations of the export: {missing}")
    passed = f"{', '.join(NVTX_NAMES)} in the export and in the plugin's reading of it"
    return verdict(problems, passed, measured)
