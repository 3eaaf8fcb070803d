// The run's recorded windows in the view: which one the view is limited to (or all of them,
// with the gaps between them marked), where a step or an event is, the gaps to mark, and the
// window picker.

import { h } from "../base/dom";
import { formatDuration } from "../base/format";
import { runBounds, type TimeWindow } from "../canvas/viewWindow";
import { formatRankList } from "./controls";
import type { RecordedWindow, StepExtent } from "./types";

/** The picker's choice: a window's index, or ALL (the whole run, its gaps marked). */
export const ALL = "all";
export type WindowChoice = number | typeof ALL;

/** What the view is limited to: the picked window, or the run (`run`) with a little room either side. */
export function choiceBounds(windows: readonly RecordedWindow[], choice: WindowChoice, run: TimeWindow): TimeWindow {
  const picked = choice === ALL ? undefined : windows[choice];
  return picked ? runBounds(picked.start_ns, picked.end_ns) : runBounds(run.start, run.end);
}

/** The window holding most of [start, end); -1 when none holds any of it. */
export function windowOf(windows: readonly RecordedWindow[], start: number, end: number): number {
  let best = -1;
  let bestOverlap = -1;
  windows.forEach((w, index) => {
    const overlap = Math.min(end, w.end_ns) - Math.max(start, w.start_ns);
    const touches = start <= w.end_ns && end >= w.start_ns;
    if (touches && overlap > bestOverlap) {
      best = index;
      bestOverlap = overlap;
    }
  });
  return best;
}

/** The choice to open on: the window that holds a view restored from a link (ALL when it
 * spans several), else the first window; ALL when there is one window or none (the whole run,
 * counters past the last event included). */
export function initialChoice(windows: readonly RecordedWindow[], restored: TimeWindow | null): WindowChoice {
  if (windows.length <= 1) return ALL;
  if (restored === null) return 0;
  const index = windowOf(windows, restored.start, restored.end);
  const window = windows[index];
  return window && restored.start >= window.start_ns - spare(window) && restored.end <= window.end_ns + spare(window)
    ? index
    : ALL;
}

/** The room `runBounds` leaves either side of a window. */
function spare(window: RecordedWindow): number {
  const bounds = runBounds(window.start_ns, window.end_ns);
  return window.start_ns - bounds.start;
}

/** The choice that shows [start, end): the current one when it does, else the window that
 * holds it, else ALL. */
export function choiceShowing(
  windows: readonly RecordedWindow[],
  current: WindowChoice,
  start: number,
  end: number,
  run: TimeWindow,
): WindowChoice {
  const bounds = choiceBounds(windows, current, run);
  if (start >= bounds.start && end <= bounds.end) return current;
  const index = windowOf(windows, start, end);
  return index >= 0 ? index : ALL;
}

/** The stretches between consecutive windows: nothing was recorded there. */
export function gapsBetween(windows: readonly RecordedWindow[]): TimeWindow[] {
  const gaps: TimeWindow[] = [];
  for (let i = 1; i < windows.length; i += 1) {
    const before = windows[i - 1];
    const after = windows[i];
    if (before && after && after.start_ns > before.end_ns) gaps.push({ start: before.end_ns, end: after.start_ns });
  }
  return gaps;
}

/** Where step `step` is: its extent and the window holding it, or why it cannot be shown. */
export function locateStep(
  windows: readonly RecordedWindow[],
  steps: readonly StepExtent[],
  step: number,
): { extent: StepExtent; window: number } | { message: string } {
  const extent = steps.find((s) => s.step === step);
  const recorded = steps.length > 0 ? ` This run recorded steps ${formatRankList(steps.map((s) => s.step).sort((a, b) => a - b))}.` : " This run recorded no steps.";
  if (!extent) return { message: `Step ${step} is outside every recorded window: no trace or span holds it.${recorded}` };
  const window = windowOf(windows, extent.start, extent.end);
  if (window < 0 && windows.length > 0) return { message: `Step ${step} is outside every recorded window.${recorded}` };
  return { extent, window };
}

/** The picker's text for a window: its number, label and length. */
export function windowOptionLabel(window: RecordedWindow, index: number): string {
  return `${index + 1}. ${window.label} (${formatDuration(window.end_ns - window.start_ns)})`;
}

/** The label drawn over a gap. */
export function gapLabel(gap: TimeWindow): string {
  return `not recorded · ${formatDuration(gap.end - gap.start)}`;
}

/** The recorded windows to limit the view to, and "all" (the whole run, its gaps marked). */
export function windowSelect(
  windows: readonly RecordedWindow[],
  choice: WindowChoice,
  onPick: (choice: WindowChoice) => void,
): HTMLSelectElement {
  const select = h(
    "select",
    { "data-testid": "timeline-window-select", "aria-label": "Recorded window" },
    ...windows.map((window, index) => h("option", { value: String(index) }, windowOptionLabel(window, index))),
    h("option", { value: ALL }, `All ${windows.length} windows, gaps marked`),
  );
  select.value = String(choice);
  select.addEventListener("change", () => onPick(select.value === ALL ? ALL : Number(select.value)));
  return select;
}
