// The Modules tab: the nn.Module tree with time per module and phase, as a collapsible tree
// table and an icicle chart; clicking a module shows its time per step. Data from
// ModuleProfiler records (attribute paths, forward and backward, device time), else from the
// run's traces (forward only; `nn.Module:` trace names are class names with counters).

import { lineChart, type LineSeries } from "../base/chart";
import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { durationTickFormat, formatCount, formatDuration, formatPercent } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { type Column, dataTable, PAGE_SIZE } from "../base/table";
import { seriesColor } from "../base/theme";
import { fetchModuleSteps, fetchModules } from "./api";
import { icicleChart } from "./icicle";
import { moduleTree, visibleRows } from "./moduleTree";
import { backwardStepsNote } from "./notes";
import type {
  ModulePhase,
  ModulePhaseStats,
  ModuleRow,
  ModuleSettings,
  ModulesAnswer,
  ModuleStepsAnswer,
} from "./types";

type TimeKind = "host" | "device";

/** Trees this large start with everything below depth EXPANDED_DEPTH collapsed. */
const EXPAND_ALL_ROWS = 200;
const EXPANDED_DEPTH = 2;
const INDENT_PX = 16;

const PHASE_LABELS: Record<ModulePhase, string> = {
  forward: "forward",
  backward: "backward",
  total: "forward + backward",
};

function displayName(row: ModuleRow): string {
  return row.path === "" ? `(model) ${row.type}` : row.name;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

interface View {
  phase: ModulePhase;
  time: TimeKind;
}

function stats(row: ModuleRow, view: View): ModulePhaseStats | null {
  return row[view.phase];
}

/** The time the icicle is sized by and the table leads with. */
function timeOf(row: ModuleRow, view: View): number {
  const s = stats(row, view);
  if (!s) return 0;
  return (view.time === "device" ? s.gpu_total_ns : s.total_ns) ?? 0;
}

function statColumn(
  key: keyof ModulePhaseStats,
  label: string,
  title: string,
  view: View,
  format: (value: number | null) => string = formatDuration,
): Column<ModuleRow> {
  const value = (row: ModuleRow): number | null => stats(row, view)?.[key] ?? null;
  return { key, label, title, numeric: true, value, format: (row) => format(value(row)) };
}

function columns(
  view: View,
  collapsed: ReadonlySet<string>,
  hasChildren: (row: ModuleRow) => boolean,
  onToggle: (row: ModuleRow) => void,
): Column<ModuleRow>[] {
  const name: Column<ModuleRow> = {
    key: "name",
    label: "module",
    numeric: false,
    value: (row) => row.path,
    render: (row) => {
      const open = !collapsed.has(row.path);
      const toggle = hasChildren(row)
        ? h(
            "button",
            {
              type: "button",
              class: "tree-toggle",
              "data-testid": "module-toggle",
              "aria-expanded": String(open),
              "aria-label": `${open ? "Collapse" : "Expand"} ${displayName(row)}`,
            },
            open ? "▾" : "▸",
          )
        : h("span", { class: "tree-toggle-space" });
      toggle.addEventListener("click", (event) => {
        event.stopPropagation();
        onToggle(row);
      });
      return h(
        "span",
        { class: "tree-cell", style: `padding-left:${row.depth * INDENT_PX}px`, title: row.path },
        toggle,
        displayName(row),
      );
    },
  };
  const type: Column<ModuleRow> = {
    key: "type",
    label: "type",
    numeric: false,
    value: (r) => r.type,
  };
  const calls = statColumn("calls", "calls", "Calls in this phase", view, formatCount);
  const params: Column<ModuleRow> = {
    key: "params",
    label: "params",
    title: "Parameters in its subtree (shared ones once)",
    numeric: true,
    value: (r) => r.params,
    format: (r) => formatCount(r.params),
  };
  const share = statColumn(
    "pct_of_step",
    "% of step",
    "Its time per covered step over the mean step time (docs/ANALYSIS.md)",
    view,
    formatPercent,
  );
  if (view.time === "device") {
    return [
      name,
      type,
      calls,
      statColumn("gpu_total_ns", "device total", "CUDA-event time of its calls", view),
      statColumn("gpu_mean_ns", "device mean", "Per call, in steps with device times", view),
      statColumn("total_ns", "host total", "Host time of its calls", view),
      params,
    ];
  }
  return [
    name,
    type,
    calls,
    statColumn("self_ns", "self", "Total minus the profiled modules called inside it", view),
    statColumn("total_ns", "total", "Time of its calls, nested modules included", view),
    statColumn("mean_ns", "mean", "Per call", view),
    statColumn("p95_ns", "p95", "Per call (from the recorded samples)", view),
    share,
    params,
  ];
}

function sourceNote(answer: ModulesAnswer): HTMLElement {
  const steps = answer.steps
    .map((s) => {
      const mean = s.step_time_ns === null ? "" : `, mean step ${formatDuration(s.step_time_ns)}`;
      return `rank ${s.rank}: ${formatCount(s.steps)} steps${mean}`;
    })
    .join("; ");
  const source =
    answer.source === "collector"
      ? "ModuleProfiler records: attribute paths, forward and backward calls."
      : "From torch.profiler traces: forward calls only (backward runs outside module calls).";
  const children: (HTMLElement | string)[] = [
    source + (steps ? ` Covered steps — ${steps}.` : ""),
  ];
  const backward = backwardStepsNote(answer.backward_steps, answer.steps.length);
  if (backward) {
    children.push(" ", h("span", { "data-testid": "module-backward-steps" }, backward));
  }
  if (answer.class_names) {
    children.push(
      h(
        "strong",
        { "data-testid": "module-class-names" },
        " Names are class names with a per-class counter (Linear_3), not attribute paths; " +
          "the tree comes from how calls nest. Record with collectors.ModuleProfiler for paths.",
      ),
    );
  }
  if (answer.total_rows > answer.rows.length) {
    const shown = `${formatCount(answer.rows.length)} of ${formatCount(answer.total_rows)}`;
    children.push(` Showing the first ${shown} modules.`);
  }
  return h("p", { class: "muted", "data-testid": "module-note" }, ...children);
}

/** What the numbers leave out, in a few words: unprofiled backward, sampled or aggregated
 * steps, why there are no device times, a narrowed selection. */
function settingsPhrases(s: ModuleSettings): string[] {
  const phrases: string[] = [];
  if (!s.backward) phrases.push("backward not profiled");
  if (s.every_n_steps > 1) phrases.push(`profiled one step in ${s.every_n_steps}`);
  if (s.aggregate_steps > 1) phrases.push(`records aggregate ${s.aggregate_steps} steps`);
  if (s.gpu?.startsWith("off")) phrases.push(`no device times: GPU timing ${s.gpu}`);
  if (s.max_depth !== null) phrases.push(`modules to depth ${s.max_depth}`);
  if (s.include.length > 0) phrases.push(`only ${s.include.join(", ")}`);
  if (s.exclude.length > 0) phrases.push(`excluding ${s.exclude.join(", ")}`);
  return phrases;
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith(".") ? "" : ".");
}

