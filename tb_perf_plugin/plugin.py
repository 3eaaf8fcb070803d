"""The tb_perf TensorBoard plugin: a route table of thin handlers over RunService.

Routes and payloads are documented in docs/HTTP_API.md.
"""

from __future__ import annotations

import functools
import logging
import mimetypes
import os
from collections.abc import Callable

from tensorboard.backend import http_util
from tensorboard.plugins import base_plugin
from werkzeug import wrappers

from .errors import NotFound, TbPerfError
from .service import Progress, RunService

logger = logging.getLogger(__name__)

PLUGIN_NAME = "tb_perf"
STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")

Handler = Callable[["TbPerfPlugin", wrappers.Request], wrappers.Response]


def _error(request: wrappers.Request, code: str, message: str, status: int) -> wrappers.Response:
    body = {"error": {"code": code, "message": message}}
    return http_util.Respond(request, body, "application/json", code=status)


def _json_route(handler: Handler) -> Handler:
    """Answer with JSON; service errors become 400/404 bodies, anything else an opaque 500."""

    @functools.wraps(handler)
    def wrapped(self: TbPerfPlugin, request: wrappers.Request) -> wrappers.Response:
        try:
            return handler(self, request)
        except TbPerfError as exc:
            return _error(request, exc.code, exc.message, exc.http_status)
        except Exception:
            logger.exception("tb_perf: %s failed", request.path)
            return _error(request, "internal", "internal error; see the TensorBoard log", 500)

    return wrapped


def _respond(request: wrappers.Request, body: object) -> wrappers.Response:
    if isinstance(body, Progress):
        return http_util.Respond(request, body.to_json(), "application/json", code=202)
    return http_util.Respond(request, body, "application/json")


class TbPerfPlugin(base_plugin.TBPlugin):
    plugin_name = PLUGIN_NAME

    def __init__(self, context: base_plugin.TBContext) -> None:
        executor = getattr(context.flags, "tb_perf_executor", None)  # no flags in tests
        follow_links = getattr(context.flags, "tb_perf_follow_links", False) or None
        self._service = RunService(
            context.logdir or "", executor=executor, follow_links=follow_links
        )
        # The shipped files are listed once; a request can only ever name one of them.
        self._static_files = {
            name: os.path.join(STATIC_DIR, name)
            for name in (os.listdir(STATIC_DIR) if os.path.isdir(STATIC_DIR) else [])
            if not name.startswith(".")
        }

    def get_plugin_apps(self) -> dict[str, Callable]:
        return {
            "/runs": self._serve_runs,
            "/summary": self._serve_summary,
            "/findings": self._serve_findings,
            "/breakdown": self._serve_breakdown,
            "/operators": self._serve_operators,
            "/kernels": self._serve_kernels,
            "/python": self._serve_python,
            "/tasks": self._serve_tasks,
            "/modules": self._serve_modules,
            "/module_steps": self._serve_module_steps,
            "/memory": self._serve_memory,
            "/rank_heatmap": self._serve_rank_heatmap,
            "/gpu": self._serve_gpu,
            "/compare": self._serve_compare,
            "/snapshot": self._serve_snapshot,
            "/snapshot/tile": self._serve_snapshot_tile,
            "/snapshot/allocation": self._serve_snapshot_allocation,
            "/timeline/meta": self._serve_timeline_meta,
            "/timeline/tiles": self._serve_timeline_tiles,
            "/timeline/event": self._serve_timeline_event,
            "/timeline/search": self._serve_timeline_search,
            "/static/*": self._serve_static,
        }

    def is_active(self) -> bool:
        return self._service.has_runs()

    def frontend_metadata(self) -> base_plugin.FrontendMetadata:
        return base_plugin.FrontendMetadata(es_module_path="/static/index.js", tab_name="PERF")

    @wrappers.Request.application
    @_json_route
    def _serve_runs(self, request: wrappers.Request) -> wrappers.Response:
        return _respond(request, self._service.runs())

    @wrappers.Request.application
    @_json_route
    def _serve_summary(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.summary(args.get("run"), args.get("rank")))

    @wrappers.Request.application
    @_json_route
    def _serve_findings(self, request: wrappers.Request) -> wrappers.Response:
        return _respond(request, self._service.findings(request.args.get("run")))

    @wrappers.Request.application
    @_json_route
    def _serve_breakdown(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.breakdown(args.get("run"), args.get("rank")))

    @wrappers.Request.application
    @_json_route
    def _serve_operators(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.operators(
            args.get("run"), args.get("rank"), args.get("group_by"), args.get("limit")
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_modules(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.modules(args.get("run"), args.get("rank")))

    @wrappers.Request.application
    @_json_route
    def _serve_module_steps(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.module_steps(
            args.get("run"), args.get("rank"), args.get("path"), args.get("phase")
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_memory(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.memory(args.get("run"), args.get("rank")))

    @wrappers.Request.application
    @_json_route
    def _serve_rank_heatmap(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.rank_heatmap(args.get("run"), args.get("metric")))

    @wrappers.Request.application
    @_json_route
    def _serve_gpu(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.gpu(args.get("run"), args.get("rank")))

    @wrappers.Request.application
    @_json_route
    def _serve_compare(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.compare(args.get("baseline"), args.get("candidate")))

    @wrappers.Request.application
    @_json_route
    def _serve_snapshot(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        return _respond(request, self._service.snapshot(args.get("run"), args.get("file")))

    @wrappers.Request.application
    @_json_route
    def _serve_snapshot_tile(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.snapshot_tile(
            args.get("run"),
            args.get("file"),
            args.get("device"),
            args.get("start"),
            args.get("end"),
            args.get("width_px"),
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_snapshot_allocation(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.snapshot_allocation(
            args.get("run"), args.get("file"), args.get("device"), args.get("index")
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_kernels(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.kernels(args.get("run"), args.get("rank"), args.get("limit"))
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_python(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.python(
            args.get("run"), args.get("rank"), args.get("sort"), args.get("q"), args.get("limit")
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_tasks(self, request: wrappers.Request) -> wrappers.Response:
        return _respond(request, self._service.tasks(request.args.get("run")))

    @wrappers.Request.application
    @_json_route
    def _serve_timeline_meta(self, request: wrappers.Request) -> wrappers.Response:
        return _respond(request, self._service.timeline_meta(request.args.get("run")))

    @wrappers.Request.application
    @_json_route
    def _serve_timeline_tiles(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.timeline_tiles(
            args.get("run"),
            args.get("start"),
            args.get("end"),
            args.get("width_px"),
            args.get("ranks"),
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_timeline_event(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.timeline_event(args.get("run"), args.get("rank"), args.get("id"))
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_timeline_search(self, request: wrappers.Request) -> wrappers.Response:
        args = request.args
        body = self._service.timeline_search(
            args.get("run"), args.get("q"), args.get("limit"), args.get("ranks")
        )
        return _respond(request, body)

    @wrappers.Request.application
    @_json_route
    def _serve_static(self, request: wrappers.Request) -> wrappers.Response:
        name = request.path.rsplit("/static/", 1)[-1]
        path = self._static_files.get(name)
        if path is None:
            raise NotFound(f"no static file {name!r}")
        with open(path, "rb") as handle:
            content = handle.read()
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if name.endswith((".js", ".mjs")):
            content_type = "text/javascript"
        return http_util.Respond(request, content, content_type)
