"""`tb-perf analyze` of a run analysed before answers from its kept answer (analyze_cache.py):
the same output in every format, without importing numpy, pandas, TensorBoard or werkzeug;
a changed file, other arguments or a run still being written compute again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tb_perf_plugin import discovery
from tb_perf_plugin.cli import main
from tests.conftest import REPO

_CHILD = """
import sys
from tb_perf_plugin import discovery
from tb_perf_plugin.cli import main
code = main(sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.startswith(("numpy", "pandas", "tensorboard",
                                                       "werkzeug", "tb_perf_plugin.store")))
print("EXIT", code, "HEAVY", heavy, file=sys.stderr)
"""


@pytest.fixture
def run_dir(tmp_path):
    """A copy of a demo run, its files' times kept (so it is not a run still being written)."""
    return shutil.copytree(REPO / "sample_runs" / "ddp_traced", tmp_path / "ddp_traced")


def _child(*args: str, env: dict[str, str] | None = None) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *args], capture_output=True, text=True, check=True,
        cwd=os.getcwd(), timeout=300, env={**os.environ, **(env or {})},
    )  # fmt: skip
    return done.stdout, done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("fmt", ["text", "json", "md"])
def test_a_second_analyze_prints_the_same_without_the_analysis_imports(run_dir, capsys, fmt):
    assert main(["analyze", str(run_dir), "--format", fmt]) == 0
    first = capsys.readouterr().out
    out, status = _child("analyze", str(run_dir), "--format", fmt)
    assert out == first
    assert status == "EXIT 0 HEAVY []"


def test_other_arguments_and_a_changed_file_compute_again(run_dir, capsys):
    assert main(["analyze", str(run_dir), "--format", "json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    out, status = _child("analyze", str(run_dir), "--format", "json", "--rank", "1")
    assert "tb_perf_plugin.store" in status  # another rank: not the kept answer
    assert json.loads(out)["rank"] == 1 and whole["rank"] is None

    _, status = _child(
        "analyze", str(run_dir), "--format", "json", env={"TB_PERF_MAX_FILE_MB": "1000"}
    )  # fmt: skip  (may read other files)
    assert "tb_perf_plugin.store" in status

    timer = next(run_dir.rglob("*.timer.jsonl"))
    os.utime(timer, ns=(1, 1))  # another version of the run
    out, status = _child("analyze", str(run_dir), "--format", "json")
    assert "tb_perf_plugin.store" in status
    assert json.loads(out)["steps"] == whole["steps"]


def test_a_run_still_being_written_is_not_kept(run_dir, capsys, monkeypatch):
    """Its files count as being written for an hour here (whatever the machine's speed); the
    child, with the usual window, finds nothing kept and computes."""
    monkeypatch.setattr(discovery, "IN_PROGRESS_NS", 3600 * 10**9)
    for path in run_dir.rglob("*"):
        os.utime(path)
    assert main(["analyze", str(run_dir)]) == 0
    first = capsys.readouterr().out
    out, status = _child("analyze", str(run_dir))
    assert out == first and "tb_perf_plugin.store" in status


def test_errors_are_the_same_on_the_quick_path(tmp_path, capsys):
    (tmp_path / "two" / "a").mkdir(parents=True)
    for name in ("a", "b"):
        shutil.copytree(REPO / "sample_runs" / "ddp_traced", tmp_path / "two" / name,
                        dirs_exist_ok=True)  # fmt: skip
    assert main(["analyze", str(tmp_path / "two")]) == 2
    assert "holds 2 runs" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "missing")]) == 2
    assert "is not a directory" in capsys.readouterr().err
