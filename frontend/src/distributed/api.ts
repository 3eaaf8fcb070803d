// Fetching the distributed route; it answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { DistributedAnswer } from "./types";

export function fetchDistributed(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<DistributedAnswer> {
  return getJson(`./distributed?${query(run, { rank })}`, signal, onProgress);
}
