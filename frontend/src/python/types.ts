// JSON shapes of the `python` route (docs/HTTP_API.md).

export interface PythonRow {
  /** As pstats prints it: `file:line(name)`, or `{built-in ...}` for C functions. */
  function: string;
  filename: string;
  line: number;
  name: string;
  builtin: boolean;
  calls: number;
  primitive_calls: number;
  self_ns: number;
  cumulative_ns: number;
  self_per_call_ns: number | null;
  cumulative_per_call_ns: number | null;
  /** Of the selected profiles' total time, 0..1. */
  self_share: number | null;
  cumulative_share: number | null;
  profiles: number;
}

export interface PythonFile {
  rank: number;
  file: string;
  total_ns: number;
  calls: number;
  primitive_calls: number;
}

export type PythonSort =
  | "self_ns"
  | "cumulative_ns"
  | "calls"
  | "primitive_calls"
  | "self_per_call_ns"
  | "cumulative_per_call_ns"
  | "function"
  | "name"
  | "filename";

export interface PythonAnswer {
  run: string;
  rank: number | null;
  sort: PythonSort;
  q: string | null;
  total_ns: number;
  calls: number;
  primitive_calls: number;
  /** Functions in the selected profiles; `total_rows` of them match `q`. */
  functions: number;
  total_rows: number;
  rows: PythonRow[];
  files: PythonFile[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}
