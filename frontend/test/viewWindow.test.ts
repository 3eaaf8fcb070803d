// canvas/viewWindow.ts: the visible time window's moves, shared by the timeline and the snapshot.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  clampWindow,
  fitWindow,
  MIN_WINDOW_NS,
  panWindow,
  revealWindow,
  runBounds,
  windowWidth,
  zoomWindow,
} from "../src/canvas/viewWindow";

const BOUNDS = { start: 0, end: 10_000 };

test("clampWindow keeps the window inside the bounds and no narrower than the minimum", () => {
  assert.deepEqual(clampWindow({ start: -50, end: 950 }, BOUNDS), { start: 0, end: 1000 });
  assert.deepEqual(clampWindow({ start: 9500, end: 10_500 }, BOUNDS), { start: 9000, end: 10_000 });
  assert.deepEqual(clampWindow({ start: 100, end: 110 }, BOUNDS), { start: 100, end: 100 + MIN_WINDOW_NS });
  assert.deepEqual(clampWindow({ start: -5, end: 20_000 }, BOUNDS), BOUNDS);
});

test("zoomWindow keeps the anchor's time where it is on screen", () => {
  const window = { start: 0, end: 1000 };
  const zoomed = zoomWindow(window, 250, 0.5, BOUNDS);
  assert.deepEqual(zoomed, { start: 125, end: 625 });
  // the anchor is at the same fraction of the window before and after
  assert.equal((250 - zoomed.start) / windowWidth(zoomed), (250 - window.start) / windowWidth(window));
  assert.deepEqual(zoomWindow(window, 500, 100, BOUNDS), BOUNDS, "zooming out stops at the bounds");
  assert.equal(windowWidth(zoomWindow(window, 500, 1e-6, BOUNDS)), MIN_WINDOW_NS);
});

test("panWindow moves by ns and stops at the run's edges", () => {
  assert.deepEqual(panWindow({ start: 0, end: 1000 }, 300, BOUNDS), { start: 300, end: 1300 });
  assert.deepEqual(panWindow({ start: 0, end: 1000 }, -300, BOUNDS), { start: 0, end: 1000 });
  assert.deepEqual(panWindow({ start: 8000, end: 9000 }, 5000, BOUNDS), { start: 9000, end: 10_000 });
});

test("fitWindow pads the range by a share of its width", () => {
  assert.deepEqual(fitWindow(1000, 2000, 0.1, BOUNDS), { start: 900, end: 2100 });
  // a tiny range is padded as if it were MIN_WINDOW_NS wide
  assert.deepEqual(fitWindow(5000, 5001, 0.5, BOUNDS), { start: 4900, end: 5101 });
});

test("revealWindow moves only as much as it must", () => {
  const window = { start: 1000, end: 2000 };
  assert.equal(revealWindow(window, 1200, 1300, BOUNDS), window, "already visible: unchanged");
  assert.deepEqual(revealWindow(window, 5000, 5100, BOUNDS), { start: 4550, end: 5550 });
  // wider than 80 % of the view: zoom out to fit it
  assert.deepEqual(revealWindow(window, 5000, 6000, BOUNDS), { start: 4900, end: 6100 });
});

test("runBounds leaves 2 % of room on either side", () => {
  assert.deepEqual(runBounds(0, 1000), { start: -20, end: 1020 });
  assert.deepEqual(runBounds(100, 100), { start: 96, end: 104 });
});
