// Each collective's bandwidth in both runs: nccl-tests' algorithm and bus bandwidth, and the
// mean device time per call (docs/DIFF.md, collectives).

import { h } from "../base/dom";
import { formatDuration, formatPercent } from "../base/format";
import { type Column, dataTable, PAGE_SIZE } from "../base/table";
import { formatBandwidth } from "../panels/distributed";
import type { CollectiveDelta, Side } from "./types";

type SideKey = "mean_ns" | "algo_bandwidth" | "bus_bandwidth";

function sides(key: SideKey, label: string, format: (v: number | null) => string): Column<CollectiveDelta>[] {
  return (["baseline", "candidate"] as const).map((side) => ({
    key: `${key}_${side}`,
    label: `${label} (${side})`,
    numeric: true,
    value: (r: CollectiveDelta) => r[key][side],
    format: (r: CollectiveDelta) => format(r[key][side]),
  }));
}

/** Candidate over baseline, as a change in percent (null unless both have it). */
function change(side: Side): number | null {
  const { baseline, candidate } = side;
  return baseline === null || candidate === null || baseline === 0 ? null : (100 * (candidate - baseline)) / baseline;
}

export function collectiveDeltaTable(rows: readonly CollectiveDelta[], total: number): HTMLElement {
  const columns: Column<CollectiveDelta>[] = [
    { key: "name", label: "collective", numeric: false, value: (r) => r.name },
    { key: "group", label: "group", numeric: false, value: (r) => r.group, format: (r) => r.group ?? "—" },
    { key: "status", label: "status", numeric: false, value: (r) => r.status },
    ...sides("bus_bandwidth", "busbw", formatBandwidth),
    {
      key: "bus_bandwidth_change",
      label: "busbw change",
      numeric: true,
      value: (r) => change(r.bus_bandwidth),
      format: (r) => {
        const c = change(r.bus_bandwidth);
        return c === null ? "—" : `${c > 0 ? "+" : ""}${formatPercent(c)}`;
      },
    },
    ...sides("algo_bandwidth", "algbw", formatBandwidth),
    ...sides("mean_ns", "mean time", formatDuration),
  ];
  return h(
    "div",
    { class: "table-scroll" },
    h("p", { class: "muted" }, `Across ranks, whole traces; ${total} collective kinds and groups.`),
    dataTable({
      columns,
      rows,
      testId: "compare-collectives-table",
      rowTestId: "compare-collective-row",
      rowName: (r) => `${r.name}/${r.group ?? ""}`,
      pageSize: PAGE_SIZE,
    }),
  );
}
