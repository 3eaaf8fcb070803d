// The timeline's stage: the canvas in its scroller, sized to it at the device's pixel ratio, a
// spacer under it so the scrollbar moves the lanes, the canvas theme read again when
// TensorBoard's changes, and at most one draw per animation frame; over it the hover tooltip
// and the tile status line (progress, or why a part could not load).

import { ApiError } from "../base/api";
import { h } from "../base/dom";
import { formatBytes } from "../base/format";
import type { Progress } from "../base/types";
import { type CanvasTheme, readCanvasTheme } from "../canvas/canvasTheme";
import { AXIS_HEIGHT } from "./layout";
import { drawTimeline, type Scene } from "./render";

/** What the view decides about a frame; the stage adds its size, scroll and theme. */
export type SceneParts = Omit<Scene, "width" | "height" | "scrollTop" | "theme">;

export class TimelineStage {
  readonly canvas = h("canvas", {
    class: "timeline-canvas",
    tabindex: 0,
    "data-testid": "timeline-canvas",
    "aria-label": "Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects",
  });
  readonly scroller = h("div", { class: "timeline-scroller" });
  private readonly spacer = h("div", { class: "timeline-spacer" });
  private readonly tooltip = h("div", { class: "chart-tooltip timeline-tooltip", hidden: true });
  private readonly status = h("div", { class: "timeline-status", "data-testid": "timeline-status", hidden: true });
  readonly element = h("div", { class: "timeline-stage" }, this.scroller, this.tooltip, this.status);
  private readonly ctx: CanvasRenderingContext2D;
  private theme: CanvasTheme;
  private readonly observers: { disconnect(): void }[] = [];
  private size = { width: 0, height: 0, dpr: 1 };
  private lanesHeight = 0;
  private drawPending = false;

  /** `scene` is asked for at each draw (null: nothing to draw yet); `onResize` after a resize. */
  constructor(
    private readonly scene: () => SceneParts | null,
    private readonly onResize: () => void,
  ) {
    const ctx = this.canvas.getContext("2d", { alpha: false });
    if (ctx === null) throw new Error("This browser cannot draw on a canvas.");
    this.ctx = ctx;
    this.theme = readCanvasTheme();
    this.scroller.append(this.canvas, this.spacer);
    this.scroller.addEventListener("scroll", () => this.scheduleDraw());
    const resize = new ResizeObserver(() => this.resize());
    resize.observe(this.scroller);
    const theme = new MutationObserver(() => {
      this.theme = readCanvasTheme();
      this.scheduleDraw();
    });
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    this.observers.push(resize, theme);
  }

  /** The canvas width in CSS px (0 until laid out). */
  get width(): number {
    return this.size.width;
  }

  get scrollTop(): number {
    return this.scroller.scrollTop;
  }

  /** The lanes' full height: the spacer gives the scroller that much, so its scrollbar moves them. */
  setLanesHeight(height: number): void {
    this.lanesHeight = height;
    this.spacer.style.height = `${Math.max(0, AXIS_HEIGHT + height - this.size.height)}px`;
  }

  scheduleDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => this.drawNow());
  }

  /** Lines (the first its title) by canvas point (x, y), flipped left near the right edge; null hides it. */
  showTooltip(lines: string[] | null, x: number, y: number): void {
    if (lines === null) {
      this.tooltip.hidden = true;
      return;
    }
    const [title, ...rest] = lines;
    this.tooltip.replaceChildren(
      h("div", { class: "tooltip-title" }, title ?? ""),
      ...rest.map((line) => h("div", {}, line)),
    );
    this.tooltip.hidden = false;
    const flip = x + 16 + this.tooltip.offsetWidth > this.size.width;
    this.tooltip.style.left = `${flip ? x - 12 - this.tooltip.offsetWidth : x + 16}px`;
    this.tooltip.style.top = `${y + 16}px`;
  }

  showProgress(progress: Progress): void {
    const percent = Math.round(Math.min(1, Math.max(0, progress.fraction)) * 100);
    this.status.removeAttribute("role");
    this.status.textContent = `Reading run files… ${percent} % (${formatBytes(progress.done_bytes)} of ${formatBytes(progress.total_bytes)})`;
    this.status.hidden = false;
  }

  /** The previous tile stays drawn underneath: the view is still usable. */
  showError(error: unknown): void {
    const detail = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    this.status.setAttribute("role", "alert");
    this.status.textContent = `Could not load this part of the timeline: ${detail}`;
    this.status.hidden = false;
  }

  hideStatus(): void {
    this.status.hidden = true;
  }

  dispose(): void {
    for (const observer of this.observers) observer.disconnect();
  }

  private resize(): void {
    const width = this.scroller.clientWidth;
    const height = this.scroller.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (width === this.size.width && height === this.size.height && dpr === this.size.dpr) return;
    this.size = { width, height, dpr };
    if (width === 0 || height === 0) return;
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.setLanesHeight(this.lanesHeight);
    this.onResize();
    this.drawNow();
  }

  private drawNow(): void {
    this.drawPending = false;
    const { width, height, dpr } = this.size;
    if (width === 0 || height === 0) return;
    const parts = this.scene();
    if (parts === null) return;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTimeline(this.ctx, { width, height, scrollTop: this.scroller.scrollTop, theme: this.theme, ...parts });
  }
}
