"""A run holds its traces as handles into the trace cache (ingest/cache.py `CachedTrace`) and
opens their tables on use: whatever passes a view makes over every rank, the serving process
keeps at most OPEN_TRACES traces mapped (plus those of the timeline pieces loaded), one file
descriptor each. At 1,024 ranks every trace held open was 36 MB and 1,024 descriptors, many
systems' default limit. On copies of a real trace recorded by torch.profiler."""

import gc
import os
import shutil
from pathlib import Path

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest import cache as cache_module
from tb_perf_plugin.ingest.cache import CachedTrace
from tb_perf_plugin.store import RunStore
from tb_perf_plugin.views.findings import findings
from tb_perf_plugin.views.overview import summary
from tb_perf_plugin.views.timeline import timeline_meta, timeline_tiles

TRACE = (
    Path(__file__).resolve().parents[1]
    / "fixtures/trace_memory/leak/worker0.1796248395525863295.pt.trace.json.gz"
)
RANKS = 12
OPEN = 3  # traces kept open, patched small
PIECES = 2  # timeline pieces kept loaded, patched small


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A trace-only run of RANKS copies of the trace (rank from the file name), read inline."""
    run = tmp_path / "logdir" / "job"
    run.mkdir(parents=True)
    for rank in range(RANKS):
        shutil.copyfile(TRACE, run / f"worker{rank}.1796248395525863295.pt.trace.json.gz")
    monkeypatch.setattr(cache_module._OPEN, "capacity", OPEN)
    cache_module._OPEN.clear()
    found = RunStore(str(tmp_path / "logdir"), executor="inline", cache_dir=str(tmp_path / "c"))
    found._pieces.capacity = PIECES
    yield found
    found.close()
    cache_module._OPEN.clear()


def _open_traces(cache_dir: Path) -> tuple[int, int]:
    """(traces mapped in this process, descriptors it holds on the trace cache's files)."""
    gc.collect()
    descriptors = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # closed meanwhile (listdir's own descriptor)
            continue
        descriptors += target.startswith(str(cache_dir / "traces"))
    return len(cache_module._OPEN._mapped), descriptors


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts Linux's descriptors")
def test_passes_over_every_rank_keep_a_bounded_number_of_traces_open(store, tmp_path):
    cache_dir = tmp_path / "c"
    tables = store.tables(store.find_run("job"), wait_s=None)
    assert len(tables.traces) == RANKS
    assert all(isinstance(t.source, CachedTrace) for t in tables.traces)
    assert _open_traces(cache_dir) == (0, 0)  # read: the metadata of each, none mapped
    overview = summary(store, "job", wait_s=None)
    assert len(overview["ranks"]) == RANKS
    assert all(r["steps"] == overview["ranks"][0]["steps"] > 0 for r in overview["ranks"])
    assert findings(store, "job", wait_s=None)["findings"] is not None
    meta = timeline_meta(store, "job", wait_s=None)
    assert len(meta["ranks"]) == RANKS
    for ranks in ("0,1", "5,6", "10,11"):
        tile = timeline_tiles(store, "job", "0", str(meta["end"]), "800", ranks, wait_s=None)
        assert {lane["id"].split("/")[0] for lane in tile["lanes"]} == set(ranks.split(","))
    held = OPEN + PIECES  # each piece holds its rank's one trace
    mapped, descriptors = _open_traces(cache_dir)
    assert mapped <= held and descriptors <= held


def test_a_trace_whose_entry_left_the_cache_is_parsed_again(store, tmp_path):
    """An entry evicted or deleted under a running server: opening the trace parses it again
    (and stores it); with the trace file gone too, a clear error naming it."""
    tables = store.tables(store.find_run("job"), wait_s=None)
    handle = tables.traces[-1].source
    assert isinstance(handle, CachedTrace)
    before = tables.traces[-1].tables.slices["start"].copy()
    cache_module._OPEN.clear()
    shutil.rmtree(tmp_path / "c" / "traces")
    again = tables.traces[-1].tables
    assert (again.slices["start"] == before).all()
    assert (tmp_path / "c" / "traces" / handle.key).is_dir()  # stored again
    del again
    cache_module._OPEN.clear()
    shutil.rmtree(tmp_path / "c" / "traces")
    os.remove(handle.path)
    with pytest.raises(Unreadable, match=os.path.basename(handle.path)):
        handle.open()
