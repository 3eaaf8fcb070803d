// How each rank's clock was put on rank 0's, in words for the rank header and its tooltip.

import { formatDuration } from "../base/format";
import type { Alignment, AlignmentMethod } from "./types";

const METHOD_EXPLANATIONS: Record<AlignmentMethod, string> = {
  clock_sync: "The collectors measured this rank's clock offset to rank 0.",
  collectives: "Offset fitted so that the same collectives end together on every rank.",
  steps: "Offset chosen so that this rank's step boundaries line up with the other ranks'.",
  reference: "Rank 0's own clock: the reference the other ranks are aligned to.",
  none: "Not aligned: no clock sync, collectives or steps to align with.",
};

/** Short form for the rank header: "collectives ±4.20 µs". */
export function alignmentSummary(alignment: Alignment): string {
  const { method, uncertainty_ns: uncertainty } = alignment;
  return method === "reference" || method === "none"
    ? method
    : `${method} ±${formatDuration(uncertainty)}`;
}

/** The tooltip: what the method means and the numbers it produced. */
export function alignmentDetails(alignment: Alignment): string[] {
  const lines = [METHOD_EXPLANATIONS[alignment.method] ?? alignment.method];
  if (alignment.method !== "reference" && alignment.method !== "none") {
    lines.push(
      `Offset added to this rank's clock: ${formatDuration(alignment.offset_ns)}.`,
      `Remaining error at most ±${formatDuration(alignment.uncertainty_ns)}.`,
    );
    if (alignment.method === "collectives" || alignment.method === "steps") {
      const setAside = alignment.outliers ? `, ${alignment.outliers} set aside as outliers` : "";
      lines.push(`Fitted on ${alignment.pairs} matched pairs${setAside}.`);
    }
    if (alignment.drift_ns_per_s !== null) {
      lines.push(`Clock drift corrected: ${formatDuration(alignment.drift_ns_per_s)} per s.`);
    }
  }
  return lines;
}
