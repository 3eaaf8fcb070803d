// The timeline's other pure parts: time-axis ticks, box colours, tile hit-testing, rank lists,
// and the chart's value axis.

import assert from "node:assert/strict";
import { test } from "node:test";
import { niceAxis } from "../src/base/chart";
import { boxPalette, colorSlot, PALETTE_SIZE } from "../src/canvas/colors";
import { timeAxis } from "../src/timeline/axis";
import { formatRankList, parseRankList } from "../src/timeline/controls";
import { pathSpans, pathSummary, shownStep } from "../src/timeline/criticalPath";
import { boxAt, prepareTile } from "../src/timeline/tile";
import type { TileResponse } from "../src/timeline/types";

test("timeAxis: ticks at 1/2/5 × 10^k about pxPerTick apart, in one unit", () => {
  const ns = timeAxis(0, 1000, 100, 10, 0);
  assert.deepEqual(ns.ticks, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  assert.equal(ns.labels[3], "300 ns");
  assert.equal(ns.baseLabel, null);
  const ms = timeAxis(0, 10e6, 1000, 200, 0);
  assert.deepEqual(ms.ticks, [0, 2e6, 4e6, 6e6, 8e6]);
  assert.deepEqual(ms.labels, ["0 ms", "2 ms", "4 ms", "6 ms", "8 ms"]);
});

test("timeAxis ticks are round and labelled from the run start, `zero`", () => {
  const axis = timeAxis(1500, 2500, 100, 20, 1100);
  assert.deepEqual(axis.ticks, [1500, 1700, 1900, 2100, 2300]);
  assert.deepEqual(axis.labels, ["0.4 µs", "0.6 µs", "0.8 µs", "1.0 µs", "1.2 µs"]);
  assert.deepEqual(timeAxis(1500, 2500, 100, 20, 1000).ticks, [1600, 1800, 2000, 2200, 2400]);
});

test("timeAxis deep into a run counts from a base time shown once", () => {
  const axis = timeAxis(5e9, 5e9 + 1000, 100, 10, 0);
  assert.equal(axis.baseLabel, "5.00000 s");
  assert.equal(axis.ticks[0], 5e9);
  assert.equal(axis.labels[0], "+0 ns");
  assert.equal(axis.labels[9], "+900 ns");
});

test("colorSlot is FNV-1a of the name, in the palette", () => {
  assert.equal(colorSlot(""), 0x811c9dc5 % PALETTE_SIZE);
  assert.equal(colorSlot("aten::mm"), colorSlot("aten::mm"));
  assert.notEqual(colorSlot("aten::mm"), colorSlot("aten::mul"), "similar names, different colours");
  const slots = new Set(["a", "b", "c", "aten::add", "nccl:all_reduce", "Memcpy HtoD"].map(colorSlot));
  assert.ok([...slots].every((s) => Number.isInteger(s) && s >= 0 && s < PALETTE_SIZE));
  assert.equal(boxPalette(false).length, PALETTE_SIZE);
  assert.deepEqual(boxPalette(false).slice(0, 2), ["hsl(0 55% 72%)", "hsl(138 55% 76%)"]);
  assert.equal(boxPalette(true)[0], "hsl(0 40% 36%)");
});

const TILE: TileResponse = {
  start: 0,
  end: 1000,
  ns_per_px: 1,
  names: ["aten::mm", "aten::add"],
  // arrives out of start order in row 0: the contract promises no order
  lanes: [
    {
      id: "0/cpu",
      boxes: {
        start: [500, 100, 120, 300],
        dur: [100, 100, 50, 20],
        row: [0, 0, 1, 0],
        name: [0, 1, 0, 1],
        count: [1, 1, 1, 4],
        id: [10, 11, 12, -1],
      },
    },
  ],
  counters: [{ id: "0/mem", t: [0, 500], value: [1, 2] }],
  flows: [],
};

test("prepareTile groups each row's boxes in start order and keeps the columns", () => {
  const tile = prepareTile(TILE, "all");
  const lane = tile.lanes.get("0/cpu");
  assert.ok(lane);
  assert.equal(lane.size, 4);
  assert.deepEqual([...lane.end], [600, 200, 170, 320]);
  assert.deepEqual([...lane.rowOffsets], [0, 3, 4]);
  assert.deepEqual([...lane.byRow], [1, 3, 0, 2], "row 0 by start (100, 300, 500), then row 1");
  assert.deepEqual([...lane.eventId], [10, 11, 12, -1]);
  assert.equal(tile.counters.get("0/mem")?.value[1], 2);
  assert.equal(tile.ranksKey, "all");
  const slotOfMm = colorSlot("aten::mm");
  const mm = lane.byColor.subarray(lane.colorOffsets[slotOfMm], lane.colorOffsets[slotOfMm + 1]);
  assert.deepEqual([...mm], [0, 2], "one fill per colour: the aten::mm boxes");
});

test("boxAt finds the box under a time, within slack, in that row only", () => {
  const lane = prepareTile(TILE, "all").lanes.get("0/cpu");
  assert.ok(lane);
  assert.equal(boxAt(lane, 0, 150, 0), 1);
  assert.equal(boxAt(lane, 0, 550, 0), 0);
  assert.equal(boxAt(lane, 0, 250, 0), -1, "between boxes");
  assert.equal(boxAt(lane, 0, 205, 10), 1, "just past the end, within slack");
  assert.equal(boxAt(lane, 0, 295, 10), 3, "just before the start, within slack");
  assert.equal(boxAt(lane, 1, 150, 0), 2);
  assert.equal(boxAt(lane, 1, 550, 0), -1);
  assert.equal(boxAt(lane, 5, 150, 0), -1, "no such row");
});

test("rank lists: '0-3, 37' and back", () => {
  const known = new Set(Array.from({ length: 64 }, (_, r) => r));
  assert.deepEqual(parseRankList("0-3, 37", known), [0, 1, 2, 3, 37]);
  assert.deepEqual(parseRankList(" 5 ,1-2,2 ", known), [1, 2, 5]);
  assert.deepEqual(parseRankList("60-70", known), [60, 61, 62, 63], "unknown ranks are left out");
  assert.equal(parseRankList("3-1", known), null);
  assert.equal(parseRankList("two", known), null);
  assert.equal(parseRankList("100", known), null, "names no known rank");
  assert.equal(parseRankList("", known), null);
  assert.equal(formatRankList([0, 1, 2, 3, 37]), "0-3, 37");
  assert.equal(formatRankList([5]), "5");
  assert.equal(formatRankList([1, 3, 4]), "1, 3-4");
  assert.equal(formatRankList([]), "");
});

test("niceAxis widens to whole ticks at 1, 2 or 5 × 10^k", () => {
  assert.deepEqual(niceAxis(0, 97, 5, false), { min: 0, max: 100, ticks: [0, 20, 40, 60, 80, 100] });
  assert.deepEqual(niceAxis(10, 27, 4, false), { min: 10, max: 30, ticks: [10, 15, 20, 25, 30] });
  assert.deepEqual(niceAxis(0, 0.9, 3, false).ticks, [0, 0.5, 1], "no 0.30000000000000004 in a tick");
  assert.deepEqual(niceAxis(3, 3, 4, true), { min: 3, max: 4, ticks: [3, 4] }, "a flat series still gets an axis");
});

test("shownStep: the step around the window's middle, else the one overlapping it most", () => {
  const steps = [
    { step: 7, start: 0, end: 100 },
    { step: 8, start: 100, end: 200 },
    { step: 9, start: 300, end: 400 },
  ];
  assert.equal(shownStep(steps, { start: 0, end: 100 }), 7);
  assert.equal(shownStep(steps, { start: 90, end: 190 }), 8);
  assert.equal(shownStep(steps, { start: 180, end: 320 }), 8); // middle 250 in no step, 20 each: the earlier
  assert.equal(shownStep(steps, { start: 150, end: 330 }), 8);
  assert.equal(shownStep(steps, { start: 500, end: 600 }), null);
  assert.equal(shownStep([], { start: 0, end: 1 }), null);
});

test("pathSpans and pathSummary: the route's path events as lane spans, and one line", () => {
  const path = {
    step: 16, rank: 1, duration_ns: 4_000_000, length_ns: 3_000_000, share_of_step: 0.75,
    by_category: [{ category: "cpu", ns: 2_000_000, share: 2 / 3 }, { category: "compute", ns: 1_000_000, share: 1 / 3 }],
    timeline: [{ rank: 1, id: 5, lane: "1/cpu/2/2", row: 1, start: 10, dur: 5, path_ns: 5 }],
  };
  assert.deepEqual(pathSpans(path), [{ lane: "1/cpu/2/2", row: 1, start: 10, end: 15 }]);
  assert.equal(pathSummary(path), "step 16 on rank 1: 3.00 ms of 4.00 ms (75%) · cpu 67%, compute 33%");
});
