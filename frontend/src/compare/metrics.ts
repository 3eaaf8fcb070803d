// Memory, GPU and rank balance side by side: one row per metric, with the change.

import { h } from "../base/dom";
import { formatDuration, formatMemory } from "../base/format";
import type { CompareAnswer, Side } from "./types";

interface Metric {
  label: string;
  format: (value: number) => string;
}

const percent = (value: number): string => `${value.toFixed(1)} %`;

const METRICS: Record<string, Metric> = {
  peak_bytes: { label: "peak allocated", format: formatMemory },
  reserved_bytes: { label: "peak reserved", format: formatMemory },
  slope_bytes_per_step: { label: "growth per step", format: (v) => `${formatMemory(v)}/step` },
  trace_utilization: { label: "GPU busy in the traces", format: percent },
  tracker_utilization: { label: "GPU utilization (NVML)", format: percent },
  spread: {
    label: "straggler spread (slowest − fastest rank, of the median)",
    format: (v) => percent(v * 100),
  },
};

function signed(format: (value: number) => string, value: number | null): string {
  if (value === null) return "—";
  if (value === 0) return "±0";
  return `${value > 0 ? "+" : "−"}${format(Math.abs(value))}`;
}

function metricRow(
  name: string,
  label: string,
  format: (value: number) => string,
  side: Side,
): HTMLElement {
  const show = (value: number | null): string => (value === null ? "—" : format(value));
  return h(
    "tr",
    { "data-name": name },
    h("td", {}, label),
    h("td", { class: "numeric" }, show(side.baseline)),
    h("td", { class: "numeric" }, show(side.candidate)),
    h("td", { class: "numeric", "data-column": "delta" }, signed(format, side.delta)),
  );
}

function table(testId: string, rows: readonly HTMLElement[]): HTMLElement {
  return h(
    "div",
    { class: "table-scroll" },
    h(
      "table",
      { class: "data-table", "data-testid": testId },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "metric"),
          h("th", { class: "numeric" }, "baseline"),
          h("th", { class: "numeric" }, "candidate"),
          h("th", { class: "numeric" }, "Δ"),
        ),
      ),
      h("tbody", {}, ...rows),
    ),
  );
}

/** The metrics either run has; a note when neither recorded any. */
export function metricsTable(metrics: Record<string, Side>, testId: string, empty: string): HTMLElement {
  const rows = Object.entries(metrics)
    .filter(([, side]) => side.baseline !== null || side.candidate !== null)
    .map(([name, side]) => {
      const metric = METRICS[name] ?? { label: name.replaceAll("_", " "), format: String };
      return metricRow(name, metric.label, metric.format, side);
    });
  if (rows.length === 0) return h("p", { class: "muted", "data-testid": `${testId}-none` }, empty);
  return table(`${testId}-table`, rows);
}

export function balanceTable(balance: CompareAnswer["balance"]): HTMLElement {
  const spread = METRICS["spread"];
  const rows = balance.ranks.map((r) =>
    metricRow(`rank ${r.rank}`, `rank ${r.rank} median step`, formatDuration, r),
  );
  if (spread && (balance.spread.baseline !== null || balance.spread.candidate !== null)) {
    rows.unshift(metricRow("spread", spread.label, spread.format, balance.spread));
  }
  if (rows.length === 0) {
    return h(
      "p",
      { class: "muted", "data-testid": "balance-none" },
      "Both runs have one rank (or no matched ranks): nothing to balance.",
    );
  }
  const { baseline, candidate } = balance.slowest_rank;
  const slowest =
    baseline === null && candidate === null
      ? null
      : h(
          "p",
          { class: "muted" },
          `Slowest rank: ${baseline ?? "—"} in the baseline, ${candidate ?? "—"} in the candidate.`,
        );
  return h("div", {}, table("balance-table", rows), slowest);
}
