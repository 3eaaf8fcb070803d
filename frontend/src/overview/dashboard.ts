// Overview dashboard: the GPU summary and the findings first, then the step-time breakdown
// with the execution summary, per-rank step statistics, step time per rank, and the span table;
// for a run without traces or collector steps, what it holds and a button to the tab showing it.

import { fetchBreakdown, fetchFindings } from "../panels/api";
import { fetchKernels } from "../kernels/api";
import { fetchOperators } from "../operators/api";
import { breakdownChart } from "../panels/breakdown";
import { collectivesTable, rankSplitBars, splitLegend } from "../panels/distributed";
import { findingsPanel, savingsPanel, TAB_LABELS } from "../panels/findings";
import { gpuSummaryPanel } from "../panels/gpuSummary";
import type { BreakdownAnswer, DistributedBrief, Finding } from "../panels/types";
import type { KernelsAnswer } from "../kernels/types";
import type { OperatorsAnswer } from "../operators/types";
import { fetchSummary } from "./api";
import { executionTable } from "./execution";
import { lineChart } from "../base/chart";
import type { Dashboard, NavigationParams } from "../base/dashboard";
import { h } from "../base/dom";
import { durationTickFormat, formatCount, formatDuration, formatPercent } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { type Column, dataTable, durationColumn, type SortState } from "../base/table";
import { MANY_RANKS, RankHeatmapPanel } from "../panels/rankHeatmap";
import { seriesColor } from "../base/theme";
import type { RankSummary, SpanRow, Summary } from "./types";

const DEFAULT_SPAN_SORT: SortState = { key: "total_ns", direction: "desc" };

const RANK_COLUMNS: Column<RankSummary>[] = [
  { key: "rank", label: "rank", numeric: true, value: (r) => r.rank },
  { key: "host", label: "host", numeric: false, value: (r) => r.host, format: (r) => r.host ?? "—" },
  { key: "pid", label: "pid", numeric: true, value: (r) => r.pid, format: (r) => String(r.pid ?? "—") },
  { key: "status", label: "status", numeric: false, value: (r) => r.status },
  {
    key: "steps",
    label: "steps",
    numeric: true,
    value: (r) => r.steps,
    format: (r) => formatCount(r.steps),
  },
  {
    key: "step_source",
    label: "steps from",
    title: "MyTimer's steps, else the traces' ProfilerStep#N windows",
    numeric: false,
    value: (r) => r.step_source,
    format: (r) => r.step_source ?? "—",
  },
  durationColumn("mean", "mean step", (r) => r.step_time_ns?.mean ?? null),
  durationColumn("p50", "p50 step", (r) => r.step_time_ns?.p50 ?? null),
  durationColumn("p95", "p95 step", (r) => r.step_time_ns?.p95 ?? null),
  durationColumn("max", "max step", (r) => r.step_time_ns?.max ?? null),
];

const DEVICE_STEP_COLUMN = durationColumn(
  "device_mean",
  "mean step (device)",
  (r: RankSummary) => r.device_step_time_ns?.mean ?? null,
  "ProfilerStep windows run on to the end of the device work they launched (torch-tb-profiler's steps)",
);

const COMPUTE_COLUMNS: Column<RankSummary>[] = [
  {
    key: "tflops",
    label: "TFLOP/s",
    numeric: true,
    value: (r) => r.compute?.achieved_tflops ?? null,
    format: (r) => formatTflops(r.compute?.achieved_tflops),
    title: "Median achieved model TFLOP/s over the steps (FlopsCounter's count of one step)",
  },
  {
    key: "mfu",
    label: "MFU",
    numeric: true,
    value: (r) => r.compute?.mfu ?? null,
    format: (r) => formatPercent(r.compute?.mfu === null || r.compute?.mfu === undefined ? null : r.compute.mfu * 100),
    title: "Median model FLOPs utilization: achieved FLOP/s over the device's peak for the dtype",
  },
];

function formatTflops(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return value >= 10 ? value.toFixed(0) : value.toPrecision(2);
}

