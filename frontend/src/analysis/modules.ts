// The Modules tab: the nn.Module tree of the run's traces (forward calls; names are class names
// with a per-class counter, as torch.profiler records them), with time per module.

import type { Dashboard } from "../dashboard";
import { h } from "../dom";
import { formatCount, formatDuration } from "../format";
import type { Column } from "../table";
import { dataTable } from "../table";
import { fetchModules } from "./api";
import type { ModuleRow } from "./types";

const INDENT = "\u00a0\u00a0\u00a0";

function columns(rootTotal: number): Column<ModuleRow>[] {
  const time = (key: "total_ns" | "self_ns" | "mean_ns" | "p95_ns", label: string, title: string) => ({
    key,
    label,
    title,
    numeric: true,
    value: (r: ModuleRow) => r[key],
    format: (r: ModuleRow) => formatDuration(r[key]),
  });
  return [
    {
      key: "name",
      label: "module",
      numeric: false,
      value: (r) => r.path,
      format: (r) => INDENT.repeat(r.depth) + r.name,
    },
    { key: "calls", label: "calls", numeric: true, value: (r) => r.calls, format: (r) => formatCount(r.calls) },
    time("total_ns", "total", "Forward time of its calls, nested modules included"),
    time("self_ns", "self", "Total minus the modules nested in it"),
    time("mean_ns", "mean", "Per call"),
    time("p95_ns", "p95", "Per call"),
    {
      key: "share",
      label: "% of root",
      numeric: true,
      value: (r) => (rootTotal > 0 ? r.total_ns / rootTotal : null),
      format: (r) => (rootTotal > 0 ? `${((100 * r.total_ns) / rootTotal).toFixed(1)} %` : "—"),
    },
  ];
}

function modulesPanel(...content: HTMLElement[]): HTMLElement {
  return h(
    "div",
    { class: "overview", "data-testid": "modules" },
    h("section", { class: "panel" }, h("h2", {}, "Modules"), ...content),
  );
}

export const modulesDashboard: Dashboard = {
  id: "modules",
  label: "Modules",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress }) {
    const answer = await fetchModules(run, rank, signal, onProgress);
    if (answer.rows.length === 0) {
      return modulesPanel(
        h(
          "p",
          { class: "muted" },
          "No module calls in this run's traces. Record with profile_steps(..., with_stack=True) " +
            "(or torch.profiler's with_stack=True) in eager mode to see the nn.Module tree.",
        ),
      );
    }
    const rootTotal = answer.rows
      .filter((r) => r.depth === 0)
      .reduce((sum, r) => sum + r.total_ns, 0);
    const table = dataTable({
      columns: columns(rootTotal),
      rows: answer.rows,
      testId: "module-table",
      rowTestId: "module-row",
      rowName: (r) => r.path,
    });
    return modulesPanel(
      h(
        "p",
        { class: "muted" },
        "Forward calls from torch.profiler's Python stacks. Names are class names with a " +
          "per-class counter (Linear_3), not attribute paths; the tree comes from how calls nest.",
      ),
      h("div", { class: "table-scroll" }, table),
    );
  },
};
