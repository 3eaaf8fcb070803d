// The Distributed tab: per rank, and per step of a rank, computation, overlapped and exposed
// communication and the rest as stacked bars; the collectives per kind and process group with
// nccl-tests' bandwidths across ranks (the slowest rank named) and per rank; point-to-point
// transfers in a table of their own (docs/ANALYSIS.md, Distributed).

import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { type Column, dataTable, PAGE_SIZE } from "../base/table";
import { collectiveColumns, collectivesTable, rankSplitBars, splitBars, splitLegend } from "../panels/distributed";
import { fetchDistributed } from "./api";
import type { CollectiveRankRow, CollectiveRow, DistributedAnswer } from "./types";

/** Steps drawn per rank when one rank is shown. */
const MAX_STEP_BARS = 40;

function section(title: string, testId: string, ...content: (Node | string | null)[]): HTMLElement {
  return h("section", { class: "panel", "data-testid": testId }, h("h2", {}, title), ...content);
}

function splitsPanel(answer: DistributedAnswer): HTMLElement {
  const content: (HTMLElement | null)[] = [splitLegend(), ...rankSplitBars(answer.ranks, "distributed-ranks")];
  const only = answer.ranks.length === 1 ? answer.ranks[0] : undefined;
  if (only !== undefined && only.steps.length > 1) {
    const steps = only.steps.slice(0, MAX_STEP_BARS).map((s) => ({
      label: s.step === null ? "trace" : `step ${s.step}`,
      split: s,
    }));
    content.push(
      h("h3", {}, `rank ${only.rank} per step`),
      splitBars(steps, "distributed-steps"),
      only.steps.length > MAX_STEP_BARS
        ? h("p", { class: "muted" }, `First ${MAX_STEP_BARS} of ${only.steps.length} steps.`)
        : null,
    );
  }
  return section(
    "Computation and communication per rank",
    "distributed-split",
    h(
      "p",
      { class: "muted" },
      "Over the traced steps: compute kernels alone, communication during compute, " +
        "communication alone, and the rest (copies, host work, idle).",
    ),
    ...content,
  );
}

function perRankTable(rows: readonly CollectiveRow[], testId: string): HTMLElement {
  const flat = rows.flatMap((row) => row.per_rank);
  const columns: Column<CollectiveRankRow>[] = [
    { key: "rank", label: "rank", numeric: true, value: (r) => r.rank },
    ...collectiveColumns<CollectiveRankRow>(),
  ];
  return h(
    "div",
    { class: "table-scroll" },
    dataTable({
      columns,
      rows: flat,
      testId,
      rowTestId: `${testId}-row`,
      rowName: (r) => `${r.name}/${r.group ?? ""}/${r.rank}`,
      sort: { key: "total_ns", direction: "desc" },
      pageSize: PAGE_SIZE,
    }),
  );
}

function collectivesPanel(title: string, testId: string, rows: readonly CollectiveRow[]): HTMLElement | null {
  if (rows.length === 0) return null;
  const ranks = Math.max(...rows.map((r) => r.ranks));
  return section(
    title,
    testId,
    h(
      "p",
      { class: "muted" },
      "Times are the kernels' device durations; bytes and bandwidths come from the trace's " +
        "collective arguments (— where it has none).",
    ),
    collectivesTable(rows, `${testId}-table`),
    ranks > 1 ? h("h3", {}, "Per rank") : null,
    ranks > 1 ? perRankTable(rows, `${testId}-per-rank`) : null,
  );
}

function renderDistributed(answer: DistributedAnswer): HTMLElement {
  return h(
    "div",
    { class: "distributed", "data-testid": "distributed" },
    answer.empty_reason ? h("p", { class: "muted", "data-testid": "distributed-empty" }, answer.empty_reason) : null,
    answer.ranks.length ? splitsPanel(answer) : null,
    collectivesPanel("Collectives", "collectives", answer.collectives),
    collectivesPanel("Point-to-point", "point-to-point", answer.point_to_point),
  );
}

export const distributedDashboard: Dashboard = {
  id: "distributed",
  label: "Distributed",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress }) {
    return renderDistributed(await fetchDistributed(run, rank, signal, onProgress));
  },
};
