// compare/baseline.ts: the Compare tab's default baseline is the most similar earlier run.

import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultBaseline } from "../src/compare/baseline";

const run = (name: string, ranks: number, updated_ns: number) => ({
  name,
  ranks: Array.from({ length: ranks }, (_, i) => i),
  updated_ns,
});

test("the nearest earlier run of the same world size", () => {
  const runs = [
    run("a_other_world", 0, 10),
    run("b_old", 2, 20),
    run("c_newer", 2, 30),
    run("d_candidate", 2, 40),
    run("e_later", 2, 50),
  ];
  assert.equal(defaultBaseline(runs, "d_candidate"), "c_newer");
  assert.equal(defaultBaseline(runs, "c_newer"), "b_old");
});

test("none when no earlier run has the same world size", () => {
  const runs = [run("a", 0, 10), run("b", 1, 20), run("c", 2, 30), run("d", 2, 30)];
  assert.equal(defaultBaseline(runs, "b"), null); // only a run of 0 ranks is older
  assert.equal(defaultBaseline(runs, "c"), null); // same time is not earlier
  assert.equal(defaultBaseline(runs, "missing"), null);
});

test("of equally old runs, the first by name", () => {
  const runs = [run("z", 1, 10), run("m", 1, 10), run("cand", 1, 20)];
  assert.equal(defaultBaseline(runs, "cand"), "m");
});
