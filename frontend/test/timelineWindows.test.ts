// The timeline's recorded windows: which one a view or a step is in, the gaps between them,
// what the view opens on, and the message for a step outside every window.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ALL,
  choiceBounds,
  choiceShowing,
  gapsBetween,
  gapLabel,
  initialChoice,
  locateStep,
  windowOf,
  windowOptionLabel,
} from "../src/timeline/windows";
import type { RecordedWindow, StepExtent } from "../src/timeline/types";

const S = 1e9;
/** Two traces of one worker, like the torch-tb-profiler sample: 1 s, then 1 s eight minutes later. */
const WINDOWS: RecordedWindow[] = [
  { start_ns: 0, end_ns: S, label: "worker0.1", source: "trace", files: ["worker0.1.pt.trace.json.gz"] },
  { start_ns: 480 * S, end_ns: 481 * S, label: "worker0.2", source: "trace", files: ["worker0.2.pt.trace.json.gz"] },
];
const RUN = { start: 0, end: 481 * S };
const STEPS: StepExtent[] = [
  { step: 5, start: 0.1 * S, end: 0.3 * S },
  { step: 6, start: 0.3 * S, end: 0.5 * S },
  { step: 16, start: 480.2 * S, end: 480.4 * S },
];

test("choiceBounds: a picked window with a little room, or the whole run", () => {
  assert.deepEqual(choiceBounds(WINDOWS, 1, RUN), { start: 480 * S - 0.02 * S, end: 481 * S + 0.02 * S });
  const all = choiceBounds(WINDOWS, ALL, RUN);
  assert.ok(all.start < 0 && all.end > 481 * S);
  assert.deepEqual(choiceBounds(WINDOWS, 7, RUN), all); // a window the run no longer has
});

test("windowOf: the window holding most of a range; -1 in a gap", () => {
  assert.equal(windowOf(WINDOWS, 0.2 * S, 0.4 * S), 0);
  assert.equal(windowOf(WINDOWS, 480.5 * S, 480.6 * S), 1);
  assert.equal(windowOf(WINDOWS, 0.5 * S, 480.1 * S), 0); // more of it in the first
  assert.equal(windowOf(WINDOWS, 100 * S, 200 * S), -1);
  assert.equal(windowOf([], 0, 1), -1);
});

test("initialChoice: the first window, or the one a restored view is in; ALL across a gap or for one window", () => {
  assert.equal(initialChoice(WINDOWS, null), 0);
  assert.equal(initialChoice(WINDOWS, { start: 480.1 * S, end: 480.2 * S }), 1);
  assert.equal(initialChoice(WINDOWS, { start: 0, end: 481 * S }), ALL);
  assert.equal(initialChoice(WINDOWS, { start: 100 * S, end: 101 * S }), ALL);
  assert.equal(initialChoice([], null), ALL);
  assert.equal(initialChoice(WINDOWS.slice(0, 1), null), ALL); // one window: the whole run
});

test("choiceShowing: keeps the current choice when it shows the range, else moves", () => {
  assert.equal(choiceShowing(WINDOWS, 0, 0.1 * S, 0.2 * S, RUN), 0);
  assert.equal(choiceShowing(WINDOWS, 0, 480.1 * S, 480.2 * S, RUN), 1);
  assert.equal(choiceShowing(WINDOWS, ALL, 480.1 * S, 480.2 * S, RUN), ALL);
  assert.equal(choiceShowing(WINDOWS, 1, 200 * S, 201 * S, RUN), ALL);
});

test("gapsBetween: the stretch between each two windows", () => {
  assert.deepEqual(gapsBetween(WINDOWS), [{ start: S, end: 480 * S }]);
  assert.deepEqual(gapsBetween(WINDOWS.slice(0, 1)), []);
  assert.equal(gapLabel({ start: S, end: 480 * S }), "not recorded · 479 s");
});

test("locateStep: a step's extent and window, or why it cannot be shown", () => {
  assert.deepEqual(locateStep(WINDOWS, STEPS, 16), { extent: STEPS[2], window: 1 });
  assert.deepEqual(locateStep(WINDOWS, STEPS, 12), {
    message: "Step 12 is outside every recorded window: no trace or span holds it. This run recorded steps 5-6, 16.",
  });
  const inGap = [...STEPS, { step: 9, start: 100 * S, end: 101 * S }];
  assert.deepEqual(locateStep(WINDOWS, inGap, 9), {
    message: "Step 9 is outside every recorded window. This run recorded steps 5-6, 9, 16.",
  });
  assert.deepEqual(locateStep([], [], 3), {
    message: "Step 3 is outside every recorded window: no trace or span holds it. This run recorded no steps.",
  });
});

test("windowOptionLabel: number, label and length", () => {
  assert.equal(windowOptionLabel(WINDOWS[1] as RecordedWindow, 1), "2. worker0.2 (1.00 s)");
});
