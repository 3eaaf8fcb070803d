// Fetching the operators route; it answers 202 with progress while the run is ingested.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type { Grouping, OperatorsAnswer } from "./types";

export function fetchOperators(
  run: string,
  rank: number | null,
  groupBy: Grouping,
  limit: number,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<OperatorsAnswer> {
  const url = `./operators?${query(run, { rank, group_by: groupBy, limit })}`;
  return getJson(url, signal, onProgress);
}
