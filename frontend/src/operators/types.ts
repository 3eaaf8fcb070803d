// The answer of the operators route (docs/HTTP_API.md).

/** What a row is per besides the operator's name (the route's `group_by`). */
export type Grouping = "name" | "input_dims" | "call_stack";

export interface OperatorRow {
  name: string;
  input_dims: string;
  /** Grouped by call stack: its frames, innermost first; [] otherwise or without one. */
  call_stack: string[];
  /** The innermost frame of the user's own code in `call_stack` ("" without one). */
  user_frame: string;
  annotation: boolean;
  calls: number;
  host_total_ns: number;
  host_self_ns: number;
  device_total_ns: number;
  device_self_ns: number;
  /** Of the matmul / conv / attention family that can run on Tensor Cores (a name guess). */
  tensor_core_eligible: boolean;
  /** Share (0..1) of its device self / total time in Tensor-Core kernels; null without any. */
  tensor_core_self_share: number | null;
  tensor_core_total_share: number | null;
}

export interface OperatorsAnswer {
  run: string;
  rank: number | null;
  group_by: Grouping;
  total_rows: number;
  rows: OperatorRow[];
  /** Device time no operator launched, as far as the traces show, and its share (0..1). */
  unattributed_device: { device_ns: number; share: number | null };
  warnings: string[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}
