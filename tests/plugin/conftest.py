import argparse
import os

import pytest
from tensorboard.backend import application
from tensorboard.plugins import base_plugin
from werkzeug import test, wrappers

from tb_perf_plugin.plugin import TbPerfPlugin


class PluginClient:
    """TensorBoard's real WSGI app with only our plugin, driven without a server."""

    def __init__(self, logdir, follow_links: bool = False) -> None:
        flags = argparse.Namespace(tb_perf_executor=None, tb_perf_follow_links=follow_links)
        self.plugin = TbPerfPlugin(base_plugin.TBContext(logdir=str(logdir), flags=flags))
        self.plugin._store.inline_wait_s = 120  # answer when done; 202 is tested on its own
        app = application.TensorBoardWSGI([self.plugin])
        self._client = test.Client(app, wrappers.Response)

    def get(self, route: str, **params):
        return self._client.get(f"/data/plugin/tb_perf/{route}", query_string=params)

    def json(self, route: str, expect: int = 200, **params):
        response = self.get(route, **params)
        assert response.status_code == expect, response.get_data(as_text=True)
        return response.get_json()


@pytest.fixture
def make_client():
    return PluginClient


RESNET_SAMPLES = "traces/pytorch__kineto/tb_plugin/samples"


@pytest.fixture
def resnet_logdir(tmp_path, shared_data):
    """The two V100 ResNet-50 sample runs (DataLoader without / with 4 workers), as links:
    discovery does not follow linked directories, so each trace file is linked."""
    for workers in (0, 4):
        name = f"resnet50_num_workers_{workers}"
        (tmp_path / name).mkdir()
        for trace in (shared_data / RESNET_SAMPLES / name).iterdir():
            os.symlink(trace, tmp_path / name / trace.name)
    return tmp_path
