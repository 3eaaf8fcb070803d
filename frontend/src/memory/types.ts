// Answers of the memory and snapshot routes (docs/HTTP_API.md).

import type { Finding } from "../panels/types";

export interface MemoryTrend {
  series: "allocated" | "rss";
  slope: number;
  low: number;
  high: number;
  p_value: number;
  first_step: number;
  last_step: number;
  start_level: number;
  end_level: number;
  leak: boolean;
}

export interface RankMemory {
  rank: number;
  device: string;
  /** "MemorySampler", or "trace": the memory events of its torch.profiler traces, per step. */
  source: "MemorySampler" | "trace";
  device_total: number | null;
  reset_peak: boolean;
  bucket: number;
  steps: number[];
  t_ns: number[];
  allocated: (number | null)[] | null;
  reserved: (number | null)[] | null;
  peak: (number | null)[] | null;
  rss: (number | null)[] | null;
  trend: MemoryTrend | null;
  fragmentation: {
    unused_fraction: number;
    unused: number;
    reserved: number;
    peak: number;
    retries: number;
  } | null;
  max_peak: { bytes: number; step: number; share: number | null; ooms: number } | null;
}

export interface SnapshotFile {
  file: string;
  rank: number | null;
  bytes: number;
  updated_ns: number;
}

export interface MemoryAnswer {
  run: string;
  rank: number | null;
  origin_ns: string;
  ranks: RankMemory[];
  findings: Finding[];
  snapshots: SnapshotFile[];
  warnings: string[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}

export interface Frame {
  filename: string;
  line: number;
  name: string;
}

export interface Allocation {
  index: number;
  addr: number;
  size: number;
  t_alloc: number;
  t_free: number;
  allocated_before_trace: boolean;
  live_at_snapshot: boolean;
  first_user_frame: Frame | null;
  /** The stack's first frames, innermost first (bounded); `more_frames` more were left out. */
  frames: Frame[];
  more_frames: number;
}

export interface AllocationDetails extends Allocation {
  device: number;
  time_unit: "ns" | "index";
  stream: number;
  t_free_requested: number | null;
  lifetime: number;
  free_frames: Frame[];
  more_free_frames: number;
}

export interface FrameGroup {
  frame: Frame | null;
  label: string;
  peak_bytes: number;
  peak_count: number;
  snapshot_bytes: number;
  snapshot_count: number;
  trace_bytes: number;
  trace_count: number;
}

export interface SnapshotDevice {
  device: number;
  reserved_bytes: number;
  allocated_bytes: number;
  time: { start: number; end: number } | null;
  peak: { live_bytes: number; reserved_bytes: number; t_ns: number };
  allocations: number;
  largest_at_peak: Allocation[];
  by_first_user_frame: FrameGroup[];
  frames_total: number;
}

export interface SnapshotAnswer {
  run: string;
  file: string;
  rank: number | null;
  origin_ns: string;
  format: string;
  time_unit: "ns" | "index";
  reserved_bytes: number;
  allocated_bytes: number;
  fragmentation: {
    free_bytes: number;
    free_fraction: number;
    largest_free_block: number;
    external: number;
  };
  trace_entries: Record<string, number>;
  time: { start: number; end: number } | null;
  devices: SnapshotDevice[];
}

export interface SnapshotTile {
  device: number;
  time_unit: "ns" | "index";
  start: number;
  end: number;
  width_px: number;
  ns_per_px: number;
  visible: number;
  drawn: number;
  merged: number;
  labels: string[];
  bands: {
    id: number[];
    size: number[];
    start: number[];
    end: number[];
    y0: number[];
    label: number[];
    steps: number[];
  };
  steps: { px: number[]; y: number[] };
  pixels: { total_max: number[]; drawn_max: number[] };
}

/** One row of the `memory/operators` route: an operator's memory events on one device. */
export interface OperatorMemoryRow {
  name: string;
  device: string;
  annotation: boolean;
  calls: number;
  allocations: number;
  allocation_bytes: number;
  frees: number;
  free_bytes: number;
  increase_bytes: number;
  self_allocations: number;
  self_allocation_bytes: number;
  self_increase_bytes: number;
  peak_bytes: number | null;
}

export interface OperatorMemoryAnswer {
  run: string;
  rank: number | null;
  devices: string[];
  device: string | null;
  start_ns: string | null;
  end_ns: string | null;
  total_rows: number;
  rows: OperatorMemoryRow[];
  empty_reason: string | null;
}
