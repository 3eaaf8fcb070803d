// A filterable, sortable table of per-name deltas (operators, kernels, modules), sorted by the
// delta so the biggest regressions lead; the sort is kept in the hash under the table's prefix.

import { h } from "../base/dom";
import { formatCount, formatDuration } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { type Column, dataTable, type SortState } from "../base/table";
import { deltaClass, signedDuration } from "./format";
import type { DeltaStatus } from "./types";

interface DeltaRow {
  baseline_ns: number | null;
  candidate_ns: number | null;
  delta_ns: number;
  status: DeltaStatus;
}

export interface DeltaTableSpec<Row extends DeltaRow> {
  /** Names the hash keys (`<prefix>sort`, `<prefix>dir`) and test ids (`<prefix>-delta-table`). */
  prefix: string;
  noun: string;
  rows: readonly Row[];
  /** What the times are per, for the caption. */
  per: string;
  /** Rows the route compared; it sends only the largest changes. */
  total: number;
  name: (row: Row) => string;
  /** What the name column shows, if not the name (e.g. a kernel's short name). */
  label?: (row: Row) => string;
  /** Columns between the name and the times (e.g. a module's phase). */
  extra?: readonly Column<Row>[];
  /** Call counts, where the rows have them. */
  calls?: (row: Row) => [number | null, number | null];
}

/** Rows a delta table shows at a time: the page holds several of them. */
const DELTA_PAGE_SIZE = 20;

const absentIn = { baseline_ns: "new", candidate_ns: "vanished" } as const;

function relative(row: DeltaRow): number | null {
  return row.baseline_ns ? row.delta_ns / row.baseline_ns : null;
}

function columns<Row extends DeltaRow>(spec: DeltaTableSpec<Row>): Column<Row>[] {
  const time = (key: "baseline_ns" | "candidate_ns", label: string): Column<Row> => ({
    key,
    label,
    numeric: true,
    value: (row) => row[key],
    // The route counts an absent side as 0 ns; a dash says it is not there at all.
    format: (row) => (row.status === absentIn[key] ? "—" : formatDuration(row[key])),
  });
  const calls = spec.calls;
  const callColumns: Column<Row>[] = calls
    ? [
        {
          key: "baseline_calls",
          label: "baseline calls",
          numeric: true,
          value: (r) => calls(r)[0],
          format: (r) => formatCount(calls(r)[0]),
        },
        {
          key: "candidate_calls",
          label: "candidate calls",
          numeric: true,
          value: (r) => calls(r)[1],
          format: (r) => formatCount(calls(r)[1]),
        },
      ]
    : [];
  return [
    { key: "name", label: spec.noun, numeric: false, value: spec.label ?? spec.name, cellTitle: spec.name },
    ...(spec.extra ?? []),
    { key: "status", label: "status", numeric: false, value: (r) => r.status },
    time("baseline_ns", "baseline"),
    time("candidate_ns", "candidate"),
    {
      key: "delta_ns",
      label: "Δ",
      title: "Candidate minus baseline (+ is slower)",
      numeric: true,
      value: (r) => r.delta_ns,
      render: (r) => h("span", { class: deltaClass(r.delta_ns) }, signedDuration(r.delta_ns)),
    },
    {
      key: "delta_pct",
      label: "Δ %",
      title: "The delta as a share of the baseline's time",
      numeric: true,
      value: relative,
      format: (r) => {
        const share = relative(r);
        return share === null ? "—" : `${share > 0 ? "+" : ""}${(share * 100).toFixed(1)} %`;
      },
    },
    ...callColumns,
  ];
}

function sortFromHash<Row>(prefix: string, cols: readonly Column<Row>[]): SortState {
  const params = readHash();
  const key = params.get(`${prefix}sort`);
  const direction = params.get(`${prefix}dir`);
  if (cols.some((c) => c.key === key) && (direction === "asc" || direction === "desc")) {
    return { key: key as string, direction };
  }
  return { key: "delta_ns", direction: "desc" };
}

export function deltaTable<Row extends DeltaRow>(spec: DeltaTableSpec<Row>): HTMLElement {
  if (spec.rows.length === 0) {
    return h("p", { class: "muted" }, `No ${spec.noun}s in either run.`);
  }
  const cols = columns(spec);
  const filter = h("input", {
    type: "search",
    class: "search-input",
    placeholder: `Filter ${spec.noun}s`,
    "aria-label": `Filter ${spec.noun}s`,
    "data-testid": `${spec.prefix}-delta-filter`,
  });
  const caption = h("p", { class: "muted" });
  const holder = h("div", { class: "table-scroll" });
  const render = (): void => {
    const text = filter.value.trim().toLowerCase();
    const shown = spec.rows.filter((r) => text === "" || spec.name(r).toLowerCase().includes(text));
    const sent =
      spec.total > spec.rows.length
        ? `the ${formatCount(spec.rows.length)} largest changes of ` +
          `${formatCount(spec.total)} ${spec.noun}s`
        : `${formatCount(spec.rows.length)} ${spec.noun}s`;
    const filtered =
      shown.length === spec.rows.length ? "" : `${formatCount(shown.length)} match the filter, of `;
    caption.textContent = `${spec.per}; ${filtered}${sent}.`;
    holder.replaceChildren(
      dataTable({
        columns: cols,
        rows: shown,
        testId: `${spec.prefix}-delta-table`,
        rowTestId: `${spec.prefix}-delta-row`,
        rowName: spec.name,
        pageSize: DELTA_PAGE_SIZE,
        // Read on each render so a filter change keeps the order the user clicked.
        sort: sortFromHash(spec.prefix, cols),
        onSortChange: (sort) =>
          updateHash({ [`${spec.prefix}sort`]: sort.key, [`${spec.prefix}dir`]: sort.direction }),
      }),
    );
  };
  filter.addEventListener("input", render);
  render();
  return h("div", {}, h("div", { class: "controls" }, filter), caption, holder);
}
