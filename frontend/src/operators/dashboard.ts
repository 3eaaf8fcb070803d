// The Operators tab: per operator (or per operator and input shapes, or call stack) calls and host / device
// self and total time, a filter, the top operators as bars and a sortable, paged table; the
// annotations (ProfilerStep#N, record_function and MyTimer spans) are a group of their own.

import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { formatCount, formatDuration, formatPercent } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { distinctLabels } from "../base/labels";
import { type Column, dataTable, durationColumn, PAGE_SIZE, type SortState } from "../base/table";
import { fetchOperators } from "./api";
import type { Grouping, OperatorRow } from "./types";

const MAX_ROWS = 1000;
const TOP_BARS = 10;
/** Characters a bar label holds (its column is as wide). */
const BAR_LABEL_CHARACTERS = 40;

function duration(key: keyof OperatorRow & string, label: string, title: string): Column<OperatorRow> {
  return durationColumn(key, label, (row) => row[key] as number, title);
}

const COLUMNS: Column<OperatorRow>[] = [
  { key: "name", label: "operator", numeric: false, value: (r) => r.name, cellTitle: (r) => r.name },
  { key: "input_dims", label: "input shapes", numeric: false, value: (r) => r.input_dims },
  {
    key: "call_stack",
    label: "call stack",
    title: "Where in your code (the innermost frame outside torch and the libraries); open for every frame",
    numeric: false,
    value: (r) => r.user_frame || r.call_stack[0] || "",
    render: callStack,
  },
  { key: "calls", label: "calls", numeric: true, value: (r) => r.calls, format: (r) => formatCount(r.calls) },
  duration("device_self_ns", "device self", "Kernels, copies and fills it launched itself"),
  duration("device_total_ns", "device total", "Device self of the op and everything nested in it"),
  duration("host_self_ns", "host self", "Host time minus its direct children (as key_averages)"),
  duration("host_total_ns", "host total", "Host time of its calls"),
  {
    key: "tensor_core_eligible",
    label: "Tensor Cores eligible",
    title: "Of the matmul / convolution / attention family that can run on Tensor Cores (by name)",
    numeric: false,
    value: (r) => (r.tensor_core_eligible ? "yes" : "no"),
  },
  share("tensor_core_self_share", "Tensor Cores self", "Share of its device self time in Tensor-Core kernels"),
  share("tensor_core_total_share", "Tensor Cores total", "Share of its device total time in Tensor-Core kernels"),
];

/** The row's user frame, opening to its whole stack (innermost frame first). */
function callStack(row: OperatorRow): Node {
  if (row.call_stack.length === 0) return h("span", { class: "muted" }, "no call stack");
  return h(
    "details",
    { class: "call-stack" },
    h("summary", {}, row.user_frame || row.call_stack[0] || ""),
    h("ol", {}, ...row.call_stack.map((frame) => h("li", {}, frame))),
  );
}

const GROUPINGS: readonly Grouping[] = ["name", "input_dims", "call_stack"];

function groupingFromHash(): Grouping {
  const value = readHash().get("opgroup");
  return GROUPINGS.find((g) => g === value) ?? "name";
}

function share(
  key: "tensor_core_self_share" | "tensor_core_total_share",
  label: string,
  title: string,
): Column<OperatorRow> {
  return {
    key,
    label,
    title,
    numeric: true,
    value: (r) => r[key],
    format: (r) => formatPercent(r[key] === null ? null : r[key] * 100),
  };
}

function sortFromHash(columns: readonly Column<OperatorRow>[], byDevice: boolean): SortState {
  const params = readHash();
  const key = params.get("opsort");
  const direction = params.get("opdir");
  if (columns.some((c) => c.key === key) && (direction === "asc" || direction === "desc")) {
    return { key: key as string, direction };
  }
  return { key: byDevice ? "device_self_ns" : "host_self_ns", direction: "desc" };
}

/** The columns to show: input shapes or call stack only when grouped by them, device time
 * only if any. */
function columnsFor(rows: readonly OperatorRow[], grouping: Grouping): Column<OperatorRow>[] {
  const byDevice = rows.some((r) => r.device_total_ns > 0);
  return COLUMNS.filter(
    (c) =>
      (c.key === grouping || !(GROUPINGS as readonly string[]).slice(1).includes(c.key)) &&
      (byDevice || !(c.key.startsWith("device_") || c.key.startsWith("tensor_core"))),
  );
}

/** A row's name in the bars: with what it is grouped by, so two rows never read the same. */
function rowLabel(row: OperatorRow): string {
  const by = row.input_dims || row.user_frame || row.call_stack[0] || "";
  return by === "" ? row.name : `${row.name} · ${by}`;
}

