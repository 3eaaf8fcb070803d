// Many-rank Overview: a rank × step heatmap of one metric (canvas, colour legend, hover
// tooltip), the outlier ranks and steps the server found, and a set of picked ranks that
// opens the Timeline with lanes for those ranks only (`rank_heatmap` route, docs/HTTP_API.md).

import { getJson, type ProgressListener, runQuery } from "../base/api";
import type { NavigationParams } from "../base/dashboard";
import { h } from "../base/dom";
import { formatDuration, formatMemory } from "../base/format";
import { readHash, updateHash } from "../base/hashState";

/** More ranks than this: the Overview shows the heatmap and the Timeline a compact rank picker. */
export const MANY_RANKS = 16;

export type RankMetric = "step_time" | "collective_wait" | "memory";

const METRICS: readonly [RankMetric, string][] = [
  ["step_time", "Step time"],
  ["collective_wait", "Collective wait"],
  ["memory", "Memory"],
];
const GUTTER_PX = 56; // rank labels left of the cells
const AXIS_PX = 18; // step labels below them
const MAX_HEIGHT_PX = 640;
const MAX_ROW_PX = 14;
const MAX_LISTED_STEPS = 8;
// Viridis at five stops: ordered in lightness, readable for colour-blind users, on both themes.
const SCALE = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];

interface OutlierRank {
  rank: number;
  median: number;
  typical: number;
  z: number;
  direction: "high" | "low";
  steps: number[];
}

export interface RankHeatmapAnswer {
  run: string;
  metric: RankMetric;
  unit: "ns" | "bytes";
  source: string;
  reason: string | null;
  ranks: number[];
  steps_total: number;
  bucket: number;
  first_steps: number[];
  last_steps: number[];
  values: (number | null)[][];
  min: number | null;
  max: number | null;
  outlier_ranks: OutlierRank[];
  outlier_steps: number[];
}

export function fetchRankHeatmap(
  run: string,
  metric: RankMetric,
  signal: AbortSignal,
  onProgress?: ProgressListener,
): Promise<RankHeatmapAnswer> {
  return getJson(`./rank_heatmap?${runQuery(run, { metric })}`, signal, onProgress);
}

/** Of many ranks, the highest and lowest a chart of all ranks draws. */
const CHARTED_HIGHEST = 5;
const CHARTED_LOWEST = 3;

/**
 * The ranks a chart of every rank draws: all of them up to MANY_RANKS, else the telling ones
 * (the highest and lowest by `value`, and `named`), with a note saying so; hundreds of lines
 * would hide each other.
 */
export function chartedRanks<T extends { rank: number }>(
  items: readonly T[],
  value: (item: T) => number | null,
  order: string,
  named: ReadonlySet<number> = new Set(),
): { charted: T[]; note: HTMLElement | null } {
  if (items.length <= MANY_RANKS) return { charted: [...items], note: null };
  const ordered = items.filter((item) => value(item) !== null).sort((a, b) => (value(a) ?? 0) - (value(b) ?? 0));
  const keep = new Set([...ordered.slice(-CHARTED_HIGHEST), ...ordered.slice(0, CHARTED_LOWEST)].map((i) => i.rank));
  for (const rank of named) keep.add(rank);
  const charted = items.filter((item) => keep.has(item.rank));
  const also = named.size > 0 ? " and those a finding names" : "";
  const note = h(
    "p",
    { class: "muted", "data-testid": "charted-ranks" },
    `Charted: ${charted.length} of ${items.length} ranks, the ${CHARTED_HIGHEST} highest and ${CHARTED_LOWEST} lowest by ${order}${also}. Pick a rank in the toolbar to chart another.`,
  );
  return { charted, note };
}

/** Lanes a Timeline of many ranks starts with. */
const STARTING_LANES = 4;

/**
 * The ranks a many-rank Timeline opens with when the user has picked none: up to three that
 * stand out most on step time or collective wait (a straggler shows as waiting less than the
 * others, not in its step time, which the collectives make equal), then the lowest ranks, for
 * comparison, up to four lanes.
 */