/** How ModuleProfiler ran, once per group of ranks with the same settings (ranks named only
 * when they differ); a compiled model's note stands out: it explains a one-row tree. */
function settingsNote(settings: readonly ModuleSettings[]): HTMLElement | null {
  const children: (HTMLElement | string)[] = [];
  for (const s of settings) {
    const phrases = settingsPhrases(s);
    if (phrases.length === 0 && s.compiled === null) continue;
    const ranks = s.ranks.length === 1 ? "rank" : "ranks";
    const who = settings.length > 1 ? ` (${ranks} ${s.ranks.join(", ")})` : "";
    const said = phrases.length > 0 ? `: ${phrases.join(" · ")}` : "";
    children.push(`${children.length > 0 ? " " : ""}ModuleProfiler${who}${said}.`);
    if (s.compiled !== null) {
      children.push(h("strong", { "data-testid": "module-compiled" }, ` ${sentence(s.compiled)}`));
    }
  }
  if (children.length === 0) return null;
  return h("p", { class: "muted", "data-testid": "module-settings" }, ...children);
}

function warningsView(warnings: readonly string[]): HTMLElement | null {
  if (warnings.length === 0) return null;
  return h(
    "div",
    { class: "warnings", role: "status", "data-testid": "module-warnings" },
    h("strong", {}, "Some module records could not be read"),
    h("ul", {}, ...warnings.map((w) => h("li", {}, w))),
  );
}

function select<T extends string>(
  label: string,
  testId: string,
  options: readonly [T, string][],
  value: T,
): HTMLSelectElement {
  const element = h(
    "select",
    { "aria-label": label, "data-testid": testId },
    ...options.map(([v, text]) => h("option", { value: v }, text)),
  );
  element.value = value;
  return element;
}

function shapesText(shapes: ModuleStepsAnswer["shapes"]): string | null {
  if (!shapes) return null;
  return `inputs ${JSON.stringify(shapes.inputs)} → output ${JSON.stringify(shapes.output)}`;
}

