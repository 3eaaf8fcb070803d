"""Every Python block of README.md and docs/*.md runs as written: with the collectors' defaults
and with every `ENABLE_*` switch off, in one process and as 2 gloo ranks started as torchrun
starts them, each exiting 0; with every switch off a block computes bit for bit what it computes
with the defaults (the collectors never change training). The blocks are read from the docs at
test time and run in the context of tests/doc_snippets.py (the user's model, data and optimizer);
a block marked `*Not run by the doc test: <reason>.*` on the line before its fence is skipped
with that reason. Runs are forked from one runner that imported torch once, a few at a time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.doc_snippets import (
    REPO,
    Block,
    digest,
    find_blocks,
    framework,
    parse_blocks,
    run_env,
    stray_marks,
    switches,
)

if importlib.util.find_spec("torch") is None:  # found, not imported: the runner imports it
    pytest.skip("the doc blocks train torch models", allow_module_level=True)

RUN_TIMEOUT_S = 60  # one run of one block (all its ranks); a few seconds when all is well
RUNNER_TIMEOUT_S = 240  # the whole runner: a backstop, each run has its own timeout
TAIL_LINES = 30
MODES = (("defaults", 1), ("off", 1), ("defaults", 2), ("off", 2))


@dataclass(frozen=True)
class Case:
    """One block in one mode: which switches, how many ranks."""

    block: Block
    mode: str  # "defaults" or "off"
    nprocs: int

    @property
    def key(self) -> str:
        return (
            f"{self.block.id}-{self.mode}-{'1proc' if self.nprocs == 1 else f'{self.nprocs}ranks'}"
        )

    def twin(self) -> Case:
        """The same block and ranks with the defaults: what an "off" run must compute too."""
        return Case(self.block, "defaults", self.nprocs)

    def weight(self) -> int:
        """A rough cost, so the slow runs start first."""
        slow = 6 if framework(self.block) == "lightning" else 2 if framework(self.block) else 1
        return self.nprocs * slow


BLOCKS = find_blocks()
CASES = [Case(block, mode, n) for block in BLOCKS for mode, n in MODES]


def _job(case: Case, root: Path) -> dict[str, Any]:
    return {
        "key": case.key,
        "doc": case.block.doc,
        "line": case.block.line,
        "nprocs": case.nprocs,
        "env": run_env(dict(os.environ), off=case.mode == "off"),
        "dir": str(root / case.key.replace("/", "_").replace(":", "_")),
        "timeout_s": RUN_TIMEOUT_S,
        "weight": case.weight(),
    }


def run_runner(jobs: list[dict[str, Any]], root: Path) -> dict[str, Any]:
    """Run jobs through the runner (python -m tests.doc_snippets); what each rank did."""
    root.mkdir(parents=True, exist_ok=True)
    jobs_path, results_path = root / "jobs.json", root / "results.json"
    jobs_path.write_text(json.dumps(jobs))
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tests.doc_snippets", str(jobs_path), str(results_path)],
            cwd=REPO,
            env=run_env(dict(os.environ), off=False),
            capture_output=True,
            text=True,
            timeout=RUNNER_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the doc-test runner did not finish in {RUNNER_TIMEOUT_S} s (runs in {root})")
    if proc.returncode != 0:
        pytest.fail(f"the doc-test runner failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(results_path.read_text())


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The runs of the cases this session selected (plus the "defaults" twin of each "off" case),
    all in one runner: each (block, mode) in its own directory, its ranks' cwd."""
    selected = {
        item.callspec.params["case"]
        for item in request.session.items
        if getattr(item, "module", None) is sys.modules[__name__]
        and "case" in getattr(getattr(item, "callspec", None), "params", {})
    }
    wanted = {c for c in selected if c.block.skip is None}
    wanted |= {c.twin() for c in wanted}
    root = tmp_path_factory.mktemp("doc_snippets")
    jobs = [_job(case, root) for case in sorted(wanted, key=lambda c: c.key)]
    results = run_runner(jobs, root) if jobs else {}
    return {"root": root, "jobs": {j["key"]: j for j in jobs}, "results": results}


def _tail(path: Path) -> str:
    if not path.exists():
        return "(no output)"
    lines = path.read_text(errors="replace").splitlines()
    return "\n".join(lines[-TAIL_LINES:]) or "(empty)"


def _failures(job: dict[str, Any], result: dict[str, Any]) -> list[str]:
    """One message per rank that did not exit 0: its exit, and its output's last lines."""
    messages = []
    for rank, outcome in enumerate(result["ranks"]):
        if outcome["rc"] == 0:
            continue
        why = outcome.get("killed") or f"exit {outcome['rc']}"
        directory = Path(job["dir"])
        messages.append(
            f"rank {rank}: {why} after {outcome['wall_s']} s; cwd {directory}\n"
            f"--- stderr (last lines) ---\n{_tail(directory / f'rank{rank}.stderr')}"
        )
    return messages


