// timeline/pointer.ts and timeline/selection.ts: what is under the pointer, what its tooltip
// says, and the selection's outline and flow arrow.

import assert from "node:assert/strict";
import { test } from "node:test";
import { AXIS_HEIGHT, GUTTER_WIDTH, layoutTimeline } from "../src/timeline/layout";
import { counterLines, hitTest, hoverOf } from "../src/timeline/pointer";
import { sameRef, selectionSpans } from "../src/timeline/selection";
import { prepareTile } from "../src/timeline/tile";
import type { Alignment, TimelineEvent, TimelineMeta } from "../src/timeline/types";

const ALIGNED: Alignment = { method: "none", offset_ns: 0, uncertainty_ns: 0, drift_ns_per_s: null, pairs: 0, outliers: 0 };
const META: TimelineMeta = {
  run: "r",
  origin_ns: "0",
  start: 100,
  end: 10_000,
  events: 3,
  steps: [],
  windows: [],
  ranks: [
    {
      rank: 0,
      alignment: ALIGNED,
      lanes: [
        { id: "0/cpu", label: "CPU", kind: "cpu", rows: 1 },
        { id: "0/mem", label: "GPU memory (bytes)", kind: "counter", rows: 1 },
      ],
    },
  ],
};
const LAYOUT = layoutTimeline(META, new Set([0]), new Set());
const TILE = prepareTile(
  {
    start: 0,
    end: 10_000,
    ns_per_px: 10,
    names: ["aten::mm", "ProfilerStep#3"],
    lanes: [
      {
        id: "0/cpu",
        boxes: { start: [1100, 5000], dur: [2000, 1500], row: [0, 0], name: [0, 1], count: [1, 7], id: [42, -1] },
      },
    ],
    counters: [{ id: "0/mem", t: [0, 3000], value: [1024, 2 * 1024 ** 2] }],
    flows: [],
  },
  "all",
);
// rank header 0..24, cpu lane 24..48 (row 0 at 27..45), memory counter 48..84; canvas y adds the axis
const y = (laneY: number): number => AXIS_HEIGHT + laneY;
const query = (x: number, laneY: number, time: number) => ({ x, y: y(laneY), scrollTop: 0, time, slack: 20 });

test("hitTest: nothing over the axis, the rank on its header, else lane, row and box", () => {
  assert.equal(hitTest(LAYOUT, TILE, query(300, -5, 0)), null);
  assert.deepEqual(hitTest(LAYOUT, TILE, query(300, 10, 0)), { rankBand: 0 });
  const hit = hitTest(LAYOUT, TILE, query(300, 30, 2000));
  assert.ok(hit && "band" in hit);
  assert.deepEqual([hit.band.lane.id, hit.row, hit.box, hit.time], ["0/cpu", 0, 0, 2000]);
  const empty = hitTest(LAYOUT, TILE, query(300, 30, 4000));
  assert.equal(empty && "box" in empty ? empty.box : null, -1, "between boxes");
  const gutter = hitTest(LAYOUT, TILE, query(GUTTER_WIDTH - 1, 30, 2000));
  assert.equal(gutter && "box" in gutter ? gutter.box : null, -1, "no box under the lane labels");
  assert.equal(hitTest(LAYOUT, TILE, { ...query(300, 30, 2000), scrollTop: 100 }), null, "scrolled past the lanes");
});

test("hoverOf: an event's name, duration and start from the run start", () => {
  const hover = hoverOf(hitTest(LAYOUT, TILE, query(300, 30, 2000)), 300, TILE, META, new Set());
  assert.deepEqual(hover, {
    span: { lane: "0/cpu", row: 0, start: 1100, end: 3100 },
    lines: ["aten::mm", "duration 2.00 µs", "start 1.000 µs"],
    cursor: "",
  });
});

test("hoverOf: a summary box counts its events and says a click zooms in", () => {
  const hover = hoverOf(hitTest(LAYOUT, TILE, query(300, 30, 5500)), 300, TILE, META, new Set());
  assert.deepEqual(hover?.lines, ["7 events", "longest: ProfilerStep#3", "over 1.50 µs from 4.900 µs", "click to zoom in"]);
});

test("hoverOf: rank headers, lane labels, counters and empty space", () => {
  const header = hoverOf({ rankBand: 0 }, 300, TILE, META, new Set([0]));
  assert.deepEqual(header, { span: null, lines: ["rank 0 (click to expand)", "Not aligned: no clock sync, collectives or steps to align with."], cursor: "pointer" });
  const label = hoverOf(hitTest(LAYOUT, TILE, query(10, 30, 0)), 10, TILE, META, new Set());
  assert.deepEqual(label?.lines, ["CPU", "rank 0 · cpu"]);
  const counter = hoverOf(hitTest(LAYOUT, TILE, query(300, 60, 3500)), 300, TILE, META, new Set());
  assert.deepEqual(counter?.lines, ["GPU memory (bytes)", "2.10 MB"]);
  const nothing = hoverOf(hitTest(LAYOUT, TILE, query(300, 30, 4000)), 300, TILE, META, new Set());
  assert.deepEqual(nothing, { span: null, lines: null, cursor: "" });
  assert.equal(hoverOf(null, 300, TILE, META, new Set()), null);
});

test("counterLines: the value in force is the last point at or before the cursor", () => {
  const band = LAYOUT.lanes.get("0/mem");
  assert.ok(band);
  assert.deepEqual(counterLines(TILE, { band, box: -1, row: 0, time: 2999 }), ["GPU memory (bytes)", "1.02 KB"]);
  assert.equal(counterLines(null, { band, box: -1, row: 0, time: 2999 }), null);
});

function event(rank: number, id: number, kind: TimelineEvent["kind"], lane: string): TimelineEvent {
  return { rank, id, kind, lane, row: 1, start: 10 * id, dur: 5, name: "e", args: {}, flow: null } as unknown as TimelineEvent;
}

test("selectionSpans: an outline once the selected event's details arrive, arrows launch → device", () => {
  const launch = event(0, 1, "runtime", "0/cpu");
  const kernel = event(0, 2, "kernel", "0/gpu");
  assert.deepEqual(selectionSpans({ rank: 0, id: 1 }, null, null), { selected: null, flow: null });
  assert.deepEqual(selectionSpans({ rank: 0, id: 9 }, launch, null), { selected: null, flow: null }, "stale details");
  const own = { lane: "0/cpu", row: 1, start: 10, end: 15 };
  const peer = { lane: "0/gpu", row: 1, start: 20, end: 25 };
  assert.deepEqual(selectionSpans({ rank: 0, id: 1 }, launch, null), { selected: own, flow: null });
  assert.deepEqual(selectionSpans({ rank: 0, id: 1 }, launch, kernel), { selected: own, flow: { from: own, to: peer } });
  assert.deepEqual(selectionSpans({ rank: 0, id: 2 }, kernel, launch), { selected: peer, flow: { from: own, to: peer } });
  assert.equal(sameRef({ rank: 0, id: 1 }, { rank: 1, id: 1 }), false);
  assert.equal(sameRef(null, null), false);
});
