"""The frontend's pure modules pass their unit tests (frontend/test, node's own test runner)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FRONTEND = Path(__file__).resolve().parents[1] / "frontend"


def test_frontend_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the frontend's unit tests need node 18 or newer")
    if not (FRONTEND / "node_modules" / "esbuild").is_dir():
        pytest.skip("frontend/node_modules is missing: run `npm ci --prefix frontend`")
    result = subprocess.run(
        [node, "test/run.mjs"], cwd=FRONTEND, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, (
        f"`npm test --prefix frontend` failed:\n{result.stdout}{result.stderr}"
    )
