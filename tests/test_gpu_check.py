"""benchmarks/gpu_check.py where there is no GPU: it says so and exits 0, everything it imports
exists here, and the helpers its GPU verdicts rest on give the right answers on the CPU."""

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "benchmarks" / "gpu_check.py"


SOURCES = [SCRIPT, *sorted((SCRIPT.parent / "gpu_checks").glob("*.py"))]  # its checks too


@pytest.fixture(scope="module")
def gpu_checks():
    """The script's package of checks, imported from where the script finds it."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        yield SimpleNamespace(
            common=importlib.import_module("gpu_checks.common"),
            timers=importlib.import_module("gpu_checks.timers"),
            flops=importlib.import_module("gpu_checks.flops"),
        )
    finally:
        sys.path.remove(str(SCRIPT.parent))


def test_without_a_gpu_it_checks_nothing_and_exits_0(tmp_path):
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}  # no GPU, even on a machine with one
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "out")],
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "no GPU: nothing checked\n"
    assert "Error" not in done.stderr and "Traceback" not in done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["gpu"] is False and report["counts"] == {"skipped": len(report["checks"])}
    assert len(report["checks"]) == 8


def _imports(tree: ast.AST) -> list[tuple[str, list[str]]]:
    """(module, names imported from it) of every absolute import in a file, inside functions
    too (the checks' relative imports of each other are exercised by importing them)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module != "__future__":
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def _has(module: ModuleType, name: str) -> bool:
    """What `from module import name` finds: an attribute, or a submodule not imported yet
    (`from tb_perf_plugin import views` must not depend on what imported views before)."""
    if hasattr(module, name):
        return True
    try:
        importlib.import_module(f"{module.__name__}.{name}")
    except ModuleNotFoundError:
        return False
    return True


def test_everything_it_imports_exists_here():
    """Also the imports of the GPU checks, which the no-GPU run never reaches: a renamed
    collector or plugin function must fail here, not on the GPU machine."""
    sys.path[:0] = [str(REPO), str(SCRIPT.parent)]
    try:
        for source in SOURCES:
            for module, names in _imports(ast.parse(source.read_text())):
                loaded = importlib.import_module(module)
                missing = [n for n in names if not _has(loaded, n)]
                assert not missing, f"{source.name}: {module} has no {missing}"
    finally:
        sys.path.remove(str(REPO))
        sys.path.remove(str(SCRIPT.parent))


def test_sync_calls_are_counted_per_step_range(gpu_checks):
    def event(name, cat, ts, dur=1.0):
        return {"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur}

    events = [
        event("gpu_check_step#0", "user_annotation", 0, 10),
        event("gpu_check_step#1", "user_annotation", 20, 10),
        event("cudaStreamSynchronize", "cuda_runtime", 1),
        event("cudaLaunchKernel_v7000", "cuda_runtime", 2),
        event("cudaEventSynchronize", "cuda_runtime", 25),
        event("cudaDeviceSynchronize", "cuda_runtime", 15),  # between steps: not counted
    ]
    timers = gpu_checks.timers
    steps = timers.runtime_calls_per_step(events, timers.STEP_RANGE)
    assert [timers.sync_calls(c) for c in steps] == [1, 1]
    assert steps[0]["cudaLaunchKernel"] == 1


def test_the_expected_flops_are_what_flops_counter_counts(gpu_checks, tmp_path, monkeypatch):
    """The flops check fails on a GPU when these differ: they must agree where it is run
    (smaller layers here: the formula does not depend on the sizes)."""
    import torch

    check = gpu_checks.flops
    monkeypatch.setattr(check, "FLOPS_WIDTH", 128)
    monkeypatch.setattr(check, "FLOPS_BATCH", 32)
    check.count_flops(tmp_path / "run", torch.device("cpu"))
    flops = gpu_checks.common.read_metadata(tmp_path / "run")["flops"]
    width, depth, batch = check.FLOPS_WIDTH, check.FLOPS_DEPTH, check.FLOPS_BATCH
    assert flops["per_step"] == check.expected_mlp_flops(width, depth, batch)
