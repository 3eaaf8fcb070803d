// The Memory tab: MemorySampler's curves per rank over steps (allocated, reserved, peak, RSS)
// with a leak's fitted line, the same over time, the memory findings, each rank's peak and
// fragmentation, and the run's memory snapshots: what holds the peak, by first user frame, and
// the allocation timeline viewer.

import { findingsPanel } from "../panels/findings";
import { lineChart, type LineSeries } from "../base/chart";
import { chartedRanks } from "../panels/rankHeatmap";
import type { Dashboard, NavigationParams } from "../base/dashboard";
import { h } from "../base/dom";
import {
  formatCount,
  formatDuration,
  formatMemory,
  formatPercent,
  memoryTickFormat,
} from "../base/format";
import { type Column, dataTable } from "../base/table";
import { seriesColor } from "../base/theme";
import { fetchMemory, fetchSnapshot } from "./api";
import { operatorMemoryPanel } from "./operatorMemory";
import { SnapshotViewer } from "./snapshotViewer";
import type {
  Allocation,
  FrameGroup,
  MemoryAnswer,
  RankMemory,
  SnapshotAnswer,
  SnapshotDevice,
  SnapshotFile,
} from "./types";

const SERIES = ["allocated", "reserved", "peak", "rss"] as const;
type SeriesName = (typeof SERIES)[number];
const SERIES_LABELS: Record<SeriesName, string> = {
  allocated: "allocated",
  reserved: "reserved",
  peak: "peak allocated",
  rss: "RSS",
};
const LEAK_COLOR = "#d62728";

