// What the Distributed tab and the Overview's distributed section share: one stacked bar per
// rank (or step) of computation, overlapped and exposed communication and the rest, on one
// axis; and the collectives table with nccl-tests' bandwidths (docs/ANALYSIS.md, Distributed).

import { h } from "../base/dom";
import { formatCount, formatDuration, formatMemory } from "../base/format";
import { type Column, dataTable, durationColumn, PAGE_SIZE } from "../base/table";
import { seriesColor } from "../base/theme";
import { chartedRanks } from "./rankHeatmap";
import type { CollectiveBrief, RankSplit } from "./types";

/** The parts of a split, in bar order, with their labels. */
export const SPLIT_PARTS = [
  ["computation_ns", "computation"],
  ["overlap_ns", "overlapped communication"],
  ["exposed_ns", "exposed communication"],
  ["other_ns", "other"],
] as const;

type SplitKey = (typeof SPLIT_PARTS)[number][0];
export type Split = Record<SplitKey, number>;
/** A part gets its time written on it when it spans at least this share of the axis. */
const LABELLED_SHARE = 0.1;

function partColor(key: SplitKey, index: number): string {
  return key === "other_ns" ? "var(--grid)" : seriesColor(index);
}

function total(split: Split): number {
  return SPLIT_PARTS.reduce((sum, [key]) => sum + split[key], 0);
}

export function splitLegend(): HTMLElement {
  return h(
    "div",
    { class: "legend" },
    ...SPLIT_PARTS.map(([key, label], index) =>
      h(
        "span",
        { class: "legend-item" },
        h("span", { class: "legend-swatch", style: `background: ${partColor(key, index)}` }),
        label,
      ),
    ),
  );
}

/** One bar per labelled split, lengths on one axis (the longest split fills it). */
export function splitBars(rows: readonly { label: string; split: Split }[], testId: string): HTMLElement {
  const axisNs = Math.max(1, ...rows.map(({ split }) => total(split)));
  return h(
    "div",
    { class: "breakdown", "data-testid": testId },
    ...rows.map(({ label, split }) => {
      const length = total(split);
      const parts = SPLIT_PARTS.map(([key, name], index) => {
        const ns = split[key];
        const share = length > 0 ? ns / length : 0;
        return h(
          "span",
          {
            class: `breakdown-part${key === "other_ns" ? " category-idle" : ""}`,
            "data-part": key,
            "data-value": String(ns),
            style: `width: ${(share * 100).toFixed(3)}%; background: ${partColor(key, index)}`,
            title: `${name}: ${formatDuration(ns)} (${(share * 100).toFixed(1)} %)`,
          },
          ns / axisNs >= LABELLED_SHARE ? formatDuration(ns) : "",
        );
      });
      return h(
        "div",
        { class: "breakdown-row", "data-testid": `${testId}-bar`, "data-name": label },
        h("span", { class: "breakdown-label" }, label),
        h(
          "span",
          { class: "breakdown-track" },
          h(
            "span",
            { class: "breakdown-bar", "aria-label": label, style: `width: ${((100 * length) / axisNs).toFixed(3)}%` },
            ...parts,
          ),
        ),
        h("span", { class: "breakdown-total muted" }, formatDuration(length)),
      );
    }),
  );
}

/** A bar per rank, or with many ranks those with the most and least exposed communication
 * (a straggler is the rank that waits least), with a note saying so. */
export function rankSplitBars(ranks: readonly RankSplit[], testId: string): (HTMLElement | null)[] {
  const { charted, note } = chartedRanks(ranks, (r) => r.exposed_ns, "exposed communication");
  return [note, splitBars(charted.map((r) => ({ label: `rank ${r.rank}`, split: r })), testId)];
}

/** Bytes per second in GB/s (10⁹ bytes, as nccl-tests reports them). */
export function formatBandwidth(bytesPerSecond: number | null): string {
  return bytesPerSecond === null ? "—" : `${(bytesPerSecond / 1e9).toFixed(2)} GB/s`;
}

/** The columns of a collectives table (the row type may carry more, such as `rank`). */
export function collectiveColumns<Row extends Omit<CollectiveBrief, "slowest_rank">>(): Column<Row>[] {
  return [
    { key: "name", label: "collective", numeric: false, value: (r) => r.name },
    { key: "group", label: "process group", numeric: false, value: (r) => r.group, format: (r) => r.group ?? "—" },
    { key: "calls", label: "calls", numeric: true, value: (r) => r.calls, format: (r) => formatCount(r.calls) },
    {
      key: "bytes_per_call",
      label: "bytes / call",
      title: "nelems × dtype size of a call, as nccl-tests sizes it (docs/ANALYSIS.md)",
      numeric: true,
      value: (r) => (r.bytes === null ? null : Math.floor(r.bytes / r.calls)),
      format: (r) => (r.bytes === null ? "—" : formatMemory(r.bytes / r.calls)),
    },
    {
      key: "bytes",
      label: "bytes",
      title: "Total over the calls",
      numeric: true,
      value: (r) => r.bytes,
      format: (r) => formatMemory(r.bytes),
    },
    durationColumn("total_ns", "total time", (r) => r.total_ns, "Σ device kernel time"),
    durationColumn("mean_ns", "mean time", (r) => r.mean_ns, "Mean device kernel time per call"),
    {
      key: "algo_bandwidth",
      label: "algbw",
      title: "Algorithm bandwidth: bytes / device time (nccl-tests)",
      numeric: true,
      value: (r) => r.algo_bandwidth,
      format: (r) => formatBandwidth(r.algo_bandwidth),
    },
    {
      key: "bus_bandwidth",
      label: "busbw",
      title: "Bus bandwidth: algbw × nccl-tests' factor of the collective (docs/ANALYSIS.md)",
      numeric: true,
      value: (r) => r.bus_bandwidth,
      format: (r) => formatBandwidth(r.bus_bandwidth),
    },
  ];
}

/** The collectives across ranks, with the slowest rank; paged when long. */
export function collectivesTable(rows: readonly CollectiveBrief[], testId: string): HTMLElement {
  const columns: Column<CollectiveBrief>[] = [
    ...collectiveColumns<CollectiveBrief>(),
    {
      key: "slowest_rank",
      label: "slowest rank",
      title: "The rank with the most time in it",
      numeric: true,
      value: (r) => r.slowest_rank,
    },
  ];
  return h(
    "div",
    { class: "table-scroll" },
    dataTable({
      columns,
      rows,
      testId,
      rowTestId: `${testId}-row`,
      rowName: (r) => `${r.name}/${r.group ?? ""}`,
      sort: { key: "total_ns", direction: "desc" },
      pageSize: PAGE_SIZE,
    }),
  );
}
