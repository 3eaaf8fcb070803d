// The GPU tab: the traces' GPU summary per device, then GpuTracker's samples over time per rank
// — each GPU's utilization, memory, power, SM clock and temperature — with the rank's step
// boundaries marked, and the process side (CPU use, RSS). Without GPU samples it shows the
// process side and says why the samples are absent.

import { lineChart, type LineSeries } from "../base/chart";
import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { formatDuration, formatMemory, memoryTickFormat, numberTickFormat } from "../base/format";
import { gpuSummaryPanel } from "../panels/gpuSummary";
import { chartedRanks } from "../panels/rankHeatmap";
import { seriesColor } from "../base/theme";
import { fetchGpu } from "./api";
import type { GpuAnswer, GpuDevice, RankSystem } from "./types";

type GpuValue = "util" | "mem_used" | "power_w" | "sm_clock_mhz" | "temp_c";

interface GpuChart {
  value: GpuValue;
  title: string;
  testId: string;
  format: (v: number) => string;
  ticks: (ticks: readonly number[]) => (v: number) => string;
}

const GPU_CHARTS: readonly GpuChart[] = [
  {
    value: "util",
    title: "GPU utilization (share of time a kernel ran, NVML)",
    testId: "gpu-util-chart",
    format: (v) => `${v.toFixed(1)} %`,
    ticks: numberTickFormat(" %"),
  },
  {
    value: "mem_used",
    title: "GPU memory used (dashed: the device's total)",
    testId: "gpu-memory-chart",
    format: formatMemory,
    ticks: memoryTickFormat,
  },
  {
    value: "power_w",
    title: "Power",
    testId: "gpu-power-chart",
    format: (v) => `${v.toFixed(1)} W`,
    ticks: numberTickFormat(" W"),
  },
  {
    value: "sm_clock_mhz",
    title: "SM clock",
    testId: "gpu-clock-chart",
    format: (v) => `${v.toFixed(0)} MHz`,
    ticks: numberTickFormat(" MHz"),
  },
  {
    value: "temp_c",
    title: "Temperature",
    testId: "gpu-temp-chart",
    format: (v) => `${v.toFixed(0)} °C`,
    ticks: numberTickFormat(" °C"),
  },
];

function points(x: readonly number[], y: readonly (number | null)[] | null): { x: number[]; y: number[] } {
  const out = { x: [] as number[], y: [] as number[] };
  y?.forEach((value, i) => {
    const at = x[i];
    if (value !== null && at !== undefined) {
      out.x.push(at);
      out.y.push(value);
    }
  });
  return out;
}

function section(title: string, testId: string, ...content: (Node | string | null)[]): HTMLElement {
  return h("section", { class: "panel", "data-testid": testId }, h("h2", {}, title), ...content);
}

/** Step starts of the first rank shown (ranks step together; one set of lines stays legible). */
function stepMarks(ranks: readonly RankSystem[]): { marks: number[]; label: string } {
  const first = ranks.find((r) => r.steps.start_ns.length > 0);
  if (!first) return { marks: [], label: "" };
  const every = first.steps.every > 1 ? `every ${first.steps.every}th ` : "";
  return { marks: first.steps.start_ns, label: `${every}step start (rank ${first.rank})` };
}

function deviceLabel(rank: RankSystem, device: GpuDevice, many: boolean): string {
  const name = `GPU ${device.index}${device.name ? ` ${device.name}` : ""}`;
  return many ? `rank ${rank.rank} ${name}` : name;
}

function gpuChart(spec: GpuChart, ranks: readonly RankSystem[]): HTMLElement | null {
  const many = ranks.length > 1;
  const series: LineSeries[] = [];
  let color = 0;
  for (const rank of ranks) {
    for (const device of rank.devices) {
      const { x, y } = points(device.t_ns, device[spec.value]);
      if (x.length === 0) continue;
      const label = deviceLabel(rank, device, many);
      const colour = seriesColor(color);
      color += 1;
      series.push({ label, color: colour, x, y });
      if (spec.value === "mem_used") {
        const total = points(device.t_ns, device.mem_total);
        if (total.x.length) series.push({ ...total, label: `${label} total`, color: colour, dashed: true });
      }
    }
  }
  if (series.length === 0) return null;
  const { marks, label } = stepMarks(ranks);
  return section(
    spec.title,
    spec.testId,
    lineChart({
      series,
      height: 200,
      xLabel: "time since the first sample",
      formatX: formatDuration,
      formatY: spec.format,
      yTickFormat: spec.ticks,
      testId: `${spec.testId}-plot`,
      markers: marks,
      markerLabel: label,
    }),
  );
}

