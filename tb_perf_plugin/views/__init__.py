"""One module per dashboard (and per shared panel): its routes' JSON, shaped from what the
store holds (docs/HTTP_API.md; the frontend folder of the same name draws it).

A view is a function `view(store, <the route's parameters as text or None>)` returning a JSON
value; it raises `errors.TbPerfError` (a `Progress` from the store while data is read) and
never checks for progress itself. The route table is plugin.py's ROUTES.
"""

from . import (
    breakdown,
    compare,
    critical_path,
    distributed,
    findings,
    gpu,
    kernels,
    memory,
    modules,
    notices,
    operators,
    overview,
    python,
    rank_heatmap,
    runs,
    tasks,
    timeline,
)

__all__ = [
    "breakdown",
    "compare",
    "critical_path",
    "distributed",
    "findings",
    "gpu",
    "kernels",
    "memory",
    "modules",
    "notices",
    "operators",
    "overview",
    "python",
    "rank_heatmap",
    "runs",
    "tasks",
    "timeline",
]
