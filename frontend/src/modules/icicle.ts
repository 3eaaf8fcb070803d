// An SVG icicle chart of the module tree: one band per tree level, each module as wide as its
// time. Redrawn at the container's width; a click on a cell selects its module.

import { h, svg } from "../base/dom";
import { icicleLayout, type ModuleTree } from "./moduleTree";
import type { ModuleRow } from "./types";

export interface IcicleOptions {
  tree: ModuleTree;
  value: (row: ModuleRow) => number;
  label: (row: ModuleRow) => string;
  tooltip: (row: ModuleRow) => string;
  color: (row: ModuleRow) => string;
  selected: string | null;
  onSelect: (row: ModuleRow) => void;
}

const LEVEL_HEIGHT = 20;
const CHAR_WIDTH = 6.5; // about one character of the 11px label font
const MIN_LABEL_WIDTH = 24;

function fitLabel(text: string, width: number): string {
  const chars = Math.floor((width - 6) / CHAR_WIDTH);
  if (width < MIN_LABEL_WIDTH || chars < 2) return "";
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function draw(options: IcicleOptions, width: number): SVGSVGElement {
  const cells = icicleLayout(options.tree, options.value, width);
  const levels = cells.reduce((most, cell) => Math.max(most, cell.level + 1), 0);
  const root = svg("svg", {
    width,
    height: levels * LEVEL_HEIGHT,
    class: "icicle-svg",
    role: "img",
    "aria-label": "Module time as an icicle chart",
  });
  for (const { row, x, width: cellWidth, level } of cells) {
    const y = level * LEVEL_HEIGHT;
    const cell = svg(
      "g",
      {
        class: row.path === options.selected ? "icicle-cell selected" : "icicle-cell",
        "data-testid": "icicle-cell",
        "data-path": row.path,
      },
      svg("title", {}, options.tooltip(row)),
      svg("rect", {
        x: x.toFixed(2),
        y,
        width: Math.max(cellWidth - 1, 0.5).toFixed(2),
        height: LEVEL_HEIGHT - 1,
        fill: options.color(row),
      }),
    );
    const label = fitLabel(options.label(row), cellWidth);
    if (label) {
      cell.append(
        svg("text", { class: "icicle-label", x: (x + 3).toFixed(2), y: y + 14 }, label),
      );
    }
    cell.addEventListener("click", () => options.onSelect(row));
    root.append(cell);
  }
  return root;
}

export function icicleChart(options: IcicleOptions): HTMLElement {
  const holder = h("div", { class: "icicle", "data-testid": "module-icicle" });
  let drawnWidth = 0;
  // The iframe is hidden on tab switches (width 0): draw only once there is room.
  new ResizeObserver(() => {
    const width = holder.clientWidth;
    if (width === 0 || width === drawnWidth) return;
    drawnWidth = width;
    holder.replaceChildren(draw(options, width));
  }).observe(holder);
  return holder;
}
