// The answer of the operators route (docs/HTTP_API.md).

export interface OperatorRow {
  name: string;
  input_dims: string;
  annotation: boolean;
  calls: number;
  host_total_ns: number;
  host_self_ns: number;
  device_total_ns: number;
  device_self_ns: number;
}

export interface OperatorsAnswer {
  run: string;
  rank: number | null;
  group_by: "name" | "input_dims";
  total_rows: number;
  rows: OperatorRow[];
  /** Why the list is empty (a sentence), null when it is not (docs/HTTP_API.md). */
  empty_reason: string | null;
}
