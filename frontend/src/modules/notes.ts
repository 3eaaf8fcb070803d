// Sentences of the Modules tab that depend only on the modules route's answer (no DOM), so
// that they can be unit-tested.

import { formatCount } from "../base/format";
import type { ModuleBackwardSteps } from "./types";

/** Which steps timed backward, where ModuleProfiler timed it on some steps only
 * (`backward_every_n_steps` > 1): the route scales backward's sums to all covered steps, so
 * its totals and shares are estimates from those steps. Null when every step timed it. */
export function backwardStepsNote(
  backwardSteps: readonly ModuleBackwardSteps[],
  ranks: number,
): string | null {
  if (backwardSteps.length === 0) return null;
  const counts = backwardSteps.map((s) => {
    const where = ranks > 1 ? ` on rank ${s.rank}` : "";
    return `${formatCount(s.timed)} of ${formatCount(s.steps)} steps${where}`;
  });
  return (
    `Backward timed on ${counts.join(", ")} (ModuleProfiler's backward_every_n_steps): ` +
    "its calls, totals and shares are scaled from those steps to all covered steps, and per " +
    "step it has values on those steps only."
  );
}
