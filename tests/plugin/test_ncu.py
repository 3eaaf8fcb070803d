"""Nsight Compute CSV ingest and its join to the Kernel view.

Fixtures (tests/fixtures/ncu/SOURCES.md): `paddle_metrics_long.csv` is real `ncu --csv
--metrics` output from YKTian-x2b/AI4Materials_EvaluationTool
(CodeInstrumentation/TestCase_Demo_ncu/metrics_713_paddle_.csv @ 86c5f2b9); the raw-page file is
the same two launches in `--page raw` layout; `cublaslt_details.csv` is a real `--page details`
capture with rule rows, from microsoft/superbenchmark
(tests/benchmarks/micro_benchmarks/test_cublaslt_function.py).
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tb_perf_plugin.analysis.kernels import aggregate_kernels, kernel_table
from tb_perf_plugin.analysis.ncu import NCU_JOIN_COLUMNS, join_kernel_metrics, match_kernel_names
from tb_perf_plugin.errors import Unreadable
from tb_perf_plugin.ingest.ncu import NCU_COLUMNS, read_ncu_csv
from tb_perf_plugin.ingest.nsys import read_nsys_sqlite

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ncu"
LONG = FIXTURES / "paddle_metrics_long.csv"
RAW = FIXTURES / "paddle_metrics_raw.csv"
DETAILS = FIXTURES / "cublaslt_details.csv"
CUTLASS = (
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x10_nn_align4>"
    "(cutlass_80_tensorop_s1688gemm_64x64_16x10_nn_align4::Params)"
)
SAXPY = "nsys_sqlite/hpcgroup__pipit/pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
LIMIT = 1 << 20


def test_long_form_metrics_per_launch():
    table = read_ncu_csv(str(LONG), LIMIT)
    assert list(table.columns) == NCU_COLUMNS
    assert table["id"].tolist() == [0, 1]
    assert table["kernel"][0] == CUTLASS
    assert table["kernel"][1].startswith("void phi::funcs::VectorizedBroadcastKernel<")
    assert table["duration_ns"].tolist() == [8192.0, 3584.0]  # "8,192" nsecond
    assert table["sm_throughput_pct"].tolist() == [1.03, 0.07]
    assert table["memory_throughput_pct"].tolist() == [2.45, 4.30]
    assert table["achieved_occupancy_pct"].tolist() == [8.32, 4.16]
    assert table["registers_per_thread"].tolist() == [104.0, 24.0]
    assert table["theoretical_occupancy_pct"].isna().all()  # not among the file's metrics
    assert table["block"].tolist() == ["128", "64"]  # launch__block_size, a count
    assert table["grid"].tolist() == ["2", "2"]
    assert table["device"].tolist() == [-1, -1]  # this ncu version wrote no Device column


def test_raw_page_reads_the_same_as_the_long_form():
    pd.testing.assert_frame_equal(read_ncu_csv(str(RAW), LIMIT), read_ncu_csv(str(LONG), LIMIT))


def test_details_page_display_names_and_rule_rows():
    table = read_ncu_csv(str(DETAILS), LIMIT)
    assert len(table) == 1  # rule rows belong to launch 0 and add no launch
    row = table.iloc[0]
    assert row["kernel"].startswith("cutlass3x_sm100_tensorop_s64x256x32gemm")
    assert (row["grid"], row["block"], row["device"]) == ("[9, 32, 1]", "[384, 1, 1]", 0)
    assert row["duration_ns"] == 406240.0
    assert row["sm_throughput_pct"] == 23.59
    assert row["memory_throughput_pct"] == 21.68
    assert row["achieved_occupancy_pct"] == 15.53
    assert row["theoretical_occupancy_pct"] == 18.75
    assert row["registers_per_thread"] == 168.0


@pytest.mark.parametrize(
    ("unit", "value", "expected_ns"),
    [("nsecond", "8,192", 8192.0), ("usecond", "8.19", 8190.0), ("msecond", "0.25", 250_000.0),
     ("second", "1", 1e9), ("us", "12.5", 12_500.0), ("nsecond", "n/a", math.nan)],
)  # fmt: skip
def test_duration_units(tmp_path, unit, value, expected_ns):
    text = LONG.read_text().replace('"nsecond","8,192"', f'"{unit}","{value}"')
    path = tmp_path / "k.csv"
    path.write_text(text)
    got = read_ncu_csv(str(path), LIMIT)["duration_ns"][0]
    assert got == pytest.approx(expected_ns, nan_ok=True)


def test_a_metric_in_a_unit_of_another_kind_is_left_out(tmp_path):
    """The Memory Workload Analysis section also has a "Memory Throughput", in Gbyte/s: it must
    not land in the percent column."""
    text = DETAILS.read_text().replace(
        '"Memory Throughput","%","21.68"', '"Memory Throughput","Gbyte/s","1,200.00"'
    )
    path = tmp_path / "k.csv"
    path.write_text(text)
    assert math.isnan(read_ncu_csv(str(path), LIMIT)["memory_throughput_pct"][0])


def test_bad_files_are_unreadable(tmp_path):
    binary = tmp_path / "report.ncu-rep"
    binary.write_bytes(bytes(range(256)) * 4)
    other_csv = tmp_path / "other.csv"
    other_csv.write_text("name,start,end\nk,1,2\n")
    no_value = tmp_path / "no_value.csv"
    no_value.write_text(LONG.read_text().replace(',"Metric Value"', ',"Value"'))
    cases = {
        binary: "not an Nsight Compute CSV",
        other_csv: "not an Nsight Compute CSV",
        no_value: r"without the column\(s\) \['Metric Value'\]",
        tmp_path / "missing.csv": "cannot read",
    }
    for path, message in cases.items():
        with pytest.raises(Unreadable, match=message):
            read_ncu_csv(str(path), LIMIT)
    with pytest.raises(Unreadable, match="over the"):
        read_ncu_csv(str(LONG), 1000)


def _trace_kernels(names_and_durations):
    rows = len(names_and_durations)
    return aggregate_kernels(pd.DataFrame({
        "name": [n for n, _ in names_and_durations],
        "operator": [""] * rows,
        "device": np.zeros(rows, np.int64),
        "start": np.arange(rows, dtype=np.int64) * 100_000,
        "dur": np.array([d for _, d in names_and_durations], np.int64),
        "blocks_per_sm": np.full(rows, -1.0), "occupancy": np.full(rows, -1.0),
        "tensor_cores": np.zeros(rows, bool),
    }))  # fmt: skip


def test_join_adds_ncu_means_and_keeps_unmatched_kernels():
    metrics = read_ncu_csv(str(LONG), LIMIT)
    kernels = _trace_kernels([(CUTLASS, 9000), (CUTLASS, 8000), ("void other_kernel<1>(int)", 5)])
    joined = join_kernel_metrics(kernels, metrics)
    assert list(joined.columns) == list(kernels.columns) + NCU_JOIN_COLUMNS
    by_name = joined.set_index("name")
    cutlass = by_name.loc[CUTLASS]
    assert (cutlass["calls"], cutlass["ncu_launches"], cutlass["ncu_match"]) == (2, 1, "exact")
    assert cutlass["ncu_duration_ns"] == 8192.0 and cutlass["ncu_registers_per_thread"] == 104
    other = by_name.loc["void other_kernel<1>(int)"]
    assert other["ncu_launches"] == 0 and other["ncu_match"] == ""
    assert math.isnan(other["ncu_duration_ns"])
    (unmatched,) = [n for n in joined["name"] if n.startswith("void phi::")]
    row = by_name.loc[unmatched]
    assert (row["calls"], row["ncu_match"], row["ncu_duration_ns"]) == (0, "unmatched", 3584.0)


def test_join_averages_launches_of_one_kernel(tmp_path):
    """Two launches under one name (the second kernel renamed to the first): means."""
    phi = read_ncu_csv(str(LONG), LIMIT)["kernel"][1]
    path = tmp_path / "k.csv"
    path.write_text(LONG.read_text().replace(phi, CUTLASS))
    joined = join_kernel_metrics(_trace_kernels([(CUTLASS, 10)]), read_ncu_csv(str(path), LIMIT))
    row = joined.set_index("name").loc[CUTLASS]
    assert row["ncu_launches"] == 2
    assert row["ncu_duration_ns"] == (8192 + 3584) / 2
    assert row["ncu_achieved_occupancy_pct"] == pytest.approx((8.32 + 4.16) / 2)
    assert len(joined) == 1


def test_name_matching_levels_on_a_real_trace(shared_data):
    """The saxpy export's kernel is "saxpy(double *, double *, double *, double, int)"; ncu may
    print it whole, without arguments or as a base name."""
    trace = read_nsys_sqlite(str(shared_data / SAXPY), 1 << 30)
    names = kernel_table([trace])["name"].tolist()
    assert names == ["saxpy(double *, double *, double *, double, int)"]
    found = match_kernel_names(
        ["saxpy(double *, double *, double *, double, int)", "saxpy(double*, ...)", "saxpy",
         "void ns::saxpy<2>(int)", "daxpy"], names,
    )  # fmt: skip
    full = names[0]
    assert found == {
        "saxpy(double *, double *, double *, double, int)": (full, "exact"),
        "saxpy(double*, ...)": (full, "name"),
        "saxpy": (full, "name"),  # the trace's name less its arguments
        "void ns::saxpy<2>(int)": (full, "base name"),
        "daxpy": ("", "unmatched"),
    }


def test_a_base_name_shared_by_template_instances_is_ambiguous():
    trace_names = [
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3>)",
    ]
    found = match_kernel_names(
        ["vectorized_elementwise_kernel", trace_names[1].split(">(")[0] + ">"], trace_names
    )
    assert found["vectorized_elementwise_kernel"] == ("", "ambiguous")
    assert found[trace_names[1].split(">(")[0] + ">"] == (trace_names[1], "name")


def test_non_ascii_digits_are_not_ids(tmp_path):
    """"²".isdigit() is True but int("²") fails: such a device reads as unknown, not a crash."""
    path = tmp_path / "k.csv"
    text = DETAILS.read_text().replace('"(9, 32, 1)","0","10.0"', '"(9, 32, 1)","²","10.0"')
    path.write_text(text)
    assert read_ncu_csv(str(path), LIMIT)["device"].tolist() == [-1]
