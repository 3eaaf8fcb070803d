"""The layers DESIGN.md fixes: collectors import no plugin-side library, the plugin no torch."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _modules_after(code: str) -> set[str]:
    probe = f"import sys; sys.path.insert(0, {str(REPO)!r})\n{code}\nprint(' '.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return {name.split(".")[0] for name in out.stdout.split()}


def test_plugin_and_cli_never_import_torch():
    loaded = _modules_after(
        "import tb_perf_plugin.plugin, tb_perf_plugin.cli, tb_perf_plugin.loader\n"
        "from tb_perf_plugin import views\n"
        "from tb_perf_plugin.store import RunStore\n"
        f"store = RunStore({str(REPO / 'sample_runs')!r})\n"
        "views.overview.summary(store, 'ddp_slow_data', wait_s=None)"
    )
    assert "pandas" in loaded  # the probe really ran a view
    assert "torch" not in loaded


def test_collectors_import_only_the_standard_library(tmp_path):
    loaded = _modules_after(
        "from collectors import MyTimer\n"
        f"t = MyTimer({str(tmp_path)!r}, gpu=False)\n"
        "t.start('a'); t.stop('a'); t.step(); t.close()"
    )
    assert "collectors" in loaded
    for forbidden in (
        "pandas",
        "werkzeug",
        "tensorboard",
        "tb_perf_plugin",
        "numpy",
        "torch",
        "msgspec",
    ):
        assert forbidden not in loaded, forbidden
