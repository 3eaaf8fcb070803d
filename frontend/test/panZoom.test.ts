// canvas/panZoom.ts: the gesture math and event wiring that the timeline and the memory
// snapshot viewer share.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  attachPanZoom,
  DRAG_THRESHOLD_PX,
  frameSeconds,
  keyMove,
  navKey,
  nsPerPx,
  panByPx,
  type PanZoomTarget,
  timeAtPx,
  wheelMove,
  wheelPx,
  zoomAtPx,
} from "../src/canvas/panZoom";

const BOUNDS = { start: 0, end: 10_000 };
const PIXEL = 0;
const LINE = 1;
const PAGE = 2;
const noKeys = { key: "", ctrlKey: false, metaKey: false, altKey: false };

function near(actual: number, expected: number, message?: string): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${message ?? ""} ${actual} is not ${expected}`);
}

test("wheel deltas in lines or pages become pixels", () => {
  assert.equal(wheelPx(5, PIXEL), 5);
  assert.equal(wheelPx(3, LINE), 48);
  assert.equal(wheelPx(-1, PAGE), -400);
});

test("a mostly sideways wheel pans, any other zooms (up: in)", () => {
  assert.deepEqual(wheelMove(10, 2, PIXEL), { kind: "pan", px: 10 });
  assert.deepEqual(wheelMove(-3, 0, LINE), { kind: "pan", px: -48 });
  const zoomIn = wheelMove(0, -400, PIXEL);
  assert.equal(zoomIn.kind, "zoom");
  near(zoomIn.kind === "zoom" ? zoomIn.factor : NaN, Math.exp(-0.6));
  const zoomOut = wheelMove(1, 3, LINE);
  near(zoomOut.kind === "zoom" ? zoomOut.factor : NaN, Math.exp(48 * 0.0015));
});

test("navKey takes W/A/S/D in either case, and no shortcut with a modifier", () => {
  assert.equal(navKey({ ...noKeys, key: "W" }), "w");
  assert.equal(navKey({ ...noKeys, key: "d" }), "d");
  assert.equal(navKey({ ...noKeys, key: "x" }), null);
  assert.equal(navKey({ ...noKeys, key: "s", ctrlKey: true }), null);
  assert.equal(navKey({ ...noKeys, key: "a", metaKey: true }), null);
  assert.equal(navKey({ ...noKeys, key: "w", altKey: true }), null);
});

test("a key tap zooms by 25 % or pans a tenth; held, ×10 or one width per second", () => {
  assert.deepEqual(keyMove("w", null), { kind: "zoom", factor: 0.8 });
  assert.deepEqual(keyMove("s", null), { kind: "zoom", factor: 1.25 });
  assert.deepEqual(keyMove("a", null), { kind: "pan", fraction: -0.1 });
  assert.deepEqual(keyMove("d", null), { kind: "pan", fraction: 0.1 });
  const inOneSecond = keyMove("w", 1);
  near(inOneSecond.kind === "zoom" ? inOneSecond.factor : NaN, 0.1);
  const outOneSecond = keyMove("s", 1);
  near(outOneSecond.kind === "zoom" ? outOneSecond.factor : NaN, 10);
  assert.deepEqual(keyMove("a", 0.5), { kind: "pan", fraction: -0.5 });
});

test("a held key's frame is capped, so a stalled frame does not jump the view", () => {
  near(frameSeconds(1016, 1000), 0.016);
  assert.equal(frameSeconds(3000, 1000), 0.05);
});

test("pixels to time: the time area starts at `left` and is `widthPx` wide", () => {
  const window = { start: 0, end: 1000 };
  assert.equal(timeAtPx(window, 220 + 50, 220, 100), 500);
  assert.equal(timeAtPx(window, 220, 220, 100), 0);
  assert.equal(timeAtPx({ start: 100, end: 300 }, 25, 0, 100), 150);
  assert.equal(nsPerPx(window, 100), 10);
  assert.equal(nsPerPx(window, 0), 1000, "a zero-wide area counts as one pixel");
});

test("zoomAtPx zooms around the time under the cursor, or the middle", () => {
  const window = { start: 0, end: 1000 };
  assert.deepEqual(zoomAtPx(window, 220 + 25, 220, 100, 0.5, BOUNDS), { start: 125, end: 625 });
  assert.deepEqual(zoomAtPx(window, null, 220, 100, 0.5, BOUNDS), { start: 250, end: 750 });
  assert.deepEqual(zoomAtPx(window, 100, 0, 100, 0.5, BOUNDS), { start: 500, end: 1000 });
});

test("panByPx pans by pixels of the time area, inside the bounds", () => {
  assert.deepEqual(panByPx({ start: 0, end: 1000 }, 10, 100, BOUNDS), { start: 100, end: 1100 });
  assert.deepEqual(panByPx({ start: 0, end: 1000 }, -10, 100, BOUNDS), { start: 0, end: 1000 });
});

// --- The event wiring, on a stand-in canvas (an EventTarget) -------------------------------------

type Call = [string, ...(number | null)[]];

function harness(options: { timeAreaLeft: number; keys: boolean }): {
  fire: (type: string, fields?: Record<string, unknown>) => Event;
  calls: Call[];
} {
  const canvas = Object.assign(new EventTarget(), { setPointerCapture: () => undefined });
  const calls: Call[] = [];
  const target: PanZoomTarget = {
    zoomAt: (x, factor) => void calls.push(["zoomAt", x, factor]),
    panBy: (px) => void calls.push(["panBy", px]),
    timeAreaWidth: () => 500,
    clickAt: (x, y) => void calls.push(["clickAt", x, y]),
    hoverAt: (x, y) => void calls.push(["hoverAt", x, y]),
    hoverEnd: () => void calls.push(["hoverEnd"]),
    escape: () => void calls.push(["escape"]),
  };
  attachPanZoom(canvas as unknown as HTMLCanvasElement, target, options);
  const fire = (type: string, fields: Record<string, unknown> = {}): Event => {
    const event = Object.assign(new Event(type, { cancelable: true }), fields);
    canvas.dispatchEvent(event);
    return event;
  };
  return { fire, calls };
}

const at = (x: number, y = 10): Record<string, unknown> => ({ offsetX: x, offsetY: y, button: 0, pointerId: 1 });

test("a press and release without moving clicks; a move past the threshold drags instead", () => {
  const { fire, calls } = harness({ timeAreaLeft: 0, keys: false });
  fire("pointerdown", at(100));
  fire("pointermove", at(100 + DRAG_THRESHOLD_PX));
  fire("pointerup", at(100 + DRAG_THRESHOLD_PX));
  assert.deepEqual(calls, [["clickAt", 103, 10]], "within the threshold it is still a click");
  calls.length = 0;
  fire("pointerdown", at(100));
  fire("pointermove", at(110));
  fire("pointermove", at(130));
  fire("pointerup", at(130));
  assert.deepEqual(calls, [["panBy", -10], ["panBy", -20]], "dragging right shows earlier time");
});

test("moving without a press hovers; leaving ends the hover", () => {
  const { fire, calls } = harness({ timeAreaLeft: 0, keys: false });
  fire("pointermove", at(40, 7));
  fire("pointerleave");
  assert.deepEqual(calls, [["hoverAt", 40, 7], ["hoverEnd"]]);
});

test("the wheel zooms at the cursor, pans sideways, and leaves the gutter to the browser", () => {
  const { fire, calls } = harness({ timeAreaLeft: 220, keys: false });
  const inGutter = fire("wheel", { offsetX: 100, deltaX: 0, deltaY: 100, deltaMode: PIXEL });
  assert.equal(inGutter.defaultPrevented, false);
  assert.deepEqual(calls, []);
  const zoom = fire("wheel", { offsetX: 300, deltaX: 0, deltaY: -100, deltaMode: PIXEL });
  assert.equal(zoom.defaultPrevented, true);
  fire("wheel", { offsetX: 300, deltaX: 2, deltaY: 0, deltaMode: LINE });
  assert.equal(calls.length, 2);
  assert.deepEqual(calls[0]?.slice(0, 2), ["zoomAt", 300]);
  near(Number(calls[0]?.[2]), Math.exp(-0.15));
  assert.deepEqual(calls[1], ["panBy", 32]);
});

test("keys only where asked for: a tap moves at once, zooming about the pointer", () => {
  const globals = globalThis as { requestAnimationFrame?: unknown };
  const frames: unknown[] = [];
  globals.requestAnimationFrame = (callback: unknown) => frames.push(callback);
  try {
    const without = harness({ timeAreaLeft: 0, keys: false });
    without.fire("keydown", { ...noKeys, key: "w" });
    without.fire("keydown", { ...noKeys, key: "Escape" });
    assert.deepEqual(without.calls, []);

    const { fire, calls } = harness({ timeAreaLeft: 220, keys: true });
    const w = fire("keydown", { ...noKeys, key: "w", repeat: false });
    assert.equal(w.defaultPrevented, true);
    assert.deepEqual(calls, [["zoomAt", null, 0.8]], "no pointer over the time area: the middle");
    assert.equal(frames.length, 1, "holding the key goes on in animation frames");
    fire("keydown", { ...noKeys, key: "w", repeat: true });
    assert.equal(calls.length, 1, "the browser's key repeat adds nothing");
    fire("keyup", { key: "w" });
    calls.length = 0;
    fire("pointermove", at(300));
    fire("keydown", { ...noKeys, key: "s", repeat: false });
    fire("keydown", { ...noKeys, key: "d", repeat: false });
    fire("keydown", { ...noKeys, key: "Escape" });
    assert.deepEqual(calls, [
      ["hoverAt", 300, 10],
      ["zoomAt", 300, 1.25],
      ["panBy", 50],
      ["escape"],
    ]);
  } finally {
    delete globals.requestAnimationFrame;
  }
});
