// The module tree of the Modules tab: parents and children from the rows' `parent` paths, the
// rows a collapsed module hides, and the icicle layout (pure functions, no DOM).

import type { ModuleRow } from "./types";

export interface ModuleTree {
  roots: ModuleRow[];
  /** Children by parent path, in tree order. */
  children: ReadonlyMap<string, readonly ModuleRow[]>;
}

/** A row whose parent is not among the rows (cut by the route's row limit) is a root. */
export function moduleTree(rows: readonly ModuleRow[]): ModuleTree {
  const paths = new Set(rows.map((row) => row.path));
  const roots: ModuleRow[] = [];
  const children = new Map<string, ModuleRow[]>();
  for (const row of rows) {
    if (row.parent === null || !paths.has(row.parent)) {
      roots.push(row);
      continue;
    }
    const siblings = children.get(row.parent);
    if (siblings) siblings.push(row);
    else children.set(row.parent, [row]);
  }
  return { roots, children };
}

/** The rows (in tree order: parents first) that no collapsed ancestor hides. */
export function visibleRows(
  rows: readonly ModuleRow[],
  collapsed: ReadonlySet<string>,
): ModuleRow[] {
  const hidden = new Set<string>();
  return rows.filter((row) => {
    if (row.parent !== null && (collapsed.has(row.parent) || hidden.has(row.parent))) {
      hidden.add(row.path);
      return false;
    }
    return true;
  });
}

export interface IcicleCell {
  row: ModuleRow;
  x: number;
  width: number;
  /** 0 for the roots. */
  level: number;
}

/**
 * Each module is a cell as wide as its share of the time, under its parent; children share the
 * parent's width by their own values (the gap left is the parent's self time). A module never
 * called itself (a container such as `nn.ModuleList`) is as wide as its children, so the tree
 * goes on below it. Where children add up to more than their parent (a shared submodule counted
 * under its first path), they are scaled to fit. Cells narrower than `minWidth` are left out
 * with their subtrees.
 */
export function icicleLayout(
  tree: ModuleTree,
  value: (row: ModuleRow) => number,
  width: number,
  minWidth = 0.5,
): IcicleCell[] {
  const cells: IcicleCell[] = [];
  const sizes = new Map<string, number>();
  const size = (row: ModuleRow): number => {
    let known = sizes.get(row.path);
    if (known === undefined) {
      known = Math.max(0, value(row));
      if (known === 0) known = sum(tree.children.get(row.path) ?? []);
      sizes.set(row.path, known);
    }
    return known;
  };
  const sum = (rows: readonly ModuleRow[]): number => rows.reduce((s, r) => s + size(r), 0);
  const place = (
    rows: readonly ModuleRow[],
    x: number,
    span: number,
    total: number,
    level: number,
  ): void => {
    let at = x;
    for (const row of rows) {
      const cellWidth = total > 0 ? (span * size(row)) / total : 0;
      if (cellWidth >= minWidth) {
        cells.push({ row, x: at, width: cellWidth, level });
        const children = tree.children.get(row.path) ?? [];
        place(children, at, cellWidth, Math.max(size(row), sum(children)), level + 1);
      }
      at += cellWidth;
    }
  };
  place(tree.roots, 0, width, sum(tree.roots), 0);
  return cells;
}
