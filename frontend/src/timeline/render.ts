// Draws one frame of the timeline on a 2D canvas (CSS px; the caller scales for devicePixelRatio).
// Boxes are filled one path per colour: a full tile (tens of thousands of boxes) stays within
// a frame. Whatever tile is at hand is drawn in the current window, so a stale tile shows
// scaled until the fresh one arrives.

import { formatBytes, formatCount } from "../base/format";
import type { CanvasTheme } from "../canvas/canvasTheme";
import { PALETTE_SIZE } from "../canvas/colors";
import {
  AXIS_HEIGHT,
  GUTTER_WIDTH,
  type LaneBand,
  RANK_HEADER_HEIGHT,
  ROW_HEIGHT,
  rowTop,
  type TimelineLayout,
} from "./layout";
import type { LaneBoxes, Tile } from "./tile";
import { alignmentSummary } from "./alignment";
import { type TimeAxis, timeAxis } from "./axis";
import type { CounterSeries } from "./types";
import type { TimeWindow } from "../canvas/viewWindow";
import { gapLabel } from "./windows";

export const FONT = "11px Roboto, 'Helvetica Neue', Arial, sans-serif";
const HEADER_FONT = "500 12px Roboto, 'Helvetica Neue', Arial, sans-serif";
const PX_PER_TICK = 110;
const MIN_BOX_PX = 1;
const MIN_LABEL_PX = 28;
const SUMMARY_ALPHA = 0.45;
const GAP_HATCH_PX = 10;

/** One end of a drawn flow arrow or outline: a time span in a lane row. */
export interface LaneSpan {
  lane: string;
  row: number;
  start: number;
  end: number;
}

export interface Scene {
  width: number;
  height: number;
  scrollTop: number;
  window: TimeWindow;
  /** Run start: axis labels count from here. */
  zero: number;
  layout: TimelineLayout;
  /** Stretches between recorded windows: drawn as bands, nothing was recorded there. */
  gaps: readonly TimeWindow[];
  tile: Tile | null;
  theme: CanvasTheme;
  selected: LaneSpan | null;
  hovered: LaneSpan | null;
  /** Launch → device event of the selection. */
  flow: { from: LaneSpan; to: LaneSpan } | null;
  /** The events of the shown step's critical path, highlighted (the "Critical path" toggle). */
  path: readonly LaneSpan[];
  /** Shown instead of lanes when there are none to draw. */
  emptyMessage: string | null;
}

/** Pixel mapping of the current window. */
interface XScale {
  x(t: number): number;
  left: number;
  right: number;
}

function xScale(scene: Scene): XScale {
  const { window, width } = scene;
  const pxPerNs = (width - GUTTER_WIDTH) / Math.max(1, window.end - window.start);
  return { x: (t) => GUTTER_WIDTH + (t - window.start) * pxPerNs, left: GUTTER_WIDTH, right: width };
}

let charWidth = 0;

function averageCharWidth(ctx: CanvasRenderingContext2D): number {
  if (charWidth === 0) {
    const sample = "aten::addmm_sgemm_128x64_nn cudaLaunchKernel ProfilerStep#12";
    charWidth = ctx.measureText(sample).width / sample.length;
  }
  return charWidth;
}

