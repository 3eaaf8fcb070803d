// Answers of the modules and module_steps routes (docs/HTTP_API.md).

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

/** A rank whose backward was timed on `timed` of its `steps` covered steps only. */
export interface ModuleBackwardSteps {
  rank: number;
  timed: number;
  steps: number;
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
  /** Ranks whose backward was timed on some steps only; [] when on all (docs/HTTP_API.md). */
  backward_steps: ModuleBackwardSteps[];
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
