// The `compare` route's answer (docs/HTTP_API.md): baseline versus candidate run.

import type { Severity } from "../panels/types";

export type Verdict = "slower" | "faster" | "no change" | "inconclusive";
export type DeltaStatus = "changed" | "new" | "vanished";

export interface StepTimeSide {
  steps: number;
  median_ns: number | null;
  p95_ns: number | null;
}

export interface StepTimeDiff {
  baseline: StepTimeSide;
  candidate: StepTimeSide;
  ratio: number | null;
  /** [null, null] when either run has fewer than two steps. */
  ci: [number | null, number | null];
  alpha: number;
  verdict: Verdict;
  steps_to_settle: number | null;
  /** median(candidate) − median(baseline), ns; null when either run has fewer than 2 steps. */
  median_delta_ns: number | null;
  headline: string;
}

export interface CategoryDelta {
  category: string;
  baseline_ns: number;
  candidate_ns: number;
  delta_ns: number;
}

export interface NamedDelta {
  name: string;
  baseline_ns: number | null;
  candidate_ns: number | null;
  delta_ns: number;
  /** Calls per traced step. */
  baseline_calls: number | null;
  candidate_calls: number | null;
  status: DeltaStatus;
}

export interface ModuleDelta {
  path: string;
  phase: string;
  baseline_ns: number | null;
  candidate_ns: number | null;
  delta_ns: number;
  status: DeltaStatus;
}

/** One metric of both runs; delta is candidate minus baseline (null unless both have it). */
export interface Side {
  baseline: number | null;
  candidate: number | null;
  delta: number | null;
}

/** A collective kind and process group in both runs (bandwidths in bytes per second). */
export interface CollectiveDelta {
  name: string;
  group: string | null;
  status: DeltaStatus;
  calls: { baseline: number | null; candidate: number | null };
  mean_ns: Side;
  algo_bandwidth: Side;
  bus_bandwidth: Side;
}

export interface BriefFinding {
  key: string;
  kind: string;
  severity: Severity;
  title: string;
}

export interface StepLink {
  run: string;
  step: number;
}

export interface CompareAnswer {
  baseline: string;
  candidate: string;
  ranks: { matched: number[]; baseline_world: number; candidate_world: number; note: string | null };
  step_time: StepTimeDiff;
  /** "breakdown" (trace categories) or "spans" (MyTimer's top-level spans); null if none. */
  category_source: string | null;
  /** Mean per step of each category (or top-level span) over the covered steps. */
  categories: CategoryDelta[];
  /**
   * Each run's median step in the same parts, then "(other)": the deltas add up to the median
   * difference (docs/DIFF.md, Attribution); empty when the runs' sources differ.
   */
  attribution: CategoryDelta[];
  /** The (rank, step) windows the traces cover: the divisor of the operator and kernel rows. */
  per_step: { baseline: number; candidate: number };
  operators: NamedDelta[];
  /** With the kernel's short name (`short_name`) beside its full one. */
  kernels: (NamedDelta & { short_name: string })[];
  modules: ModuleDelta[];
  operators_total: number;
  kernels_total: number;
  modules_total: number;
  collectives: CollectiveDelta[];
  collectives_total: number;
  memory: Record<string, Side>;
  gpu: Record<string, Side>;
  balance: {
    spread: Side;
    slowest_rank: { baseline: number | null; candidate: number | null };
    /** Median step time of each matched rank. */
    ranks: ({ rank: number } & Side)[];
  };
  findings: { appeared: BriefFinding[]; disappeared: BriefFinding[]; kept: BriefFinding[] };
  /** A typical step of each run (nearest its median), among the steps both runs have. */
  links: { baseline_step: StepLink | null; candidate_step: StepLink | null };
}
