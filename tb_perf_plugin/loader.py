"""TensorBoard's entry point for tb-perf: imports the plugin (pandas, msgspec) only when loaded."""

from __future__ import annotations

from tensorboard.plugins import base_plugin


class TbPerfLoader(base_plugin.TBLoader):
    def load(self, context: base_plugin.TBContext) -> base_plugin.TBPlugin:
        from .plugin import TbPerfPlugin

        return TbPerfPlugin(context)
