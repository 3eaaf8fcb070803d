// The answer of the kernels route (docs/HTTP_API.md).

export type KernelGrouping = "name" | "operator";

export interface KernelRow {
  /** The full name: the kernel's identity. */
  name: string;
  /** The function's name, templates and parameters folded (what the table shows). */
  short_name: string;
  /** The operator that launched it ("" where the trace does not say); only grouped by operator. */
  operator?: string;
  calls: number;
  total_ns: number;
  /** null on rows of NCU kernels the trace does not have (`ncu_match` unmatched / ambiguous). */
  mean_ns: number | null;
  min_ns: number | null;
  max_ns: number | null;
  pct_of_kernel_time: number | null;
  tensor_cores: boolean;
  mean_blocks_per_sm: number | null;
  mean_est_occupancy_pct: number | null;
  est_sm_efficiency: number | null;
  /** Nsight Compute's per-launch metrics, averaged over the launches it profiled under this
   * name; present only when the run has an imported NCU CSV (null: ncu did not report it). */
  ncu_launches?: number;
  ncu_duration_ns?: number | null;
  ncu_sm_throughput_pct?: number | null;
  ncu_memory_throughput_pct?: number | null;
  ncu_achieved_occupancy_pct?: number | null;
  ncu_theoretical_occupancy_pct?: number | null;
  ncu_registers_per_thread?: number | null;
  /** How its NCU name matched: exact, name, base name; unmatched / ambiguous rows are NCU kernels
   * the trace has no (single) kernel for; "" when ncu did not profile it. */
  ncu_match?: string;
}

export interface NcuSummary {
  files: string[];
  launches: number;
  matched_kernels: number;
  unmatched: string[];
  ambiguous: string[];
}

export interface DeviceSeries {
  rank: number;
  trace: string;
  device: number;
  bucket_ns: number;
  start_ns: string[];
  utilization: number[];
  est_sm_efficiency: number[];
  tensor_core_pct: number;
}

export interface KernelsAnswer {
  run: string;
  rank: number | null;
  group_by: KernelGrouping;
  q: string | null;
  /** Rows before the `q` filter; `total_rows` after it. */
  kernels: number;
  total_rows: number;
  rows: KernelRow[];
  devices: DeviceSeries[];
  ncu: NcuSummary | null;
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}