/** Cut `text` to about `width` px; measuring every label would cost more than the boxes. */
function fitText(ctx: CanvasRenderingContext2D, text: string, width: number): string | null {
  const maxChars = Math.floor(width / averageCharWidth(ctx));
  if (maxChars < 2) return null;
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

function visibleBands(scene: Scene): LaneBand[] {
  const top = scene.scrollTop;
  const bottom = top + scene.height - AXIS_HEIGHT;
  return scene.layout.bands.filter(
    (band): band is LaneBand =>
      band.type === "lane" && band.top + band.height > top && band.top < bottom,
  );
}

function drawBoxes(
  ctx: CanvasRenderingContext2D,
  boxes: LaneBoxes,
  band: LaneBand,
  scale: XScale,
  scene: Scene,
): void {
  const { theme, tile } = scene;
  const visible = (i: number): [number, number] | null => {
    const x0 = scale.x(boxes.start[i] ?? 0);
    const x1 = scale.x(boxes.end[i] ?? 0);
    if (x1 < scale.left || x0 > scale.right) return null;
    // Whole pixels: anti-aliased edges cost most of the rasterising. Clamped, so far-off edges
    // of a zoomed-in stale tile do not become huge coordinates.
    const left = Math.round(Math.max(x0, scale.left - 1));
    const right = Math.round(Math.min(x1, scale.right + 1));
    return [left, Math.max(right - left, MIN_BOX_PX)];
  };
  const rect = (i: number, geometry: [number, number]): void => {
    ctx.rect(geometry[0], rowTop(band, boxes.row[i] ?? 0) + 1, geometry[1], ROW_HEIGHT - 2);
  };

  // Summary boxes (many merged events) are the same colour, faded: a pattern fill would be
  // distinct too, but costs ten times more to rasterise on software-rendered canvases.
  for (let slot = 0; slot < PALETTE_SIZE; slot += 1) {
    const from = boxes.colorOffsets[slot] ?? 0;
    const to = boxes.colorOffsets[slot + 1] ?? 0;
    if (from === to) continue;
    ctx.fillStyle = theme.boxes[slot] ?? theme.accent;
    for (const summaries of [false, true]) {
      ctx.beginPath();
      for (let k = from; k < to; k += 1) {
        const i = boxes.byColor[k] ?? 0;
        if ((boxes.count[i] ?? 1) > 1 !== summaries) continue;
        const geometry = visible(i);
        if (geometry) rect(i, geometry);
      }
      ctx.globalAlpha = summaries ? SUMMARY_ALPHA : 1;
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;

  ctx.fillStyle = theme.boxText;
  for (let i = 0; i < boxes.size; i += 1) {
    const geometry = visible(i);
    if (geometry === null || geometry[1] < MIN_LABEL_PX) continue;
    const name = tile?.names[boxes.name[i] ?? 0] ?? "";
    const count = boxes.count[i] ?? 1;
    const text = fitText(ctx, count > 1 ? `${formatCount(count)} × ${name}` : name, geometry[1] - 6);
    if (text !== null) {
      ctx.fillText(text, geometry[0] + 3, rowTop(band, boxes.row[i] ?? 0) + ROW_HEIGHT / 2);
    }
  }
}

/** The counter's scale: the largest value in the tile (so a lane is never flat for being small). */
function counterMax(series: CounterSeries): number {
  let max = 0;
  for (const value of series.value) max = Math.max(max, value);
  return max || 1;
}

export function formatCounterValue(label: string, value: number): string {
  return /bytes/i.test(label) ? formatBytes(value) : formatCount(value);
}

function drawCounter(
  ctx: CanvasRenderingContext2D,
  series: CounterSeries,
  band: LaneBand,
  scale: XScale,
  scene: Scene,
): void {
  const { t, value } = series;
  if (t.length === 0) return;
  const max = counterMax(series);
  const bottom = band.top + band.height - 2;
  const y = (v: number): number => bottom - (v / max) * (band.height - 8);
  // Each value holds until the next point; the last one until the end of the tile.
  const lastX = Math.min(scale.x(scene.tile?.end ?? scene.window.end), scale.right);
  ctx.beginPath();
  ctx.moveTo(scale.x(t[0] ?? 0), bottom);
  for (let i = 0; i < t.length; i += 1) {
    const x = Math.max(scale.x(t[i] ?? 0), scale.left - 1);
    const nextX = Math.min(i + 1 < t.length ? scale.x(t[i + 1] ?? 0) : lastX, scale.right + 1);
    const level = y(value[i] ?? 0);
    ctx.lineTo(x, level);
    ctx.lineTo(nextX, level);
  }
  ctx.lineTo(lastX, bottom);
  ctx.closePath();
  ctx.globalAlpha = 0.3;
  ctx.fillStyle = scene.theme.accent;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.strokeStyle = scene.theme.accent;
  ctx.lineWidth = 1;
  ctx.stroke();
}

function spanRect(span: LaneSpan, scene: Scene, scale: XScale): [number, number, number] | null {
  const band = scene.layout.lanes.get(span.lane);
  if (!band) return null;
  const x0 = Math.max(scale.x(span.start), scale.left - 2);
  const x1 = Math.min(scale.x(span.end), scale.right + 2);
  return [x0, rowTop(band, span.row), Math.max(x1 - x0, 2)];
}

function outline(
  ctx: CanvasRenderingContext2D,
  span: LaneSpan,
  scene: Scene,
  scale: XScale,
  width: number,
): void {
  const rect = spanRect(span, scene, scale);
  if (!rect) return;
  ctx.lineWidth = width;
  ctx.strokeStyle = scene.theme.text;
  ctx.strokeRect(rect[0], rect[1] + 0.5, rect[2], ROW_HEIGHT - 1);
}

const PATH_ALPHA = 0.35;

/** The critical path: each of its events filled over in the accent colour and outlined. */
function drawPath(ctx: CanvasRenderingContext2D, spans: readonly LaneSpan[], scene: Scene, scale: XScale): void {
  if (spans.length === 0) return;
  ctx.beginPath();
  for (const span of spans) {
    if (scale.x(span.end) < scale.left || scale.x(span.start) > scale.right) continue;
    const rect = spanRect(span, scene, scale);
    if (rect) ctx.rect(rect[0], rect[1] + 0.5, rect[2], ROW_HEIGHT - 1);
  }
  ctx.globalAlpha = PATH_ALPHA;
  ctx.fillStyle = scene.theme.accent;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = scene.theme.accent;
  ctx.stroke();
}

function drawFlow(
  ctx: CanvasRenderingContext2D,
  flow: NonNullable<Scene["flow"]>,
  scene: Scene,
  scale: XScale,
): void {
  const from = scene.layout.lanes.get(flow.from.lane);
  const to = scene.layout.lanes.get(flow.to.lane);
  if (!from || !to) return;
  const x0 = scale.x(flow.from.start);
  const y0 = rowTop(from, flow.from.row) + ROW_HEIGHT / 2;
  const x1 = scale.x(flow.to.start);
  const y1 = rowTop(to, flow.to.row) + ROW_HEIGHT / 2;
  const bend = Math.max(20, Math.abs(y1 - y0) / 2);
  ctx.strokeStyle = scene.theme.accent;
  ctx.fillStyle = scene.theme.accent;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.bezierCurveTo(x0, y0 + Math.sign(y1 - y0 || 1) * bend, x1, y1 - Math.sign(y1 - y0 || 1) * bend, x1, y1);
  ctx.stroke();
  // Arrowhead along the curve's final (vertical) direction.
  const direction = Math.sign(y1 - y0 || 1);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - 4, y1 - direction * 8);
  ctx.lineTo(x1 + 4, y1 - direction * 8);
  ctx.closePath();
  ctx.fill();
  for (const [x, y] of [[x0, y0], [x1, y1]] as const) {
    ctx.beginPath();
    ctx.arc(x, y, 3, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** Hatched bands over the lanes where nothing was recorded, each labelled with its length. */
function drawGaps(ctx: CanvasRenderingContext2D, scene: Scene, scale: XScale): void {
  const top = scene.scrollTop;
  const height = scene.height - AXIS_HEIGHT;
  for (const gap of scene.gaps) {
    const x0 = Math.max(scale.x(gap.start), scale.left);
    const x1 = Math.min(scale.x(gap.end), scale.right);
    if (x1 <= x0) continue;
    ctx.fillStyle = scene.theme.surface;
    ctx.fillRect(x0, top, x1 - x0, height);
    ctx.save();
    ctx.beginPath();
    ctx.rect(x0, top, x1 - x0, height);
    ctx.clip();
    ctx.strokeStyle = scene.theme.border;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = x0 - height; x < x1; x += GAP_HATCH_PX) {
      ctx.moveTo(x, top + height);
      ctx.lineTo(x + height, top);
    }
    ctx.stroke();
    ctx.restore();
    const label = fitText(ctx, gapLabel(gap), x1 - x0 - 8);
    if (label) {
      ctx.fillStyle = scene.theme.mutedText;
      ctx.textAlign = "center";
      ctx.fillText(label, (x0 + x1) / 2, top + 12);
      ctx.textAlign = "start";
    }
  }
}

function drawGutterAndBands(ctx: CanvasRenderingContext2D, scene: Scene): void {
  const { theme, width } = scene;
  const top = scene.scrollTop;
  const bottom = top + scene.height - AXIS_HEIGHT;
  ctx.fillStyle = theme.surface;
  ctx.fillRect(0, top, GUTTER_WIDTH, bottom - top);
  ctx.textBaseline = "middle";
  for (const band of scene.layout.bands) {
    if (band.top + band.height <= top || band.top >= bottom) continue;
    if (band.type === "rank") {
      ctx.fillStyle = theme.grid;
      ctx.fillRect(0, band.top, width, RANK_HEADER_HEIGHT);
      ctx.font = HEADER_FONT;
      ctx.fillStyle = theme.text;
      const title = `${band.collapsed ? "▸" : "▾"} rank ${band.rank.rank}`;
      ctx.fillText(title, 8, band.top + RANK_HEADER_HEIGHT / 2);
      ctx.font = FONT;
      ctx.fillStyle = theme.mutedText;
      const summary = fitText(ctx, alignmentSummary(band.rank.alignment), GUTTER_WIDTH - 80);
      if (summary) ctx.fillText(summary, 76, band.top + RANK_HEADER_HEIGHT / 2);
    } else {
      ctx.font = FONT;
      ctx.fillStyle = theme.text;
      const label = fitText(ctx, band.lane.label, GUTTER_WIDTH - 24);
      if (label) ctx.fillText(label, 16, band.top + Math.min(band.height, ROW_HEIGHT + 6) / 2);
      const series = scene.tile?.counters.get(band.lane.id);
      if (series && series.t.length > 0) {
        ctx.fillStyle = theme.mutedText;
        const max = `max ${formatCounterValue(band.lane.label, counterMax(series))}`;
        ctx.fillText(max, 16, band.top + band.height - 9);
      }
    }
    ctx.fillStyle = theme.border;
    ctx.fillRect(0, band.top + band.height - 1, width, 1);
  }
  ctx.fillRect(GUTTER_WIDTH - 1, top, 1, bottom - top);
}

function drawAxis(
  ctx: CanvasRenderingContext2D,
  axis: TimeAxis,
  scene: Scene,
  scale: XScale,
): void {
  const { theme, width } = scene;
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, AXIS_HEIGHT);
  ctx.fillStyle = theme.border;
  ctx.fillRect(0, AXIS_HEIGHT - 1, width, 1);
  ctx.font = FONT;
  ctx.textBaseline = "middle";
  ctx.fillStyle = theme.mutedText;
  ctx.fillText(axis.baseLabel ? `from ${axis.baseLabel}` : "from run start", 8, AXIS_HEIGHT / 2);
  axis.ticks.forEach((tick, index) => {
    const x = Math.round(scale.x(tick)) + 0.5;
    ctx.fillRect(x, AXIS_HEIGHT - 6, 1, 5);
    ctx.fillText(axis.labels[index] ?? "", x + 3, AXIS_HEIGHT / 2 - 2);
  });
}

export function drawTimeline(ctx: CanvasRenderingContext2D, scene: Scene): void {
  const { width, height, theme, tile, window } = scene;
  const scale = xScale(scene);
  const axis = timeAxis(window.start, window.end, width - GUTTER_WIDTH, PX_PER_TICK, scene.zero);
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  ctx.font = FONT;
  ctx.textBaseline = "middle";

  ctx.save();
  ctx.beginPath();
  ctx.rect(0, AXIS_HEIGHT, width, height - AXIS_HEIGHT);
  ctx.clip();
  ctx.translate(0, AXIS_HEIGHT - scene.scrollTop);
  drawGutterAndBands(ctx, scene);

  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER_WIDTH, scene.scrollTop, width - GUTTER_WIDTH, height);
  ctx.clip();
  ctx.fillStyle = theme.grid;
  for (const tick of axis.ticks) ctx.fillRect(Math.round(scale.x(tick)), scene.scrollTop, 1, height);
  drawGaps(ctx, scene, scale);
  for (const band of visibleBands(scene)) {
    const boxes = tile?.lanes.get(band.lane.id);
    if (boxes) drawBoxes(ctx, boxes, band, scale, scene);
    const series = tile?.counters.get(band.lane.id);
    if (series) drawCounter(ctx, series, band, scale, scene);
  }
  drawPath(ctx, scene.path, scene, scale);
  if (scene.hovered) outline(ctx, scene.hovered, scene, scale, 1);
  if (scene.selected) outline(ctx, scene.selected, scene, scale, 2);
  if (scene.flow) drawFlow(ctx, scene.flow, scene, scale);
  ctx.restore();
  ctx.restore();

  drawAxis(ctx, axis, scene, scale);
  if (scene.emptyMessage !== null) {
    ctx.fillStyle = theme.mutedText;
    ctx.textAlign = "center";
    ctx.fillText(scene.emptyMessage, GUTTER_WIDTH + (width - GUTTER_WIDTH) / 2, AXIS_HEIGHT + 40);
    ctx.textAlign = "start";
  }
}
