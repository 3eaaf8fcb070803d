// The Tasks tab: profile_task's summaries (docs/CAPTURE.md) — per task type and rank, the traced
// invocations and the statistics of the operators its PROFILE_TASK_OPS pattern selected.

import { getJson, type ProgressListener, runQuery } from "../base/api";
import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { formatCount, formatDuration } from "../base/format";
import { type Column, dataTable, durationColumn } from "../base/table";

interface TaskOperator {
  name: string;
  category: string;
  count: number;
  total_ns: number;
  mean_ns: number;
  median_ns: number;
  std_ns: number;
  min_ns: number;
  max_ns: number;
}

interface TaskInvocation {
  index: number;
  file?: string;
  duration_ns?: number;
  error?: string;
}

interface TaskSummary {
  task_type: string;
  rank: number;
  file: string;
  ops_pattern: string;
  invocations_seen: number;
  invocations: TaskInvocation[];
  operators: TaskOperator[];
}

interface TasksAnswer {
  run: string;
  tasks: TaskSummary[];
  warnings: string[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}

function fetchTasks(run: string, signal: AbortSignal, onProgress?: ProgressListener): Promise<TasksAnswer> {
  return getJson(`./tasks?${runQuery(run)}`, signal, onProgress);
}

const duration = (key: keyof TaskOperator & string, label: string): Column<TaskOperator> =>
  durationColumn(key, label, (r) => r[key] as number);

const COLUMNS: Column<TaskOperator>[] = [
  { key: "name", label: "operator", numeric: false, value: (r) => r.name },
  { key: "category", label: "kind", numeric: false, value: (r) => r.category },
  { key: "count", label: "count", numeric: true, value: (r) => r.count, format: (r) => formatCount(r.count) },
  duration("total_ns", "total"),
  duration("mean_ns", "mean"),
  duration("median_ns", "median"),
  duration("std_ns", "std"),
  duration("min_ns", "min"),
  duration("max_ns", "max"),
];

function invocationsText(task: TaskSummary): string {
  const traced = task.invocations.map((i) =>
    i.error !== undefined ? `#${i.index}: ${i.error}` : `#${i.index} ${formatDuration(i.duration_ns ?? null)}`,
  );
  return `${formatCount(task.invocations_seen)} invocation(s) seen; traced: ${traced.join(", ") || "none"}.`;
}

function taskPanel(task: TaskSummary): HTMLElement {
  return h(
    "section",
    { class: "panel", "data-testid": "task", "data-name": `${task.task_type}/${task.rank}` },
    h("h2", {}, `${task.task_type} — rank ${task.rank}`),
    h("p", { class: "muted" }, invocationsText(task), " Operators matching ", h("code", {}, task.ops_pattern), "."),
    task.operators.length === 0
      ? h("p", { class: "muted" }, "No operator of the traced invocations matches the pattern.")
      : h(
          "div",
          { class: "table-scroll" },
          dataTable({
            columns: COLUMNS,
            rows: task.operators,
            testId: "task-operators",
            rowTestId: "task-operator",
            rowName: (r) => `${r.category}/${r.name}`,
            sort: { key: "total_ns", direction: "desc" },
          }),
        ),
  );
}

export const tasksDashboard: Dashboard = {
  id: "tasks",
  label: "Tasks",
  usesRankSelect: false,
  available: (run) => run.sources.includes("tasks"),
  async show({ run, signal, onProgress }) {
    const answer = await fetchTasks(run, signal, onProgress);
    return h(
      "div",
      { class: "overview", "data-testid": "tasks" },
      answer.warnings.length
        ? h("section", { class: "warnings", role: "status" }, h("ul", {}, ...answer.warnings.map((w) => h("li", {}, w))))
        : null,
      answer.tasks.length === 0
        ? h(
            "p",
            { class: "muted", "data-testid": "tasks-empty" },
            answer.empty_reason ?? "No profile_task summaries in this run (set PROFILE_TASK_TYPES; docs/CAPTURE.md).",
          )
        : null,
      ...answer.tasks.map(taskPanel),
    );
  },
};