const COMPILE_COLUMNS: Column<RankSummary>[] = [
  { key: "rank", label: "rank", numeric: true, value: (r) => r.rank },
  durationColumn("compile_ns", "compile time", (r) => r.compile?.compile_ns ?? null),
  { key: "graphs", label: "graphs", numeric: true, value: (r) => r.compile?.graphs ?? null,
    format: (r) => formatCount(r.compile?.graphs) },
  { key: "recompiles", label: "recompiles", numeric: true,
    value: (r) => r.compile?.recompiles ?? null, format: (r) => formatCount(r.compile?.recompiles) },
  { key: "graph_breaks", label: "graph breaks", numeric: true,
    value: (r) => r.compile?.graph_breaks ?? null,
    format: (r) => formatCount(r.compile?.graph_breaks) },
  { key: "limit_hits", label: "limit hits", numeric: true,
    value: (r) => r.compile?.limit_hits ?? null, format: (r) => formatCount(r.compile?.limit_hits),
    title: "Functions that reached dynamo's recompile limit and now run uncompiled" },
];

/** Per rank: compile time, graphs, recompiles and graph breaks, then the commonest reasons. */
function compilePanel(ranks: readonly RankSummary[]): HTMLElement | null {
  const compiled = ranks.filter((r) => r.compile !== null);
  if (compiled.length === 0) return null;
  const reasons = compiled.flatMap((r) => [
    ...(r.compile?.recompile_reasons ?? []).map(
      (x) => `rank ${r.rank}: recompiled ${x.function} ×${x.count}: ${x.reason}`,
    ),
    ...(r.compile?.break_reasons ?? []).map((x) => `rank ${r.rank}: graph break ×${x.count}: ${x.reason}`),
  ]);
  const fromTraces = compiled.every((r) => r.compile?.source === "trace");
  return section(
    "torch.compile",
    h(
      "p",
      { class: "muted" },
      fromTraces
        ? "From the compiled regions of the traces (collectors.CompileMonitor adds graph breaks and reasons)."
        : "From collectors.CompileMonitor (docs/COMPUTE.md).",
    ),
    h("div", { class: "table-scroll" }, dataTable({
      columns: COMPILE_COLUMNS,
      rows: compiled,
      testId: "compile-table",
      rowTestId: "compile-row",
      rowName: (r) => String(r.rank),
    })),
    reasons.length
      ? h("ul", { class: "compile-reasons", "data-testid": "compile-reasons" },
          ...reasons.map((text) => h("li", {}, text)))
      : null,
  );
}

function spanColumns(withGpu: boolean): Column<SpanRow>[] {
  const columns: Column<SpanRow>[] = [
    { key: "name", label: "name", numeric: false, value: (s) => s.name },
    {
      key: "calls",
      label: "calls",
      numeric: true,
      value: (s) => s.calls,
      format: (s) => formatCount(s.calls),
    },
    durationColumn("total_ns", "total", (s) => s.total_ns, "Sum of the span's durations"),
    durationColumn("self_ns", "self", (s) => s.self_ns, "Total minus the time of direct child spans"),
    durationColumn("mean_ns", "mean", (s) => s.mean_ns),
    durationColumn("p50_ns", "p50", (s) => s.p50_ns),
    durationColumn("p95_ns", "p95", (s) => s.p95_ns),
    {
      key: "pct_of_step",
      label: "% of step",
      title:
        "Total as a share of all step time of the selected ranks (can exceed 100 % for spans outside steps)",
      numeric: true,
      value: (s) => s.pct_of_step,
      format: (s) => formatPercent(s.pct_of_step),
    },
  ];
  if (withGpu) {
    const gpuTitle = "Sum of the spans' CUDA-event durations";
    columns.push(durationColumn("gpu_total_ns", "GPU total", (s) => s.gpu_total_ns, gpuTitle));
  }
  return columns;
}

function spanSortFromHash(columns: readonly Column<SpanRow>[]): SortState {
  const params = readHash();
  const key = params.get("sort");
  const direction = params.get("dir");
  if (
    !columns.some((column) => column.key === key) ||
    (direction !== "asc" && direction !== "desc")
  ) {
    return DEFAULT_SPAN_SORT;
  }
  return { key: key ?? DEFAULT_SPAN_SORT.key, direction };
}

function section(title: string, ...content: (Node | string | null)[]): HTMLElement {
  return h("section", { class: "panel" }, h("h2", {}, title), ...content);
}

function warningsPanel(warnings: readonly string[]): HTMLElement | null {
  if (warnings.length === 0) return null;
  return h(
    "section",
    { class: "warnings", "data-testid": "warnings", role: "status" },
    h(
      "h2",
      {},
      warnings.length === 1
        ? "1 warning while reading this run"
        : `${warnings.length} warnings while reading this run`,
    ),
    h("ul", {}, ...warnings.map((warning) => h("li", {}, warning))),
  );
}

