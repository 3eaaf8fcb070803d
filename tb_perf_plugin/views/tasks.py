"""The Tasks dashboard: profile_task's summaries of the run, per task type and rank, the
traced invocations and the selected operators' statistics (docs/HTTP_API.md)."""

from __future__ import annotations

from typing import Any

import msgspec

from ..errors import Unreadable
from ..ingest.tasks import read_task_summary
from ..store import RunStore, relative_path


def tasks(store: RunStore, run_name: str | None) -> dict[str, Any]:
    """Small files, read per call."""
    run = store.find_run(run_name)
    found, warnings = [], []
    for writer in run.writers:
        for path in writer.task_summaries:
            try:
                summary = read_task_summary(path, store.max_file_bytes)
            except Unreadable as exc:
                warnings.append(f"rank {writer.rank}: {exc.message}")
                continue
            body = msgspec.structs.asdict(summary)
            for key in ("schema", "version", "prefix"):
                body.pop(key)
            body["invocations"] = [msgspec.to_builtins(i) for i in summary.invocations]
            body["operators"] = [msgspec.to_builtins(o) for o in summary.operators]
            found.append({**body, "rank": writer.rank, "file": relative_path(run, path)})
    found.sort(key=lambda task: (task["task_type"].lower(), task["rank"]))
    empty = None if found else empty_reason(bool(warnings))
    return {"run": run.name, "tasks": found, "warnings": warnings, "empty_reason": empty}


def empty_reason(unreadable: bool) -> str:
    """Why the tasks route has no tasks."""
    if unreadable:
        return "No readable profile_task summaries in this run: see the warnings."
    return (
        "No profile_task summaries in this run (<prefix>.task-<type>.summary.json, written by "
        "profile_task when PROFILE_TASK_TYPES is set; docs/CAPTURE.md)."
    )
