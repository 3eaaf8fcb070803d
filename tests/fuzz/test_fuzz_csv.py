"""Bad input for the CSV readers: Nsight Compute CSV (`read_ncu_csv`) and the generic event CSV
(`read_events_csv`). Damaged real fixtures, byte by byte and cell by cell (huge, tiny and
non-finite numbers, exponents that would make gigantic integers, non-ASCII digits, missing and
extra fields, repeated or dropped header columns).

Every case must give a table or raise Unreadable within the watchdog's bound. Counts: a few
hundred per reader in CI, 10,000 with `TB_PERF_SOAK=1`.
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest

from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.events_csv import read_events_csv
from tb_perf_plugin.ingest.ncu import NCU_COLUMNS, read_ncu_csv

from ._fuzz import case_count, mutate_bytes, run_cases, watchdog, wrong_compression
from .test_fuzz_kineto import check_tables

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NCU_SEEDS = sorted((FIXTURES / "ncu").glob("*.csv"))
EVENTS_SEED = FIXTURES / "imported" / "events_example.csv"
MAX_BYTES = 1 << 20
CELLS = (
    "", " ", "n/a", "nan", "NaN", "inf", "-inf", "Infinity", "1e999999", "1e99999", "-1e99999",
    "1e-99999", "9223372036854775808", "-9223372036854775809", "99999999999999999999999",
    "0x10", "١٢٣", "²", "1,2,3", "1.5", "-0", "-1", "0", "(1, 2, 3)",
    "(99999999999999999999, 1, 1)",
    "\x00", "名前", '"', "\ufeff", "kernel", "cpu_op", "gpu_memcpy", "ms", "usecond", "%",
)  # fmt: skip


def _mutate_cells(rng: random.Random, text: str) -> tuple[str, str]:
    rows = list(csv.reader(io.StringIO(text)))
    op = rng.randrange(5)
    r = rng.randrange(len(rows))
    if op <= 1 and rows[r]:
        c = rng.randrange(len(rows[r]))
        rows[r][c] = rng.choice(CELLS)
        label = f"cell {r},{c} replaced"
    elif op == 2 and rows[r]:
        del rows[r][rng.randrange(len(rows[r]))]
        label = f"field dropped in row {r}"
    elif op == 3:
        rows[r].append(rng.choice(CELLS))
        label = f"field added to row {r}"
    else:
        rows[r:r] = [rows[r]] * rng.choice((1, 10))
        label = f"row {r} repeated"
    out = io.StringIO()
    csv.writer(out, lineterminator=rng.choice(("\n", "\r\n"))).writerows(rows)
    return label, out.getvalue()


def _generator(seeds: list[bytes]):
    def generate(rng: random.Random) -> tuple[str, bytes]:
        seed = rng.choice(seeds)
        pick = rng.random()
        if pick < 0.5:
            label, text = _mutate_cells(rng, seed.decode("utf-8"))
            for _ in range(rng.choice((0, 1, 3))):
                more, text = _mutate_cells(rng, text)
                label += "; " + more
            return label, text.encode("utf-8", "surrogatepass")
        if pick < 0.95:
            return mutate_bytes(rng, seed)
        return wrong_compression(rng, seed)

    return generate


def _check_ncu(table) -> None:
    assert list(table.columns) == NCU_COLUMNS


def test_damaged_ncu_csv_reads_or_is_refused(tmp_path):
    seeds = [path.read_bytes() for path in NCU_SEEDS]
    if not seeds:
        pytest.skip("no Nsight Compute CSV fixtures")
    run_cases(
        "ncu", lambda path: read_ncu_csv(path, MAX_BYTES), _generator(seeds), case_count(300),
        tmp_path, "kernels.ncu.csv", _check_ncu,
    )  # fmt: skip


def test_damaged_event_csv_reads_or_is_refused(tmp_path):
    run_cases(
        "events_csv", lambda path: read_events_csv(path, MAX_BYTES),
        _generator([EVENTS_SEED.read_bytes()]), case_count(400), tmp_path, "events.csv",
        check_tables,
    )  # fmt: skip


# --- regressions ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1e99999", "1e999998", "99999999999999999999999", "-1e30"])
@pytest.mark.parametrize("column", ["start_us", "dur_us"])
def test_event_times_past_int64_are_refused_at_once(column, value, tmp_path):
    """Exact decimal parsing must not build a 10^6-digit integer (seconds of CPU per cell) only
    to overflow int64: a time outside int64 nanoseconds is refused with its line number."""
    path = tmp_path / "events.csv"
    cells = {"start_us": "1", "dur_us": "1", column: value}
    path.write_text(f"name,start_us,dur_us\nx,1,1\ny,{cells['start_us']},{cells['dur_us']}\n")
    with watchdog(10), pytest.raises(Unreadable, match="line 3"):
        read_events_csv(str(path), MAX_BYTES)


@pytest.mark.parametrize("column", ["pid", "tid", "correlation", "step"])
@pytest.mark.parametrize("value", ["99999999999999999999999", "-9223372036854775809"])
def test_event_integers_past_int64_are_refused(column, value, tmp_path):
    path = tmp_path / "events.csv"
    path.write_text(f"name,start_us,dur_us,{column}\nx,1,1,1\ny,2,1,{value}\n")
    with pytest.raises(Unreadable, match="line 3"):
        read_events_csv(str(path), MAX_BYTES)


def test_ncu_launch_ids_past_int64_are_skipped_or_refused(tmp_path):
    path = tmp_path / "k.ncu.csv"
    path.write_text(
        '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
        '"99999999999999999999999","k","Duration","ns","5"\n'
        '"1","k","Duration","ns","5"\n'
    )
    try:
        table = read_ncu_csv(str(path), MAX_BYTES)
    except Unreadable:
        return
    assert table["id"].tolist() == [1]


@pytest.mark.parametrize("reader", [read_ncu_csv, read_events_csv])
def test_csv_over_the_limit_is_refused(reader, tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(EVENTS_SEED.read_bytes() * 10)
    with pytest.raises(Unreadable, match="limit"):
        reader(str(path), 1000)
