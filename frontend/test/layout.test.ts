// timeline/layout.ts: where each rank header, lane and nesting row sits, and what is under y.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bandAt,
  type LaneBand,
  layoutTimeline,
  RANK_HEADER_HEIGHT,
  ROW_HEIGHT,
  rowAt,
  rowTop,
  visibleRanks,
} from "../src/timeline/layout";
import type { Alignment, TimelineMeta } from "../src/timeline/types";

const ALIGNED: Alignment = { method: "none", offset_ns: 0, uncertainty_ns: 0, drift_ns_per_s: null, pairs: 0, outliers: 0 };
const META: TimelineMeta = {
  run: "r",
  origin_ns: "0",
  start: 0,
  end: 1000,
  events: 3,
  steps: [],
  windows: [],
  ranks: [
    {
      rank: 0,
      alignment: ALIGNED,
      lanes: [
        { id: "0/cpu", label: "CPU", kind: "cpu", rows: 2 },
        { id: "0/mem", label: "memory", kind: "counter", rows: 1 },
      ],
    },
    { rank: 1, alignment: ALIGNED, lanes: [{ id: "1/gpu", label: "GPU", kind: "gpu", rows: 0 }] },
    { rank: 2, alignment: ALIGNED, lanes: [{ id: "2/gpu", label: "GPU", kind: "gpu", rows: 1 }] },
  ],
};

const summary = (bands: ReturnType<typeof layoutTimeline>["bands"]) =>
  bands.map((b) => (b.type === "rank" ? `rank ${b.rank.rank}${b.collapsed ? " (collapsed)" : ""}` : b.lane.id) + ` @${b.top}+${b.height}`);

test("each enabled rank gets a header, then its lanes; a collapsed rank only the header", () => {
  const layout = layoutTimeline(META, new Set([0, 1, 2]), new Set([2]));
  // a lane of n rows: n × 18 px plus 3 px padding above and below; a counter 36 px; an empty lane one row
  assert.deepEqual(summary(layout.bands), [
    "rank 0 @0+24",
    "0/cpu @24+42",
    "0/mem @66+36",
    "rank 1 @102+24",
    "1/gpu @126+24",
    "rank 2 (collapsed) @150+24",
  ]);
  assert.equal(layout.height, 174);
  assert.deepEqual([...layout.lanes.keys()], ["0/cpu", "0/mem", "1/gpu"]);
  assert.deepEqual(visibleRanks(layout), [0, 1]);
});

test("a disabled rank takes no room at all", () => {
  const layout = layoutTimeline(META, new Set([1]), new Set());
  assert.deepEqual(summary(layout.bands), ["rank 1 @0+24", "1/gpu @24+24"]);
  assert.deepEqual(visibleRanks(layout), [1]);
});

test("bandAt finds the band under y, top edge included, bottom edge not", () => {
  const layout = layoutTimeline(META, new Set([0, 1]), new Set());
  assert.equal(bandAt(layout, 0)?.type, "rank");
  assert.equal(bandAt(layout, RANK_HEADER_HEIGHT - 1)?.type, "rank");
  const lane = bandAt(layout, RANK_HEADER_HEIGHT);
  assert.equal(lane?.type === "lane" ? lane.lane.id : null, "0/cpu");
  assert.equal(bandAt(layout, layout.height), null);
  assert.equal(bandAt(layout, -1), null);
});

test("rowTop and rowAt agree, and the lane's padding is no row", () => {
  const layout = layoutTimeline(META, new Set([0]), new Set());
  const cpu = layout.lanes.get("0/cpu") as LaneBand;
  assert.equal(rowTop(cpu, 0), 27);
  assert.equal(rowTop(cpu, 1), 27 + ROW_HEIGHT);
  assert.equal(rowAt(cpu, rowTop(cpu, 0)), 0);
  assert.equal(rowAt(cpu, rowTop(cpu, 1) + ROW_HEIGHT - 1), 1);
  assert.equal(rowAt(cpu, cpu.top + 1), -1, "top padding");
  assert.equal(rowAt(cpu, rowTop(cpu, 2)), -1, "below the last row");
});
