// The memory snapshot viewer: live allocations stacked over time on a canvas, as PyTorch's
// memory viewer draws them, from bounded `snapshot/tile` answers for the visible window. The
// wheel zooms around the cursor and a drag pans (canvas/panZoom.ts, as on the Timeline); a click
// on a block shows its size, lifetime and stacks (`snapshot/allocation`).

import { h } from "../base/dom";
import { formatCount, formatDuration, formatMemory, formatTimestamp } from "../base/format";
import { readCanvasTheme } from "../canvas/canvasTheme";
import { boxPalette, colorSlot } from "../canvas/colors";
import { attachPanZoom, nsPerPx, panByPx, timeAtPx, zoomAtPx } from "../canvas/panZoom";
import { clampWindow, type TimeWindow } from "../canvas/viewWindow";
import { fetchAllocation, fetchSnapshotTile } from "./api";
import type { AllocationDetails, Frame, SnapshotDevice, SnapshotTile } from "./types";

const HEIGHT_PX = 280;
const AXIS_PX = 18;
const FETCH_DELAY_MS = 60;

/** One horizontal piece of a band: bytes [y, y + size) live from t0 to t1. */
interface Piece {
  band: number;
  t0: number;
  t1: number;
  y: number;
}

interface Drawn {
  tile: SnapshotTile;
  pieces: Piece[];
  yMax: number;
}

/** A band's pieces: it starts at `y0` and drops to each step's offset after that step's pixel. */
function piecesOf(tile: SnapshotTile): Piece[] {
  const { bands, steps } = tile;
  const pieces: Piece[] = [];
  let cursor = 0;
  bands.id.forEach((_, band) => {
    let t = bands.start[band] ?? 0;
    let y = bands.y0[band] ?? 0;
    const count = bands.steps[band] ?? 0;
    for (let k = 0; k < count; k += 1, cursor += 1) {
      const at = tile.start + ((steps.px[cursor] ?? 0) + 1) * tile.ns_per_px;
      pieces.push({ band, t0: t, t1: at, y });
      t = at;
      y = steps.y[cursor] ?? y;
    }
    pieces.push({ band, t0: t, t1: bands.end[band] ?? t, y });
  });
  return pieces;
}

function frameText(frame: Frame): string {
  return `${frame.filename}:${frame.line} (${frame.name})`;
}

/** A stack, innermost frame first; `more` frames the answer left out (it is bounded). */
function framesList(frames: readonly Frame[], more: number, testId: string): HTMLElement {
  if (frames.length === 0 && more <= 0) return h("p", { class: "muted" }, "No stack recorded.");
  return h(
    "ol",
    { class: "stack-frames", "data-testid": testId },
    ...frames.map((frame) => h("li", {}, frameText(frame))),
    more > 0
      ? h(
          "li",
          { class: "muted stack-more", "data-testid": `${testId}-more` },
          `… and ${formatCount(more)} more ${more === 1 ? "frame" : "frames"} (not shown)`,
        )
      : null,
  );
}

