// A tile answer turned into typed arrays with the indexes drawing and hit-testing need: boxes
// grouped by colour (one fill per colour) and by row in time order (binary search under the mouse).

import { colorSlot, PALETTE_SIZE } from "../canvas/colors";
import type { CounterSeries, TileFlow, TileResponse } from "./types";

export interface LaneBoxes {
  size: number;
  start: Float64Array;
  end: Float64Array;
  row: Uint16Array;
  name: Uint32Array;
  count: Float64Array;
  eventId: Float64Array;
  /** Box indices grouped by colour slot; slot c is byColor[colorOffsets[c] .. colorOffsets[c+1]). */
  byColor: Uint32Array;
  colorOffsets: Uint32Array;
  /** Box indices grouped by row, each row in start order; row r spans rowOffsets[r] .. [r+1]. */
  byRow: Uint32Array;
  rowOffsets: Uint32Array;
}

export interface Tile {
  start: number;
  end: number;
  nsPerPx: number;
  /** Which ranks were asked for (null = all), to tell when a tile no longer fits the view. */
  ranksKey: string;
  names: string[];
  lanes: Map<string, LaneBoxes>;
  counters: Map<string, CounterSeries>;
  flows: TileFlow[];
}

/** Counting sort of box indices by `key`: O(n), stable, so start order survives within a key. */
function groupBy(keys: ArrayLike<number>, groups: number): [Uint32Array, Uint32Array] {
  const counts = new Uint32Array(groups);
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] ?? 0;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  const offsets = new Uint32Array(groups + 1);
  for (let g = 0; g < groups; g += 1) offsets[g + 1] = (offsets[g] ?? 0) + (counts[g] ?? 0);
  const cursor = offsets.slice(0, groups);
  const order = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] ?? 0;
    order[cursor[key] ?? 0] = i;
    cursor[key] = (cursor[key] ?? 0) + 1;
  }
  return [order, offsets];
}

/** Sort each row's box indices by start time, in place; rows that arrived in order cost one pass. */
function sortRowsByStart(byRow: Uint32Array, rowOffsets: Uint32Array, start: Float64Array): void {
  for (let r = 0; r + 1 < rowOffsets.length; r += 1) {
    const indices = byRow.subarray(rowOffsets[r] ?? 0, rowOffsets[r + 1] ?? 0);
    for (let k = 1; k < indices.length; k += 1) {
      if ((start[indices[k] ?? 0] ?? 0) < (start[indices[k - 1] ?? 0] ?? 0)) {
        indices.sort((a, b) => (start[a] ?? 0) - (start[b] ?? 0));
        break;
      }
    }
  }
}

function prepareLane(
  columns: TileResponse["lanes"][number]["boxes"],
  nameSlots: Uint8Array,
): LaneBoxes {
  const size = columns.start.length;
  const start = new Float64Array(size);
  const end = new Float64Array(size);
  const row = new Uint16Array(size);
  const name = new Uint32Array(size);
  const color = new Uint8Array(size);
  let rowCount = 0;
  for (let i = 0; i < size; i += 1) {
    const boxStart = columns.start[i] ?? 0;
    start[i] = boxStart;
    end[i] = boxStart + (columns.dur[i] ?? 0);
    const boxRow = columns.row[i] ?? 0;
    row[i] = boxRow;
    rowCount = Math.max(rowCount, boxRow + 1);
    const boxName = columns.name[i] ?? 0;
    name[i] = boxName;
    color[i] = nameSlots[boxName] ?? 0;
  }
  const [byRow, rowOffsets] = groupBy(row, rowCount);
  // The contract promises no order: hit-testing needs each row in time order.
  sortRowsByStart(byRow, rowOffsets, start);
  const [byColor, colorOffsets] = groupBy(color, PALETTE_SIZE);
  return {
    size,
    start,
    end,
    row,
    name,
    count: Float64Array.from(columns.count),
    eventId: Float64Array.from(columns.id),
    byColor,
    colorOffsets,
    byRow,
    rowOffsets,
  };
}

export function prepareTile(response: TileResponse, ranksKey: string): Tile {
  const nameSlots = Uint8Array.from(response.names, colorSlot);
  return {
    start: response.start,
    end: response.end,
    nsPerPx: response.ns_per_px,
    ranksKey,
    names: response.names,
    lanes: new Map(response.lanes.map((lane) => [lane.id, prepareLane(lane.boxes, nameSlots)])),
    counters: new Map(response.counters.map((counter) => [counter.id, counter])),
    flows: response.flows,
  };
}

/** The box in `row` under time `t` (within `slack` ns, for thin boxes), or -1. */
export function boxAt(lane: LaneBoxes, row: number, t: number, slack: number): number {
  const from = lane.rowOffsets[row];
  const to = lane.rowOffsets[row + 1];
  if (from === undefined || to === undefined) return -1;
  // Last box starting at or before t + slack; rows do not overlap, so it is the only candidate
  // unless it ended before t - slack.
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((lane.start[lane.byRow[mid] ?? 0] ?? 0) <= t + slack) lo = mid + 1;
    else hi = mid;
  }
  let best = -1;
  let bestDistance = Infinity;
  // Summary boxes are pixel-aligned and may touch: look at the two nearest and keep the closer.
  for (let k = lo - 1; k >= Math.max(from, lo - 2); k -= 1) {
    const box = lane.byRow[k] ?? 0;
    const boxStart = lane.start[box] ?? 0;
    const boxEnd = lane.end[box] ?? 0;
    const distance = t < boxStart ? boxStart - t : t > boxEnd ? t - boxEnd : 0;
    if (distance <= slack && distance < bestDistance) {
      best = box;
      bestDistance = distance;
    }
  }
  return best;
}
