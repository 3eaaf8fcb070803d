// Number formatting shared by tables, charts and tooltips.

const NS_PER_US = 1e3;
const NS_PER_MS = 1e6;
const NS_PER_S = 1e9;

const countFormat = new Intl.NumberFormat("en-US");

/** About three significant digits: enough to compare timings, few enough to scan a column. */
function threeDigits(value: number): string {
  const magnitude = Math.abs(value);
  const decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return new Intl.NumberFormat("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}

/** Nanoseconds to the unit that keeps the number short: ns, µs, ms or s. */
export function formatDuration(ns: number | null | undefined): string {
  if (ns === null || ns === undefined || !Number.isFinite(ns)) return "—";
  const magnitude = Math.abs(ns);
  if (magnitude >= NS_PER_S) return `${threeDigits(ns / NS_PER_S)} s`;
  if (magnitude >= NS_PER_MS) return `${threeDigits(ns / NS_PER_MS)} ms`;
  if (magnitude >= NS_PER_US) return `${threeDigits(ns / NS_PER_US)} µs`;
  return `${Math.round(ns)} ns`;
}

const DURATION_UNITS: readonly [number, string][] = [
  [NS_PER_S, "s"],
  [NS_PER_MS, "ms"],
  [NS_PER_US, "µs"],
  [1, "ns"],
];

/** Axis labels in one shared unit, with just the decimals the tick spacing needs ("20 ms", not "20.0 ms"). */
export function durationTickFormat(ticks: readonly number[]): (ns: number) => string {
  const largest = Math.max(0, ...ticks.map(Math.abs));
  const [scale, unit] = DURATION_UNITS.find(([s]) => largest >= s) ?? [1, "ns"];
  const spacing = ticks.length > 1 ? Math.abs((ticks[1] ?? 0) - (ticks[0] ?? 0)) / scale : 1;
  const decimals = Math.min(3, Math.max(0, -Math.floor(Math.log10(spacing))));
  return (ns) => `${(ns / scale).toFixed(decimals)} ${unit}`;
}

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : countFormat.format(value);
}

export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  // A tiny but non-zero share should not read as nothing at all.
  if (value > 0 && value < 0.05) return "<0.1 %";
  return `${value.toFixed(1)} %`;
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${threeDigits(value)} ${units[unit]}`;
}

/** A point in time (ns from some start) to the nanosecond, in the unit that fits its size. */
export function formatTimestamp(ns: number): string {
  const [scale, unit] = DURATION_UNITS.find(([s]) => Math.abs(ns) >= s) ?? [1, "ns"];
  const decimals = Math.round(Math.log10(scale));
  return `${(ns / scale).toFixed(decimals)} ${unit}`;
}

const IEC_UNITS: readonly [number, string][] = [
  [1024 ** 4, "TiB"],
  [1024 ** 3, "GiB"],
  [1024 ** 2, "MiB"],
  [1024, "KiB"],
  [1, "B"],
];

/** Memory in binary units, as allocators and nvidia-smi count it (1.00 MiB = 1048576 B). */
export function formatMemory(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  const [scale, unit] = IEC_UNITS.find(([s]) => Math.abs(bytes) >= s) ?? [1, "B"];
  return scale === 1 ? `${Math.round(bytes)} B` : `${threeDigits(bytes / scale)} ${unit}`;
}

/** Memory axis labels in one shared binary unit, with the decimals the tick spacing needs. */
export function memoryTickFormat(ticks: readonly number[]): (bytes: number) => string {
  const largest = Math.max(0, ...ticks.map(Math.abs));
  const [scale, unit] = IEC_UNITS.find(([s]) => largest >= s) ?? [1, "B"];
  const spacing = ticks.length > 1 ? Math.abs((ticks[1] ?? 0) - (ticks[0] ?? 0)) / scale : 1;
  const decimals = Math.min(3, Math.max(0, -Math.floor(Math.log10(spacing))));
  return (bytes) => `${(bytes / scale).toFixed(decimals)} ${unit}`;
}

/** Plain numbers on an axis (%, W, MHz, °C), with the decimals the tick spacing needs. */
export function numberTickFormat(suffix: string): (ticks: readonly number[]) => (v: number) => string {
  return (ticks) => {
    const spacing = ticks.length > 1 ? Math.abs((ticks[1] ?? 0) - (ticks[0] ?? 0)) : 1;
    const decimals = Math.min(3, Math.max(0, -Math.floor(Math.log10(spacing || 1))));
    return (v) => `${v.toFixed(decimals)}${suffix}`;
  };
}
