"""Bad input for the memory-snapshot reader (`read_snapshot`, a restricted unpickler): damaged
real snapshot pickles, byte by byte and object by object, pickles that ask for globals,
pickles whose shared references would multiply into billions of rows, and random opcode
streams from a structure-aware generator (tests/fuzz/_pickles.py: plausible pickles, snapshot-
shaped half of the time, with pickle bombs, shared references, huge declared lengths and memo
mistakes mixed in).

Every case must give a Snapshot or raise Unreadable within the watchdog's bound; generated
opcode streams also within a memory budget (an address-space limit no case may reach: a
refusal for want of memory fails, and on a sample the bare unpickler allocates at most twice
the pre-check's estimate, which the budget bounds). Seeds: the small shared real snapshots
(../shared/data) and a generated one in every format. Counts: a few hundred in CI (100
generated streams), 10,000 with `TB_PERF_SOAK=1`.
"""

from __future__ import annotations

import copy
import io
import os
import pickle
import random
import resource
import tracemalloc
import zlib
from contextlib import contextmanager
from pathlib import Path

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.safe_pickle import RestrictedUnpickler, check_memo_indices, check_pickle
from tb_perf_plugin.ingest.snapshot import MAX_TEXT_CHARS, Snapshot, read_snapshot

from . import _pickles
from ._fuzz import case_count, mutate_bytes, mutate_json, run_cases, watchdog

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data" / "memory_snapshots"
SHARED_SEEDS = [
    SHARED / "Charran78__DocuBox/dump_snapshot.pickle",
    SHARED / "silmont2000__assignment2-systems/mem_snapshot.pickle",
    SHARED / "Yiyi-philosophy__LLM-inference/oom_snapshot.pickle",
]
MAX_BYTES = 16 << 20


def _generated() -> dict:
    """A small snapshot of the 2.5+ format with shared frames lists, as torch writes them."""
    frames = [{"filename": "train.py", "line": 10, "name": "step"}]
    blocks = [
        {"address": 0x1000, "size": 512, "requested_size": 500, "state": "active_allocated",
         "frames": frames},
        {"address": 0x1200, "size": 512, "state": "inactive", "frames": []},
    ]  # fmt: skip
    return {
        "segments": [
            {
                "device": 0,
                "address": 0x1000,
                "total_size": 1024,
                "allocated_size": 512,
                "active_size": 512,
                "requested_size": 500,
                "stream": 0,
                "segment_type": "small",
                "is_expandable": False,
                "frames": frames,
                "blocks": blocks,
            },
        ],  # fmt: skip
        "device_traces": [
            [
                {
                    "action": "segment_alloc",
                    "addr": 0x1000,
                    "size": 1024,
                    "stream": 0,
                    "time_us": 1,
                    "frames": frames,
                },
                {
                    "action": "alloc",
                    "addr": 0x1000,
                    "size": 512,
                    "stream": 0,
                    "time_us": 2,
                    "frames": frames,
                },
            ]
        ],  # fmt: skip
        "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"},
        "external_annotations": [{"device": 0, "stage": "START", "name": "fwd", "time_us": 1}],
    }


def _seeds() -> list[object]:
    seeds: list[object] = [_generated(), _generated()["segments"]]
    for path in SHARED_SEEDS:
        if path.is_file():
            with path.open("rb") as handle:
                seeds.append(RestrictedUnpickler(handle).load())
    return seeds


def _generator(seeds: list[object]):
    pickled = [pickle.dumps(seed, protocol=4) for seed in seeds]

    def generate(rng: random.Random) -> tuple[str, bytes]:
        if rng.random() < 0.5:
            doc = copy.deepcopy(rng.choice(seeds))
            label, doc = mutate_json(rng, doc)
            for _ in range(rng.choice((0, 1, 3))):
                more, doc = mutate_json(rng, doc)
                label += "; " + more
            return label, pickle.dumps(doc, protocol=rng.choice((2, 4, 5)))
        return mutate_bytes(rng, rng.choice(pickled))

    return generate


