// Vertical layout of the timeline: per enabled rank a header, then its lanes, one row per
// nesting depth. Y positions are in CSS px from the top of the scrolled lane area.

import type { LaneMeta, RankMeta, TimelineMeta } from "./types";

export const AXIS_HEIGHT = 28;
export const GUTTER_WIDTH = 220;
export const RANK_HEADER_HEIGHT = 24;
export const ROW_HEIGHT = 18;
const COUNTER_HEIGHT = 36;
const LANE_PADDING = 3;

export interface RankBand {
  type: "rank";
  rank: RankMeta;
  collapsed: boolean;
  top: number;
  height: number;
}

export interface LaneBand {
  type: "lane";
  rank: number;
  lane: LaneMeta;
  top: number;
  height: number;
}

export type Band = RankBand | LaneBand;

export interface TimelineLayout {
  /** Top to bottom. */
  bands: Band[];
  lanes: Map<string, LaneBand>;
  height: number;
}

function laneHeight(lane: LaneMeta): number {
  return lane.kind === "counter"
    ? COUNTER_HEIGHT
    : Math.max(1, lane.rows) * ROW_HEIGHT + 2 * LANE_PADDING;
}

export function layoutTimeline(
  meta: TimelineMeta,
  enabledRanks: ReadonlySet<number>,
  collapsedRanks: ReadonlySet<number>,
): TimelineLayout {
  const bands: Band[] = [];
  const lanes = new Map<string, LaneBand>();
  let top = 0;
  for (const rank of meta.ranks) {
    if (!enabledRanks.has(rank.rank)) continue;
    const collapsed = collapsedRanks.has(rank.rank);
    bands.push({ type: "rank", rank, collapsed, top, height: RANK_HEADER_HEIGHT });
    top += RANK_HEADER_HEIGHT;
    if (collapsed) continue;
    for (const lane of rank.lanes) {
      const band: LaneBand = { type: "lane", rank: rank.rank, lane, top, height: laneHeight(lane) };
      bands.push(band);
      lanes.set(lane.id, band);
      top += band.height;
    }
  }
  return { bands, lanes, height: top };
}

export function bandAt(layout: TimelineLayout, y: number): Band | null {
  return layout.bands.find((band) => y >= band.top && y < band.top + band.height) ?? null;
}

export function rowTop(band: LaneBand, row: number): number {
  return band.top + LANE_PADDING + row * ROW_HEIGHT;
}

/** The nesting row under `y`, or -1 in the lane's padding. */
export function rowAt(band: LaneBand, y: number): number {
  const row = Math.floor((y - band.top - LANE_PADDING) / ROW_HEIGHT);
  return row >= 0 && row < band.lane.rows ? row : -1;
}

/** Ranks whose lanes are shown (enabled and expanded): the ones to fetch tiles for. */
export function visibleRanks(layout: TimelineLayout): number[] {
  return layout.bands.flatMap((band) => (band.type === "rank" && !band.collapsed ? [band.rank.rank] : []));
}
