// The answer of the summary route (docs/HTTP_API.md).

import type { RunStatus } from "../base/types";
import type { GpuSummary } from "../panels/gpuSummary";
import type { DistributedBrief } from "../panels/types";

export interface StepTimeStats {
  mean: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
  total: number;
}

export interface RankSummary {
  rank: number;
  /** Null for a trace-only rank whose file name does not carry the host. */
  host: string | null;
  pid: number | null;
  world_size: number | null;
  status: RunStatus;
  steps: number;
  /** Where the steps come from; null without steps. */
  step_source: "MyTimer" | "ProfilerStep" | null;
  /** Null-tolerant: a rank that has not completed a step has no statistics. */
  step_time_ns: StepTimeStats | null;
  /** ProfilerStep windows extended to their device work; null for MyTimer's steps. */
  device_step_time_ns: StepTimeStats | null;
  /** FlopsCounter's numbers; null when the rank did not count FLOPs. */
  compute: RankCompute | null;
  /** torch.compile activity; null when neither CompileMonitor nor traces show any. */
  compile: RankCompile | null;
}

export interface RankCompute {
  flops_per_step: number;
  peak_tflops: number | null;
  peak_source: string | null;
  dtype: string | null;
  steps: number;
  achieved_tflops: number | null;
  mfu: number | null;
}

export interface RankCompile {
  source: "CompileMonitor" | "trace";
  compile_ns: number;
  graphs: number;
  graph_breaks: number | null;
  recompiles: number;
  limit_hits: number | null;
  break_reasons: { reason: string; count: number }[];
  recompile_reasons: { function: string; reason: string; count: number }[];
}

export interface StepSeries {
  rank: number;
  steps: number[];
  time_ns: number[];
  bucket: number;
}

export interface SpanRow {
  name: string;
  calls: number;
  total_ns: number;
  self_ns: number;
  mean_ns: number;
  p50_ns: number;
  p95_ns: number;
  pct_of_step: number | null;
  gpu_total_ns: number | null;
}

/** One rank's execution summary: the breakdown's categories per step (shares 0..1). */
export interface RankExecution {
  rank: number;
  steps: number;
  step_ns: number;
  categories: Record<string, { ns_per_step: number; share: number }>;
}

export interface Summary {
  run: string;
  rank: number | null;
  ranks: RankSummary[];
  steps: { count: number; first: number | null; last: number | null };
  step_series: StepSeries[];
  spans: SpanRow[];
  spans_truncated: boolean;
  /** Why there are no spans; null when there are. */
  spans_empty_reason: string | null;
  /** Why the run has no traces or collector steps to show (a run of snapshots alone, say);
   * null when it has some. */
  empty_reason: string | null;
  /** The tab that shows what such a run holds ("memory"), or null. */
  empty_view: string | null;
  gpus: GpuSummary[];
  execution_summary: RankExecution[];
  /** Per rank computation and communication, per collective bytes and bandwidth; null for a
   * run of one rank without collectives. */
  distributed: DistributedBrief | null;
  warnings: string[];
}
