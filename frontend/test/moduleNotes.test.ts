// modules/notes.ts: the Modules tab's statement of which steps timed backward.

import assert from "node:assert/strict";
import { test } from "node:test";
import { backwardStepsNote } from "../src/modules/notes";

test("no statement when every covered step timed backward", () => {
  assert.equal(backwardStepsNote([], 1), null);
});

test("one rank: how many of its steps timed backward, without naming the rank", () => {
  const note = backwardStepsNote([{ rank: 0, timed: 10, steps: 100 }], 1);
  assert.ok(note?.startsWith("Backward timed on 10 of 100 steps (ModuleProfiler's"), note ?? "");
  assert.ok(note?.includes("scaled from those steps to all covered steps"));
});

test("several ranks are named", () => {
  const note = backwardStepsNote(
    [
      { rank: 0, timed: 1, steps: 10 },
      { rank: 1, timed: 2, steps: 20 },
    ],
    2,
  );
  const counts = "1 of 10 steps on rank 0, 2 of 20 steps on rank 1";
  assert.ok(note?.startsWith(`Backward timed on ${counts} (`), note ?? "");
});
