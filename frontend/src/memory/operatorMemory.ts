// The Memory tab's per-operator table (route memory/operators): what each operator allocated
// and freed on one device, over a range of steps picked in its selects or by dragging across
// the per-step memory curves.

import { h } from "../base/dom";
import { formatCount, formatMemory } from "../base/format";
import { type Column, dataTable, PAGE_SIZE } from "../base/table";
import { fetchOperatorMemory } from "./api";
import type { MemoryAnswer, OperatorMemoryRow } from "./types";

const OUTSIDE = "(outside any operator)";

function bytes(key: keyof OperatorMemoryRow, label: string, title: string): Column<OperatorMemoryRow> {
  return {
    key,
    label,
    title,
    numeric: true,
    value: (r) => r[key] as number | null,
    format: (r) => formatMemory(r[key] as number | null),
  };
}

function count(key: keyof OperatorMemoryRow, label: string, title?: string): Column<OperatorMemoryRow> {
  return {
    key,
    label,
    ...(title === undefined ? {} : { title }),
    numeric: true,
    value: (r) => r[key] as number,
    format: (r) => formatCount(r[key] as number),
  };
}

const COLUMNS: Column<OperatorMemoryRow>[] = [
  { key: "name", label: "operator", numeric: false, value: (r) => r.name || OUTSIDE },
  count("calls", "calls", "Calls with memory events in them"),
  count("allocations", "allocations", "Allocations in the operator and the operators inside it"),
  bytes("allocation_bytes", "allocated", "Bytes allocated in it and the operators inside it (frees not counted)"),
  bytes("self_allocation_bytes", "self allocated", "Bytes allocated by the operator itself, not an operator inside it"),
  count("frees", "frees"),
  bytes("increase_bytes", "increase", "Allocated minus freed, with the operators inside it"),
  bytes("self_increase_bytes", "self increase", "Allocated minus freed by the operator itself"),
  bytes("peak_bytes", "peak while running", "The most allocated on the device while a call ran"),
];

/** Step windows of the range picker: step k covers (end of step k-1, end of step k]. */
interface StepEnd {
  step: number;
  t: number;
}

function stepEnds(answer: MemoryAnswer): StepEnd[] {
  const rank = answer.ranks[0];
  if (!rank || rank.bucket !== 1) return [];
  return rank.steps.map((step, i) => ({ step, t: rank.t_ns[i] ?? 0 }));
}

function absolute(origin: string, t: number): string {
  return (BigInt(origin) + BigInt(Math.round(t))).toString();
}

export interface OperatorMemoryPanel {
  element: HTMLElement;
  /** Narrow the table to the steps from `from` to `to` (the x range dragged on a chart). */
  showSteps: (from: number, to: number) => void;
}

/** The panel; it stays hidden for a run whose traces hold no memory events. */
export function operatorMemoryPanel(answer: MemoryAnswer, signal: AbortSignal): OperatorMemoryPanel {
  const panel = h(
    "section",
    { class: "panel", "data-testid": "operator-memory", hidden: true },
    h("h2", {}, "Memory by operator"),
  );
  const ends = stepEnds(answer);
  const device = h("select", { "data-testid": "operator-memory-device", "aria-label": "Device" });
  const options = (chosen: number): HTMLOptionElement[] =>
    ends.map((e, i) => {
      const option = h("option", { value: String(i) }, `step ${e.step}`);
      option.selected = i === chosen;
      return option;
    });
  const from = h("select", { "data-testid": "operator-memory-from", "aria-label": "From step" }, ...options(0));
  const to = h("select", { "data-testid": "operator-memory-to", "aria-label": "To step" }, ...options(ends.length - 1));
  const caption = h("p", { class: "muted", "data-testid": "operator-memory-caption" });
  const body = h("div", { class: "table-scroll" });
  let request = new AbortController();

  const range = (): { start: string; end: string } | null => {
    const a = Number(from.value);
    const b = Number(to.value);
    if (ends.length === 0 || (a === 0 && b === ends.length - 1)) return null;
    const [first, last] = a <= b ? [a, b] : [b, a];
    const before = ends[first - 1];
    const start = before ? absolute(answer.origin_ns, before.t + 1) : "0";
    return { start, end: absolute(answer.origin_ns, ends[last]?.t ?? 0) };
  };

  const load = async (): Promise<void> => {
    request.abort();
    request = new AbortController();
    const local = AbortSignal.any([signal, request.signal]);
    try {
      const result = await fetchOperatorMemory(answer.run, answer.rank, device.value || null, range(), local);
      if (result.devices.length === 0) return; // no memory events in the traces: stay hidden
      panel.hidden = false;
      if (device.options.length === 0) {
        device.replaceChildren(...result.devices.map((d) => h("option", { value: d }, d)));
        device.value = result.device ?? "";
      }
      const shown = result.rows.length < result.total_rows ? `the ${formatCount(result.rows.length)} largest of ` : "";
      const when = result.start_ns === null ? "over the whole trace" : "in the chosen steps";
      caption.textContent = `${shown}${formatCount(result.total_rows)} operators by bytes allocated on ${result.device ?? "—"}, ${when}.`;
      body.replaceChildren(
        result.rows.length === 0
          ? h("p", { class: "muted", "data-testid": "operator-memory-empty" }, result.empty_reason ?? "")
          : dataTable({
              columns: COLUMNS,
              rows: result.rows,
              testId: "operator-memory-table",
              rowTestId: "operator-memory-row",
              rowName: (r) => r.name || OUTSIDE,
              pageSize: PAGE_SIZE,
            }),
      );
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      panel.hidden = false;
      const message = error instanceof Error ? error.message : String(error);
      body.replaceChildren(h("p", { class: "error", role: "alert" }, `Could not load the operator table: ${message}`));
    }
  };
  for (const control of [device, from, to]) control.addEventListener("change", () => void load());
  const showSteps = (first: number, last: number): void => {
    const inside = ends.flatMap((e, i) => (e.step >= Math.ceil(first) && e.step <= Math.floor(last) ? [i] : []));
    const [a, b] = [inside[0], inside.at(-1)];
    if (a === undefined || b === undefined) return;
    from.value = String(a);
    to.value = String(b);
    void load();
  };
  panel.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Device ", device),
      ends.length > 1 ? h("label", {}, "Steps ", from, " to ", to) : null,
    ),
    caption,
    body,
  );
  void load();
  return { element: panel, showSteps };
}
