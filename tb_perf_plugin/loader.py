"""TensorBoard's entry point for tb-perf: imports the plugin (pandas, msgspec) only when loaded."""

from __future__ import annotations

import argparse

from tensorboard.plugins import base_plugin


class TbPerfLoader(base_plugin.TBLoader):
    def define_flags(self, parser: argparse.ArgumentParser) -> None:
        group = parser.add_argument_group("tb_perf")
        group.add_argument(
            "--tb_perf_executor",
            metavar="KIND",
            default=None,
            help="where tb-perf parses trace files: process (default), thread, inline, or "
            "dask://HOST:PORT for a Dask scheduler (the `dask` extra); overrides "
            "TB_PERF_EXECUTOR",
        )
        group.add_argument(
            "--tb_perf_follow_links",
            action="store_true",
            help="read files that are links to places outside the logdir (off by default: "
            "whoever can write the logdir could otherwise make the server read any file it "
            "can); same as TB_PERF_FOLLOW_LINKS=1",
        )

    def load(self, context: base_plugin.TBContext) -> base_plugin.TBPlugin:
        from .plugin import TbPerfPlugin

        return TbPerfPlugin(context)
