// The step-time breakdown: one stacked bar per traced step and rank, each category's share of
// the step (docs/ANALYSIS.md), with the time of each part on hover.

import { h } from "../base/dom";
import { formatDuration } from "../base/format";
import { chartedRanks } from "./rankHeatmap";
import { seriesColor } from "../base/theme";
import type { BreakdownAnswer, StepBreakdown } from "./types";

const MAX_STEPS_PER_RANK = 40;

function bar(step: StepBreakdown, categories: readonly string[]): HTMLElement {
  const parts = categories.map((category, index) => {
    const ns = step.ns[category] ?? 0;
    const share = step.duration_ns > 0 ? ns / step.duration_ns : 0;
    return h("span", {
      class: `breakdown-part category-${category}`,
      style: `width: ${(share * 100).toFixed(3)}%; background: ${
        category === "idle" ? "var(--grid)" : seriesColor(index)
      }`,
      title: `${category}: ${formatDuration(ns)} (${(share * 100).toFixed(1)} %)`,
    });
  });
  const label = step.step === null ? "trace" : `step ${step.step}`;
  return h(
    "div",
    { class: "breakdown-row", "data-testid": "breakdown-bar" },
    h("span", { class: "breakdown-label" }, label),
    h("span", { class: "breakdown-bar", "aria-label": label }, ...parts),
    h("span", { class: "breakdown-total muted" }, formatDuration(step.duration_ns)),
  );
}

export function breakdownChart(answer: BreakdownAnswer): HTMLElement {
  if (answer.ranks.length === 0) {
    return h(
      "p",
      { class: "muted" },
      "No traces in this run: record some steps with profile_steps to see what each step is made of.",
    );
  }
  const legend = h(
    "div",
    { class: "legend" },
    ...answer.categories.map((category, index) =>
      h(
        "span",
        { class: "legend-item" },
        h("span", {
          class: "legend-swatch",
          style: `background: ${category === "idle" ? "var(--grid)" : seriesColor(index)}`,
        }),
        category,
      ),
    ),
  );
  const meanStep = ({ steps }: { steps: readonly StepBreakdown[] }): number | null =>
    steps.length ? steps.reduce((sum, step) => sum + step.duration_ns, 0) / steps.length : null;
  const { charted, note } = chartedRanks(answer.ranks, meanStep, "mean traced step time");
  const ranks = charted.map(({ rank, steps }) =>
    h(
      "div",
      { class: "breakdown-rank" },
      h("h3", {}, `rank ${rank}`),
      ...steps.slice(0, MAX_STEPS_PER_RANK).map((step) => bar(step, answer.categories)),
      steps.length > MAX_STEPS_PER_RANK
        ? h("p", { class: "muted" }, `First ${MAX_STEPS_PER_RANK} of ${steps.length} steps.`)
        : null,
    ),
  );
  return h("div", { class: "breakdown", "data-testid": "breakdown" }, note, legend, ...ranks);
}
