"""The findings panel: what slows the run down, most severe first (docs/FINDINGS.md)."""

from __future__ import annotations

from typing import Any

from ..store import INLINE_WAIT, RunStore


def findings(
    store: RunStore, run_name: str | None, wait_s: float | None = INLINE_WAIT
) -> dict[str, Any]:
    run = store.find_run(run_name)
    analysis = store.analysis(run, wait_s)
    return {"run": run.name, "findings": [f.to_json() for f in analysis.findings]}
