// The timeline's keys in the location hash: start, end (view window, relative ns), sel
// ("rank:id"), ranks (enabled ranks, absent = all) and q (search text).

import { readHash, updateHash } from "../base/hashState";
import type { EventRef } from "./types";
import type { TimeWindow } from "../canvas/viewWindow";

export interface TimelineHashState {
  window: TimeWindow | null;
  selected: EventRef | null;
  enabledRanks: number[] | null;
  search: string;
}

export const EMPTY_STATE: TimelineHashState = {
  window: null,
  selected: null,
  enabledRanks: null,
  search: "",
};

function integer(text: string | null): number | null {
  if (text === null || text.trim() === "") return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/** "0,1" → [0, 1]; "" → []; null (key absent) or anything malformed → null. */
function integerList(text: string | null, separator: string): number[] | null {
  if (text === null) return null;
  if (text === "") return [];
  const values = text.split(separator).map(integer);
  return values.every((value) => value !== null) ? (values as number[]) : null;
}

export function readTimelineHash(): TimelineHashState {
  const params = readHash();
  const start = integer(params.get("start"));
  const end = integer(params.get("end"));
  const selected = integerList(params.get("sel"), ":");
  const [rank, id] = selected?.length === 2 ? selected : [];
  return {
    window: start !== null && end !== null && end > start ? { start, end } : null,
    selected: rank !== undefined && id !== undefined ? { rank, id } : null,
    enabledRanks: integerList(params.get("ranks"), ","),
    search: params.get("q") ?? "",
  };
}

export function writeTimelineHash(state: Partial<TimelineHashState>): void {
  const changes: Record<string, string | null> = {};
  if (state.window !== undefined) {
    changes["start"] = state.window && String(Math.round(state.window.start));
    changes["end"] = state.window && String(Math.round(state.window.end));
  }
  if (state.selected !== undefined) {
    changes["sel"] = state.selected && `${state.selected.rank}:${state.selected.id}`;
  }
  if (state.enabledRanks !== undefined) {
    changes["ranks"] = state.enabledRanks && state.enabledRanks.join(",");
  }
  if (state.search !== undefined) changes["q"] = state.search === "" ? null : state.search;
  updateHash(changes);
}
