// modules/moduleTree.ts: the Modules tab's tree, collapsing, and icicle layout.

import assert from "node:assert/strict";
import { test } from "node:test";
import { icicleLayout, moduleTree, visibleRows } from "../src/modules/moduleTree";
import type { ModuleRow } from "../src/modules/types";

function row(path: string, parent: string | null): ModuleRow {
  return {
    path,
    name: path.split(".").pop() ?? path,
    type: "Linear",
    parent,
    depth: path.split(".").length - 1,
    params: null,
    forward: null,
    backward: null,
    total: null,
  };
}

// tree order, parents first, as the modules route sends them
const ROWS = [
  row("model", null),
  row("model.enc", "model"),
  row("model.enc.l0", "model.enc"),
  row("model.dec", "model"),
  row("other.head", "other"), // its parent was cut by the row limit
];
const paths = (rows: readonly ModuleRow[]): string[] => rows.map((r) => r.path);

test("moduleTree: children under their parent in order; a row without its parent is a root", () => {
  const tree = moduleTree(ROWS);
  assert.deepEqual(paths(tree.roots), ["model", "other.head"]);
  assert.deepEqual(paths(tree.children.get("model") ?? []), ["model.enc", "model.dec"]);
  assert.deepEqual(paths(tree.children.get("model.enc") ?? []), ["model.enc.l0"]);
  assert.equal(tree.children.get("model.dec"), undefined);
  assert.equal(tree.children.get("other"), undefined);
});

test("visibleRows hides every descendant of a collapsed module, not the module", () => {
  assert.deepEqual(paths(visibleRows(ROWS, new Set())), paths(ROWS));
  assert.deepEqual(paths(visibleRows(ROWS, new Set(["model.enc"]))), [
    "model",
    "model.enc",
    "model.dec",
    "other.head",
  ]);
  assert.deepEqual(paths(visibleRows(ROWS, new Set(["model"]))), ["model", "other.head"]);
});

const cellsOf = (value: Record<string, number>, rows: readonly ModuleRow[] = ROWS, width = 100) =>
  icicleLayout(moduleTree(rows), (r) => value[r.path] ?? 0, width).map((c) => [c.row.path, c.x, c.width, c.level]);

test("icicleLayout: each cell as wide as its share; the gap left is the parent's self time", () => {
  assert.deepEqual(cellsOf({ model: 100, "model.enc": 60, "model.enc.l0": 30, "model.dec": 20 }), [
    ["model", 0, 100, 0],
    ["model.enc", 0, 60, 1],
    ["model.enc.l0", 0, 30, 2],
    ["model.dec", 60, 20, 1],
  ]);
});

test("icicleLayout: a container never called itself is as wide as its children", () => {
  assert.deepEqual(cellsOf({ "model.enc": 30, "model.enc.l0": 30, "model.dec": 10, "other.head": 10 }), [
    ["model", 0, 80, 0],
    ["model.enc", 0, 60, 1],
    ["model.enc.l0", 0, 60, 2],
    ["model.dec", 60, 20, 1],
    ["other.head", 80, 20, 0],
  ]);
});

test("icicleLayout: children adding up to more than their parent are scaled to fit", () => {
  const cells = cellsOf({ model: 100, "model.enc": 120, "model.enc.l0": 0, "model.dec": 30 });
  assert.deepEqual(cells, [
    ["model", 0, 100, 0],
    ["model.enc", 0, 80, 1],
    ["model.dec", 80, 20, 1],
  ]);
});

test("icicleLayout leaves out cells narrower than minWidth, with their subtrees", () => {
  const value: Record<string, number> = { model: 1000, "model.enc": 2, "model.enc.l0": 2, "model.dec": 998 };
  const cells = icicleLayout(moduleTree(ROWS), (r) => value[r.path] ?? 0, 100, 0.5);
  assert.deepEqual(cells.map((c) => c.row.path), ["model", "model.dec"]);
});
