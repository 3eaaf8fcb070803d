// Fetching the `compare` route; it answers 202 with progress while either run is ingested.

import { getJson, type ProgressListener } from "../base/api";
import type { CompareAnswer } from "./types";

export function fetchCompare(
  baseline: string,
  candidate: string,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<CompareAnswer> {
  const query = new URLSearchParams({ baseline, candidate });
  return getJson(`./compare?${query}`, signal, onProgress);
}