function stepChart(summary: Summary): HTMLElement {
  const series = summary.step_series.filter((s) => s.steps.length > 0);
  if (series.length === 0) return h("p", { class: "muted" }, "No completed steps yet.");
  const allRanks = summary.ranks.map((r) => r.rank);
  const bucket = Math.max(...series.map((s) => s.bucket));
  const chart = lineChart({
    series: series.map((s) => ({
      label: `rank ${s.rank}`,
      // Colour by position among all ranks, so a rank keeps its colour when it is selected alone.
      color: seriesColor(allRanks.indexOf(s.rank)),
      x: s.steps,
      y: s.time_ns,
    })),
    height: 260,
    xLabel: "step",
    formatX: (x) => String(x),
    formatY: formatDuration,
    yTickFormat: durationTickFormat,
    testId: "step-chart",
  });
  const note =
    bucket > 1
      ? h("p", { class: "muted" }, `Each point is the mean of ${bucket} consecutive steps.`)
      : null;
  return h("div", {}, chart, note);
}

function spanTable(summary: Summary): HTMLElement {
  if (summary.spans.length === 0) {
    return h("p", { class: "muted", "data-testid": "spans-empty" }, summary.spans_empty_reason ?? "");
  }
  const columns = spanColumns(summary.spans.some((s) => s.gpu_total_ns !== null));
  const table = dataTable({
    columns,
    rows: summary.spans,
    testId: "span-table",
    rowTestId: "span-row",
    rowName: (s) => s.name,
    sort: spanSortFromHash(columns),
    onSortChange: (sort) => updateHash({ sort: sort.key, dir: sort.direction }),
  });
  const truncated = summary.spans_truncated
    ? h(
        "p",
        { class: "muted" },
        `Showing the ${summary.spans.length} spans with the largest total time.`,
      )
    : null;
  return h("div", { class: "table-scroll" }, table, truncated);
}

function stepsCaption(summary: Summary): string {
  const { count, first, last } = summary.steps;
  const scope =
    summary.rank === null ? `all ${summary.ranks.length} ranks` : `rank ${summary.rank}`;
  if (count === 0 || first === null || last === null) return `No completed steps (${scope}).`;
  return `${formatCount(count)} steps, ${first}–${last} (${scope}).`;
}

const TOP_ROWS = 5;

/** The few heaviest operators and kernels, with a link to their tab. */
function topPanel(
  operators: OperatorsAnswer,
  kernels: KernelsAnswer,
  navigate: (tab: string, params: NavigationParams) => void,
): HTMLElement | null {
  if (operators.rows.length === 0 && kernels.rows.length === 0) return null;
  const link = (tab: string, text: string): HTMLElement => {
    const button = h("button", { type: "button", class: "link-button" }, text);
    button.addEventListener("click", () => navigate(tab, {}));
    return button;
  };
  const byDevice = operators.rows.some((r) => r.device_self_ns > 0);
  const list = (items: [string, string][], testId: string): HTMLElement =>
    h(
      "ol",
      { class: "top-list", "data-testid": testId },
      ...items.map(([name, value]) => h("li", {}, h("span", { class: "top-name" }, name), ` ${value}`)),
    );
  return section(
    "Top operators and kernels",
    operators.rows.length
      ? h(
          "div",
          {},
          h("h3", {}, `Operators by ${byDevice ? "device" : "host"} self time`),
          list(
            operators.rows.map((r) => [r.name, formatDuration(byDevice ? r.device_self_ns : r.host_self_ns)]),
            "top-operators",
          ),
          link("operators", "All operators"),
        )
      : null,
    kernels.rows.length
      ? h(
          "div",
          {},
          h("h3", {}, "Kernels by total time"),
          list(kernels.rows.map((r) => [r.name, formatDuration(r.total_ns)]), "top-kernels"),
          link("kernels", "All kernels"),
        )
      : null,
  );
}

/** For a run of several ranks or with collectives: per rank computation and communication,
 * and the collectives, with a way to the Distributed tab. */
function distributedPanel(
  brief: DistributedBrief | null,
  navigate: (tab: string, params: NavigationParams) => void,
): HTMLElement | null {
  if (brief === null) return null;
  const open = h("button", { type: "button", "data-testid": "open-distributed" }, "Open the Distributed tab");
  open.addEventListener("click", () => navigate("distributed", {}));
  const rows = [...brief.collectives, ...brief.point_to_point];
  return h(
    "section",
    { class: "panel", "data-testid": "overview-distributed" },
    h("h2", {}, "Distributed"),
    brief.ranks.length
      ? h("div", {}, splitLegend(), ...rankSplitBars(brief.ranks, "overview-distributed-ranks"))
      : h("p", { class: "muted" }, "No traced steps to split into computation and communication."),
    rows.length ? collectivesTable(rows, "overview-collectives") : null,
    open,
  );
}

