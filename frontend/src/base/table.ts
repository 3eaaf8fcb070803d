// A table whose numeric columns are right-aligned and whose headers sort on click; a long one
// shows a page of rows at a time, with "rows a–b of N" and buttons to page through.

import { h } from "./dom";
import { formatCount, formatDuration } from "./format";
import { type PageRange, pageOf, pageRangeText } from "./paging";

export type SortDirection = "asc" | "desc";

export interface SortState {
  key: string;
  direction: SortDirection;
}

export interface Column<Row> {
  key: string;
  label: string;
  /** Header tooltip explaining the column. */
  title?: string;
  numeric: boolean;
  value: (row: Row) => number | string | null;
  /** Display text; defaults to the value itself. */
  format?: (row: Row) => string;
  /** Cell content other than text (e.g. a tree toggle); takes precedence over `format`. */
  render?: (row: Row) => Node;
  /** The cell's tooltip, e.g. the full name behind a shortened one. */
  cellTitle?: (row: Row) => string;
}

export interface TableOptions<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  testId: string;
  rowTestId: string;
  /** Identifies a row for tests (`data-name`). */
  rowName: (row: Row) => string;
  /** Omit to keep the rows in the given order and the headers inert. */
  sort?: SortState;
  onSortChange?: (sort: SortState) => void;
  /** Extra class for a row, e.g. to highlight the selected one. */
  rowClass?: (row: Row) => string | undefined;
  /** Rows per page (PAGE_SIZE for a long table); with more rows the table shows a pager
   * above them. Omit to show every row. */
  pageSize?: number;
  /** Called with the row a click lands on (e.g. to show its details). */
  onRowClick?: (row: Row) => void;
}

/** Rows a table shows at a time: a few screens, however many rows it has. */
export const PAGE_SIZE = 50;

/** A numeric column of nanosecond durations, shown formatted (e.g. "1.25 ms"). */
export function durationColumn<Row>(
  key: string,
  label: string,
  value: (row: Row) => number | null,
  title?: string,
): Column<Row> {
  return {
    key,
    label,
    numeric: true,
    value,
    format: (row) => formatDuration(value(row)),
    ...(title === undefined ? {} : { title }),
  };
}

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;
const ARROW = { asc: " ▲", desc: " ▼" } as const;
const FLIPPED = { asc: "desc", desc: "asc" } as const;

function compareValues(a: number | string | null, b: number | string | null): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

function sortRows<Row>(rows: readonly Row[], column: Column<Row>, direction: SortDirection): Row[] {
  const sign = direction === "asc" ? 1 : -1;
  return [...rows].sort((left, right) => {
    const a = column.value(left);
    const b = column.value(right);
    // Missing values stay at the bottom whichever way the column is sorted.
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    return sign * compareValues(a, b);
  });
}

/** Numbers are most interesting large-first; names read best A to Z. */
function defaultDirection<Row>(column: Column<Row>): SortDirection {
  return column.numeric ? "desc" : "asc";
}

export function dataTable<Row>(options: TableOptions<Row>): HTMLTableElement {
  const { columns, testId } = options;
  const pageSize = options.pageSize ?? Number.POSITIVE_INFINITY;
  let sort = options.sort;
  let page = 0;
  const table = h("table", { class: "data-table", "data-testid": testId });
  const headRow = h("tr");
  const body = h("tbody");
  const pager = pagerCaption(testId, (step) => {
    page += step;
    renderBody();
  });
  if (options.rows.length > pageSize) table.append(pager.caption);
  table.append(h("thead", {}, headRow), body);

  const renderHead = (): void => {
    headRow.replaceChildren(
      ...columns.map((column) => {
        // This column's direction when the table is sorted by it.
        const direction = sort?.key === column.key ? sort.direction : undefined;
        const header = h("th", {
          class: column.numeric ? "numeric" : undefined,
          title: column.title,
          "aria-sort": direction && ARIA_SORT[direction],
          "data-column": column.key,
        });
        if (!sort) {
          header.append(column.label);
          return header;
        }
        const arrow = direction ? ARROW[direction] : "";
        const button = h("button", { type: "button", class: "sort-button" }, column.label + arrow);
        button.addEventListener("click", () => {
          const next = direction === undefined ? defaultDirection(column) : FLIPPED[direction];
          sort = { key: column.key, direction: next };
          page = 0;
          options.onSortChange?.(sort);
          renderHead();
          renderBody();
        });
        header.append(button);
        return header;
      }),
    );
  };

  const renderBody = (): void => {
    const sortColumn = sort && columns.find((column) => column.key === sort?.key);
    const sorted =
      sort && sortColumn ? sortRows(options.rows, sortColumn, sort.direction) : options.rows;
    const shown = pageOf(sorted.length, page, pageSize);
    page = shown.page;
    pager.show(shown, sorted.length);
    body.replaceChildren(
      ...sorted.slice(shown.first, shown.end).map((row) => {
        const tr = h(
          "tr",
          {
            "data-testid": options.rowTestId,
            "data-name": options.rowName(row),
            class: options.rowClass?.(row),
          },
          ...columns.map((column) => {
            const value = column.value(row);
            return h(
              "td",
              {
                class: column.numeric ? "numeric" : undefined,
                "data-column": column.key,
                title: column.cellTitle?.(row),
                // The raw number, so tests and copy-paste do not depend on display rounding.
                "data-value": value === null ? undefined : String(value),
              },
              column.render
                ? column.render(row)
                : column.format
                  ? column.format(row)
                  : String(value ?? "—"),
            );
          }),
        );
        const onRowClick = options.onRowClick;
        if (onRowClick) {
          tr.classList.add("clickable");
          tr.addEventListener("click", () => onRowClick(row));
        }
        return tr;
      }),
    );
  };

  renderHead();
  renderBody();
  return table;
}

interface Pager {
  caption: HTMLElement;
  show: (shown: PageRange, total: number) => void;
}

/** The pager of a long table: its range of rows and buttons to the previous and next page. */
function pagerCaption(testId: string, turn: (step: number) => void): Pager {
  const range = h("span", { class: "pager-range", "data-testid": `${testId}-range` });
  const button = (label: string, step: number, id: string): HTMLButtonElement => {
    const element = h("button", { type: "button", "data-testid": `${testId}-${id}` }, label);
    element.addEventListener("click", () => turn(step));
    return element;
  };
  const previous = button("‹ previous", -1, "previous");
  const next = button("next ›", 1, "next");
  const caption = h("caption", { class: "pager", "data-testid": `${testId}-pager` }, range, previous, next);
  return {
    caption,
    show: (shown, total) => {
      range.textContent = pageRangeText(shown, total, formatCount);
      previous.disabled = shown.page === 0;
      next.disabled = shown.page >= shown.pages - 1;
    },
  };
}