def _digests(job: dict[str, Any]) -> list[dict[str, Any] | None]:
    paths = [Path(job["dir"]) / f"rank{r}.result.json" for r in range(job["nprocs"])]
    return [json.loads(p.read_text()) if p.exists() else None for p in paths]


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_doc_block_runs(case: Case, outcomes: dict) -> None:
    """The block exits 0 on every rank; switched off, the collectors leave its result unchanged."""
    if case.block.skip is not None:
        pytest.skip(f"{case.block.id}: {case.block.skip}")
    job, result = outcomes["jobs"][case.key], outcomes["results"][case.key]
    failures = _failures(job, result)
    assert not failures, f"{case.key} failed:\n" + "\n".join(failures)
    mine = _digests(job)
    assert None not in mine, f"{case.key}: a rank exited 0 without its result file"
    if case.mode != "off":
        return
    twin_job, twin_result = outcomes["jobs"][case.twin().key], outcomes["results"][case.twin().key]
    if _failures(twin_job, twin_result):
        pytest.fail(f"{case.key}: cannot compare, its defaults run {case.twin().key} failed")
    for rank, (off, on) in enumerate(zip(mine, _digests(twin_job), strict=True)):
        assert off == on, (
            f"{case.key}, rank {rank}: the block's tensors and modules ({off['names']}) differ "
            f"with every switch off from the defaults run: {off['sha256'][:12]} vs "
            f"{on['sha256'][:12] if on else None}"
        )


def test_the_docs_have_python_blocks() -> None:
    """An extraction that finds nothing would pass every run above without running one."""
    assert {b.doc for b in BLOCKS} >= {"README.md", "docs/INTEGRATIONS.md"}
    assert len(BLOCKS) >= 10


def test_no_mark_without_its_block() -> None:
    """A mark an edit separated from its block would silently skip the wrong one, or none."""
    assert stray_marks() == []


def test_every_known_switch_is_turned_off() -> None:
    """The switch list comes from the collectors' code; it must at least hold the documented."""
    found = set(switches())
    assert {"ENABLE_TIMER", "ENABLE_MODULE_PROFILER", "ENABLE_NVTX"} <= found
    assert "ENABLE_MEMORY_SNAPSHOT" in found
    env = run_env({"ENABLE_TIMER": "1", "RANK": "3", "HOME": "/h"}, off=True)
    assert all(env[name] == "0" for name in found)
    assert "RANK" not in env and env["HOME"] == "/h" and env["CUDA_VISIBLE_DEVICES"] == ""
    assert "ENABLE_TIMER" not in run_env({"ENABLE_TIMER": "0"}, off=False)


MARKDOWN = """# Title

```python
a = 1
```

*Not run by the doc test: needs a GPU.*

```py
b = 2
```

- an item:

  ```python
  if a:
      c = 3
  ```

```bash
echo not python
```

````markdown
```python
inside = "an example of Markdown, not a block"
```
````
~~~python
d = 4
~~~
"""


def test_blocks_are_found_with_their_lines_marks_and_indentation() -> None:
    """The extraction the doc runs rest on: fences of either kind, any indentation, marks."""
    blocks = parse_blocks(MARKDOWN, "x.md")
    assert [(b.line, b.code, b.skip) for b in blocks] == [
        (3, "a = 1\n", None),
        (9, "b = 2\n", "needs a GPU"),
        (15, "if a:\n    c = 3\n", None),
        (29, "d = 4\n", None),
    ]


def test_the_runner_reports_a_failing_a_hanging_and_an_abandoned_rank(tmp_path: Path) -> None:
    """A block that raises fails with its traceback at the doc's line; one that hangs is killed
    at its timeout; when one rank fails the other is stopped, as torchrun stops it; a block
    that does not parse fails at its line."""
    doc = tmp_path / "bad.md"
    doc.write_text(
        "```python\nraise ValueError('boom')\n```\n\n"
        "```python\nimport time\ntime.sleep(60)\n```\n\n"
        "```python\nimport os, time\n"
        "if os.environ['RANK'] == '1':\n    raise RuntimeError('rank 1 gives up')\n"
        "time.sleep(60)\n```\n\n"
        "```python\ndef broken(:\n```\n"
    )
    base = {"env": run_env(dict(os.environ), off=False), "weight": 1}
    jobs = [
        {**base, "key": "raise", "line": 1, "nprocs": 1, "timeout_s": 30},
        {**base, "key": "hang", "line": 5, "nprocs": 1, "timeout_s": 1},
        {**base, "key": "abandon", "line": 10, "nprocs": 2, "timeout_s": 30, "grace_s": 0.5},
        {**base, "key": "syntax", "line": 17, "nprocs": 1, "timeout_s": 30},
    ]
    for job in jobs:
        job.update(doc=str(doc), dir=str(tmp_path / job["key"]))
    results = run_runner(jobs, tmp_path / "runner")
    (raised,) = _failures(jobs[0], results["raise"])
    assert "exit 1" in raised and f'File "{doc}", line 2' in raised and "boom" in raised
    (hung,) = _failures(jobs[1], results["hang"])
    assert "killed after 1 s" in hung
    stopped, gave_up = _failures(jobs[2], results["abandon"])
    assert "stopped 0.5 s after another rank failed" in stopped
    assert "rank 1: exit 1" in gave_up and "rank 1 gives up" in gave_up
    (unparsable,) = _failures(jobs[3], results["syntax"])
    assert f'File "{doc}", line 18' in unparsable and "SyntaxError" in unparsable


def test_the_result_digest_sees_one_bit_of_a_parameter_or_a_gradient() -> None:
    """The "off" runs are compared bit for bit: a digest blind to small changes would pass."""
    torch = pytest.importorskip("torch")
    net = torch.nn.Linear(2, 1)
    names = {"model": net, "loss": torch.tensor(1.0), "other": "not a tensor"}
    before = digest(names)
    assert before["names"] == ["loss", "model"]
    with torch.no_grad():
        net.bias.copy_(torch.nextafter(net.bias, net.bias + 1))
    nudged = digest(names)
    assert nudged != before
    net.bias.grad = torch.zeros(1)
    assert digest(names) != nudged