/** One row per rank (a table and a line each), or with many ranks the rank × step heatmap. */
function rankPanels(summary: Summary, heatmap: RankHeatmapPanel | null): (HTMLElement | null)[] {
  if (heatmap) return [heatmap.element];
  const counted = summary.ranks.some((r) => r.compute !== null);
  const device = summary.ranks.some((r) => r.device_step_time_ns !== null);
  const rankTable = dataTable({
    columns: [
      ...RANK_COLUMNS,
      ...(device ? [DEVICE_STEP_COLUMN] : []),
      ...(counted ? COMPUTE_COLUMNS : []),
    ],
    rows: summary.ranks,
    testId: "rank-table",
    rowTestId: "rank-row",
    rowName: (r) => String(r.rank),
    rowClass: (r) => (r.rank === summary.rank ? "selected" : undefined),
  });
  return [
    section(
      "Ranks",
      h("p", { class: "muted" }, stepsCaption(summary)),
      h("div", { class: "table-scroll" }, rankTable),
    ),
    section("Step time per rank", stepChart(summary)),
  ];
}

/** A run without traces or collector steps (snapshots alone, say): what it holds and the tab
 * that shows it, instead of tables that would be empty. */
function emptyRunPanel(
  summary: Summary,
  navigate: (tab: string, params: NavigationParams) => void,
): HTMLElement {
  const tab = summary.empty_view;
  let open: HTMLElement | null = null;
  if (tab !== null) {
    open = h(
      "button",
      { type: "button", class: "link-button", "data-testid": "empty-run-open", "data-tab": tab },
      `Open the ${TAB_LABELS[tab] ?? tab} tab`,
    );
    open.addEventListener("click", () => navigate(tab, {}));
  }
  return h(
    "section",
    { class: "empty", "data-testid": "empty-run", role: "status" },
    h("p", {}, summary.empty_reason ?? ""),
    open,
  );
}

function renderOverview(
  summary: Summary,
  findings: readonly Finding[],
  breakdown: BreakdownAnswer,
  top: HTMLElement | null,
  heatmap: RankHeatmapPanel | null,
  navigate: (tab: string, params: NavigationParams) => void,
): HTMLElement {
  const relevant = findings.filter(
    (f) => summary.rank === null || f.ranks.length === 0 || f.ranks.includes(summary.rank),
  );
  if (summary.empty_reason !== null) {
    return h(
      "div",
      { class: "overview", "data-testid": "overview" },
      warningsPanel(summary.warnings),
      emptyRunPanel(summary, navigate),
      relevant.length > 0 ? findingsPanel(relevant, navigate) : null,
    );
  }
  return h(
    "div",
    { class: "overview", "data-testid": "overview" },
    warningsPanel(summary.warnings),
    savingsPanel(relevant, navigate),
    gpuSummaryPanel(summary.gpus),
    findingsPanel(relevant, navigate),
    section(
      "Step-time breakdown",
      breakdownChart(breakdown),
      h("h3", {}, "Execution summary (mean per step)"),
      executionTable(summary.execution_summary),
    ),
    distributedPanel(summary.distributed, navigate),
    ...rankPanels(summary, heatmap),
    section("Spans", spanTable(summary)),
    compilePanel(summary.ranks),
    top,
  );
}

export const overviewDashboard: Dashboard = {
  id: "overview",
  label: "Overview",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress, onRanks, navigate }) {
    const [summary, findings, breakdown, operators, kernels] = await Promise.all([
      fetchSummary(run, rank, signal, onProgress),
      fetchFindings(run, signal, onProgress),
      fetchBreakdown(run, rank, signal, onProgress),
      fetchOperators(run, rank, "name", TOP_ROWS, signal, onProgress),
      fetchKernels(run, rank, TOP_ROWS, signal, onProgress),
    ]);
    onRanks(summary.ranks.map((r) => (r.host === null ? { rank: r.rank } : { rank: r.rank, host: r.host })));
    const top = topPanel(operators, kernels, navigate);
    // with many ranks, and all of them shown: the heatmap instead of a row per rank
    const many = rank === null && summary.ranks.length > MANY_RANKS;
    const heatmap = many ? new RankHeatmapPanel(run, navigate, onProgress) : null;
    const element = renderOverview(summary, findings.findings, breakdown, top, heatmap, navigate);
    void heatmap?.load();
    return element;
  },
};