def _check(snapshot: Snapshot) -> None:
    assert len(snapshot.blocks) == 0 or snapshot.blocks["segment"].max() < len(snapshot.segments)
    assert snapshot.stack_offsets[-1] == len(snapshot.stack_frames)


def test_damaged_snapshots_read_or_are_refused(tmp_path):
    run_cases(
        "snapshot", lambda path: read_snapshot(path, MAX_BYTES), _generator(_seeds()),
        case_count(300), tmp_path, "fuzz.pickle", _check,
    )  # fmt: skip


class _Call:
    """Pickles as a call of `function` (what a hostile pickle does)."""

    def __init__(self, function: object, *args: object) -> None:
        self.reduce = (function, args)

    def __reduce__(self):
        return self.reduce


@pytest.mark.parametrize(
    "payload",
    [_Call(os.system, "touch /tmp/tb-perf-pwned"), _Call(eval, "1"), _Call(getattr, 1, "x")],
    ids=["os.system", "eval", "getattr"],
)
def test_pickles_that_ask_for_globals_are_refused_and_nothing_runs(payload, tmp_path):
    path = tmp_path / "evil.pickle"
    path.write_bytes(pickle.dumps({"segments": [payload]}, protocol=4))
    with pytest.raises(Unreadable, match="refused"):
        read_snapshot(str(path), MAX_BYTES)
    assert not Path("/tmp/tb-perf-pwned").exists()


def test_shared_references_cannot_multiply_into_billions_of_rows(tmp_path):
    """A pickle stores a repeated object once: 100,000 references to one segment of 100,000
    references to one block is a 0.5 MB file of 10^10 blocks. Refused within the watchdog's
    bound, not tabulated until memory runs out."""
    block = {"address": 0, "size": 1, "state": "inactive"}
    segment = {"address": 0, "total_size": 1, "blocks": [block] * 100_000}
    path = tmp_path / "bomb.pickle"
    path.write_bytes(pickle.dumps({"segments": [segment] * 100_000}, protocol=4))
    assert path.stat().st_size < 1 << 20
    with watchdog(60), pytest.raises(Unreadable, match="rows"):
        read_snapshot(str(path), MAX_BYTES)


def test_deeply_nested_values_are_read_or_refused(tmp_path):
    """A frame's file name that is a list nested 200,000 deep (the unpickler builds it without
    recursion; showing it as text must not recurse): shown as a short text."""
    doc = {"segments": [], "device_traces": [[{
        "action": "alloc", "addr": 0, "size": 0,
        "frames": [{"filename": "PLACEHOLDER", "line": 1, "name": "x"}],
    }]]}  # fmt: skip
    depth = 200_000
    nested = b"]" * depth + b"a" * (depth - 1)  # EMPTY_LIST x depth, then APPEND each inward
    data = pickle.dumps(doc, protocol=2).replace(b"X\x0b\x00\x00\x00PLACEHOLDER", nested)
    path = tmp_path / "deep.pickle"
    path.write_bytes(data)
    with watchdog(60):
        try:
            snapshot = read_snapshot(str(path), MAX_BYTES)
        except Unreadable:
            return
    (filename,) = snapshot.frames["filename"]
    assert filename.startswith("[[[") and len(filename) <= MAX_TEXT_CHARS


def test_a_snapshot_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "big.pickle"
    path.write_bytes(pickle.dumps(_generated(), protocol=4))
    with pytest.raises(Unreadable, match="limit"):
        read_snapshot(str(path), 100)


