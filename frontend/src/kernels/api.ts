// Fetching the kernels route; it answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { KernelsAnswer } from "./types";

export function fetchKernels(
  run: string,
  rank: number | null,
  limit: number,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<KernelsAnswer> {
  return getJson(`./kernels?${query(run, { rank, limit })}`, signal, onProgress);
}