export async function startingRanks(run: string, ranks: readonly number[], signal: AbortSignal): Promise<number[]> {
  const metrics: RankMetric[] = ["step_time", "collective_wait"];
  const answers = await Promise.allSettled(metrics.map((metric) => fetchRankHeatmap(run, metric, signal)));
  const outliers = answers
    .flatMap((answer) => (answer.status === "fulfilled" ? answer.value.outlier_ranks : []))
    .sort((a, b) => Math.abs(b.z) - Math.abs(a.z))
    .map((outlier) => outlier.rank);
  const picked = new Set<number>();
  for (const rank of outliers) {
    if (picked.size < STARTING_LANES - 1 && ranks.includes(rank)) picked.add(rank);
  }
  for (const rank of ranks) {
    if (picked.size >= STARTING_LANES) break;
    picked.add(rank);
  }
  return [...picked];
}

function isMetric(value: string | null): value is RankMetric {
  return METRICS.some(([metric]) => metric === value);
}

function hexColor(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The scale's colour at `t` in [0, 1], interpolated between its stops. */
function scaleColor(t: number): string {
  const x = Math.min(Math.max(t, 0), 1) * (SCALE.length - 1);
  const i = Math.min(Math.floor(x), SCALE.length - 2);
  const a = hexColor(SCALE[i] ?? "#000000");
  const b = hexColor(SCALE[i + 1] ?? "#000000");
  const mix = a.map((c, k) => Math.round(c + (x - i) * ((b[k] ?? 0) - c)));
  return `rgb(${mix.join(",")})`;
}

function formatValue(answer: RankHeatmapAnswer, value: number): string {
  return answer.unit === "bytes" ? formatMemory(value) : formatDuration(value);
}

function stepText(answer: RankHeatmapAnswer, column: number): string {
  const first = answer.first_steps[column];
  const last = answer.last_steps[column];
  return first === last ? `step ${first}` : `steps ${first}–${last}`;
}

function listSteps(steps: readonly number[]): string {
  const shown = steps.slice(0, MAX_LISTED_STEPS).join(", ");
  return steps.length > MAX_LISTED_STEPS ? `${shown}, …` : shown;
}

/** The heatmap panel: metric selector, canvas, legend, outliers and the picked ranks. */
export class RankHeatmapPanel {
  readonly element: HTMLElement;
  private metric: RankMetric;
  private answer: RankHeatmapAnswer | null = null;
  private readonly picked = new Set<number>();
  private request = new AbortController();
  private readonly canvas = h("canvas", { class: "heatmap-canvas", "data-testid": "rank-heatmap" });
  private readonly tooltip = h("div", { class: "chart-tooltip", hidden: true, "data-testid": "heatmap-tooltip" });
  private readonly body = h("div", { class: "heatmap-body" });
  private readonly pickedList = h("div", { class: "picked-ranks", "data-testid": "picked-ranks" });
  private readonly openButton = h(
    "button",
    { type: "button", "data-testid": "open-picked-timeline", disabled: true },
    "Open picked ranks in the Timeline",
  );
  private layout = { cell: 1, row: 1 };
  private drawnWidth = 0;

  constructor(
    private readonly run: string,
    private readonly navigate: (tab: string, params: NavigationParams) => void,
    private readonly onProgress: ProgressListener,
  ) {
    const fromHash = readHash().get("hm");
    this.metric = isMetric(fromHash) ? fromHash : "step_time";
    const select = h(
      "select",
      { "data-testid": "heatmap-metric", "aria-label": "Heatmap metric" },
      ...METRICS.map(([value, label]) => h("option", { value, selected: value === this.metric }, label)),
    );
    select.addEventListener("change", () => {
      if (!isMetric(select.value)) return;
      this.metric = select.value;
      updateHash({ hm: this.metric });
      void this.load();
    });
    this.openButton.addEventListener("click", () =>
      this.navigate("timeline", { ranks: [...this.picked].sort((a, b) => a - b).join(",") }),
    );
    this.canvas.addEventListener("mousemove", (event) => this.hover(event));
    this.canvas.addEventListener("mouseleave", () => (this.tooltip.hidden = true));
    this.canvas.addEventListener("click", (event) => {
      const cell = this.cellAt(event);
      if (cell) this.toggle(cell.rank);
    });
    this.element = h(
      "section",
      { class: "panel heatmap", "data-testid": "heatmap-panel" },
      h("h2", {}, "Ranks × steps"),
      h(
        "p",
        { class: "muted" },
        "Too many ranks for one row each: one line of cells per rank. Click cells or outlier ranks to pick ranks, then open them in the Timeline.",
      ),
      h("label", { class: "heatmap-metric" }, "Metric ", select),
      this.body,
      h("div", { class: "picked" }, h("h3", {}, "Picked ranks"), this.pickedList, this.openButton),
    );
    this.renderPicked();
    // redraw at the new width (the height follows from the ranks, so this settles)
    new ResizeObserver(() => {
      if (this.body.clientWidth !== this.drawnWidth) this.draw();
    }).observe(this.body);
  }

  async load(): Promise<void> {
    this.request.abort();
    this.request = new AbortController();
    const signal = this.request.signal;
    this.body.replaceChildren(h("p", { class: "muted" }, "Loading…"));
    try {
      const answer = await fetchRankHeatmap(this.run, this.metric, signal, this.onProgress);
      if (signal.aborted) return;
      this.answer = answer;
      this.renderBody();
    } catch (error) {
      if (signal.aborted) return;
      this.body.replaceChildren(h("p", { class: "error", role: "alert" }, String((error as Error).message)));
    }
  }

  private renderBody(): void {
    const answer = this.answer;
    if (!answer) return;
    if (answer.ranks.length === 0 || answer.min === null || answer.max === null) {
      this.body.replaceChildren(h("p", { class: "muted", "data-testid": "heatmap-empty" }, answer.reason ?? "No values."));
      return;
    }
    const bucketNote =
      answer.bucket > 1
        ? ` Each column is ${answer.metric === "memory" ? "the largest value" : "the mean"} of ${answer.bucket} consecutive steps (${answer.steps_total} steps).`
        : "";
    const stage = h("div", { class: "heatmap-stage" }, this.canvas, this.tooltip);
    this.body.replaceChildren(
      h("p", { class: "muted" }, `${answer.ranks.length} ranks, from ${answer.source}.${bucketNote}`),
      stage,
      this.legend(answer),
      this.outliers(answer),
    );
    this.draw();
  }

  private legend(answer: RankHeatmapAnswer): HTMLElement {
    const min = answer.min ?? 0;
    const max = answer.max ?? 0;
    const gradient = `linear-gradient(to right, ${SCALE.join(", ")})`;
    return h(
      "div",
      { class: "heatmap-legend", "data-testid": "heatmap-legend" },
      h("span", {}, formatValue(answer, min)),
      h("span", { class: "heatmap-gradient", style: `background: ${gradient}` }),
      h("span", {}, formatValue(answer, max)),
      h("span", { class: "heatmap-missing" }),
      h("span", { class: "muted" }, "no value"),
    );
  }

  private outliers(answer: RankHeatmapAnswer): HTMLElement {
    const items = answer.outlier_ranks.map((o) => {
      const button = h("button", { type: "button", class: "link-button", "data-rank": o.rank }, `rank ${o.rank}`);
      button.addEventListener("click", () => this.toggle(o.rank));
      const where = o.steps.length ? `; stands out in steps ${listSteps(o.steps)}` : "";
      return h(
        "li",
        { "data-testid": "outlier-rank", "data-rank": o.rank },
        button,
        ` median ${formatValue(answer, o.median)} vs ${formatValue(answer, o.typical)} typical (${o.direction}, z ${o.z.toFixed(1)})${where}`,
      );
    });
    const steps = answer.outlier_steps.length
      ? h("p", { "data-testid": "outlier-steps" }, `Steps that stand out for every rank: ${listSteps(answer.outlier_steps)}`)
      : null;
    return h(
      "div",
      { class: "heatmap-outliers" },
      h("h3", {}, "Outlier ranks"),
      items.length
        ? h("ul", { "data-testid": "outlier-ranks" }, ...items)
        : h("p", { class: "muted", "data-testid": "outlier-ranks-none" }, "No rank stands out on this metric."),
      steps,
    );
  }

  private toggle(rank: number): void {
    if (this.picked.has(rank)) this.picked.delete(rank);
    else this.picked.add(rank);
    this.renderPicked();
    this.draw();
  }

  private renderPicked(): void {
    const ranks = [...this.picked].sort((a, b) => a - b);
    this.pickedList.replaceChildren(
      ...(ranks.length
        ? ranks.map((rank) => {
            const chip = h(
              "button",
              { type: "button", class: "rank-toggle", "aria-pressed": "true", "data-rank": rank, title: `Unpick rank ${rank}` },
              `rank ${rank} ×`,
            );
            chip.addEventListener("click", () => this.toggle(rank));
            return chip;
          })
        : [h("span", { class: "muted" }, "None yet.")]),
    );
    this.openButton.disabled = ranks.length === 0;
  }

  private draw(): void {
    const answer = this.answer;
    if (!answer || answer.min === null || answer.max === null) return;
    const rows = answer.ranks.length;
    const columns = answer.first_steps.length;
    this.drawnWidth = this.body.clientWidth;
    const width = Math.max(320, (this.body.clientWidth || 900) - 8);
    const cell = Math.max(1, Math.floor((width - GUTTER_PX) / Math.max(columns, 1)));
    const row = Math.max(1, Math.min(MAX_ROW_PX, Math.floor(MAX_HEIGHT_PX / rows)));
    this.layout = { cell, row };
    const dpr = window.devicePixelRatio || 1;
    const cssWidth = GUTTER_PX + cell * columns;
    const cssHeight = row * rows + AXIS_PX;
    this.canvas.width = Math.round(cssWidth * dpr);
    this.canvas.height = Math.round(cssHeight * dpr);
    this.canvas.style.width = `${cssWidth}px`;
    this.canvas.style.height = `${cssHeight}px`;
    this.canvas.dataset["rows"] = String(rows);
    this.canvas.dataset["columns"] = String(columns);
    this.canvas.dataset["metric"] = answer.metric;
    const ctx = this.canvas.getContext("2d");
    if (!ctx) return;
    const style = getComputedStyle(document.documentElement);
    const color = (name: string): string => style.getPropertyValue(name).trim() || "#888";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = color("--bg");
    ctx.fillRect(0, 0, cssWidth, cssHeight);
    const span = Math.max(answer.max - answer.min, 1);
    for (let r = 0; r < rows; r++) {
      const values = answer.values[r] ?? [];
      for (let c = 0; c < columns; c++) {
        const value = values[c];
        ctx.fillStyle = value === null || value === undefined ? color("--grid") : scaleColor((value - answer.min) / span);
        ctx.fillRect(GUTTER_PX + c * cell, r * row, cell, row);
      }
    }
    ctx.font = "10px sans-serif";
    ctx.textBaseline = "middle";
    const labelEvery = Math.max(1, Math.ceil(12 / row));
    for (let r = 0; r < rows; r++) {
      const rank = answer.ranks[r] ?? 0;
      if (this.picked.has(rank)) {
        ctx.fillStyle = color("--accent");
        ctx.fillRect(GUTTER_PX - 6, r * row, 4, Math.max(row, 2));
      }
      if (r % labelEvery === 0) {
        ctx.fillStyle = color("--fg-muted");
        ctx.fillText(String(rank), 2, r * row + Math.max(row, 10) / 2);
      }
    }
    ctx.textBaseline = "top";
    ctx.fillStyle = color("--fg-muted");
    const stepEvery = Math.max(1, Math.ceil(48 / cell));
    for (let c = 0; c < columns; c += stepEvery) {
      ctx.fillText(String(answer.first_steps[c]), GUTTER_PX + c * cell, rows * row + 4);
    }
  }

  private cellAt(event: MouseEvent): { rank: number; row: number; column: number } | null {
    const answer = this.answer;
    if (!answer) return null;
    const bounds = this.canvas.getBoundingClientRect();
    const x = event.clientX - bounds.left - GUTTER_PX;
    const y = event.clientY - bounds.top;
    const column = Math.floor(x / this.layout.cell);
    const row = Math.floor(y / this.layout.row);
    const rank = answer.ranks[row];
    if (x < 0 || column >= answer.first_steps.length || rank === undefined) return null;
    return { rank, row, column };
  }

  private hover(event: MouseEvent): void {
    const answer = this.answer;
    const cell = this.cellAt(event);
    if (!answer || !cell) {
      this.tooltip.hidden = true;
      return;
    }
    const value = answer.values[cell.row]?.[cell.column];
    this.tooltip.replaceChildren(
      h("div", { class: "tooltip-title" }, `rank ${cell.rank} · ${stepText(answer, cell.column)}`),
      h("div", {}, value === null || value === undefined ? "no value" : formatValue(answer, value)),
    );
    this.tooltip.hidden = false;
    const bounds = this.canvas.getBoundingClientRect();
    this.tooltip.style.left = `${event.clientX - bounds.left + 12}px`;
    this.tooltip.style.top = `${event.clientY - bounds.top + 12}px`;
  }
}