function processCharts(ranks: readonly RankSystem[]): HTMLElement[] {
  const many = ranks.length > 1;
  const { marks, label } = stepMarks(ranks);
  const make = (
    value: "cpu_pct" | "rss",
    title: string,
    testId: string,
    format: (v: number) => string,
    ticks: (t: readonly number[]) => (v: number) => string,
  ): HTMLElement | null => {
    const series = ranks
      .map((rank, i) => ({ rank, i, ...points(rank.t_ns, rank[value]) }))
      .filter((s) => s.x.length > 0)
      .map((s) => ({ label: many ? `rank ${s.rank.rank}` : "this process", color: seriesColor(s.i), x: s.x, y: s.y }));
    if (series.length === 0) return null;
    return section(
      title,
      testId,
      lineChart({
        series, height: 180, xLabel: "time since the first sample", formatX: formatDuration,
        formatY: format, yTickFormat: ticks, testId: `${testId}-plot`, markers: marks, markerLabel: label,
      }),
    );
  };
  return [
    make("cpu_pct", "Process CPU use (% of one core; DataLoader workers not included)", "cpu-chart",
      (v) => `${v.toFixed(1)} %`, numberTickFormat(" %")),
    make("rss", "Process resident memory (RSS)", "cpu-rss-chart", formatMemory, memoryTickFormat),
  ].filter((e): e is HTMLElement => e !== null);
}

function reasonsPanel(answer: GpuAnswer): HTMLElement | null {
  if (answer.gpu_reason !== null) {
    return h(
      "section",
      { class: "notice", "data-testid": "gpu-reason", role: "status" },
      h("strong", {}, "No GpuTracker samples: "),
      `${answer.gpu_reason}.`,
      answer.ranks.length ? " The process side is shown below." : "",
    );
  }
  const missing = answer.ranks.filter((r) => r.gpu_reason !== null);
  if (missing.length === 0) return null;
  return h(
    "section",
    { class: "notice", "data-testid": "gpu-rank-reasons", role: "status" },
    h("strong", {}, "Some ranks have no GPU samples: "),
    missing.map((r) => `rank ${r.rank}: ${r.gpu_reason}`).join("; "),
  );
}

function mean(values: readonly (number | null)[] | null): number | null {
  const known = (values ?? []).filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
}

/** A rank's mean GPU utilization over its devices, else its mean CPU use. */
function rankLoad(rank: RankSystem): number | null {
  return mean(rank.devices.map((d) => mean(d.util))) ?? mean(rank.cpu_pct);
}

function renderGpu(answer: GpuAnswer): HTMLElement {
  const hasGpus = answer.ranks.some((r) => r.devices.length > 0);
  const { charted: ranks, note } = chartedRanks(
    answer.ranks, rankLoad, hasGpus ? "mean GPU utilization" : "mean CPU use",
  );
  const gpu = GPU_CHARTS.map((spec) => gpuChart(spec, ranks)).filter(
    (e): e is HTMLElement => e !== null,
  );
  const empty =
    ranks.length === 0
      ? h(
          "p",
          { class: "muted", "data-testid": "no-system" },
          "Start collectors.GpuTracker(timer.writer) in the training processes to sample the " +
            "GPUs and the process about once a second.",
        )
      : null;
  return h(
    "div",
    { class: "gpu", "data-testid": "gpu" },
    gpuSummaryPanel(answer.gpus),
    reasonsPanel(answer),
    note,
    ...gpu,
    ...processCharts(ranks),
    empty,
  );
}

export const gpuDashboard: Dashboard = {
  id: "gpu",
  label: "GPU",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress }) {
    return renderGpu(await fetchGpu(run, rank, signal, onProgress));
  },
};
