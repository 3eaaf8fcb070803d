"""Self times of MyTimer spans: children nest (start/stop) or may overlap (spans added whole)."""

import numpy as np
import pandas as pd

from tb_perf_plugin.analysis.spans import self_times

BASE = 1_796_044_031_373_534_928  # ns since the epoch: beyond float64's exact integers


def spans(rows: list[tuple[str, int, int, int, int]]) -> pd.DataFrame:
    writer, span_id, parent, t0, t1 = zip(*rows, strict=True)
    return pd.DataFrame({"writer": writer, "id": span_id, "parent": parent,
                         "t0": np.array(t0) + BASE, "t1": np.array(t1) + BASE})  # fmt: skip


def test_overlapping_children_are_counted_once_and_ids_are_per_writer():
    table = spans([
        ("a", 1, 0, 0, 100),   # children: [10, 40] and [20, 50] overlap, [60, 70] apart
        ("a", 2, 1, 10, 40),
        ("a", 3, 1, 20, 50),
        ("a", 4, 1, 60, 70),
        ("a", 5, 0, 0, 5),
        ("a", 6, 5, 1, 3),
        ("b", 1, 0, 0, 7),     # same id, other writer: no children
        ("b", 2, 0, 0, 9),
        ("b", 3, 2, 1, 2),     # nested one ns inside: exact at epoch-ns magnitudes
    ])  # fmt: skip
    assert self_times(table).tolist() == [50, 30, 30, 10, 3, 2, 7, 8, 1]
