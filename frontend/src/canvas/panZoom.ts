// Mouse and keyboard on the timeline canvas: wheel zooms around the cursor, drag pans, a click
// without drag selects, and W/S zoom, A/D pan while held (Perfetto's keys) when the canvas has focus.

import { GUTTER_WIDTH } from "../timeline/layout";

export interface NavigationTarget {
  /** Scale the window by `factor` (< 1 zooms in) around canvas x, or the middle when null. */
  zoomAt(x: number | null, factor: number): void;
  /** Move the view by `px` of the time area (positive: later). */
  panBy(px: number): void;
  timeAreaWidth(): number;
  clickAt(x: number, y: number): void;
  hoverAt(x: number, y: number): void;
  hoverEnd(): void;
  escape(): void;
}

const DRAG_THRESHOLD_PX = 3;
const WHEEL_ZOOM_PER_PX = 0.0015;
const LINE_PX = 16;
const PAGE_PX = 400;
/** One key tap: zoom by 25 %, pan by a tenth of the view. */
const TAP_ZOOM = 0.8;
const TAP_PAN = 0.1;
/** Held keys: about ×10 zoom and one view width of pan per second. */
const HELD_ZOOM_PER_S = Math.log(10);
const HELD_PAN_PER_S = 1;

type NavKey = "w" | "a" | "s" | "d";

function navKey(event: KeyboardEvent): NavKey | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key.toLowerCase();
  return key === "w" || key === "a" || key === "s" || key === "d" ? key : null;
}

function wheelPx(delta: number, mode: number): number {
  return mode === WheelEvent.DOM_DELTA_LINE ? delta * LINE_PX : mode === WheelEvent.DOM_DELTA_PAGE ? delta * PAGE_PX : delta;
}

export function attachNavigation(canvas: HTMLCanvasElement, target: NavigationTarget): void {
  let pointerX: number | null = null;
  const held = new Set<NavKey>();
  let lastFrame = 0;

  const zoom = (key: "w" | "s", factor: number): void =>
    target.zoomAt(pointerX, key === "w" ? factor : 1 / factor);
  const pan = (key: "a" | "d", fraction: number): void =>
    target.panBy((key === "d" ? 1 : -1) * fraction * target.timeAreaWidth());
  const tap = (key: NavKey): void => {
    if (key === "w" || key === "s") zoom(key, TAP_ZOOM);
    else pan(key, TAP_PAN);
  };
  const hold = (key: NavKey, seconds: number): void => {
    if (key === "w" || key === "s") zoom(key, Math.exp(-HELD_ZOOM_PER_S * seconds));
    else pan(key, HELD_PAN_PER_S * seconds);
  };

  const frame = (now: number): void => {
    if (held.size === 0) return;
    // Capped: a frame delayed by a busy main thread should not jump the view.
    const seconds = Math.min(0.05, (now - lastFrame) / 1000);
    lastFrame = now;
    for (const key of held) hold(key, seconds);
    requestAnimationFrame(frame);
  };

  canvas.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      target.escape();
      return;
    }
    const key = navKey(event);
    if (key === null) return;
    event.preventDefault();
    // A tap moves a visible step at once; holding the key keeps moving until it is released.
    if (event.repeat || held.has(key)) return;
    tap(key);
    held.add(key);
    if (held.size === 1) {
      lastFrame = performance.now();
      requestAnimationFrame(frame);
    }
  });
  canvas.addEventListener("keyup", (event) => {
    held.delete(event.key.toLowerCase() as NavKey);
  });
  canvas.addEventListener("blur", () => held.clear());

  canvas.addEventListener(
    "wheel",
    (event) => {
      // Over the lane labels the wheel scrolls the lanes (the browser's own scrolling).
      if (event.offsetX < GUTTER_WIDTH) return;
      event.preventDefault();
      const dx = wheelPx(event.deltaX, event.deltaMode);
      const dy = wheelPx(event.deltaY, event.deltaMode);
      if (Math.abs(dx) > Math.abs(dy)) target.panBy(dx);
      else target.zoomAt(event.offsetX, Math.exp(dy * WHEEL_ZOOM_PER_PX));
    },
    { passive: false },
  );

  let drag: { startX: number; lastX: number; moved: boolean } | null = null;
  canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    drag = { startX: event.offsetX, lastX: event.offsetX, moved: false };
  });
  canvas.addEventListener("pointermove", (event) => {
    pointerX = event.offsetX >= GUTTER_WIDTH ? event.offsetX : null;
    if (drag === null) {
      target.hoverAt(event.offsetX, event.offsetY);
      return;
    }
    if (Math.abs(event.offsetX - drag.startX) > DRAG_THRESHOLD_PX) drag.moved = true;
    if (drag.moved) {
      target.panBy(drag.lastX - event.offsetX);
      drag.lastX = event.offsetX;
    }
  });
  canvas.addEventListener("pointerup", (event) => {
    if (drag !== null && !drag.moved) target.clickAt(event.offsetX, event.offsetY);
    drag = null;
  });
  canvas.addEventListener("pointercancel", () => {
    drag = null;
  });
  canvas.addEventListener("pointerleave", () => {
    pointerX = null;
    target.hoverEnd();
  });
}
