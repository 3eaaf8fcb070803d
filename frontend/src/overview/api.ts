// Fetching the summary route; it answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener } from "../base/api";
import type { Summary } from "./types";

export function fetchSummary(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<Summary> {
  const params = new URLSearchParams({ run });
  if (rank !== null) params.set("rank", String(rank));
  return getJson<Summary>(`./summary?${params}`, signal, onProgress);
}
