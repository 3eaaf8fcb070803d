// The visible time window and the moves on it (zoom, pan, fit), all in relative ns.

export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

/** Zooming stops at a few hundred ns across: beyond that no trace has detail to show. */
export const MIN_WINDOW_NS = 200;

export function windowWidth(window: TimeWindow): number {
  return window.end - window.start;
}

/** Keep the window inside `bounds` and no narrower than MIN_WINDOW_NS. */
export function clampWindow(window: TimeWindow, bounds: TimeWindow): TimeWindow {
  const boundsWidth = windowWidth(bounds);
  const width = Math.min(boundsWidth, Math.max(MIN_WINDOW_NS, windowWidth(window)));
  const start = Math.min(Math.max(window.start, bounds.start), bounds.end - width);
  return { start, end: start + width };
}

/** Scale the window by `factor` (< 1 zooms in) keeping the time at `anchor` where it is. */
export function zoomWindow(
  window: TimeWindow,
  anchor: number,
  factor: number,
  bounds: TimeWindow,
): TimeWindow {
  const start = anchor - (anchor - window.start) * factor;
  const end = anchor + (window.end - anchor) * factor;
  return clampWindow({ start, end }, bounds);
}

export function panWindow(window: TimeWindow, deltaNs: number, bounds: TimeWindow): TimeWindow {
  return clampWindow({ start: window.start + deltaNs, end: window.end + deltaNs }, bounds);
}

/** A window showing [start, end) with `padding` of its width free on either side. */
export function fitWindow(
  start: number,
  end: number,
  padding: number,
  bounds: TimeWindow,
): TimeWindow {
  const pad = Math.max(end - start, MIN_WINDOW_NS) * padding;
  return clampWindow({ start: start - pad, end: end + pad }, bounds);
}

/** Move the window just enough to show [start, end), zooming out only if it does not fit. */
export function revealWindow(
  window: TimeWindow,
  start: number,
  end: number,
  bounds: TimeWindow,
): TimeWindow {
  if (start >= window.start && end <= window.end) return window;
  const width = windowWidth(window);
  if (end - start > width * 0.8) return fitWindow(start, end, 0.1, bounds);
  const center = (start + end) / 2;
  return clampWindow({ start: center - width / 2, end: center + width / 2 }, bounds);
}

/** The run's extent with a little room on either side, so edge events are not glued to it. */
export function runBounds(start: number, end: number): TimeWindow {
  const pad = Math.max(end - start, MIN_WINDOW_NS) * 0.02;
  return { start: start - pad, end: end + pad };
}
