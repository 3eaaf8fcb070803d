// Time-axis ticks at 1/2/5 × 10^k ns. Labels count from the run start; when they would need many
// digits (deep zoom late in a run) they count from a round "base" time shown once at the left.

const UNITS: readonly [number, string][] = [
  [1e9, "s"],
  [1e6, "ms"],
  [1e3, "µs"],
  [1, "ns"],
];
const MAX_LABEL_STEPS = 10_000;

export interface TimeAxis {
  /** Relative ns of each tick. */
  ticks: number[];
  /** Tick labels, relative to `base`. */
  labels: string[];
  /** Run-relative time the labels count from, or null when they count from the run start. */
  baseLabel: string | null;
}

function niceStep(rough: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= rough) ?? 10 * magnitude;
}

function unitFor(ns: number): [number, string] {
  return UNITS.find(([scale]) => ns >= scale) ?? [1, "ns"];
}

/** Enough decimals to tell apart multiples of `step` in `scale` units. */
function decimalsFor(step: number, scale: number): number {
  return Math.max(0, Math.ceil(-Math.log10(step / scale) - 1e-9));
}

/**
 * Ticks for [start, end) over `widthPx`, about one per `pxPerTick`, labelled relative to `zero`
 * (the run start).
 */
export function timeAxis(
  start: number,
  end: number,
  widthPx: number,
  pxPerTick: number,
  zero: number,
): TimeAxis {
  const step = Math.max(1, niceStep(((end - start) / Math.max(1, widthPx)) * pxPerTick));
  const first = Math.ceil((start - zero) / step) * step;
  // Counting from the run start costs too many digits once we are deep into it.
  const needsBase = Math.abs(first) / step > MAX_LABEL_STEPS;
  const baseStep = step * 100;
  const base = needsBase ? Math.floor(first / baseStep) * baseStep : 0;
  const ticks: number[] = [];
  for (let t = first; zero + t < end; t += step) ticks.push(t);
  // One unit for all labels, the one that suits the largest; as many decimals as the step needs.
  const largest = Math.max(step, ...ticks.map((t) => Math.abs(t - base)));
  const [scale, unit] = unitFor(largest);
  const decimals = decimalsFor(step, scale);
  const labels = ticks.map((t) => `${needsBase ? "+" : ""}${((t - base) / scale).toFixed(decimals)} ${unit}`);
  let baseLabel: string | null = null;
  if (needsBase) {
    const [baseScale, baseUnit] = unitFor(Math.abs(base) || 1);
    baseLabel = `${(base / baseScale).toFixed(decimalsFor(baseStep, baseScale))} ${baseUnit}`;
  }
  return { ticks: ticks.map((t) => zero + t), labels, baseLabel };
}
