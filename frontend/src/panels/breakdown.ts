// The step-time breakdown: one stacked bar per traced step and rank, as long as the step on a
// shared time axis, each category's part labelled with its time where it is wide enough
// (docs/ANALYSIS.md), and its time and share on hover.

import { niceAxis } from "../base/chart";
import { h } from "../base/dom";
import { durationTickFormat, formatDuration } from "../base/format";
import { chartedRanks } from "./rankHeatmap";
import { seriesColor } from "../base/theme";
import type { BreakdownAnswer, StepBreakdown } from "./types";

const MAX_STEPS_PER_RANK = 40;
const AXIS_TICKS = 5;
/** A part gets its time written on it when it spans at least this share of the axis. */
const LABELLED_SHARE = 0.08;

function bar(step: StepBreakdown, categories: readonly string[], axisNs: number): HTMLElement {
  const parts = categories.map((category, index) => {
    const ns = step.ns[category] ?? 0;
    const share = step.duration_ns > 0 ? ns / step.duration_ns : 0;
    return h(
      "span",
      {
        class: `breakdown-part category-${category}`,
        style: `width: ${(share * 100).toFixed(3)}%; background: ${
          category === "idle" ? "var(--grid)" : seriesColor(index)
        }`,
        title: `${category}: ${formatDuration(ns)} (${(share * 100).toFixed(1)} %)`,
      },
      ns / axisNs >= LABELLED_SHARE ? formatDuration(ns) : "",
    );
  });
  const label = step.step === null ? "trace" : `step ${step.step}`;
  const length = `width: ${((100 * step.duration_ns) / axisNs).toFixed(3)}%`;
  return h(
    "div",
    { class: "breakdown-row", "data-testid": "breakdown-bar" },
    h("span", { class: "breakdown-label" }, label),
    h(
      "span",
      { class: "breakdown-track" },
      h("span", { class: "breakdown-bar", "aria-label": label, style: length }, ...parts),
    ),
    h("span", { class: "breakdown-total muted" }, formatDuration(step.duration_ns)),
  );
}

/** The time axis under a rank's bars: ticks from 0 to `axisNs`. */
function axis(ticks: readonly number[], axisNs: number): HTMLElement {
  const format = durationTickFormat(ticks);
  return h(
    "div",
    { class: "breakdown-row", "data-testid": "breakdown-axis" },
    h("span", { class: "breakdown-label muted" }, "time"),
    h(
      "span",
      { class: "breakdown-ticks" },
      ...ticks.map((t) =>
        h(
          "span",
          { class: "breakdown-tick", style: `left: ${((100 * t) / axisNs).toFixed(3)}%` },
          format(t),
        ),
      ),
    ),
    h("span", {}),
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
  const shown = charted.map(({ rank, steps }) => ({
    rank,
    all: steps.length,
    steps: steps.slice(0, MAX_STEPS_PER_RANK),
  }));
  // one axis for every rank shown, so bars compare across ranks
  const longest = Math.max(1, ...shown.flatMap(({ steps }) => steps.map((s) => s.duration_ns)));
  const { max: axisNs, ticks } = niceAxis(0, longest, AXIS_TICKS, false);
  const ranks = shown.map(({ rank, all, steps }) =>
    h(
      "div",
      { class: "breakdown-rank" },
      h("h3", {}, `rank ${rank}`),
      ...steps.map((step) => bar(step, answer.categories, axisNs)),
      axis(ticks, axisNs),
      all > MAX_STEPS_PER_RANK
        ? h("p", { class: "muted" }, `First ${MAX_STEPS_PER_RANK} of ${all} steps.`)
        : null,
    ),
  );
  return h("div", { class: "breakdown", "data-testid": "breakdown" }, note, legend, ...ranks);
}
