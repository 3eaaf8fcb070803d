// The Kernels tab: per kernel name statistics (Tensor Cores guessed from names), and GPU
// utilization and est. SM efficiency over time per device.

import { lineChart } from "../base/chart";
import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { formatCount, formatDuration } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { type Column, dataTable, PAGE_SIZE, type SortState } from "../base/table";
import { seriesColor } from "../base/theme";
import { fetchKernels } from "./api";
import type { DeviceSeries, KernelGrouping, KernelRow, KernelsAnswer, NcuSummary } from "./types";

const MAX_ROWS = 1000;

const optionalNumber = (value: number | null, digits: number, suffix = ""): string =>
  value === null ? "—" : `${value.toFixed(digits)}${suffix}`;

/** Waits this long after the last key in the search box before asking the server. */
const SEARCH_DELAY_MS = 250;

const NAME_COLUMN: Column<KernelRow> = {
  key: "name",
  label: "kernel",
  title: "The kernel's function name; hover for its full name, click the row for details",
  numeric: false,
  value: (r) => r.short_name,
  cellTitle: (r) => r.name,
};

const OPERATOR_COLUMN: Column<KernelRow> = {
  key: "operator",
  label: "launched by",
  title: "The operator around the kernel's launch (— where the trace does not say)",
  numeric: false,
  value: (r) => (r.operator ? r.operator : null),
  cellTitle: (r) => r.operator ?? "",
};

const COLUMNS: Column<KernelRow>[] = [
  { key: "calls", label: "calls", numeric: true, value: (r) => r.calls, format: (r) => formatCount(r.calls) },
  { key: "total_ns", label: "total", numeric: true, value: (r) => r.total_ns, format: (r) => formatDuration(r.total_ns) },
  { key: "mean_ns", label: "mean", numeric: true, value: (r) => r.mean_ns, format: (r) => formatDuration(r.mean_ns) },
  { key: "max_ns", label: "max", numeric: true, value: (r) => r.max_ns, format: (r) => formatDuration(r.max_ns) },
  {
    key: "pct_of_kernel_time",
    label: "% of GPU time",
    numeric: true,
    value: (r) => r.pct_of_kernel_time,
    format: (r) => optionalNumber(r.pct_of_kernel_time, 1, " %"),
  },
  {
    key: "tensor_cores",
    label: "Tensor Cores",
    title: "Guessed from the kernel's name (docs/ANALYSIS.md)",
    numeric: false,
    value: (r) => (r.tensor_cores ? "yes" : "no"),
  },
  {
    key: "mean_est_occupancy_pct",
    label: "est. occupancy",
    numeric: true,
    value: (r) => r.mean_est_occupancy_pct,
    format: (r) => optionalNumber(r.mean_est_occupancy_pct, 1, " %"),
  },
  {
    key: "est_sm_efficiency",
    label: "est. SM efficiency",
    numeric: true,
    value: (r) => r.est_sm_efficiency,
    format: (r) => optionalNumber(r.est_sm_efficiency === null ? null : r.est_sm_efficiency * 100, 1, " %"),
  },
];

function ncuPercent(key: keyof KernelRow & string, label: string, title: string): Column<KernelRow> {
  return {
    key,
    label,
    title,
    numeric: true,
    value: (r) => (r[key] as number | null | undefined) ?? null,
    format: (r) => optionalNumber((r[key] as number | null | undefined) ?? null, 1, " %"),
  };
}

/** Nsight Compute's columns, shown when the run has an imported NCU CSV. */
const NCU_COLUMNS: Column<KernelRow>[] = [
  { key: "ncu_launches", label: "NCU launches", title: "Launches Nsight Compute profiled under this name", numeric: true, value: (r) => r.ncu_launches ?? 0, format: (r) => formatCount(r.ncu_launches ?? 0) },
  { key: "ncu_duration_ns", label: "NCU duration", title: "Mean gpu__time_duration of those launches", numeric: true, value: (r) => r.ncu_duration_ns ?? null, format: (r) => formatDuration(r.ncu_duration_ns ?? null) },
  ncuPercent("ncu_sm_throughput_pct", "SM throughput", "Compute (SM) throughput, % of peak (mean over launches)"),
  ncuPercent("ncu_memory_throughput_pct", "memory throughput", "Memory throughput, % of peak (mean over launches)"),
  ncuPercent("ncu_achieved_occupancy_pct", "achieved occupancy", "Achieved occupancy, % (mean over launches)"),
  ncuPercent("ncu_theoretical_occupancy_pct", "theoretical occupancy", "Theoretical occupancy, % (mean over launches)"),
  { key: "ncu_registers_per_thread", label: "registers / thread", numeric: true, value: (r) => r.ncu_registers_per_thread ?? null, format: (r) => optionalNumber(r.ncu_registers_per_thread ?? null, 0) },
  { key: "ncu_match", label: "NCU match", title: "How the NCU kernel name matched a trace kernel name (docs/HTTP_API.md)", numeric: false, value: (r) => r.ncu_match ?? "" },
];

