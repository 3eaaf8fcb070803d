// JSON shapes every tab shares (docs/HTTP_API.md): the runs list, the logdir's notices and
// the 202 progress answer.
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

/** A path of the logdir left out of every run (a link out of it, a folder not listable). */
export interface LogdirNotice {
  /** Relative to the logdir, `/`-separated. */
  path: string;
  kind: "outside_link" | "broken_link" | "unlistable" | "not_read";
  message: string;
}

export interface NoticesAnswer {
  notices: LogdirNotice[];
  /** All of them; `notices` lists at most 50. */
  total: number;
}

export interface Progress {
  done_bytes: number;
  total_bytes: number;
  fraction: number;
}
