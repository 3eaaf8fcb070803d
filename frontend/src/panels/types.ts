// Answers of the routes behind the shared panels (docs/HTTP_API.md: findings, breakdown).

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
  /** The key of the finding whose cause this one is a symptom of; null when none is. */
  explained_by: string | null;
  /** The step time a perfect fix would save (null: not step time; `basis` says why). */
  impact: { ns_per_step: number | null; share_of_step: number | null; basis: string } | null;
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

/** A rank's (or step's) time split of the distributed view (docs/HTTP_API.md, distributed). */
export interface RankSplit {
  rank: number;
  computation_ns: number;
  overlap_ns: number;
  exposed_ns: number;
  other_ns: number;
}

/** A collective kind and process group, across ranks (bandwidths in bytes per second). */
export interface CollectiveBrief {
  name: string;
  group: string | null;
  calls: number;
  bytes: number | null;
  total_ns: number;
  mean_ns: number;
  algo_bandwidth: number | null;
  bus_bandwidth: number | null;
  slowest_rank: number;
}

/** The summary's `distributed`: null for a run of one rank without collectives. */
export interface DistributedBrief {
  ranks: RankSplit[];
  collectives: CollectiveBrief[];
  point_to_point: CollectiveBrief[];
}
