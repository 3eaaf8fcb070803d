// The Python tab: the function table of the run's imported cProfile/pstats files (cProfile,
// `python -m cProfile -o`, Lightning's AdvancedProfiler), summed over the selected rank's
// profiles, with a server-side filter, sortable columns and the files it comes from.

import { getJson, type ProgressListener, runQuery } from "../base/api";
import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { formatCount, formatDuration, formatPercent } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { type Column, dataTable, PAGE_SIZE, type SortState } from "../base/table";
import type { PythonAnswer, PythonFile, PythonRow, PythonSort } from "./types";

const MAX_ROWS = 2000;
const FILTER_DELAY_MS = 250;

function fetchPython(
  run: string,
  rank: number | null,
  sort: PythonSort,
  q: string,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<PythonAnswer> {
  const url = `./python?${runQuery(run, { rank, sort, q: q === "" ? null : q, limit: MAX_ROWS })}`;
  return getJson(url, signal, onProgress);
}

const share = (value: number | null): string => formatPercent(value === null ? null : value * 100);

/** Which server sort returns the rows a column sorts by (the share columns follow times). */
const SERVER_SORT: Record<string, PythonSort> = {
  function: "function",
  calls: "calls",
  self_ns: "self_ns",
  self_share: "self_ns",
  self_per_call_ns: "self_per_call_ns",
  cumulative_ns: "cumulative_ns",
  cumulative_share: "cumulative_ns",
  cumulative_per_call_ns: "cumulative_per_call_ns",
};

function functionCell(row: PythonRow): Node {
  const where = row.builtin ? "built-in" : `${row.filename}:${row.line}`;
  return h(
    "span",
    { class: "python-function", title: row.function },
    h("span", { class: "python-name" }, row.name),
    " ",
    h("span", { class: "muted" }, where),
  );
}

const COLUMNS: Column<PythonRow>[] = [
  { key: "function", label: "function", numeric: false, value: (r) => r.function, render: functionCell },
  {
    key: "calls",
    label: "calls",
    title: "All calls; after a slash, the primitive (non-recursive) ones where they differ, as pstats prints ncalls",
    numeric: true,
    value: (r) => r.calls,
    format: (r) =>
      r.calls === r.primitive_calls
        ? formatCount(r.calls)
        : `${formatCount(r.calls)}/${formatCount(r.primitive_calls)}`,
  },
  { key: "self_ns", label: "self", title: "Time in the function itself (pstats tottime)", numeric: true, value: (r) => r.self_ns, format: (r) => formatDuration(r.self_ns) },
  { key: "self_share", label: "self %", title: "Self time over the profiles' total time", numeric: true, value: (r) => r.self_share, format: (r) => share(r.self_share) },
  { key: "self_per_call_ns", label: "self / call", title: "Self time over all calls", numeric: true, value: (r) => r.self_per_call_ns, format: (r) => formatDuration(r.self_per_call_ns) },
  { key: "cumulative_ns", label: "cumulative", title: "Including what it called (pstats cumtime)", numeric: true, value: (r) => r.cumulative_ns, format: (r) => formatDuration(r.cumulative_ns) },
  { key: "cumulative_share", label: "cumulative %", title: "Cumulative time over the profiles' total time", numeric: true, value: (r) => r.cumulative_share, format: (r) => share(r.cumulative_share) },
  { key: "cumulative_per_call_ns", label: "cumulative / call", title: "Cumulative time over primitive calls", numeric: true, value: (r) => r.cumulative_per_call_ns, format: (r) => formatDuration(r.cumulative_per_call_ns) },
];

function sortFromHash(): SortState {
  const params = readHash();
  const key = params.get("pysort");
  const direction = params.get("pydir");
  if (COLUMNS.some((c) => c.key === key) && (direction === "asc" || direction === "desc")) {
    return { key: key as string, direction };
  }
  return { key: "self_ns", direction: "desc" };
}

function filesPanel(files: readonly PythonFile[]): HTMLElement {
  return h(
    "section",
    { class: "panel" },
    h("h2", {}, "Profiles"),
    h(
      "div",
      { class: "table-scroll" },
      dataTable({
        columns: [
          { key: "rank", label: "rank", numeric: true, value: (f) => f.rank },
          { key: "file", label: "file", numeric: false, value: (f) => f.file },
          { key: "total_ns", label: "total time", numeric: true, value: (f) => f.total_ns, format: (f) => formatDuration(f.total_ns) },
          { key: "calls", label: "calls", numeric: true, value: (f) => f.calls, format: (f) => formatCount(f.calls) },
          { key: "primitive_calls", label: "primitive calls", numeric: true, value: (f) => f.primitive_calls, format: (f) => formatCount(f.primitive_calls) },
        ],
        rows: files,
        testId: "python-files",
        rowTestId: "python-file",
        rowName: (f) => f.file,
      }),
    ),
  );
}

export const pythonDashboard: Dashboard = {
  id: "python",
  label: "Python",
  usesRankSelect: true,
  available: (run) => run.sources.includes("pstats"),
  async show({ run, rank, signal, onProgress, params }) {
    const hash = readHash();
    const filter = h("input", {
      type: "search",
      class: "search-input",
      placeholder: "Filter functions",
      "aria-label": "Filter functions",
      "data-testid": "python-filter",
      value: String(params["q"] ?? hash.get("pyq") ?? ""),
    });
    const builtins = h("input", { type: "checkbox", "data-testid": "python-builtins" });
    builtins.checked = hash.get("pybuiltins") !== "0";
    const caption = h("p", { class: "muted", "data-testid": "python-caption" });
    const tableHolder = h("div", { class: "table-scroll" });
    const filesHolder = h("div");
    let sort = sortFromHash();
    let answer: PythonAnswer | null = null;

    const render = (): void => {
      if (answer === null) return;
      const rows = builtins.checked ? answer.rows : answer.rows.filter((r) => !r.builtin);
      const shown = answer.total_rows > answer.rows.length ? `the first ${formatCount(answer.rows.length)} of ` : "";
      const matching = answer.q ? ` match “${answer.q}” of ${formatCount(answer.functions)}` : "";
      caption.textContent =
        `${shown}${formatCount(answer.total_rows)} functions${matching}; ` +
        `${formatDuration(answer.total_ns)} profiled in ${formatCount(answer.files.length)} file(s), ` +
        `${formatCount(answer.calls)} calls.`;
      // the server's reason when it answered no rows; else the rows shown here hide built-ins
      const empty =
        answer.rows.length === 0 && answer.empty_reason !== null
          ? answer.empty_reason
          : answer.files.length === 0
            ? "No cProfile/pstats files in this run (drop .prof files into the run directory or its plugins/tb_perf/imported/, or use `tb-perf ingest`)."
            : "No function matches.";
      tableHolder.replaceChildren(
        rows.length === 0
          ? h("p", { class: "muted", "data-testid": "python-empty" }, empty)
          : dataTable({
              columns: COLUMNS,
              rows,
              testId: "python-table",
              rowTestId: "python-row",
              rowName: (r) => r.function,
              pageSize: PAGE_SIZE,
              sort,
              onSortChange: (next) => {
                const refetch = answer !== null && answer.total_rows > answer.rows.length && SERVER_SORT[next.key] !== answer.sort;
                sort = next;
                updateHash({ pysort: next.key, pydir: next.direction });
                if (refetch) reload();
              },
            }),
      );
      filesHolder.replaceChildren(filesPanel(answer.files));
    };

    let request = new AbortController();
    const load = async (requestSignal: AbortSignal): Promise<void> => {
      const text = filter.value.trim();
      answer = await fetchPython(run, rank, SERVER_SORT[sort.key] ?? "self_ns", text, requestSignal, onProgress);
      render();
    };
    const reload = (): void => {
      request.abort();
      request = new AbortController();
      load(request.signal).catch((error: unknown) => {
        if (!(error instanceof DOMException && error.name === "AbortError")) {
          caption.textContent = `Could not load the function table: ${String(error)}`;
        }
      });
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    filter.addEventListener("input", () => {
      clearTimeout(timer);
      updateHash({ pyq: filter.value.trim() === "" ? null : filter.value });
      timer = setTimeout(reload, FILTER_DELAY_MS);
    });
    builtins.addEventListener("change", () => {
      updateHash({ pybuiltins: builtins.checked ? null : "0" });
      render();
    });
    await load(signal);
    return h(
      "div",
      { class: "overview", "data-testid": "python" },
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Python functions"),
        h("div", { class: "controls" }, filter, h("label", {}, builtins, " built-ins")),
        caption,
        tableHolder,
      ),
      filesHolder,
    );
  },
};
