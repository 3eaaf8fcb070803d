// JSON shapes every tab shares (docs/HTTP_API.md): the runs list and the 202 progress answer.
// Each tab's own answers are in its folder's types.ts.

export type RunStatus = "finished" | "live" | "stopped";

/** One job of a run directory that a script was run into more than once. */
export interface JobInfo {
  id: string;
  /** The run name its views are served under (the directory's own name for the newest). */
  run: string;
  started_unix_ns: number;
  ranks: number[];
}

export interface RunInfo {
  name: string;
  ranks: number[];
  sources: string[];
  updated_ns: number;
  status: RunStatus;
  /** The run directory's name: `name` unless this is an older job in it. */
  directory: string;
  job: string | null;
  /** Newest first; empty when the directory holds one job. */
  jobs: JobInfo[];
}

export interface Progress {
  done_bytes: number;
  total_bytes: number;
  fraction: number;
}