function ncuNotes(ncu: NcuSummary): HTMLElement[] {
  const notes = [
    h(
      "p",
      { class: "muted", "data-testid": "ncu-summary" },
      `Nsight Compute: ${formatCount(ncu.launches)} launches from ${ncu.files.join(", ")}; ` +
        `${formatCount(ncu.matched_kernels)} kernel names matched the trace's.`,
    ),
  ];
  for (const [names, why] of [
    [ncu.unmatched, "match no kernel of the trace"],
    [ncu.ambiguous, "match several kernels of the trace (ambiguous)"],
  ] as const) {
    if (names.length > 0) {
      notes.push(
        h("p", { class: "muted", "data-testid": "ncu-unmatched" }, `${formatCount(names.length)} NCU kernel(s) ${why}: ${names.join("; ")}`),
      );
    }
  }
  return notes;
}

/** The full name of the clicked kernel, its launching operator, and a button to copy the name. */
function kernelDetails(row: KernelRow): HTMLElement {
  const status = h("span", { class: "muted", "data-testid": "kernel-copy-status" });
  const copy = h("button", { type: "button", "data-testid": "kernel-copy" }, "Copy full name");
  copy.addEventListener("click", () => {
    navigator.clipboard.writeText(row.name).then(
      () => {
        status.textContent = "copied";
      },
      (error: unknown) => {
        status.textContent = `could not copy: ${String(error)}`;
      },
    );
  });
  return h(
    "div",
    { class: "kernel-details", "data-testid": "kernel-details" },
    h("h3", {}, row.short_name),
    h("code", { class: "full-name", "data-testid": "kernel-full-name" }, row.name),
    row.operator ? h("p", { class: "muted" }, `Launched by ${row.operator}`) : null,
    h("p", {}, copy, " ", status),
  );
}

function kernelCaption(answer: KernelsAnswer): string {
  if (answer.total_rows === 0) return answer.empty_reason ?? NO_KERNELS;
  const noun = answer.group_by === "operator" ? "kernel and operator pairs" : "kernels";
  const matching = answer.q === null ? "" : ` matching "${answer.q}" (of ${formatCount(answer.kernels)})`;
  const fetched = answer.total_rows > answer.rows.length ? `; the ${formatCount(answer.rows.length)} longest are listed` : "";
  return `${formatCount(answer.total_rows)} ${noun}${matching}${fetched}.`;
}

function sortFromHash(columns: readonly Column<KernelRow>[]): SortState {
  const params = readHash();
  const key = params.get("ksort");
  const direction = params.get("kdir");
  if (columns.some((c) => c.key === key) && (direction === "asc" || direction === "desc")) {
    return { key: key as string, direction };
  }
  return { key: "total_ns", direction: "desc" };
}

const NO_KERNELS = "No GPU kernels in this run's traces.";

function utilizationChart(devices: readonly DeviceSeries[], emptyReason: string | null): HTMLElement {
  if (devices.length === 0) return h("p", { class: "muted" }, emptyReason ?? NO_KERNELS);
  const series = devices.flatMap((device, index) => {
    const first = BigInt(device.start_ns[0] ?? "0");
    const x = device.start_ns.map((t) => Number(BigInt(t) - first));
    const label = `rank ${device.rank} GPU ${device.device}`;
    return [
      { label: `${label} utilization`, color: seriesColor(2 * index), x, y: device.utilization.map((u) => u * 100) },
      { label: `${label} est. SM efficiency`, color: seriesColor(2 * index + 1), x, y: device.est_sm_efficiency.map((u) => u * 100) },
    ];
  });
  return lineChart({
    series,
    height: 220,
    xLabel: "time from the trace's start",
    formatX: formatDuration,
    formatY: (y) => `${y.toFixed(1)} %`,
    yTickFormat: () => (y) => `${y} %`,
    testId: "gpu-utilization-chart",
  });
}

