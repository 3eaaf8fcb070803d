"""The tb_perf TensorBoard plugin: its route table. Each route is a view (views/) called with
the request's parameters; what a view raises answers with its status (docs/HTTP_API.md).
"""

from __future__ import annotations

import logging
import mimetypes
import os
from collections.abc import Callable
from typing import Any

from tensorboard.backend import http_util
from tensorboard.plugins import base_plugin
from werkzeug import wrappers

from . import views
from .errors import NotFound, TbPerfError
from .store import RunStore

logger = logging.getLogger(__name__)

PLUGIN_NAME = "tb_perf"
STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")

View = Callable[..., Any]
INTERNAL = TbPerfError("internal error; see the TensorBoard log")  # what a bug answers
LOGDIR_SPEC_UNSUPPORTED = (
    "tb-perf reads one logdir, and TensorBoard was started with --logdir_spec: start it with "
    "--logdir DIR instead, DIR a folder of links to the run folders, and with "
    "--tb_perf_follow_links if they lie outside DIR (such links are followed only then)"
)

# route -> (view, the query parameters passed to it, in order)
ROUTES: dict[str, tuple[View, tuple[str, ...]]] = {
    "/runs": (views.runs.runs, ()),
    "/notices": (views.notices.notices, ()),
    "/summary": (views.overview.summary, ("run", "rank")),
    "/findings": (views.findings.findings, ("run",)),
    "/breakdown": (views.breakdown.breakdown, ("run", "rank")),
    "/rank_heatmap": (views.rank_heatmap.rank_heatmap, ("run", "metric")),
    "/distributed": (views.distributed.distributed, ("run", "rank")),
    "/critical_path": (views.critical_path.critical_path, ("run", "rank", "step")),
    "/operators": (views.operators.operators, ("run", "rank", "group_by", "limit")),
    "/kernels": (views.kernels.kernels, ("run", "rank", "limit", "q", "group_by")),
    "/python": (views.python.python, ("run", "rank", "sort", "q", "limit")),
    "/tasks": (views.tasks.tasks, ("run",)),
    "/modules": (views.modules.modules, ("run", "rank")),
    "/module_steps": (views.modules.module_steps, ("run", "rank", "path", "phase")),
    "/memory": (views.memory.memory, ("run", "rank")),
    "/memory/operators": (
        views.memory.memory_operators,
        ("run", "rank", "device", "start", "end", "limit"),
    ),
    "/snapshot": (views.memory.snapshot, ("run", "file")),
    "/snapshot/tile": (
        views.memory.snapshot_tile,
        ("run", "file", "device", "start", "end", "width_px"),
    ),
    "/snapshot/allocation": (views.memory.snapshot_allocation, ("run", "file", "device", "index")),
    "/gpu": (views.gpu.gpu, ("run", "rank")),
    "/compare": (views.compare.compare, ("baseline", "candidate")),
    "/timeline/meta": (views.timeline.timeline_meta, ("run",)),
    "/timeline/tiles": (
        views.timeline.timeline_tiles,
        ("run", "start", "end", "width_px", "ranks"),
    ),
    "/timeline/event": (views.timeline.timeline_event, ("run", "rank", "id")),
    "/timeline/search": (views.timeline.timeline_search, ("run", "q", "limit", "ranks")),
}


def _json(request: wrappers.Request, body: object, status: int = 200) -> wrappers.Response:
    return http_util.Respond(request, body, "application/json", code=status)


class TbPerfPlugin(base_plugin.TBPlugin):
    plugin_name = PLUGIN_NAME

    def __init__(self, context: base_plugin.TBContext) -> None:
        executor = getattr(context.flags, "tb_perf_executor", None)  # no flags in tests
        follow_links = getattr(context.flags, "tb_perf_follow_links", False) or None
        # Without a --logdir (--logdir_spec, --db) there is nothing to read: every route says
        # so, rather than a logdir of "" reading the working directory.
        self._logdir_spec = bool(getattr(context.flags, "logdir_spec", ""))
        self._store = (
            RunStore(context.logdir, executor=executor, follow_links=follow_links)
            if context.logdir
            else None
        )
        # The shipped files are listed once; a request can only ever name one of them.
        self._static_files = {
            name: os.path.join(STATIC_DIR, name)
            for name in (os.listdir(STATIC_DIR) if os.path.isdir(STATIC_DIR) else [])
            if not name.startswith(".")
        }

    def get_plugin_apps(self) -> dict[str, Callable]:
        apps: dict[str, Callable] = {
            route: self._view_app(view, params) for route, (view, params) in ROUTES.items()
        }
        apps["/static/*"] = self._static_app()
        return apps

    def is_active(self) -> bool:
        """With --logdir_spec, or a logdir that holds only what was left out (links out of it,
        say), the tab shows, to say why it has no runs."""
        if self._store is None:
            return self._logdir_spec
        return self._store.has_runs() or self._store.has_notices()

    def _no_logdir(self) -> NotFound:
        if self._logdir_spec:
            return NotFound(LOGDIR_SPEC_UNSUPPORTED)
        return NotFound("TensorBoard was started without --logdir: tb-perf has no runs to read")

    def frontend_metadata(self) -> base_plugin.FrontendMetadata:
        return base_plugin.FrontendMetadata(es_module_path="/static/index.js", tab_name="PERF")

    def _view_app(self, view: View, params: tuple[str, ...]) -> Callable:
        """The WSGI app of one route: the view's answer as JSON; a `TbPerfError` answers with
        its status and body (`Progress`: 202), anything else with an opaque 500."""

        @wrappers.Request.application
        def serve(request: wrappers.Request) -> wrappers.Response:
            try:
                if self._store is None:
                    raise self._no_logdir()
                return _json(request, view(self._store, *(request.args.get(p) for p in params)))
            except TbPerfError as exc:
                return _json(request, exc.to_json(), exc.http_status)
            except Exception:
                logger.exception("tb_perf: %s failed", request.path)
                return _json(request, INTERNAL.to_json(), INTERNAL.http_status)

        return serve

    def _static_app(self) -> Callable:
        """The WSGI app of the built frontend: only the files listed at start are served."""

        @wrappers.Request.application
        def serve(request: wrappers.Request) -> wrappers.Response:
            name = request.path.rsplit("/static/", 1)[-1]
            try:
                with open(self._static_files[name], "rb") as handle:
                    content = handle.read()
            except (KeyError, OSError):  # not shipped, or gone since start
                return _json(request, NotFound(f"no static file {name!r}").to_json(), 404)
            content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if name.endswith((".js", ".mjs")):
                content_type = "text/javascript"
            return http_util.Respond(request, content, content_type)

        return serve
