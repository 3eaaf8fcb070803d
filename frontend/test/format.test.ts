// base/format.ts and compare/format.ts: the units, digits and dashes every table and axis shows.

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  durationTickFormat,
  formatBytes,
  formatCount,
  formatDuration,
  formatMemory,
  formatPercent,
  formatTimestamp,
  memoryTickFormat,
  numberTickFormat,
} from "../src/base/format";
import { deltaClass, signedDuration } from "../src/compare/format";

test("formatDuration picks the unit that keeps about three digits", () => {
  assert.equal(formatDuration(999), "999 ns");
  assert.equal(formatDuration(1500), "1.50 µs");
  assert.equal(formatDuration(12_345_678), "12.3 ms");
  assert.equal(formatDuration(123_456_789), "123 ms");
  assert.equal(formatDuration(2.5e9), "2.50 s");
  assert.equal(formatDuration(-1500), "-1.50 µs");
});

test("formatDuration shows a dash for no value", () => {
  assert.equal(formatDuration(null), "—");
  assert.equal(formatDuration(undefined), "—");
  assert.equal(formatDuration(Number.NaN), "—");
  assert.equal(formatDuration(Infinity), "—");
});

test("durationTickFormat uses one unit and only the decimals the spacing needs", () => {
  const whole = durationTickFormat([0, 20e6, 40e6]);
  assert.equal(whole(20e6), "20 ms");
  assert.equal(whole(0), "0 ms");
  const fine = durationTickFormat([0, 0.5e6, 1e6]);
  assert.equal(fine(0.5e6), "0.5 ms");
  assert.equal(fine(1e6), "1.0 ms");
});

test("counts, percents and bytes", () => {
  assert.equal(formatCount(1_234_567), "1,234,567");
  assert.equal(formatCount(null), "—");
  assert.equal(formatPercent(12.345), "12.3 %");
  assert.equal(formatPercent(0), "0.0 %");
  assert.equal(formatPercent(0.01), "<0.1 %", "a tiny share must not read as nothing");
  assert.equal(formatPercent(null), "—");
  assert.equal(formatBytes(999), "999 B");
  assert.equal(formatBytes(1500), "1.50 KB");
  assert.equal(formatBytes(2_000_000_000), "2.00 GB");
});

test("formatTimestamp keeps the nanosecond in the unit of its size", () => {
  assert.equal(formatTimestamp(1_500_000), "1.500000 ms");
  assert.equal(formatTimestamp(2_000_000_001), "2.000000001 s");
  assert.equal(formatTimestamp(42), "42 ns");
  assert.equal(formatTimestamp(0), "0 ns");
});

test("formatMemory counts in binary units", () => {
  assert.equal(formatMemory(1_048_576), "1.00 MiB");
  assert.equal(formatMemory(1536), "1.50 KiB");
  assert.equal(formatMemory(512), "512 B");
  assert.equal(formatMemory(80 * 1024 ** 3), "80.0 GiB");
  assert.equal(formatMemory(null), "—");
});

test("memory and plain-number axis labels", () => {
  const gib = memoryTickFormat([0, 512 * 1024 ** 2, 1024 ** 3]);
  assert.equal(gib(512 * 1024 ** 2), "0.5 GiB");
  assert.equal(gib(1024 ** 3), "1.0 GiB");
  assert.equal(numberTickFormat("%")([0, 25, 50])(25), "25%");
  assert.equal(numberTickFormat(" W")([0, 0.5, 1])(0.5), "0.5 W");
});

test("signed deltas: + where the candidate takes more, − where less", () => {
  assert.equal(signedDuration(1500), "+1.50 µs");
  assert.equal(signedDuration(-2e6), "−2.00 ms");
  assert.equal(signedDuration(0), "±0");
  assert.equal(signedDuration(null), "—");
  assert.equal(deltaClass(5), "delta-worse");
  assert.equal(deltaClass(-5), "delta-better");
  assert.equal(deltaClass(0), undefined);
  assert.equal(deltaClass(null), undefined);
});
