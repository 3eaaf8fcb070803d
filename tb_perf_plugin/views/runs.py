"""The runs route: every run under the logdir, its ranks, sources, status and jobs."""

from __future__ import annotations

from typing import Any

from ..discovery import now_ns
from ..store import RunStore


def runs(store: RunStore) -> list[dict[str, Any]]:
    """The runs, with their ranks as their read tables tell where the store holds them
    (never read here), else as their files' names tell (docs/HTTP_API.md)."""
    now = now_ns()
    return [
        {"name": name, "ranks": store.ranks(run), "sources": run.sources,
         "updated_ns": run.updated_ns, "status": run.status(now),
         "directory": run.directory, "job": run.job,
         "jobs": [{"id": job.id, "run": job.run, "started_unix_ns": job.started_unix_ns,
                   "ranks": list(job.ranks)} for job in run.jobs]}
        for name, run in sorted(store.discover().items())
    ]  # fmt: skip
