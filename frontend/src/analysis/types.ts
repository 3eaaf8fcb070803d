// Answers of the analysis routes (docs/HTTP_API.md: findings, breakdown, operators, kernels,
// modules, module_steps).

export type Severity = "info" | "warning" | "critical";

export interface FindingView {
  tab: string;
  params: Record<string, string | number | null>;
}

export interface Finding {
  key: string;
  kind: string;
  severity: Severity;
  title: string;
  evidence: Record<string, { value: number | string; unit: string }>;
  recommendation: string;
  view: FindingView;
  ranks: number[];
  steps: number[];
  time_range_ns: [string, string] | null;
  schema_version: number;
}

export interface FindingsAnswer {
  run: string;
  findings: Finding[];
}

export interface StepBreakdown {
  step: number | null;
  start_ns: string;
  duration_ns: number;
  ns: Record<string, number>;
  communication_exposed_ns: number;
  communication_total_ns: number;
  overlap_ns: number;
}

export interface BreakdownAnswer {
  run: string;
  categories: string[];
  ranks: { rank: number; steps: StepBreakdown[] }[];
}

export interface OperatorRow {
  name: string;
  input_dims: string;
  annotation: boolean;
  calls: number;
  host_total_ns: number;
  host_self_ns: number;
  device_total_ns: number;
  device_self_ns: number;
}

export interface OperatorsAnswer {
  run: string;
  rank: number | null;
  group_by: "name" | "input_dims";
  total_rows: number;
  rows: OperatorRow[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}

export interface KernelRow {
  name: string;
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
  total_rows: number;
  rows: KernelRow[];
  devices: DeviceSeries[];
  ncu: NcuSummary | null;
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}

export type ModulePhase = "forward" | "backward" | "total";

/** One module's numbers in one phase (null fields: not measured, see docs/HTTP_API.md). */
export interface ModulePhaseStats {
  calls: number;
  total_ns: number;
  self_ns: number;
  mean_ns: number | null;
  median_ns: number | null;
  std_ns: number | null;
  p95_ns: number | null;
  pct_of_step: number | null;
  gpu_total_ns: number | null;
  gpu_mean_ns: number | null;
}

export interface ModuleRow {
  path: string;
  name: string;
  type: string;
  parent: string | null;
  depth: number;
  params: number | null;
  forward: ModulePhaseStats | null;
  backward: ModulePhaseStats | null;
  total: ModulePhaseStats | null;
}

export interface ModuleStepTime {
  rank: number;
  steps: number;
  step_time_ns: number | null;
}

/** How ModuleProfiler ran on `ranks` (docs/HTTP_API.md, `modules` route, `settings`). */
export interface ModuleSettings {
  ranks: number[];
  backward: boolean;
  every_n_steps: number;
  aggregate_steps: number;
  gpu: string | null;
  compiled: string | null;
  max_depth: number | null;
  include: string[];
  exclude: string[];
}

export interface ModulesAnswer {
  run: string;
  rank: number | null;
  source: "collector" | "trace" | null;
  class_names: boolean;
  phases: ModulePhase[];
  device: boolean;
  settings: ModuleSettings[];
  steps: ModuleStepTime[];
  total_rows: number;
  rows: ModuleRow[];
  warnings: string[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}

export interface ModuleStepSeries {
  rank: number;
  steps: number[];
  host_ns: (number | null)[];
  device_ns: (number | null)[] | null;
  bucket: number;
}

export interface ModuleStepsAnswer {
  run: string;
  rank: number | null;
  path: string;
  phase: ModulePhase;
  source: "collector" | "trace" | null;
  series: ModuleStepSeries[];
  shapes: { inputs: unknown; output: unknown } | null;
}
