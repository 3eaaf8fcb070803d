// The Kernels tab: per kernel name statistics (Tensor Cores guessed from names), and GPU
// utilization and est. SM efficiency over time per device.

import { lineChart } from "../chart";
import type { Dashboard } from "../dashboard";
import { h } from "../dom";
import { formatCount, formatDuration } from "../format";
import { readHash, updateHash } from "../hashState";
import { type Column, dataTable, type SortState } from "../table";
import { seriesColor } from "../theme";
import { fetchKernels } from "./api";
import type { DeviceSeries, KernelRow } from "./types";

const MAX_ROWS = 1000;

const optionalNumber = (value: number | null, digits: number, suffix = ""): string =>
  value === null ? "—" : `${value.toFixed(digits)}${suffix}`;

const COLUMNS: Column<KernelRow>[] = [
  { key: "name", label: "kernel", numeric: false, value: (r) => r.name },
  { key: "calls", label: "calls", numeric: true, value: (r) => r.calls, format: (r) => formatCount(r.calls) },
  { key: "total_ns", label: "total", numeric: true, value: (r) => r.total_ns, format: (r) => formatDuration(r.total_ns) },
  { key: "mean_ns", label: "mean", numeric: true, value: (r) => r.mean_ns, format: (r) => formatDuration(r.mean_ns) },
  { key: "max_ns", label: "max", numeric: true, value: (r) => r.max_ns, format: (r) => formatDuration(r.max_ns) },
  {
    key: "pct_of_kernel_time",
    label: "% of GPU time",
    numeric: true,
    value: (r) => r.pct_of_kernel_time,
    format: (r) => `${r.pct_of_kernel_time.toFixed(1)} %`,
  },
  {
    key: "tensor_cores",
    label: "Tensor Cores",
    title: "Guessed from the kernel's name (docs/ANALYSIS.md)",
    numeric: false,
    value: (r) => (r.tensor_cores ? "yes" : "no"),
  },
  {
    key: "mean_est_occupancy_pct",
    label: "est. occupancy",
    numeric: true,
    value: (r) => r.mean_est_occupancy_pct,
    format: (r) => optionalNumber(r.mean_est_occupancy_pct, 1, " %"),
  },
  {
    key: "est_sm_efficiency",
    label: "est. SM efficiency",
    numeric: true,
    value: (r) => r.est_sm_efficiency,
    format: (r) => optionalNumber(r.est_sm_efficiency === null ? null : r.est_sm_efficiency * 100, 1, " %"),
  },
];

function sortFromHash(): SortState {
  const params = readHash();
  const key = params.get("ksort");
  const direction = params.get("kdir");
  if (COLUMNS.some((c) => c.key === key) && (direction === "asc" || direction === "desc")) {
    return { key: key as string, direction };
  }
  return { key: "total_ns", direction: "desc" };
}

function utilizationChart(devices: readonly DeviceSeries[]): HTMLElement {
  if (devices.length === 0) return h("p", { class: "muted" }, "No GPU kernels in this run's traces.");
  const series = devices.flatMap((device, index) => {
    const first = BigInt(device.start_ns[0] ?? "0");
    const x = device.start_ns.map((t) => Number(BigInt(t) - first));
    const label = `rank ${device.rank} GPU ${device.device}`;
    return [
      { label: `${label} utilization`, color: seriesColor(2 * index), x, y: device.utilization.map((u) => u * 100) },
      { label: `${label} est. SM efficiency`, color: seriesColor(2 * index + 1), x, y: device.est_sm_efficiency.map((u) => u * 100) },
    ];
  });
  return lineChart({
    series,
    height: 220,
    xLabel: "time from the trace's start",
    formatX: formatDuration,
    formatY: (y) => `${y.toFixed(1)} %`,
    yTickFormat: () => (y) => `${y} %`,
    testId: "gpu-utilization-chart",
  });
}

export const kernelsDashboard: Dashboard = {
  id: "kernels",
  label: "Kernels",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress }) {
    const answer = await fetchKernels(run, rank, MAX_ROWS, signal, onProgress);
    const tensorCores = answer.devices.map(
      (d) => `rank ${d.rank} GPU ${d.device}: ${d.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`,
    );
    const table =
      answer.rows.length === 0
        ? h("p", { class: "muted" }, "No GPU kernels in this run's traces.")
        : dataTable({
            columns: COLUMNS,
            rows: answer.rows,
            testId: "kernel-table",
            rowTestId: "kernel-row",
            rowName: (r) => r.name,
            sort: sortFromHash(),
            onSortChange: (sort) => updateHash({ ksort: sort.key, kdir: sort.direction }),
          });
    return h(
      "div",
      { class: "overview", "data-testid": "kernels" },
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "GPU utilization and est. SM efficiency"),
        utilizationChart(answer.devices),
        ...tensorCores.map((line) => h("p", { class: "muted" }, line)),
      ),
      h("section", { class: "panel" }, h("h2", {}, "Kernels"), h("div", { class: "table-scroll" }, table)),
    );
  },
};
