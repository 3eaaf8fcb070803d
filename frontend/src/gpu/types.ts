// The answer of the gpu route (docs/HTTP_API.md).

import type { GpuSummary } from "../panels/gpuSummary";

export interface GpuDevice {
  index: number;
  name: string | null;
  bucket: number;
  t_ns: number[];
  util: (number | null)[] | null;
  mem_util: (number | null)[] | null;
  mem_used: (number | null)[] | null;
  mem_total: (number | null)[] | null;
  power_w: (number | null)[] | null;
  sm_clock_mhz: (number | null)[] | null;
  temp_c: (number | null)[] | null;
  pcie_tx: (number | null)[] | null;
  pcie_rx: (number | null)[] | null;
}

export interface RankSystem {
  rank: number;
  interval_s: number | null;
  gpu_backend: string | null;
  gpu_reason: string | null;
  bucket: number;
  t_ns: number[];
  cpu_pct: (number | null)[] | null;
  rss: (number | null)[] | null;
  devices: GpuDevice[];
  steps: { step: number[]; start_ns: number[]; every: number };
}

export interface GpuAnswer {
  run: string;
  rank: number | null;
  /** The traces' GPU summary per rank and device. */
  gpus: GpuSummary[];
  origin_ns: string;
  gpu_reason: string | null;
  ranks: RankSystem[];
  warnings: string[];
}
