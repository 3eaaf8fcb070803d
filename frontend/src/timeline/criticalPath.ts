// The "Critical path" toggle: which step the view shows, the route's path of that step
// (docs/HTTP_API.md, `critical_path`) as the spans the renderer highlights, and the toggle with
// its one-line summary. Pure functions but the toggle's element.

import { h } from "../base/dom";
import { formatDuration } from "../base/format";
import type { TimeWindow } from "../canvas/viewWindow";
import type { LaneSpan } from "./render";
import type { CriticalPathStep, StepExtent } from "./types";

/** The step the view shows: the one around the middle of the window, else the one overlapping
 * it most; null when no step is in view. */
export function shownStep(steps: readonly StepExtent[], window: TimeWindow): number | null {
  const middle = (window.start + window.end) / 2;
  let best: StepExtent | null = null;
  let bestOverlap = 0;
  for (const step of steps) {
    if (step.start <= middle && middle < step.end) return step.step;
    const overlap = Math.min(step.end, window.end) - Math.max(step.start, window.start);
    if (overlap > bestOverlap) {
      best = step;
      bestOverlap = overlap;
    }
  }
  return best ? best.step : null;
}

/** The path's events as outlined spans, in the Timeline's lanes and rows. */
export function pathSpans(path: CriticalPathStep): LaneSpan[] {
  return path.timeline.map((e) => ({ lane: e.lane, row: e.row, start: e.start, end: e.start + e.dur }));
}

/** "step 16 on rank 1: 3.98 ms of 4.03 ms (99%) · cpu 100%" */
export function pathSummary(path: CriticalPathStep): string {
  const share = path.share_of_step === null ? "" : ` (${Math.round(path.share_of_step * 100)}%)`;
  const categories = path.by_category
    .slice(0, 3)
    .map((c) => `${c.category} ${Math.round(c.share * 100)}%`)
    .join(", ");
  return (
    `step ${path.step} on rank ${path.rank}: ${formatDuration(path.length_ns)} of ` +
    `${formatDuration(path.duration_ns)}${share}${categories ? ` · ${categories}` : ""}`
  );
}

export class CriticalPathToggle {
  readonly element: HTMLElement;
  readonly checkbox: HTMLInputElement;
  private readonly status = h("span", {
    class: "critical-path-status muted",
    role: "status",
    "data-testid": "timeline-critical-path-status",
  });

  constructor(onToggle: (on: boolean) => void) {
    this.checkbox = h("input", { type: "checkbox", "data-testid": "timeline-critical-path" });
    this.checkbox.addEventListener("change", () => onToggle(this.checkbox.checked));
    this.element = h(
      "span",
      { class: "critical-path" },
      h(
        "label",
        { title: "Highlight the critical path of the step in view (its slowest rank)" },
        this.checkbox,
        " Critical path",
      ),
      this.status,
    );
  }

  get on(): boolean {
    return this.checkbox.checked;
  }

  say(text: string): void {
    this.status.textContent = text;
  }
}
