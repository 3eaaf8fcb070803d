// The execution summary: per rank, each breakdown category's mean time per step and its share
// of step time (torch-tb-profiler's Overview table; docs/ANALYSIS.md maps its names).

import { h } from "../base/dom";
import { formatCount, formatDuration, formatPercent } from "../base/format";
import { type Column, dataTable, durationColumn } from "../base/table";
import type { RankExecution } from "./types";

function categoryColumn(category: string): Column<RankExecution> {
  const part = (r: RankExecution) => r.categories[category] ?? null;
  return {
    key: category,
    label: category,
    title: `Mean ${category} time per step, and its share of step time`,
    numeric: true,
    value: (r) => part(r)?.ns_per_step ?? null,
    format: (r) => {
      const p = part(r);
      return p === null ? "—" : `${formatDuration(p.ns_per_step)} (${formatPercent(p.share * 100)})`;
    },
  };
}

/** The table, or a sentence saying why there is none. */
export function executionTable(ranks: readonly RankExecution[]): HTMLElement {
  const first = ranks[0];
  if (first === undefined) {
    return h("p", { class: "muted" }, "No traced steps to summarize.");
  }
  const columns: Column<RankExecution>[] = [
    { key: "rank", label: "rank", numeric: true, value: (r) => r.rank },
    { key: "steps", label: "steps", numeric: true, value: (r) => r.steps,
      format: (r) => formatCount(r.steps), title: "Traced steps (or whole traces) broken down" },
    durationColumn("step_ns", "step", (r) => r.step_ns, "Mean traced step time"),
    ...Object.keys(first.categories).map(categoryColumn),
  ];
  return h(
    "div",
    { class: "table-scroll" },
    dataTable({
      columns,
      rows: ranks,
      testId: "execution-table",
      rowTestId: "execution-row",
      rowName: (r) => String(r.rank),
    }),
  );
}
