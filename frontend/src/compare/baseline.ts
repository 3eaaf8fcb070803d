// The baseline the Compare tab opens with when the user has not picked one: the most similar
// earlier run, else none (the tab then asks for one). Never the alphabetically first run: a
// run of another world size, or a newer one, makes a misleading default comparison.

/** What the choice reads of each run (the `runs` route's fields). */
export interface BaselineCandidate {
  name: string;
  ranks: readonly number[];
  updated_ns: number;
}

/**
 * The run with the same number of ranks as `candidate`, updated before it, nearest it in
 * time (of equals, the first by name); null when there is none or `candidate` is unknown.
 */
export function defaultBaseline(
  runs: readonly BaselineCandidate[],
  candidate: string,
): string | null {
  const target = runs.find((run) => run.name === candidate);
  if (target === undefined) return null;
  let best: BaselineCandidate | null = null;
  for (const run of runs) {
    if (run.name === candidate || run.ranks.length !== target.ranks.length) continue;
    if (run.updated_ns >= target.updated_ns) continue;
    if (
      best === null ||
      run.updated_ns > best.updated_ns ||
      (run.updated_ns === best.updated_ns && run.name < best.name)
    ) {
      best = run;
    }
  }
  return best === null ? null : best.name;
}