function stepChart(
  answer: ModuleStepsAnswer,
  time: TimeKind,
  allRanks: readonly number[],
): HTMLElement {
  const series: LineSeries[] = [];
  for (const s of answer.series) {
    const color = seriesColor(allRanks.indexOf(s.rank));
    const values = time === "device" && s.device_ns ? s.device_ns : s.host_ns;
    const points = s.steps.flatMap((step, i) => {
      const y = values[i];
      return y === null || y === undefined ? [] : [[step, y] as const];
    });
    if (points.length === 0) continue;
    series.push({
      label: `rank ${s.rank}${time === "device" && s.device_ns ? " (device)" : ""}`,
      color,
      x: points.map(([x]) => x),
      y: points.map(([, y]) => y),
    });
  }
  if (series.length === 0) {
    return h(
      "p",
      { class: "muted", "data-testid": "module-step-chart-empty" },
      "No per-step times: no step covers this module's calls.",
    );
  }
  const bucket = Math.max(...answer.series.map((s) => s.bucket));
  const chart = lineChart({
    series,
    height: 220,
    xLabel: "step",
    formatX: (x) => String(x),
    formatY: formatDuration,
    yTickFormat: durationTickFormat,
    testId: "module-step-chart",
  });
  if (bucket === 1) return chart;
  const note = `Each point is the mean of ${bucket} consecutive steps.`;
  return h("div", {}, chart, h("p", { class: "muted" }, note));
}

function detailStats(row: ModuleRow, view: View): string {
  const s = stats(row, view);
  if (!s) return `Not called in ${PHASE_LABELS[view.phase]}.`;
  const parts = [
    `${formatCount(s.calls)} calls`,
    `total ${formatDuration(s.total_ns)}`,
    `self ${formatDuration(s.self_ns)}`,
    `mean ${formatDuration(s.mean_ns)}`,
  ];
  if (s.median_ns !== null) parts.push(`median ${formatDuration(s.median_ns)}`);
  if (s.std_ns !== null) parts.push(`std ${formatDuration(s.std_ns)}`);
  if (s.p95_ns !== null) parts.push(`p95 ${formatDuration(s.p95_ns)}`);
  if (s.gpu_total_ns !== null) parts.push(`device ${formatDuration(s.gpu_total_ns)}`);
  if (row.params !== null) parts.push(`${formatCount(row.params)} params`);
  return parts.join(" · ");
}

function emptyView(reason: string | null): HTMLElement {
  return h(
    "p",
    { class: "muted", "data-testid": "modules-empty" },
    reason ??
      "No module calls in this run. Wrap the model in collectors.ModuleProfiler(model, timer) " +
        "for forward and backward time per attribute path; or record traces with Lightning's " +
        "PyTorchProfiler, or with profile_steps(..., with_stack=True) (torch.profiler's " +
        "with_stack=True) in eager mode.",
  );
}