@pytest.mark.parametrize(
    "data",
    [b"\x80\x02]r\xff\xff\xff\xff.", b"\x80\x02]p4294967295\n.", b"\x80\x04]r\x00\x00\x00\x40."],
    ids=["LONG_BINPUT", "PUT", "LONG_BINPUT-2^30"],
)
def test_a_memo_index_far_ahead_is_refused_before_the_unpickler_allocates(data, tmp_path):
    """Regression (found by the soak run): a memo index of 2^32 made the C unpickler allocate
    and clear a 64 GB memo array (tens of seconds, 21 GB resident) for a 9-byte file."""
    path = tmp_path / "memo.pickle"
    path.write_bytes(data)
    with watchdog(10), pytest.raises(Unreadable, match="memo index"):
        read_snapshot(str(path), MAX_BYTES)
    with pytest.raises(pickle.UnpicklingError, match="memo index"):
        check_memo_indices(data)  # the name older callers know


def test_every_pickle_the_standard_pickler_writes_passes_the_memo_check():
    """Property: the pre-check never refuses what a real pickler writes, in any protocol
    (objects shared and repeated, so memo references abound), budget included."""
    for case in range(case_count(100, 5_000)):
        rng = random.Random(f"memo:{case}")
        shared = [rng.random(), "x" * rng.randint(0, 300), {"k": list(range(rng.randint(0, 50)))}]
        doc = [
            rng.choice(shared) if rng.random() < 0.5 else {"i": i, "s": str(i), "t": (i, None)}
            for i in range(rng.randint(0, 2000))
        ]
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            data = pickle.dumps(doc, protocol=protocol)
            check_pickle(data)
            assert pickle.loads(data) == doc


# --- structure-aware opcode streams ---------------------------------------------------------

GENERATED_MAX_BYTES = 4 << 20
SPARE_ADDRESS_SPACE = 3 << 30  # no case may need this much beyond the process's address space


@contextmanager
def address_space_limit(spare: int):
    """Limit this process's address space to what it maps now plus `spare` bytes, so that a
    case building far beyond its budget fails with MemoryError instead of taking the
    machine's memory (and its refusal for want of memory fails the property)."""
    with open("/proc/self/status") as status:
        mapped = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize"))
    previous = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + spare
    if previous[1] != resource.RLIM_INFINITY:
        limit = min(limit, previous[1])
    resource.setrlimit(resource.RLIMIT_AS, (limit, previous[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, previous)


def _bounded_read(path: str) -> Snapshot:
    """`read_snapshot` under the property's memory budget. On one case in 8 (by content) also
    the pre-check's soundness: what the bare unpickler allocates (tracemalloc) is at most
    twice the estimate, so the budget (32 bytes per byte of the file) bounds it."""
    data = Path(path).read_bytes()
    if zlib.crc32(data) % 8 == 0:
        try:
            estimate = check_pickle(data, 32 << 20)
        except pickle.UnpicklingError:
            estimate = None
        if estimate is not None:
            tracemalloc.start()
            try:
                RestrictedUnpickler(io.BytesIO(data)).load()
            except Exception:  # noqa: BLE001 - what it built before failing is measured
                pass
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert peak <= 2 * estimate + 256_000, f"built {peak} B, estimated {estimate} B"
    try:
        return read_snapshot(path, GENERATED_MAX_BYTES)
    except Unreadable as exc:
        assert "more memory than is available" not in exc.message, exc.message
        raise


def test_generated_opcode_streams_read_or_are_refused_within_bounds(tmp_path):
    """Property: every plausible opcode stream the generator writes (snapshots, random
    values, bombs, shared references, huge declared lengths, memo mistakes, frames, cuts)
    gives a Snapshot or Unreadable, within the watchdog and the memory budget."""
    with address_space_limit(SPARE_ADDRESS_SPACE):
        report = run_cases(
            "snapshot-opcodes", _bounded_read, _pickles.generate, case_count(100), tmp_path,
            "generated.pickle", _check,
        )  # fmt: skip
    if report.cases >= 100:  # the generator reaches both outcomes
        assert report.results >= report.cases // 10 and report.refused >= report.cases // 10
