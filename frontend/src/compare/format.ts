// Signed deltas: "+" where the candidate takes more, "−" where it takes less.

import { formatDuration } from "../base/format";

export function signedDuration(ns: number | null): string {
  if (ns === null || !Number.isFinite(ns)) return "—";
  if (ns === 0) return "±0";
  return `${ns > 0 ? "+" : "−"}${formatDuration(Math.abs(ns))}`;
}

/** "worse" / "better" for styling: more time is worse. */
export function deltaClass(ns: number | null): string | undefined {
  if (ns === null || ns === 0) return undefined;
  return ns > 0 ? "delta-worse" : "delta-better";
}
