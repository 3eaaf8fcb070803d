import os
import tempfile
import time
from pathlib import Path

import pytest

from collectors import MyTimer, RunWriter

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"

# Tests never touch the user's cache, and parse in threads unless a test asks for processes.
os.environ.setdefault("TB_PERF_CACHE_DIR", tempfile.mkdtemp(prefix="tb-perf-test-cache-"))
os.environ.setdefault("TB_PERF_EXECUTOR", "thread")
_SESSION_CACHE = Path(os.environ["TB_PERF_CACHE_DIR"])


@pytest.fixture(autouse=True)
def _own_result_cache(tmp_path_factory, monkeypatch) -> None:
    """Each test its own cache folder for derived results (a test may patch the analysis, and
    a result computed by another test's patched code must not be served to it), sharing the
    session's parsed traces (parsing is never patched, and is the slow part)."""
    own = tmp_path_factory.mktemp("cache")
    (_SESSION_CACHE / "traces").mkdir(parents=True, exist_ok=True)
    (own / "traces").symlink_to(_SESSION_CACHE / "traces")
    monkeypatch.setenv("TB_PERF_CACHE_DIR", str(own))


@pytest.fixture
def shared_data(monkeypatch) -> Path:
    """The real test data. Tests link its read-only files into their logdirs, so they are the
    server's owner opting in to links that leave the logdir (TB_PERF_FOLLOW_LINKS)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real test data not found at {SHARED_DATA} (../shared/data beside the repo)")
    monkeypatch.setenv("TB_PERF_FOLLOW_LINKS", "1")
    return SHARED_DATA


def write_training_run(run_dir: Path, world_size: int = 2, steps: int = 6) -> None:
    """A real collector run: each rank times a nested loop body with sleeps of known order."""
    for rank in range(world_size):
        with RunWriter(run_dir, rank=rank, world_size=world_size) as writer:
            timer = MyTimer(writer, gpu=False)
            for step in range(steps):
                timer.set_step(step)
                with timer.range("data"):
                    time.sleep(0.002 * (rank + 1))
                with timer.range("train"):
                    with timer.range("forward"):
                        time.sleep(0.0005)
                    with timer.range("backward"):
                        time.sleep(0.001)
            timer.step()
            timer.close()


@pytest.fixture
def training_logdir(tmp_path) -> Path:
    write_training_run(tmp_path / "logs" / "exp" / "a")
    return tmp_path / "logs"