function section(title: string, testId: string, ...content: (Node | string | null)[]): HTMLElement {
  return h("section", { class: "panel", "data-testid": testId }, h("h2", {}, title), ...content);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Points of one series where it has a value. */
function points(
  x: readonly number[],
  y: readonly (number | null)[],
): { x: number[]; y: number[] } {
  const out = { x: [] as number[], y: [] as number[] };
  y.forEach((value, i) => {
    const at = x[i];
    if (value !== null && at !== undefined) {
      out.x.push(at);
      out.y.push(value);
    }
  });
  return out;
}

/** A series' name prefix: its rank among several, and "trace" where a rank has both sources. */
function seriesPrefix(rank: RankMemory, ranks: readonly RankMemory[]): string {
  const twice = ranks.filter((r) => r.rank === rank.rank).length > 1;
  const who = ranks.length > 1 && new Set(ranks.map((r) => r.rank)).size > 1 ? `rank ${rank.rank} ` : "";
  return `${who}${twice && rank.source === "trace" ? "trace " : ""}`;
}

function memorySeries(ranks: readonly RankMemory[], by: "steps" | "t_ns"): LineSeries[] {
  const out: LineSeries[] = [];
  let color = 0;
  for (const rank of ranks) {
    const prefix = seriesPrefix(rank, ranks);
    for (const name of SERIES) {
      const values = rank[name];
      if (!values) continue;
      const { x, y } = points(rank[by], values);
      if (x.length === 0) continue;
      const label = `${prefix}${SERIES_LABELS[name]}`;
      out.push({ label, color: seriesColor(color), x, y });
      color += 1;
    }
    const trend = rank.trend;
    if (by === "steps" && trend?.leak) {
      out.push({
        label: `${prefix}leak trend (${formatMemory(trend.slope)}/step)`,
        color: LEAK_COLOR,
        x: [trend.first_step, trend.last_step],
        y: [trend.start_level, trend.end_level],
        dashed: true,
      });
    }
  }
  return out;
}

function memoryCharts(answer: MemoryAnswer, onSteps: (from: number, to: number) => void): HTMLElement[] {
  const ranks = answer.ranks;
  if (ranks.length === 0) {
    return [
      h(
        "p",
        { class: "muted", "data-testid": "no-memory" },
        answer.empty_reason ??
          "No MemorySampler records in this run. Wrap the training loop in " +
            "“with MemorySampler(timer):” (from collectors) to record memory every step.",
      ),
    ];
  }
  const leaking = new Set(ranks.filter((r) => r.trend?.leak).map((r) => r.rank));
  const lastRss = (r: RankMemory): number | null => r.rss?.filter((v) => v !== null).at(-1) ?? null;
  const { charted, note: chartedNote } = chartedRanks(
    ranks, (r) => r.max_peak?.bytes ?? lastRss(r), "peak allocation (the last RSS without CUDA)", leaking,
  );
  const bucket = Math.max(...ranks.map((r) => r.bucket));
  const note =
    bucket > 1
      ? h("p", { class: "muted" }, `Each point is the mean of ${bucket} consecutive steps (peak: their maximum).`)
      : null;
  const sampled = new Set(ranks.filter((r) => r.source !== "trace").map((r) => r.rank));
  const traced = ranks.filter((r) => r.source === "trace").map((r) => r.rank);
  const onlyTraced = traced.filter((r) => !sampled.has(r));
  const bothTraced = traced.filter((r) => sampled.has(r));
  const source =
    traced.length > 0
      ? h(
          "p",
          { class: "muted", "data-testid": "memory-from-traces" },
          (onlyTraced.length > 0
            ? `From torch.profiler's memory events (profile_memory=True), not MemorySampler: rank(s) ${onlyTraced.join(", ")}. `
            : "") +
            (bothTraced.length > 0
              ? `Rank(s) ${bothTraced.join(", ")} have both: MemorySampler's series and, marked “trace”, torch.profiler's memory events over the traced steps. `
              : "") +
            "From traces: allocated and reserved as they stood at each step's end; peak: the most allocated within the step.",
        )
      : null;
  const bySteps = lineChart({
    series: memorySeries(charted, "steps"),
    height: 280,
    xLabel: "step",
    formatX: (x) => String(x),
    formatY: formatMemory,
    yTickFormat: memoryTickFormat,
    testId: "memory-step-chart",
    onRangeSelect: onSteps,
  });
  const byTime = lineChart({
    series: memorySeries(charted, "t_ns"),
    height: 220,
    xLabel: "time since the first sample",
    formatX: formatDuration,
    formatY: formatMemory,
    yTickFormat: memoryTickFormat,
    testId: "memory-time-chart",
  });
  return [
    section(
      "Memory per step",
      "memory-steps",
      source,
      chartedNote,
      bySteps,
      note,
      h("p", { class: "muted" }, "Drag across the chart to see what each operator allocated in those steps (Memory by operator, below)."),
    ),
    section("Memory over time", "memory-time", byTime),
  ];
}

const RANK_COLUMNS: Column<RankMemory>[] = [
  { key: "rank", label: "rank", numeric: true, value: (r) => r.rank },
  { key: "device", label: "device", numeric: false, value: (r) => r.device },
  { key: "source", label: "source", numeric: false, value: (r) => r.source },
  {
    key: "device_total",
    label: "device memory",
    numeric: true,
    value: (r) => r.device_total,
    format: (r) => formatMemory(r.device_total),
  },
  {
    key: "peak",
    label: "peak allocated",
    title: "The highest peak (else allocated) any step recorded",
    numeric: true,
    value: (r) => r.max_peak?.bytes ?? null,
    format: (r) => formatMemory(r.max_peak?.bytes),
  },
  {
    key: "peak_share",
    label: "% of device",
    numeric: true,
    value: (r) => (r.max_peak?.share ?? null) === null ? null : (r.max_peak?.share ?? 0) * 100,
    format: (r) => formatPercent(r.max_peak?.share === null || !r.max_peak ? null : r.max_peak.share * 100),
  },
  {
    key: "unused",
    label: "reserved above peak",
    title: "Median over steps after warm-up of reserved memory the peak never used (fragmentation)",
    numeric: true,
    value: (r) => r.fragmentation?.unused ?? null,
    format: (r) =>
      r.fragmentation
        ? `${formatMemory(r.fragmentation.unused)} (${(r.fragmentation.unused_fraction * 100).toFixed(0)} %)`
        : "—",
  },
  {
    key: "retries",
    label: "alloc retries",
    numeric: true,
    value: (r) => r.fragmentation?.retries ?? null,
    format: (r) => formatCount(r.fragmentation?.retries),
  },
  {
    key: "slope",
    label: "trend per step",
    title: "Theil-Sen slope after warm-up (allocated on CUDA, else RSS), with its 95 % interval",
    numeric: true,
    value: (r) => r.trend?.slope ?? null,
    format: (r) =>
      r.trend
        ? `${formatMemory(r.trend.slope)} [${formatMemory(r.trend.low)}, ${formatMemory(r.trend.high)}]`
        : "—",
  },
];

const FRAME_COLUMNS: Column<FrameGroup>[] = [
  { key: "label", label: "first user frame", numeric: false, value: (g) => g.label },
  {
    key: "peak_bytes",
    label: "live at peak",
    numeric: true,
    value: (g) => g.peak_bytes,
    format: (g) => `${formatMemory(g.peak_bytes)} (${formatCount(g.peak_count)})`,
  },
  {
    key: "snapshot_bytes",
    label: "live at snapshot",
    numeric: true,
    value: (g) => g.snapshot_bytes,
    format: (g) => `${formatMemory(g.snapshot_bytes)} (${formatCount(g.snapshot_count)})`,
  },
  {
    key: "trace_bytes",
    label: "allocated in trace",
    numeric: true,
    value: (g) => g.trace_bytes,
    format: (g) => `${formatMemory(g.trace_bytes)} (${formatCount(g.trace_count)})`,
  },
];

const LARGEST_COLUMNS: Column<Allocation>[] = [
  { key: "index", label: "allocation", numeric: true, value: (a) => a.index },
  {
    key: "size",
    label: "size",
    numeric: true,
    value: (a) => a.size,
    format: (a) => formatMemory(a.size),
  },
  {
    key: "frame",
    label: "first user frame",
    numeric: false,
    value: (a) =>
      a.first_user_frame
        ? `${a.first_user_frame.filename}:${a.first_user_frame.line} (${a.first_user_frame.name})`
        : "—",
  },
];

function deviceView(
  run: string,
  snapshot: SnapshotAnswer,
  device: SnapshotDevice,
  signal: AbortSignal,
): HTMLElement {
  const viewer = new SnapshotViewer(run, snapshot.file, device, snapshot.time_unit, signal);
  const shown = device.by_first_user_frame.length;
  return h(
    "div",
    { class: "snapshot-device", "data-testid": "snapshot-device" },
    h(
      "p",
      { class: "muted" },
      `Device ${device.device}: ${formatMemory(device.reserved_bytes)} reserved, ` +
        `${formatMemory(device.allocated_bytes)} allocated at the snapshot; at most ` +
        `${formatMemory(device.peak.live_bytes)} live at once (with ` +
        `${formatMemory(device.peak.reserved_bytes)} reserved); ${formatCount(device.allocations)} allocations.`,
    ),
    h("h3", {}, "What holds the peak, by first user frame"),
    h(
      "div",
      { class: "table-scroll" },
      dataTable({
        columns: FRAME_COLUMNS,
        rows: device.by_first_user_frame,
        testId: "peak-frames",
        rowTestId: "peak-frame",
        rowName: (g) => g.label,
      }),
    ),
    shown < device.frames_total
      ? h("p", { class: "muted" }, `The ${shown} of ${device.frames_total} groups with the most memory at the peak.`)
      : null,
    h("h3", {}, "Largest allocations at the peak"),
    h(
      "div",
      { class: "table-scroll" },
      dataTable({
        columns: LARGEST_COLUMNS,
        rows: device.largest_at_peak,
        testId: "peak-largest",
        rowTestId: "peak-allocation",
        rowName: (a) => String(a.index),
      }),
    ),
    h("h3", {}, "Allocations over time"),
    viewer.element,
  );
}

function snapshotView(run: string, snapshot: SnapshotAnswer, signal: AbortSignal): HTMLElement {
  const devices = snapshot.devices;
  const body = h("div", {});
  const select = h(
    "select",
    { "data-testid": "snapshot-device-select", "aria-label": "Device" },
    ...devices.map((d) => h("option", { value: String(d.device) }, `cuda:${d.device}`)),
  );
  const showDevice = (): void => {
    const device = devices.find((d) => String(d.device) === select.value) ?? devices[0];
    body.replaceChildren(device ? deviceView(run, snapshot, device, signal) : h("p", { class: "muted" }, "This snapshot holds no device."));
  };
  select.addEventListener("change", showDevice);
  showDevice();
  const ooms = snapshot.trace_entries["oom"] ?? 0;
  return h(
    "div",
    { "data-testid": "snapshot-summary" },
    h(
      "p",
      {},
      `${snapshot.format} snapshot, ${formatMemory(snapshot.reserved_bytes)} reserved, ` +
        `${formatMemory(snapshot.allocated_bytes)} allocated, free blocks ` +
        `${(snapshot.fragmentation.external * 100).toFixed(0)} % fragmented` +
        (ooms ? `; ${ooms} out-of-memory error(s) in its trace` : "") +
        (snapshot.time_unit === "index" ? "; no times recorded (entries in order)" : ""),
    ),
    devices.length > 1 ? h("label", {}, "Device ", select) : null,
    body,
  );
}

function snapshotsPanel(
  run: string,
  files: readonly SnapshotFile[],
  chosen: string | null,
  signal: AbortSignal,
): HTMLElement {
  if (files.length === 0) {
    return section(
      "Memory snapshots",
      "snapshots",
      h(
        "p",
        { class: "muted", "data-testid": "no-snapshots" },
        "No memory snapshots in this run. Record CUDA allocator history around a few steps " +
          "with MemorySnapshotter (ENABLE_MEMORY_SNAPSHOT=1) to see what holds the peak, by " +
          "line of code, and every allocation over time.",
      ),
    );
  }
  const select = h(
    "select",
    { "data-testid": "snapshot-select", "aria-label": "Snapshot" },
    ...files.map((f) =>
      h(
        "option",
        { value: f.file },
        `${f.file} (${f.rank === null ? "rank unknown" : `rank ${f.rank}`}, ${formatMemory(f.bytes)})`,
      ),
    ),
  );
  select.value = files.some((f) => f.file === chosen) ? (chosen ?? "") : (files[0]?.file ?? "");
  const body = h("div", { class: "snapshot-body" });
  let loading = new AbortController();
  const load = async (): Promise<void> => {
    loading.abort();
    loading = new AbortController();
    const local = AbortSignal.any([signal, loading.signal]);
    const file = select.value;
    body.replaceChildren(h("p", { class: "muted" }, `Loading ${file}…`));
    try {
      const snapshot = await fetchSnapshot(run, file, local, (p) => {
        body.replaceChildren(h("p", { class: "muted" }, `Loading ${file}… ${Math.round(p.fraction * 100)} %`));
      });
      body.replaceChildren(snapshotView(run, snapshot, local));
    } catch (error) {
      if (isAbort(error)) return;
      body.replaceChildren(
        h("div", { class: "error", role: "alert", "data-testid": "snapshot-error" },
          h("strong", {}, `Could not read ${file}`), h("p", {}, error instanceof Error ? error.message : String(error))),
      );
    }
  };
  select.addEventListener("change", () => void load());
  void load();
  return section("Memory snapshots", "snapshots", h("label", {}, "Snapshot ", select), body);
}

function warningsPanel(warnings: readonly string[]): HTMLElement | null {
  if (warnings.length === 0) return null;
  return h(
    "section",
    { class: "warnings", "data-testid": "warnings", role: "status" },
    h("h2", {}, `${warnings.length} warning(s) while reading memory data`),
    h("ul", {}, ...warnings.map((w) => h("li", {}, w))),
  );
}

function renderMemory(
  answer: MemoryAnswer,
  navigate: (tab: string, params: NavigationParams) => void,
  chosenSnapshot: string | null,
  signal: AbortSignal,
): HTMLElement {
  const table =
    answer.ranks.length > 0
      ? section(
          "Peak and fragmentation per rank",
          "memory-ranks",
          h(
            "div",
            { class: "table-scroll" },
            dataTable({
              columns: RANK_COLUMNS,
              rows: answer.ranks,
              testId: "memory-rank-table",
              rowTestId: "memory-rank-row",
              rowName: (r) => String(r.rank),
            }),
          ),
        )
      : null;
  const operators = operatorMemoryPanel(answer, signal);
  return h(
    "div",
    { class: "memory", "data-testid": "memory" },
    warningsPanel(answer.warnings),
    findingsPanel(answer.findings, navigate),
    ...memoryCharts(answer, (from, to) => operators.showSteps(from, to)),
    table,
    operators.element,
    snapshotsPanel(answer.run, answer.snapshots, chosenSnapshot, signal),
  );
}

export const memoryDashboard: Dashboard = {
  id: "memory",
  label: "Memory",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress, navigate, params }) {
    const answer = await fetchMemory(run, rank, signal, onProgress);
    const snapshot = typeof params["snapshot"] === "string" ? params["snapshot"] : null;
    return renderMemory(answer, navigate, snapshot, signal);
  },
};
