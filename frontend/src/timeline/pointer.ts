// What is under the pointer on the timeline and what its tooltip says: a rank header, a lane's
// label, a counter's value, or a box (one event, or a summary of many). Pure functions of the
// layout, the tile and the meta; TimelineView turns them into the tooltip and the cursor.

import { formatCount, formatDuration, formatTimestamp } from "../base/format";
import { alignmentDetails } from "./alignment";
import { AXIS_HEIGHT, bandAt, GUTTER_WIDTH, type LaneBand, rowAt, type TimelineLayout } from "./layout";
import { formatCounterValue, type LaneSpan } from "./render";
import { boxAt, type Tile } from "./tile";
import type { TimelineMeta } from "./types";

export interface Hit {
  band: LaneBand;
  /** Index in the tile lane, or -1 on empty space. */
  box: number;
  row: number;
  time: number;
}

export type PointerHit = Hit | { rankBand: number } | null;

export interface PointerQuery {
  /** Canvas point, in CSS px. */
  x: number;
  y: number;
  /** How far the lanes are scrolled. */
  scrollTop: number;
  /** The time under x, and how far from a box (ns) still counts as on it. */
  time: number;
  slack: number;
}

export function hitTest(layout: TimelineLayout, tile: Tile | null, query: PointerQuery): PointerHit {
  const { x, y, scrollTop, time, slack } = query;
  if (y < AXIS_HEIGHT) return null;
  const band = bandAt(layout, y - AXIS_HEIGHT + scrollTop);
  if (!band) return null;
  if (band.type === "rank") return { rankBand: band.rank.rank };
  const row = rowAt(band, y - AXIS_HEIGHT + scrollTop);
  const boxes = tile?.lanes.get(band.lane.id);
  const box = boxes && row >= 0 && x >= GUTTER_WIDTH ? boxAt(boxes, row, time, slack) : -1;
  return { band, box, row, time };
}

/** A counter's tooltip: the value in force at the cursor, the last point at or before it. */
export function counterLines(tile: Tile | null, hit: Hit): string[] | null {
  const series = tile?.counters.get(hit.band.lane.id);
  if (!series) return null;
  let index = -1;
  for (let i = 0; i < series.t.length && (series.t[i] ?? 0) <= hit.time; i += 1) index = i;
  const value = series.value[index];
  if (value === undefined) return null;
  return [hit.band.lane.label, formatCounterValue(hit.band.lane.label, value)];
}

export interface Hover {
  /** The box to outline, if any. */
  span: LaneSpan | null;
  /** Tooltip lines, the first its title; null: no tooltip. */
  lines: string[] | null;
  cursor: "pointer" | "";
}

/** The hover for a hit at canvas x; null where the pointer is over nothing (not even a band). */
export function hoverOf(
  hit: PointerHit,
  x: number,
  tile: Tile | null,
  meta: TimelineMeta | null,
  collapsedRanks: ReadonlySet<number>,
): Hover | null {
  if (hit === null) return null;
  if ("rankBand" in hit) {
    const rank = meta?.ranks.find((r) => r.rank === hit.rankBand);
    const action = rank && collapsedRanks.has(rank.rank) ? "expand" : "collapse";
    const lines = rank ? [`rank ${rank.rank} (click to ${action})`, ...alignmentDetails(rank.alignment)] : null;
    return { span: null, lines, cursor: "pointer" };
  }
  const lane = hit.band.lane;
  if (x < GUTTER_WIDTH) return { span: null, lines: [lane.label, `rank ${hit.band.rank} · ${lane.kind}`], cursor: "" };
  if (lane.kind === "counter") return { span: null, lines: counterLines(tile, hit), cursor: "" };
  const boxes = tile?.lanes.get(lane.id);
  if (!boxes || hit.box < 0) return { span: null, lines: null, cursor: "" };
  const start = boxes.start[hit.box] ?? 0;
  const end = boxes.end[hit.box] ?? 0;
  const count = boxes.count[hit.box] ?? 1;
  const name = tile?.names[boxes.name[hit.box] ?? 0] ?? "";
  const zero = meta?.start ?? 0;
  const lines =
    count > 1
      ? [`${formatCount(count)} events`, `longest: ${name}`, `over ${formatDuration(end - start)} from ${formatTimestamp(start - zero)}`, "click to zoom in"]
      : [name, `duration ${formatDuration(end - start)}`, `start ${formatTimestamp(start - zero)}`];
  return { span: { lane: lane.id, row: hit.row, start, end }, lines, cursor: "" };
}