export class SnapshotViewer {
  readonly element: HTMLElement;
  private readonly canvas = h("canvas", {
    class: "snapshot-canvas",
    "data-testid": "snapshot-canvas",
    tabindex: 0,
    "aria-label": "Live allocations over time; wheel to zoom, drag to pan, click for details",
  });
  private readonly stage = h("div", { class: "snapshot-stage" }, this.canvas);
  private readonly status = h("span", { class: "muted", "data-testid": "snapshot-status" });
  private readonly hover = h("span", { class: "snapshot-hover", "data-testid": "snapshot-hover" });
  private readonly details = h(
    "div",
    { class: "snapshot-details", "data-testid": "snapshot-allocation" },
    h("p", { class: "muted" }, "Click a block for its size, lifetime and stack."),
  );
  private readonly bounds: TimeWindow;
  private window: TimeWindow;
  private drawn: Drawn | null = null;
  private width = 0;
  private fetching = new AbortController();
  private detailsFetch = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly run: string,
    private readonly file: string,
    private readonly device: SnapshotDevice,
    private readonly timeUnit: "ns" | "index",
    private readonly signal: AbortSignal,
  ) {
    const end = device.time ? Math.max(device.time.end, device.time.start + 1) : 1;
    this.bounds = { start: device.time?.start ?? 0, end };
    this.window = this.bounds;
    const reset = h("button", { type: "button", "data-testid": "snapshot-reset" }, "Reset zoom");
    reset.addEventListener("click", () => this.show(this.bounds));
    this.element = h(
      "div",
      { class: "snapshot-viewer", "data-testid": "snapshot-viewer" },
      h(
        "div",
        { class: "snapshot-toolbar" },
        reset,
        this.status,
        h("span", { class: "muted hint" }, "Wheel: zoom · drag: pan · click a block: details"),
      ),
      this.stage,
      this.hover,
      this.details,
    );
    this.attachInput();
    new ResizeObserver(() => {
      const width = Math.floor(this.stage.clientWidth);
      if (width === 0 || width === this.width) return;
      this.width = width;
      this.draw();
      this.schedule();
    }).observe(this.stage);
    signal.addEventListener("abort", () => this.fetching.abort(), { once: true });
  }

  private formatTime(t: number): string {
    return this.timeUnit === "ns" ? formatTimestamp(t) : `entry ${Math.round(t)}`;
  }

  private formatSpan(t: number): string {
    return this.timeUnit === "ns" ? formatDuration(t) : `${Math.round(t)} entries`;
  }

  private show(window: TimeWindow): void {
    this.window = clampWindow(window, this.bounds);
    this.draw();
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), FETCH_DELAY_MS);
  }

  private async load(): Promise<void> {
    if (this.width === 0 || this.signal.aborted) return;
    this.fetching.abort();
    this.fetching = new AbortController();
    const { start, end } = this.window;
    const t0 = Math.floor(start);
    const t1 = Math.max(Math.ceil(end), t0 + 1);
    try {
      const tile = await fetchSnapshotTile(
        this.run, this.file, this.device.device, t0, t1, this.width, this.fetching.signal,
      );
      const yMax = Math.max(1, ...tile.pixels.total_max);
      this.drawn = { tile, pieces: piecesOf(tile), yMax };
      this.status.textContent =
        `${tile.drawn} of ${tile.visible} allocations drawn` +
        (tile.merged ? ` (${tile.merged} too small or too short: grey)` : "") +
        ` · ${this.formatTime(t0)} – ${this.formatTime(t1)}`;
      this.draw();
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      this.status.textContent = `Could not load this window: ${String(error)}`;
    }
  }

  private x(t: number): number {
    return ((t - this.window.start) / (this.window.end - this.window.start)) * this.width;
  }

  private draw(): void {
    const ratio = window.devicePixelRatio || 1;
    const width = this.width;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(HEIGHT_PX * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${HEIGHT_PX}px`;
    const context = this.canvas.getContext("2d");
    if (!context || width === 0) return;
    const theme = readCanvasTheme();
    const palette = boxPalette(theme.dark);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.fillStyle = theme.background;
    context.fillRect(0, 0, width, HEIGHT_PX);
    const plot = HEIGHT_PX - AXIS_PX;
    const drawn = this.drawn;
    if (drawn) {
      const { tile, pieces, yMax } = drawn;
      const scale = (plot - 12) / yMax;
      // what is live but not drawn as a band: grey above the bands, per pixel of the tile
      context.fillStyle = theme.grid;
      tile.pixels.total_max.forEach((total, px) => {
        const below = tile.pixels.drawn_max[px] ?? 0;
        if (total <= below) return;
        const a = this.x(tile.start + px * tile.ns_per_px);
        const b = this.x(tile.start + (px + 1) * tile.ns_per_px);
        context.fillRect(a, plot - total * scale, Math.max(1, b - a), (total - below) * scale);
      });
      for (const piece of pieces) {
        const size = tile.bands.size[piece.band] ?? 0;
        const label = tile.labels[tile.bands.label[piece.band] ?? 0] ?? "";
        const a = Math.max(-1, this.x(piece.t0));
        const b = Math.min(width + 1, this.x(piece.t1));
        if (b <= a) continue;
        context.fillStyle = palette[colorSlot(label)] ?? theme.accent;
        const top = plot - (piece.y + size) * scale;
        context.fillRect(a, top, Math.max(b - a, 0.5), Math.max(size * scale, 0.5));
      }
      context.fillStyle = theme.mutedText;
      context.font = "11px sans-serif";
      context.textBaseline = "top";
      context.fillText(formatMemory(yMax), 4, 2);
    }
    context.strokeStyle = theme.border;
    context.beginPath();
    context.moveTo(0, plot + 0.5);
    context.lineTo(width, plot + 0.5);
    context.stroke();
    context.fillStyle = theme.mutedText;
    context.font = "11px sans-serif";
    context.textBaseline = "top";
    context.fillText(this.formatTime(this.window.start), 4, plot + 4);
    const endLabel = this.formatTime(this.window.end);
    context.fillText(endLabel, width - context.measureText(endLabel).width - 4, plot + 4);
    const span = `${this.formatSpan(this.window.end - this.window.start)} shown`;
    context.fillText(span, (width - context.measureText(span).width) / 2, plot + 4);
  }

  /** The band drawn at canvas point (x, y), if any. */
  private bandAt(x: number, y: number): number | null {
    const drawn = this.drawn;
    if (!drawn) return null;
    const plot = HEIGHT_PX - AXIS_PX;
    const scale = (plot - 12) / drawn.yMax;
    const t = timeAtPx(this.window, x, 0, this.width);
    const bytes = (plot - y) / scale;
    const slack = nsPerPx(this.window, this.width); // a pixel either way
    for (const piece of drawn.pieces) {
      const size = drawn.tile.bands.size[piece.band] ?? 0;
      if (t < piece.t0 - slack || t >= piece.t1 + slack) continue;
      if (bytes >= piece.y && bytes < piece.y + Math.max(size, 2 / scale)) return piece.band;
    }
    return null;
  }

  private describe(band: number): string {
    const tile = this.drawn?.tile;
    if (!tile) return "";
    const label = tile.labels[tile.bands.label[band] ?? 0] ?? "";
    return `${formatMemory(tile.bands.size[band] ?? 0)} · ${label}`;
  }

  private async select(band: number): Promise<void> {
    const tile = this.drawn?.tile;
    const index = tile?.bands.id[band];
    if (index === undefined) return;
    this.detailsFetch.abort();
    this.detailsFetch = new AbortController();
    this.details.replaceChildren(h("p", { class: "muted" }, `Loading allocation ${index}…`));
    try {
      const allocation = await fetchAllocation(
        this.run, this.file, this.device.device, index, this.detailsFetch.signal,
      );
      this.details.replaceChildren(this.allocationView(allocation));
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return;
      this.details.replaceChildren(h("p", { role: "alert" }, String(error)));
    }
  }

  private allocationView(a: AllocationDetails): HTMLElement {
    const row = (name: string, value: string): HTMLElement =>
      h("tr", {}, h("th", {}, name), h("td", { "data-field": name }, value));
    return h(
      "div",
      {},
      h("h3", {}, `Allocation ${a.index}: ${formatMemory(a.size)}`),
      h(
        "table",
        { class: "details-table" },
        h(
          "tbody",
          {},
          row("size", `${formatMemory(a.size)} (${a.size.toLocaleString("en-US")} B)`),
          row("address", `0x${a.addr.toString(16)}`),
          row(
            "allocated",
            a.allocated_before_trace ? "before the trace began" : this.formatTime(a.t_alloc),
          ),
          row("freed", a.live_at_snapshot ? "still live at the snapshot" : this.formatTime(a.t_free)),
          row(
            "lifetime",
            `${this.formatSpan(a.lifetime)}${a.allocated_before_trace || a.live_at_snapshot ? " or more" : ""}`,
          ),
          row("stream", String(a.stream)),
          row("first user frame", a.first_user_frame ? frameText(a.first_user_frame) : "—"),
        ),
      ),
      h("h4", {}, "Allocated at"),
      framesList(a.frames, a.more_frames ?? 0, "allocation-frames"),
      a.free_frames.length ? h("h4", {}, "Freed at") : null,
      a.free_frames.length ? framesList(a.free_frames, a.more_free_frames ?? 0, "free-frames") : null,
    );
  }

  private attachInput(): void {
    attachPanZoom(
      this.canvas,
      {
        zoomAt: (x, factor) => this.show(zoomAtPx(this.window, x, 0, this.width, factor, this.bounds)),
        panBy: (px) => this.show(panByPx(this.window, px, this.width, this.bounds)),
        timeAreaWidth: () => this.width,
        clickAt: (x, y) => {
          const band = this.bandAt(x, y);
          if (band !== null) void this.select(band);
        },
        hoverAt: (x, y) => {
          const band = this.bandAt(x, y);
          this.hover.textContent = band === null ? "" : this.describe(band);
        },
        hoverEnd: () => {
          this.hover.textContent = "";
        },
      },
      { timeAreaLeft: 0, keys: false },
    );
  }
}
