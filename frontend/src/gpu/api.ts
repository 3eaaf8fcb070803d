// Fetching the gpu route; it answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { GpuAnswer } from "./types";

export function fetchGpu(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<GpuAnswer> {
  return getJson(`./gpu?${query(run, { rank })}`, signal, onProgress);
}
