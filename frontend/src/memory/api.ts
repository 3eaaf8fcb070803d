// Fetching the memory and snapshot routes; each answers 202 with progress while loading.

import { getJson, type ProgressListener, runQuery as query } from "../base/api";
import type {
  AllocationDetails,
  MemoryAnswer,
  OperatorMemoryAnswer,
  SnapshotAnswer,
  SnapshotTile,
} from "./types";

export function fetchMemory(
  run: string,
  rank: number | null,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<MemoryAnswer> {
  return getJson(`./memory?${query(run, { rank })}`, signal, onProgress);
}

/** `start` and `end`: Unix ns on rank 0's clock, as decimal text (beyond a double's precision). */
export function fetchOperatorMemory(
  run: string,
  rank: number | null,
  device: string | null,
  range: { start: string; end: string } | null,
  signal: AbortSignal,
): Promise<OperatorMemoryAnswer> {
  const params = query(run, { rank, device, start: range?.start ?? null, end: range?.end ?? null });
  return getJson(`./memory/operators?${params}`, signal);
}

export function fetchSnapshot(
  run: string,
  file: string,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<SnapshotAnswer> {
  return getJson(`./snapshot?${query(run, { file })}`, signal, onProgress);
}

export function fetchSnapshotTile(
  run: string,
  file: string,
  device: number,
  start: number,
  end: number,
  widthPx: number,
  signal: AbortSignal,
): Promise<SnapshotTile> {
  const params = query(run, { file, device, start, end, width_px: widthPx });
  return getJson(`./snapshot/tile?${params}`, signal);
}

export function fetchAllocation(
  run: string,
  file: string,
  device: number,
  index: number,
  signal: AbortSignal,
): Promise<AllocationDetails> {
  return getJson(`./snapshot/allocation?${query(run, { file, device, index })}`, signal);
}
