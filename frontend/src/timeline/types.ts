// JSON shapes of the timeline routes (docs/HTTP_API.md, "Timeline"). Every time is an integer
// number of nanoseconds relative to the run's `origin_ns`.

export type AlignmentMethod = "clock_sync" | "collectives" | "steps" | "reference" | "none";

export interface Alignment {
  method: AlignmentMethod;
  offset_ns: number;
  uncertainty_ns: number;
  drift_ns_per_s: number | null;
  /** Matched collectives or steps behind a fitted alignment (clock-sync rounds for clock_sync). */
  pairs: number;
  /** Pairs the fit set aside as too far off. */
  outliers: number;
}

export type LaneKind = "spans" | "cpu" | "gpu" | "counter";

export interface LaneMeta {
  id: string;
  label: string;
  kind: LaneKind;
  /** Nesting depth to reserve; 1 for counters. */
  rows: number;
}

export interface RankMeta {
  rank: number;
  alignment: Alignment;
  lanes: LaneMeta[];
}

export interface StepExtent {
  step: number;
  start: number;
  end: number;
}

/** A stretch of time the run recorded events in (docs/HTTP_API.md, `windows`). */
export interface RecordedWindow {
  start_ns: number;
  end_ns: number;
  label: string;
  source: "trace" | "spans" | "spans+trace";
  /** Base names of the trace files with events in it, earliest first. */
  files: string[];
}

export interface TimelineMeta {
  run: string;
  /** Epoch ns as a decimal string: too large for a JS number. */
  origin_ns: string;
  start: number;
  end: number;
  ranks: RankMeta[];
  steps: StepExtent[];
  /** In time order; nothing was recorded between two of them. */
  windows: RecordedWindow[];
  events: number;
}

/** Columnar: one entry per box in each array. */
export interface BoxColumns {
  start: number[];
  dur: number[];
  row: number[];
  /** Index into the tile's `names`. */
  name: number[];
  /** 1 for a single event; > 1 for a summary of that many merged events. */
  count: number[];
  /** The event id of a single event; -1 for a summary box. */
  id: number[];
}

export interface EventRef {
  rank: number;
  id: number;
}

export interface TileResponse {
  start: number;
  end: number;
  ns_per_px: number;
  names: string[];
  lanes: { id: string; boxes: BoxColumns }[];
  counters: CounterSeries[];
  flows: TileFlow[];
}

export interface CounterSeries {
  id: string;
  t: number[];
  value: number[];
}

export interface TileFlow {
  from: EventRef;
  to: EventRef;
  from_lane: string;
  to_lane: string;
  start: number;
  end: number;
}

export type EventKind =
  | "span"
  | "cpu_op"
  | "user_annotation"
  | "python_function"
  | "runtime"
  | "kernel"
  | "memcpy"
  | "memset"
  | "gpu_annotation"
  | "other";

export interface FlowEnd extends EventRef {
  lane: string;
  start: number;
}

export interface TimelineEvent extends EventRef {
  lane: string;
  name: string;
  kind: EventKind;
  start: number;
  dur: number;
  row: number;
  step: number | null;
  args: Record<string, unknown>;
  flow: FlowEnd | null;
}

export interface SearchMatch extends EventRef {
  lane: string;
  name: string;
  start: number;
  dur: number;
}

export interface SearchResult {
  total: number;
  matches: SearchMatch[];
}

/** One event of a step's critical path in the Timeline's coordinates (route `critical_path`). */
export interface CriticalPathEvent {
  rank: number;
  id: number;
  lane: string;
  row: number;
  start: number;
  dur: number;
  /** The path time this event carries. */
  path_ns: number;
}

/** Route `critical_path` with `step`: the step's path (only the fields the Timeline reads). */
export interface CriticalPathStep {
  step: number;
  rank: number;
  duration_ns: number;
  length_ns: number;
  share_of_step: number | null;
  by_category: { category: string; ns: number; share: number }[];
  timeline: CriticalPathEvent[];
}
