// Client for the timeline routes (docs/HTTP_API.md, "Timeline").

import { getJson, type ProgressListener } from "../base/api";
import type { CriticalPathStep, EventRef, SearchResult, TileResponse, TimelineEvent, TimelineMeta } from "./types";

/** Also caps the results kept for next/prev. */
export const SEARCH_LIMIT = 1000;

/** `ranks` null means every rank (the parameter is left out). */
function withRanks(params: URLSearchParams, ranks: readonly number[] | null): URLSearchParams {
  if (ranks !== null) params.set("ranks", ranks.join(","));
  return params;
}

export function fetchTimelineMeta(
  run: string,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<TimelineMeta> {
  return getJson(`./timeline/meta?${new URLSearchParams({ run })}`, signal, onProgress);
}

export interface TileQuery {
  start: number;
  end: number;
  widthPx: number;
  ranks: readonly number[] | null;
}

export function fetchTiles(
  run: string,
  query: TileQuery,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<TileResponse> {
  const params = new URLSearchParams({
    run,
    start: String(query.start),
    end: String(query.end),
    width_px: String(query.widthPx),
  });
  return getJson(`./timeline/tiles?${withRanks(params, query.ranks)}`, signal, onProgress);
}

export function fetchEvent(run: string, ref: EventRef, signal: AbortSignal): Promise<TimelineEvent> {
  const params = new URLSearchParams({ run, rank: String(ref.rank), id: String(ref.id) });
  return getJson(`./timeline/event?${params}`, signal);
}

export function searchEvents(
  run: string,
  text: string,
  ranks: readonly number[] | null,
  signal: AbortSignal,
): Promise<SearchResult> {
  const params = new URLSearchParams({ run, q: text, limit: String(SEARCH_LIMIT) });
  return getJson(`./timeline/search?${withRanks(params, ranks)}`, signal);
}

/** A step's critical path through its slowest rank (route `critical_path`, docs/HTTP_API.md). */
export function fetchCriticalPath(
  run: string,
  step: number,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<CriticalPathStep> {
  return getJson(`./critical_path?${new URLSearchParams({ run, step: String(step) })}`, signal, onProgress);
}