export const kernelsDashboard: Dashboard = {
  id: "kernels",
  label: "Kernels",
  usesRankSelect: true,
  async show({ run, rank, signal, onProgress }) {
    const hash = readHash();
    const search = h("input", {
      type: "search",
      class: "search-input",
      placeholder: "Search kernels",
      "aria-label": "Search kernels",
      "data-testid": "kernel-search",
      value: hash.get("kq") ?? "",
    });
    const grouping = h(
      "select",
      { "aria-label": "Group kernels by", "data-testid": "kernel-group" },
      h("option", { value: "name" }, "by name"),
      h("option", { value: "operator" }, "by name and launching operator"),
    );
    grouping.value = hash.get("kgroup") === "operator" ? "operator" : "name";
    const caption = h("p", { class: "muted", "data-testid": "kernel-caption" });
    const ncuHolder = h("div");
    const tableHolder = h("div", { class: "table-scroll" });
    const details = h("div");
    const groupBy = (): KernelGrouping => (grouping.value === "operator" ? "operator" : "name");

    const render = (answer: KernelsAnswer): void => {
      const base = answer.ncu ? [...COLUMNS, ...NCU_COLUMNS] : COLUMNS;
      const columns = answer.group_by === "operator" ? [NAME_COLUMN, OPERATOR_COLUMN, ...base] : [NAME_COLUMN, ...base];
      caption.textContent = kernelCaption(answer);
      ncuHolder.replaceChildren(...(answer.ncu ? ncuNotes(answer.ncu) : []));
      details.replaceChildren();
      tableHolder.replaceChildren(
        answer.rows.length === 0
          ? h("p", { class: "muted", "data-testid": "kernels-empty" }, answer.empty_reason ?? NO_KERNELS)
          : dataTable({
              columns,
              rows: answer.rows,
              testId: "kernel-table",
              rowTestId: "kernel-row",
              rowName: (r) => r.name,
              sort: sortFromHash(columns),
              onSortChange: (sort) => updateHash({ ksort: sort.key, kdir: sort.direction }),
              pageSize: PAGE_SIZE,
              onRowClick: (row) => details.replaceChildren(kernelDetails(row)),
            }),
      );
    };

    let request = new AbortController();
    const reload = (): void => {
      request.abort();
      request = new AbortController();
      const q = search.value.trim();
      updateHash({ kq: q === "" ? null : q, kgroup: groupBy() === "operator" ? "operator" : null });
      fetchKernels(run, rank, MAX_ROWS, request.signal, onProgress, { q, groupBy: groupBy() }).then(render, (error: unknown) => {
        if (!(error instanceof DOMException && error.name === "AbortError")) {
          caption.textContent = `Could not load kernels: ${String(error)}`;
        }
      });
    };
    let typing: ReturnType<typeof setTimeout> | undefined;
    search.addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(reload, SEARCH_DELAY_MS);
    });
    grouping.addEventListener("change", reload);

    const answer = await fetchKernels(run, rank, MAX_ROWS, signal, onProgress, {
      q: search.value.trim(),
      groupBy: groupBy(),
    });
    render(answer);
    const tensorCores = answer.devices.map(
      (d) => `rank ${d.rank} GPU ${d.device}: ${d.tensor_core_pct.toFixed(1)} % of kernel time on Tensor Cores (by name)`,
    );
    return h(
      "div",
      { class: "overview", "data-testid": "kernels" },
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "GPU utilization and est. SM efficiency"),
        utilizationChart(answer.devices, answer.empty_reason),
        ...tensorCores.map((line) => h("p", { class: "muted" }, line)),
      ),
      h(
        "section",
        { class: "panel" },
        h("h2", {}, "Kernels"),
        h("div", { class: "controls" }, search, grouping),
        caption,
        ncuHolder,
        details,
        tableHolder,
      ),
    );
  },
};
