// Fetching the findings and breakdown routes; each answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { BreakdownAnswer, FindingsAnswer } from "./types";

export function fetchFindings(
  run: string,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<FindingsAnswer> {
  return getJson(`./findings?${query(run)}`, signal, onProgress);
}

export function fetchBreakdown(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<BreakdownAnswer> {
  return getJson(`./breakdown?${query(run, { rank })}`, signal, onProgress);
}
