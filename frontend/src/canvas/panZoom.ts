// Pan and zoom of a time window on a canvas, shared by the Timeline and the memory snapshot
// viewer: the wheel zooms around the cursor (a mostly sideways wheel pans), a drag pans, a click
// without drag selects, and the pointer hovers. With `keys`, W/S zoom and A/D pan while held
// (Perfetto's keys) and Esc deselects, when the canvas has focus. The gesture math (pixels to
// window moves) is pure, here, and unit-tested; `attachPanZoom` only wires the events to it.

import { panWindow, type TimeWindow, zoomWindow } from "./viewWindow";

export interface PanZoomTarget {
  /** Scale the window by `factor` (< 1 zooms in) around canvas x, or the middle when null. */
  zoomAt(x: number | null, factor: number): void;
  /** Move the view by `px` of the time area (positive: later). */
  panBy(px: number): void;
  timeAreaWidth(): number;
  clickAt(x: number, y: number): void;
  hoverAt(x: number, y: number): void;
  hoverEnd(): void;
  /** Esc on the focused canvas (only with `keys`). */
  escape?(): void;
}

export interface PanZoomOptions {
  /** Canvas x where the time area starts; left of it (the Timeline's lane labels) the wheel
   * scrolls the page, and keys zoom about the middle while the pointer is there. */
  timeAreaLeft: number;
  /** W/S/A/D and Esc on the focused canvas. */
  keys: boolean;
}

export const DRAG_THRESHOLD_PX = 3;
export const WHEEL_ZOOM_PER_PX = 0.0015;
const LINE_PX = 16;
const PAGE_PX = 400;
/** WheelEvent.DOM_DELTA_LINE and DOM_DELTA_PAGE (constants, so this math runs without a DOM). */
const DELTA_LINE = 1;
const DELTA_PAGE = 2;
/** One key tap: zoom by 25 %, pan by a tenth of the view. */
const TAP_ZOOM = 0.8;
const TAP_PAN = 0.1;
/** Held keys: about ×10 zoom and one view width of pan per second. */
const HELD_ZOOM_PER_S = Math.log(10);
const HELD_PAN_PER_S = 1;
/** A frame delayed by a busy main thread moves a held key's view by at most this much time. */
const MAX_FRAME_S = 0.05;

export type NavKey = "w" | "a" | "s" | "d";

/** A move of the view: zoom by `factor` around the anchor, or pan by `fraction` of its width. */
export type KeyMove = { kind: "zoom"; factor: number } | { kind: "pan"; fraction: number };

/** A wheel event's move: pan by `px` of the time area, or zoom by `factor` at the cursor. */
export type WheelMove = { kind: "pan"; px: number } | { kind: "zoom"; factor: number };

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export function navKey(event: KeyLike): NavKey | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key.toLowerCase();
  return key === "w" || key === "a" || key === "s" || key === "d" ? key : null;
}

/** A wheel delta in px, whatever unit (`deltaMode`) the browser reports it in. */
export function wheelPx(delta: number, mode: number): number {
  return mode === DELTA_LINE ? delta * LINE_PX : mode === DELTA_PAGE ? delta * PAGE_PX : delta;
}

export function wheelMove(deltaX: number, deltaY: number, mode: number): WheelMove {
  const dx = wheelPx(deltaX, mode);
  const dy = wheelPx(deltaY, mode);
  return Math.abs(dx) > Math.abs(dy)
    ? { kind: "pan", px: dx }
    : { kind: "zoom", factor: Math.exp(dy * WHEEL_ZOOM_PER_PX) };
}

/** What a key does: on a tap (`seconds` null) one visible step, while held `seconds`' worth. */
export function keyMove(key: NavKey, seconds: number | null): KeyMove {
  if (key === "w" || key === "s") {
    const factor = seconds === null ? TAP_ZOOM : Math.exp(-HELD_ZOOM_PER_S * seconds);
    return { kind: "zoom", factor: key === "w" ? factor : 1 / factor };
  }
  const fraction = seconds === null ? TAP_PAN : HELD_PAN_PER_S * seconds;
  return { kind: "pan", fraction: key === "d" ? fraction : -fraction };
}

/** Seconds a held key moves the view by in the frame at `now` after the one at `last` (ms). */
export function frameSeconds(now: number, last: number): number {
  return Math.min(MAX_FRAME_S, (now - last) / 1000);
}

/** The time under canvas x, in a time area `widthPx` wide starting at `left`. */
export function timeAtPx(window: TimeWindow, x: number, left: number, widthPx: number): number {
  return window.start + ((x - left) / Math.max(1, widthPx)) * (window.end - window.start);
}

export function nsPerPx(window: TimeWindow, widthPx: number): number {
  return (window.end - window.start) / Math.max(1, widthPx);
}

/** `zoomWindow` around the time under canvas x (the window's middle when x is null). */
export function zoomAtPx(
  window: TimeWindow,
  x: number | null,
  left: number,
  widthPx: number,
  factor: number,
  bounds: TimeWindow,
): TimeWindow {
  const anchor = x === null ? (window.start + window.end) / 2 : timeAtPx(window, x, left, widthPx);
  return zoomWindow(window, anchor, factor, bounds);
}

/** `panWindow` by `px` of a time area `widthPx` wide (positive: later). */
export function panByPx(window: TimeWindow, px: number, widthPx: number, bounds: TimeWindow): TimeWindow {
  return panWindow(window, px * nsPerPx(window, widthPx), bounds);
}

function attachKeys(canvas: HTMLCanvasElement, target: PanZoomTarget, pointerX: () => number | null): void {
  const held = new Set<NavKey>();
  let lastFrame = 0;
  const apply = (move: KeyMove): void => {
    if (move.kind === "zoom") target.zoomAt(pointerX(), move.factor);
    else target.panBy(move.fraction * target.timeAreaWidth());
  };
  const frame = (now: number): void => {
    if (held.size === 0) return;
    const seconds = frameSeconds(now, lastFrame);
    lastFrame = now;
    for (const key of held) apply(keyMove(key, seconds));
    requestAnimationFrame(frame);
  };
  canvas.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      target.escape?.();
      return;
    }
    const key = navKey(event);
    if (key === null) return;
    event.preventDefault();
    // A tap moves a visible step at once; holding the key keeps moving until it is released.
    if (event.repeat || held.has(key)) return;
    apply(keyMove(key, null));
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
}

export function attachPanZoom(canvas: HTMLCanvasElement, target: PanZoomTarget, options: PanZoomOptions): void {
  const left = options.timeAreaLeft;
  let pointerX: number | null = null;
  if (options.keys) attachKeys(canvas, target, () => pointerX);

  canvas.addEventListener(
    "wheel",
    (event) => {
      // Left of the time area the wheel scrolls (the browser's own scrolling).
      if (event.offsetX < left) return;
      event.preventDefault();
      const move = wheelMove(event.deltaX, event.deltaY, event.deltaMode);
      if (move.kind === "pan") target.panBy(move.px);
      else target.zoomAt(event.offsetX, move.factor);
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
    pointerX = event.offsetX >= left ? event.offsetX : null;
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
