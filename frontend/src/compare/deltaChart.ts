// Category deltas as a diverging bar chart: one row per category, bars right of the zero line
// where the candidate spends more per step (slower), left where it spends less (faster).

import { h, svg } from "../base/dom";
import { formatDuration } from "../base/format";
import { distinctLabels } from "../base/labels";
import { signedDuration } from "./format";
import type { CategoryDelta } from "./types";

const WIDTH = 720;
const ROW = 22;
const LABEL = 150;
const VALUE = 90;
/** Characters of a category name that fit in LABEL pixels. */
const LABEL_CHARACTERS = 20;

const SOURCES: Record<string, string> = {
  breakdown: "the traced steps' breakdown categories",
  spans: "MyTimer's top-level spans",
};

/** A right-aligned label, vertically centred in the row at `y`. */
function label(x: number, y: number): Record<string, string | number> {
  const middle = y + ROW / 2;
  return { class: "chart-label", x, y: middle, "text-anchor": "end", "dominant-baseline": "middle" };
}

function sum(rows: readonly CategoryDelta[], key: "baseline_ns" | "candidate_ns" | "delta_ns"): number {
  return rows.reduce((total, row) => total + row[key], 0);
}

/**
 * `statistic`: "median" for the attribution (each run's median step in parts, adding up to the
 * median difference), "mean" for the means per step.
 */
export function categoryDeltaChart(
  categories: readonly CategoryDelta[],
  source: string | null,
  statistic: "median" | "mean",
): HTMLElement {
  if (categories.length === 0) {
    return h(
      "p",
      { class: "muted", "data-testid": "no-category-deltas" },
      "No categories to compare: the runs need traced steps, or MyTimer spans, of the same kind.",
    );
  }
  const rows = [...categories].sort((a, b) => Math.abs(b.delta_ns) - Math.abs(a.delta_ns));
  const largest = Math.max(1, ...rows.map((row) => Math.abs(row.delta_ns)));
  const half = (WIDTH - LABEL - VALUE) / 2;
  const zero = LABEL + half;
  const height = rows.length * ROW + 4;
  const names = rows.map((row) => row.category);
  const labels = distinctLabels(names, names, LABEL_CHARACTERS);
  const chart = svg("svg", {
    class: "delta-chart",
    width: WIDTH,
    height,
    viewBox: `0 0 ${WIDTH} ${height}`,
    role: "img",
    "aria-label": "Per-step time by category: candidate minus baseline",
  });
  rows.forEach((row, index) => {
    const y = index * ROW + 2;
    const length = (Math.abs(row.delta_ns) / largest) * half;
    const x = row.delta_ns < 0 ? zero - length : zero;
    const direction = row.delta_ns > 0 ? "slower" : row.delta_ns < 0 ? "faster" : "same";
    chart.append(
      svg(
        "g",
        { "data-testid": "category-delta", "data-category": row.category, "data-value": row.delta_ns },
        svg(
          "title",
          {},
          `${row.category}: ${formatDuration(row.baseline_ns)} → ` +
            `${formatDuration(row.candidate_ns)} per step`,
        ),
        svg("text", label(LABEL - 8, y), labels[index] ?? row.category),
        svg("rect", {
          class: `delta-bar delta-${direction}`,
          x,
          y: y + 3,
          width: Math.max(1, length),
          height: ROW - 6,
        }),
        svg("text", label(WIDTH - 4, y), signedDuration(row.delta_ns)),
      ),
    );
  });
  chart.append(svg("line", { class: "chart-axis", x1: zero, x2: zero, y1: 0, y2: height }));
  return h(
    "div",
    { class: "table-scroll", "data-testid": "category-deltas" },
    h(
      "p",
      { class: "muted", "data-testid": "category-statistic", "data-statistic": statistic },
      (statistic === "median"
        ? `Each run's median step split by ${SOURCES[source ?? ""] ?? "category"} ` +
          "(the rest of the step as “(other)”), candidate minus baseline; the parts add up to " +
          "the median difference: "
        : `Mean time per step by ${SOURCES[source ?? ""] ?? "category"}, candidate minus ` +
          "baseline: ") + "right of the line is slower, left is faster.",
    ),
    chart,
    h(
      "p",
      { class: "muted", "data-testid": "category-totals" },
      `All ${statistic === "median" ? "parts" : "categories"}: ` +
        `${formatDuration(sum(rows, "baseline_ns"))} → ` +
        `${formatDuration(sum(rows, "candidate_ns"))} ` +
        `${statistic === "median" ? "(the median steps)" : "per step"} ` +
        `(${signedDuration(sum(rows, "delta_ns"))}).`,
    ),
  );
}