function topBars(rows: readonly OperatorRow[]): HTMLElement {
  const byDevice = rows.some((r) => r.device_self_ns > 0);
  const metric = (r: OperatorRow): number => (byDevice ? r.device_self_ns : r.host_self_ns);
  const top = [...rows].sort((a, b) => metric(b) - metric(a)).slice(0, TOP_BARS);
  const largest = Math.max(1, ...top.map(metric));
  const labels = distinctLabels(top.map((row) => row.name), top.map(rowLabel), BAR_LABEL_CHARACTERS);
  return h(
    "div",
    { class: "top-bars", "data-testid": "operator-bars" },
    h("p", { class: "muted" }, `Top ${top.length} by ${byDevice ? "device" : "host"} self time`),
    ...top.map((row, index) =>
      h(
        "div",
        { class: "top-bar-row" },
        h("span", { class: "top-bar-label", title: rowLabel(row) }, labels[index] ?? row.name),
        h(
          "span",
          { class: "top-bar-track" },
          h("span", { class: "top-bar", style: `width: ${((metric(row) / largest) * 100).toFixed(2)}%` }),
        ),
        h("span", { class: "top-bar-value" }, formatDuration(metric(row))),
      ),
    ),
  );
}

export const operatorsDashboard: Dashboard = {
  id: "operators",
  label: "Operators",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress, params }) {
    const filter = h("input", {
      type: "search",
      class: "search-input",
      placeholder: "Filter operators",
      "aria-label": "Filter operators",
      "data-testid": "operator-filter",
      value: String(params["q"] ?? readHash().get("opq") ?? ""),
    });
    const grouping = h(
      "select",
      { "aria-label": "Group by", "data-testid": "operator-group" },
      h("option", { value: "name" }, "by name"),
      h("option", { value: "input_dims" }, "by name and input shapes"),
      h("option", { value: "call_stack" }, "by name and call stack"),
    );
    grouping.value = groupingFromHash();
    const chosenGrouping = (): Grouping => GROUPINGS.find((g) => g === grouping.value) ?? "name";
    const caption = h("p", { class: "muted", "data-testid": "operator-caption" });
    const unattributed = h("p", { class: "muted", "data-testid": "unattributed-device" });
    const warnings = h("div", { "data-testid": "operator-warnings" });
    const bars = h("div");
    const tableHolder = h("div", { class: "table-scroll" });
    const annotationHolder = h("div", { class: "table-scroll" });
    const annotationCaption = h("p", { class: "muted", "data-testid": "annotation-caption" });
    let rows: OperatorRow[] = [];

    const render = (): void => {
      const text = filter.value.trim().toLowerCase();
      const matching = rows.filter((r) => text === "" || r.name.toLowerCase().includes(text));
      const operators = matching.filter((r) => !r.annotation);
      const annotations = matching.filter((r) => r.annotation);
      const columns = columnsFor(rows, chosenGrouping());
      const byDevice = columns.some((c) => c.key === "device_self_ns");
      const table = (shown: OperatorRow[], testId: string, rowTestId: string): HTMLTableElement =>
        dataTable({
          columns,
          rows: shown,
          testId,
          rowTestId,
          rowName: (r) => r.name,
          sort: sortFromHash(columns, byDevice),
          onSortChange: (sort) => updateHash({ opsort: sort.key, opdir: sort.direction }),
          pageSize: PAGE_SIZE,
        });
      bars.replaceChildren(topBars(operators));
      tableHolder.replaceChildren(table(operators, "operator-table", "operator-row"));
      annotationCaption.textContent =
        annotations.length === 0
          ? "No annotations."
          : `${formatCount(annotations.length)} annotations: profiler steps and record_function / MyTimer spans, which hold operators rather than being one.`;
      annotationHolder.replaceChildren(
        ...(annotations.length === 0 ? [] : [table(annotations, "annotation-table", "annotation-row")]),
      );
      updateHash({ opq: text === "" ? null : filter.value });
    };

    let request = new AbortController();
    const load = async (first: boolean): Promise<void> => {
      request.abort();
      request = new AbortController();
      const requestSignal = first ? signal : request.signal;
      const answer = await fetchOperators(run, rank, chosenGrouping(), MAX_ROWS, requestSignal, onProgress);
      rows = answer.rows;
      caption.textContent =
        answer.total_rows === 0 && answer.empty_reason !== null
          ? answer.empty_reason
          : answer.total_rows > answer.rows.length
            ? `Showing ${answer.rows.length} of ${formatCount(answer.total_rows)} operators.`
            : `${formatCount(answer.total_rows)} operators.`;
      const missing = answer.unattributed_device;
      unattributed.textContent =
        missing.device_ns > 0 && missing.share !== null
          ? `Device time without a launch in the traces: ${formatDuration(missing.device_ns)} ` +
            `(${formatPercent(missing.share * 100)} of device time), in no operator's device time.`
          : "";
      warnings.replaceChildren(
        ...answer.warnings.map((w) => h("p", { class: "notice", role: "status" }, w)),
      );
      render();
    };
    filter.addEventListener("input", render);
    grouping.addEventListener("change", () => {
      updateHash({ opgroup: chosenGrouping() === "name" ? null : chosenGrouping() });
      load(false).catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === "AbortError")) {
          caption.textContent = `Could not load operators: ${String(error)}`;
        }
      });
    });
    await load(true);
    return h(
      "div",
      { class: "overview", "data-testid": "operators" },
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Operators"),
        h("div", { class: "controls" }, filter, grouping),
        warnings,
        caption,
        bars,
        tableHolder,
        unattributed,
      ),
      h(
        "section",
        { class: "panel", "data-testid": "annotations" },
        h("h2", {}, "Annotations"),
        annotationCaption,
        annotationHolder,
      ),
    );
  },
};