export const modulesDashboard: Dashboard = {
  id: "modules",
  label: "Modules",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress }) {
    const answer = await fetchModules(run, rank, signal, onProgress);
    const panel = h("section", { class: "panel" }, h("h2", {}, "Modules"));
    const settings = settingsNote(answer.settings);
    if (settings) panel.append(settings);
    const root = h("div", { class: "overview", "data-testid": "modules" }, panel);
    const warnings = warningsView(answer.warnings);
    if (answer.rows.length === 0) {
      panel.append(emptyView(answer.empty_reason));
      if (warnings) panel.append(warnings);
      return root;
    }
    if (!answer.rows.some((r) => r.forward || r.backward)) {
      const note =
        rank === null
          ? "Modules are declared, but no calls are recorded yet."
          : `No module calls recorded on rank ${rank}; select another rank.`;
      panel.append(h("p", { class: "muted", "data-testid": "module-note" }, note));
      return root;
    }
    const hash = readHash();
    const phases = answer.phases;
    const hashPhase = hash.get("modphase") as ModulePhase | null;
    const view: View = {
      phase:
        hashPhase && phases.includes(hashPhase)
          ? hashPhase
          : phases.includes("total")
            ? "total"
            : "forward",
      time: answer.device && hash.get("modtime") === "device" ? "device" : "host",
    };
    const tree = moduleTree(answer.rows);
    const hasChildren = (row: ModuleRow): boolean =>
      (tree.children.get(row.path)?.length ?? 0) > 0;
    const collapsed = new Set(
      answer.rows.length <= EXPAND_ALL_ROWS
        ? []
        : answer.rows
            .filter((r) => r.depth >= EXPANDED_DEPTH - 1 && hasChildren(r))
            .map((r) => r.path),
    );
    const allRanks = answer.steps.map((s) => s.rank);
    const types = [...new Set(answer.rows.map((r) => r.type))];
    let selected = answer.rows.find((r) => r.path === hash.get("modpath")) ?? null;

    const phaseSelect = select(
      "Phase",
      "module-phase",
      phases.map((p) => [p, PHASE_LABELS[p]] as [ModulePhase, string]),
      view.phase,
    );
    const timeSelect = select<TimeKind>(
      "Time",
      "module-time",
      [
        ["host", "host time"],
        ["device", "device time"],
      ],
      view.time,
    );
    phaseSelect.hidden = phases.length < 2;
    timeSelect.hidden = !answer.device;
    const icicleHolder = h("div");
    const tableHolder = h("div", { class: "table-scroll" });
    const detail = h("div", { class: "module-detail", "data-testid": "module-detail" });
    let stepsRequest = new AbortController();
    signal.addEventListener("abort", () => stepsRequest.abort());

    const markSelected = (): void => {
      const path = selected?.path ?? null;
      const marked = "[data-testid=icicle-cell], [data-testid=module-row]";
      for (const element of root.querySelectorAll<Element>(marked)) {
        const own = element.getAttribute("data-path") ?? element.getAttribute("data-name");
        element.classList.toggle("selected", own === path);
      }
    };

    const showDetail = async (): Promise<void> => {
      stepsRequest.abort();
      stepsRequest = new AbortController();
      if (selected === null) {
        const hint = "Click a module (a row or a cell) to see its time per step.";
        detail.replaceChildren(h("p", { class: "muted" }, hint));
        return;
      }
      const row = selected;
      const heading = h("h3", {}, `${row.path === "" ? "(model)" : row.path} · ${row.type}`);
      detail.replaceChildren(
        heading,
        h("p", {}, detailStats(row, view)),
        h("p", { class: "muted" }, "Loading steps…"),
      );
      try {
        const steps = await fetchModuleSteps(run, rank, row.path, view.phase, stepsRequest.signal);
        const shapes = shapesText(steps.shapes);
        detail.replaceChildren(
          heading,
          h("p", {}, detailStats(row, view)),
          ...(shapes ? [h("p", { class: "muted" }, shapes)] : []),
          stepChart(steps, view.time, allRanks),
        );
      } catch (error) {
        if (!isAbort(error)) {
          const message = `Could not load its steps: ${String(error)}`;
          detail.replaceChildren(heading, h("p", { role: "alert" }, message));
        }
      }
    };

    const choose = (row: ModuleRow): void => {
      selected = row;
      updateHash({ modpath: row.path });
      markSelected();
      void showDetail();
    };

    const renderTable = (): void => {
      const table = dataTable({
        columns: columns(view, collapsed, hasChildren, (row) => {
          if (collapsed.has(row.path)) collapsed.delete(row.path);
          else collapsed.add(row.path);
          renderTable();
        }).filter((c) => !c.numeric || answer.rows.some((r) => c.value(r) !== null)),
        rows: visibleRows(answer.rows, collapsed),
        testId: "module-table",
        rowTestId: "module-row",
        rowName: (r) => r.path,
        rowClass: (r) => (r.path === selected?.path ? "selected" : undefined),
        pageSize: PAGE_SIZE,
      });
      table.addEventListener("click", (event) => {
        const target =
          event.target instanceof Element ? event.target.closest("tr[data-name]") : null;
        const row = target && answer.rows.find((r) => r.path === target.getAttribute("data-name"));
        if (row) choose(row);
      });
      tableHolder.replaceChildren(table);
    };

    const render = (): void => {
      icicleHolder.replaceChildren(
        icicleChart({
          tree,
          value: (row) => timeOf(row, view),
          label: displayName,
          tooltip: (row) => {
            const s = stats(row, view);
            const share =
              s?.pct_of_step == null ? "" : ` · ${formatPercent(s.pct_of_step)} of step`;
            const name = row.path === "" ? "(model)" : row.path;
            return `${name} (${row.type}): ${formatDuration(timeOf(row, view))}${share}`;
          },
          color: (row) => seriesColor(types.indexOf(row.type)),
          selected: selected?.path ?? null,
          onSelect: choose,
        }),
      );
      renderTable();
      void showDetail();
    };

    phaseSelect.addEventListener("change", () => {
      view.phase = phaseSelect.value as ModulePhase;
      updateHash({ modphase: view.phase });
      render();
    });
    timeSelect.addEventListener("change", () => {
      view.time = timeSelect.value === "device" ? "device" : "host";
      updateHash({ modtime: view.time === "device" ? "device" : null });
      render();
    });
    render();
    panel.append(
      sourceNote(answer),
      ...(warnings ? [warnings] : []),
      h("div", { class: "controls" }, phaseSelect, timeSelect),
      icicleHolder,
      detail,
      tableHolder,
    );
    return root;
  },
};
