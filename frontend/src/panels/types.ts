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
