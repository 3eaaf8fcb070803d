"""The committed frontend bundle is exactly what `npm run build` makes from frontend/src."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FRONTEND = REPO / "frontend"
STATIC = REPO / "tb_perf_plugin" / "static"


@pytest.fixture(scope="module")
def node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    if not (FRONTEND / "node_modules").is_dir():
        pytest.skip("frontend/node_modules is missing: run `npm ci --prefix frontend`")
    return node


def run_node(node: str, *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [node, *args], cwd=FRONTEND, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, f"node {' '.join(args)} failed:\n{result.stdout}{result.stderr}"
    return result


def test_committed_bundle_is_a_fresh_build(node, tmp_path):
    run_node(node, "build.mjs", "--outdir", str(tmp_path))
    built = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    committed = {path.name: path.read_bytes() for path in STATIC.iterdir()}
    assert sorted(committed) == sorted(built)
    stale = sorted(name for name in built if built[name] != committed[name])
    assert not stale, f"stale {stale}: rebuild with `npm run build --prefix frontend` and commit"


def test_bundle_exports_render(node):
    result = run_node(
        node,
        "--input-type=module",
        "--eval",
        f"const m = await import({json.dumps((STATIC / 'index.js').as_uri())});"
        " console.log(typeof m.render)",
    )
    assert result.stdout.strip() == "function"


def test_frontend_typechecks(node):
    run_node(node, "node_modules/typescript/bin/tsc", "--noEmit", "-p", ".")
