// Fetching the kernels route; it answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { KernelGrouping, KernelsAnswer } from "./types";

/** Which kernels: those whose name holds `q`, one row per name or per name and operator. */
export interface KernelFilter {
  q?: string;
  groupBy?: KernelGrouping;
}

export function fetchKernels(
  run: string,
  rank: number | null,
  limit: number,
  signal: AbortSignal,
  onProgress?: ProgressListener,
  filter: KernelFilter = {},
): Promise<KernelsAnswer> {
  const q = filter.q ? filter.q : null;
  const groupBy = filter.groupBy === "operator" ? "operator" : null;
  return getJson(`./kernels?${query(run, { rank, limit, q, group_by: groupBy })}`, signal, onProgress);
}
