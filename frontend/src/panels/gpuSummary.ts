// The GPU summary: per rank and device of the traces, what the device is (deviceProperties)
// and how its kernels used it over the step windows (docs/ANALYSIS.md, GPU summary). Shown at
// the top of the Overview and of the GPU tab.

import { h } from "../base/dom";
import { formatCount, formatMemory, formatPercent } from "../base/format";
import { type Column, dataTable } from "../base/table";

/** One entry of the summary and gpu routes' `gpus` (shares are fractions 0..1). */
export interface GpuSummary {
  rank: number;
  device: number;
  name: string | null;
  memory_bytes: number | null;
  compute_capability: string | null;
  sm_count: number | null;
  utilization: number;
  sm_efficiency: number | null;
  occupancy: number | null;
  tensor_core_share: number | null;
  window_ns: number;
}

function shareColumn(
  key: keyof GpuSummary & string,
  label: string,
  title: string,
  value: (g: GpuSummary) => number | null,
): Column<GpuSummary> {
  return {
    key,
    label,
    title,
    numeric: true,
    value,
    format: (g) => {
      const share = value(g);
      return formatPercent(share === null ? null : share * 100);
    },
  };
}

const COLUMNS: Column<GpuSummary>[] = [
  { key: "rank", label: "rank", numeric: true, value: (g) => g.rank },
  { key: "device", label: "GPU", numeric: true, value: (g) => g.device },
  { key: "name", label: "name", numeric: false, value: (g) => g.name, format: (g) => g.name ?? "—" },
  {
    key: "memory_bytes",
    label: "memory",
    numeric: true,
    value: (g) => g.memory_bytes,
    format: (g) => formatMemory(g.memory_bytes),
  },
  {
    key: "compute_capability",
    label: "compute capability",
    numeric: false,
    value: (g) => g.compute_capability,
    format: (g) => g.compute_capability ?? "—",
  },
  {
    key: "sm_count",
    label: "SMs",
    numeric: true,
    value: (g) => g.sm_count,
    format: (g) => formatCount(g.sm_count),
  },
  shareColumn("utilization", "GPU utilization",
    "Share of the step windows in which some kernel runs on this GPU", (g) => g.utilization),
  shareColumn("sm_efficiency", "est. SM efficiency",
    "Share of the SMs busy over the step windows: the running kernels' blocks per SM, capped at 1",
    (g) => g.sm_efficiency),
  shareColumn("occupancy", "est. achieved occupancy",
    "Kernel-time-weighted mean of the kernels' est. achieved occupancy (trace args)",
    (g) => g.occupancy),
  shareColumn("tensor_core_share", "Tensor Cores",
    "Share of kernel time in kernels that use Tensor Cores (guessed from kernel names)",
    (g) => g.tensor_core_share),
];

/** The table, or null when the traces have no GPU kernels. */
export function gpuSummaryPanel(gpus: readonly GpuSummary[]): HTMLElement | null {
  if (gpus.length === 0) return null;
  return h(
    "section",
    { class: "panel", "data-testid": "gpu-summary" },
    h("h2", {}, "GPU summary"),
    h(
      "p",
      { class: "muted" },
      "From the traces: each device's properties, and its kernels over the step windows " +
        "(torch-tb-profiler's definitions; docs/ANALYSIS.md).",
    ),
    h(
      "div",
      { class: "table-scroll" },
      dataTable({
        columns: COLUMNS,
        rows: gpus,
        testId: "gpu-summary-table",
        rowTestId: "gpu-summary-row",
        rowName: (g) => `${g.rank}/${g.device}`,
      }),
    ),
  );
}
