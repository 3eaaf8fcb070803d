// The Timeline dashboard of one run: owns the view state (window, ranks, selection), wires the
// canvas, tiles, search, controls and details panel together, and keeps the hash in sync.

import { ApiError, type ProgressListener } from "../base/api";
import { h } from "../base/dom";
import { formatBytes, formatCount, formatDuration, formatTimestamp } from "../base/format";
import type { Progress } from "../base/types";
import { alignmentDetails } from "./alignment";
import { fetchEvent, fetchTimelineMeta, searchEvents } from "./api";
import { type CanvasTheme, readCanvasTheme } from "../canvas/canvasTheme";
import { MANY_RANKS, startingRanks } from "../panels/rankHeatmap";
import { rankPicker, rankToggles, stepSelect } from "./controls";
import { renderDetails } from "./details";
import { type TimelineHashState, writeTimelineHash } from "./hashState";
import {
  AXIS_HEIGHT,
  bandAt,
  GUTTER_WIDTH,
  type LaneBand,
  layoutTimeline,
  rowAt,
  type TimelineLayout,
  visibleRanks,
} from "./layout";
import { attachPanZoom, nsPerPx, panByPx, timeAtPx, zoomAtPx } from "../canvas/panZoom";
import { drawTimeline, formatCounterValue, type LaneSpan } from "./render";
import { TimelineSearch } from "./search";
import { boxAt, type Tile } from "./tile";
import { TileLoader } from "./tileLoader";
import type { EventRef, SearchMatch, TimelineEvent, TimelineMeta } from "./types";
import { clampWindow, fitWindow, revealWindow, runBounds, type TimeWindow } from "../canvas/viewWindow";

const HASH_WRITE_MS = 200;
const HOVER_SLACK_PX = 2;
/** A match fills the middle third of the view it is zoomed to. */
const MATCH_PADDING = 1;

interface Hit {
  band: LaneBand;
  /** Index in the tile lane, or -1 on empty space. */
  box: number;
  row: number;
  time: number;
}

function sameRef(a: EventRef | null, b: EventRef | null): boolean {
  return a !== null && b !== null && a.rank === b.rank && a.id === b.id;
}

export class TimelineView {
  readonly element: HTMLElement;
  /** Whether meta has been loaded at least once (a tab switch then needs no fetch). */
  loaded = false;

  private meta: TimelineMeta | null = null;
  private layout: TimelineLayout = { bands: [], lanes: new Map(), height: 0 };
  private bounds: TimeWindow = { start: 0, end: 1 };
  private window: TimeWindow | null;
  private enabledRanks: Set<number> | null;
  private readonly collapsedRanks = new Set<number>();
  private tile: Tile | null = null;
  private selected: EventRef | null;
  private selectedEvent: TimelineEvent | null = null;
  private flowPeer: TimelineEvent | null = null;
  private hovered: LaneSpan | null = null;
  private selectionRequest = new AbortController();

  private readonly canvas = h("canvas", {
    class: "timeline-canvas",
    tabindex: 0,
    "data-testid": "timeline-canvas",
    "aria-label": "Timeline: W/S or the wheel zoom, A/D or dragging pan, click selects",
  });
  private readonly ctx: CanvasRenderingContext2D;
  private theme: CanvasTheme;
  private readonly scroller = h("div", { class: "timeline-scroller" });
  private readonly spacer = h("div", { class: "timeline-spacer" });
  private readonly tooltip = h("div", { class: "chart-tooltip timeline-tooltip", hidden: true });
  private readonly status = h("div", { class: "timeline-status", "data-testid": "timeline-status", hidden: true });
  private readonly details = h(
    "section",
    { class: "timeline-details", "data-testid": "timeline-details", "aria-live": "polite" },
    h("p", { class: "muted" }, "Click an event to see its details."),
  );
  private readonly rankToggleGroup = h("div", { class: "rank-toggles", role: "group", "aria-label": "Ranks" });
  private readonly stepPicker = h("label", { class: "step-picker" });
  private readonly search: TimelineSearch;
  private readonly tiles: TileLoader;
  private readonly observers: { disconnect(): void }[] = [];
  private size = { width: 0, height: 0, dpr: 1 };
  private drawPending = false;
  private hashTimer = 0;

  constructor(
    readonly run: string,
    initial: TimelineHashState,
  ) {
    this.window = initial.window;
    this.selected = initial.selected;
    this.enabledRanks = initial.enabledRanks && new Set(initial.enabledRanks);
    const ctx = this.canvas.getContext("2d", { alpha: false });
    if (ctx === null) throw new Error("This browser cannot draw on a canvas.");
    this.ctx = ctx;
    this.theme = readCanvasTheme();
    if (this.selected) this.canvas.dataset["selected"] = `${this.selected.rank}:${this.selected.id}`;

    this.search = new TimelineSearch({
      initialText: initial.search,
      search: (text, signal) => searchEvents(this.run, text, this.enabledRankList(), signal),
      onMatch: (match) => this.showMatch(match),
      onTextChange: (text) => writeTimelineHash({ search: text }),
      viewStart: () => this.window?.start ?? 0,
    });
    this.tiles = new TileLoader(run, {
      onTile: (tile) => {
        this.tile = tile;
        this.status.hidden = true;
        this.scheduleDraw();
      },
      onProgress: (progress) => this.showProgress(progress),
      onError: (error) => this.showError(error),
    });

    const reset = h("button", { type: "button", "data-testid": "timeline-reset" }, "Reset zoom");
    reset.addEventListener("click", () => this.setWindow(this.bounds));
    this.scroller.append(this.canvas, this.spacer);
    this.scroller.addEventListener("scroll", () => this.scheduleDraw());
    this.element = h(
      "div",
      { class: "timeline", "data-testid": "timeline", "data-run": run },
      h(
        "div",
        { class: "timeline-toolbar" },
        this.rankToggleGroup,
        this.stepPicker,
        reset,
        this.search.element,
        h("span", { class: "muted hint" }, "W/S or wheel: zoom · A/D or drag: pan · Esc: deselect"),
      ),
      h("div", { class: "timeline-stage" }, this.scroller, this.tooltip, this.status),
      this.details,
    );
    this.attachObservers();
    attachPanZoom(this.canvas, {
      zoomAt: (x, factor) => this.zoomAt(x, factor),
      panBy: (px) => this.panBy(px),
      timeAreaWidth: () => this.timeAreaWidth(),
      clickAt: (x, y) => this.clickAt(x, y),
      hoverAt: (x, y) => this.hoverAt(x, y),
      hoverEnd: () => this.setHover(null, null),
      escape: () => this.select(null, false),
    }, { timeAreaLeft: GUTTER_WIDTH, keys: true });
  }

  /** Fetch (or re-fetch, on TensorBoard's reload) the run's meta, then tiles, selection, search.
   * A run of many ranks starts with `linkedRanks` (a link's), else with `startingRanks`. */
  async load(signal: AbortSignal, onProgress: ProgressListener, linkedRanks: readonly number[] = []): Promise<void> {
    const meta = await fetchTimelineMeta(this.run, signal, onProgress);
    if (signal.aborted) return;
    if (this.enabledRanks === null && meta.ranks.length > MANY_RANKS) {
      const known = meta.ranks.map((r) => r.rank);
      const linked = linkedRanks.filter((rank) => known.includes(rank));
      const ranks = linked.length > 0 ? linked : await startingRanks(this.run, known, signal);
      if (signal.aborted) return;
      this.enabledRanks = new Set(ranks);
      writeTimelineHash({ enabledRanks: this.enabledRankList() });
    }
    this.meta = meta;
    this.loaded = true;
    this.bounds = runBounds(meta.start, meta.end);
    this.relayout();
    this.setWindow(this.window ?? this.bounds);
    this.stepPicker.replaceChildren(stepSelect(meta.steps, (step) => this.setWindow(fitWindow(step.start, step.end, 0.02, this.bounds))));
    this.tile = null;
    this.tiles.cancel();
    this.requestTiles(true);
    if (this.selected) this.select(this.selected, false);
    void this.search.refresh();
  }

  /** Frame step `step` (a finding's link); unknown steps leave the view as it is. */
  showStep(step: number): void {
    const extent = this.meta?.steps.find((s) => s.step === step);
    if (extent) this.setWindow(fitWindow(extent.start, extent.end, 0.02, this.bounds));
  }

  /** Show lanes for these ranks only (a link from the many-rank Overview); unknown ones are left out. */
  showRanks(ranks: readonly number[]): void {
    const known = new Set(this.meta?.ranks.map((r) => r.rank) ?? []);
    const shown = ranks.filter((rank) => known.has(rank));
    if (shown.length > 0) this.setEnabledRanks(new Set(shown));
  }

  /** Make sure a rank's lanes are shown: added to the ranks shown (a link about one rank of
   * many) and expanded (a search match or flow end may be in a collapsed one). */
  revealRank(rank: number): void {
    if (!this.meta?.ranks.some((r) => r.rank === rank)) return;
    const expanded = this.collapsedRanks.delete(rank);
    if (this.enabledRanks !== null && !this.enabledRanks.has(rank)) {
      this.setEnabledRanks(new Set([...this.enabledRanks, rank]));
    } else if (expanded) {
      this.relayout();
      this.requestTiles(false);
    }
  }

  dispose(): void {
    this.tiles.cancel();
    this.selectionRequest.abort();
    for (const observer of this.observers) observer.disconnect();
  }

  private attachObservers(): void {
    const resize = new ResizeObserver(() => this.resize());
    resize.observe(this.scroller);
    const theme = new MutationObserver(() => {
      this.theme = readCanvasTheme();
      this.scheduleDraw();
    });
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    this.observers.push(resize, theme);
  }

  // ---- view state -------------------------------------------------------------------------

  private enabledRankList(): number[] | null {
    return this.enabledRanks && [...this.enabledRanks].sort((a, b) => a - b);
  }

  private isRankEnabled(rank: number): boolean {
    return this.enabledRanks === null || this.enabledRanks.has(rank);
  }

  private relayout(): void {
    const meta = this.meta;
    if (!meta) return;
    const enabled = new Set(meta.ranks.map((r) => r.rank).filter((r) => this.isRankEnabled(r)));
    this.layout = layoutTimeline(meta, enabled, this.collapsedRanks);
    this.canvas.dataset["ranks"] = [...enabled].sort((a, b) => a - b).join(",");
    // many ranks: a text field for the ranks, and a button only for each rank shown
    const many = meta.ranks.length > MANY_RANKS;
    const toggled = many ? meta.ranks.filter((r) => enabled.has(r.rank)) : meta.ranks;
    this.rankToggleGroup.replaceChildren(
      ...(many ? [rankPicker(meta.ranks, [...enabled].sort((a, b) => a - b), (ranks) => this.setEnabledRanks(new Set(ranks)))] : []),
      ...rankToggles(toggled, (rank) => this.isRankEnabled(rank), (rank) => this.toggleRank(rank)),
    );
    this.resizeSpacer();
    this.scheduleDraw();
  }

  private toggleRank(rank: number): void {
    const all = this.meta?.ranks.map((r) => r.rank) ?? [];
    const enabled = this.enabledRanks ?? new Set(all);
    if (enabled.has(rank)) enabled.delete(rank);
    else enabled.add(rank);
    this.setEnabledRanks(enabled);
  }

  private setEnabledRanks(enabled: Set<number>): void {
    const all = this.meta?.ranks.map((r) => r.rank) ?? [];
    this.enabledRanks = all.every((r) => enabled.has(r)) ? null : enabled;
    writeTimelineHash({ enabledRanks: this.enabledRankList() });
    this.relayout();
    this.requestTiles(false);
    void this.search.refresh();
  }

  private toggleCollapsed(rank: number): void {
    if (this.collapsedRanks.has(rank)) this.collapsedRanks.delete(rank);
    else this.collapsedRanks.add(rank);
    this.relayout();
    this.requestTiles(false);
  }

  private setWindow(next: TimeWindow): void {
    this.window = clampWindow(next, this.bounds);
    this.canvas.dataset["start"] = String(Math.round(this.window.start));
    this.canvas.dataset["end"] = String(Math.round(this.window.end));
    this.scheduleDraw();
    this.requestTiles(false);
    clearTimeout(this.hashTimer);
    this.hashTimer = window.setTimeout(() => writeTimelineHash({ window: this.window }), HASH_WRITE_MS);
  }

  private requestTiles(now: boolean): void {
    const meta = this.meta;
    const window = this.window;
    const widthPx = this.timeAreaWidth();
    if (!meta || !window || widthPx <= 0) return;
    const ranks = visibleRanks(this.layout);
    if (ranks.length === 0) return;
    const all = ranks.length === meta.ranks.length;
    const need = { window, widthPx, ranks: all ? null : ranks, extent: { start: meta.start, end: meta.end } };
    if (now) this.tiles.refetch(need);
    else this.tiles.want(need, this.tile);
  }

  private timeAreaWidth(): number {
    return Math.max(0, this.size.width - GUTTER_WIDTH);
  }

  private timeAt(x: number): number {
    return timeAtPx(this.window ?? this.bounds, x, GUTTER_WIDTH, this.timeAreaWidth());
  }

  private nsPerPx(): number {
    return nsPerPx(this.window ?? this.bounds, this.timeAreaWidth());
  }

  private zoomAt(x: number | null, factor: number): void {
    const window = this.window;
    if (window) this.navigateTo(zoomAtPx(window, x, GUTTER_WIDTH, this.timeAreaWidth(), factor, this.bounds));
  }

  private panBy(px: number): void {
    if (this.window) this.navigateTo(panByPx(this.window, px, this.timeAreaWidth(), this.bounds));
  }

  /** Zooming or panning against the run's edges changes nothing: spare the redraw. */
  private navigateTo(next: TimeWindow): void {
    if (next.start !== this.window?.start || next.end !== this.window.end) this.setWindow(next);
  }

  // ---- selection ---------------------------------------------------------------------------

  /** Select an event (null clears), fetch its details and its flow's other end. */
  private select(ref: EventRef | null, reveal: boolean): void {
    this.selectionRequest.abort();
    this.selectionRequest = new AbortController();
    const signal = this.selectionRequest.signal;
    if (!sameRef(ref, this.selectedEvent)) {
      this.selectedEvent = null;
      this.flowPeer = null;
    }
    this.selected = ref;
    if (ref) this.canvas.dataset["selected"] = `${ref.rank}:${ref.id}`;
    else delete this.canvas.dataset["selected"];
    writeTimelineHash({ selected: ref });
    this.scheduleDraw();
    if (ref === null) {
      this.details.replaceChildren(h("p", { class: "muted" }, "Click an event to see its details."));
      return;
    }
    void this.loadSelection(ref, reveal, signal);
  }

  private async loadSelection(ref: EventRef, reveal: boolean, signal: AbortSignal): Promise<void> {
    try {
      const event = await fetchEvent(this.run, ref, signal);
      if (signal.aborted) return;
      this.selectedEvent = event;
      if (reveal && this.window) {
        this.setWindow(revealWindow(this.window, event.start, event.start + event.dur, this.bounds));
      }
      this.showDetails();
      this.scheduleDraw();
      if (event.flow) {
        this.flowPeer = await fetchEvent(this.run, event.flow, signal);
        if (signal.aborted) return;
        this.showDetails();
        this.scheduleDraw();
      }
    } catch (error) {
      if (signal.aborted) return;
      this.details.replaceChildren(
        h("p", { class: "error", role: "alert" }, `Could not load the event: ${error instanceof ApiError ? error.message : String(error)}`),
      );
    }
  }

  private showDetails(): void {
    const event = this.selectedEvent;
    if (!event) return;
    this.details.replaceChildren(
      renderDetails({
        event,
        peer: this.flowPeer,
        zero: this.meta?.start ?? 0,
        laneLabel: (id) => this.laneLabel(id),
        onJump: (ref) => {
          this.revealRank(ref.rank);
          this.select(ref, true);
        },
        onZoom: () => this.setWindow(fitWindow(event.start, event.start + event.dur, 0.5, this.bounds)),
      }),
    );
  }

  /** Lanes of hidden ranks are not in the layout, so look in meta. */
  private laneLabel(id: string): string {
    for (const rank of this.meta?.ranks ?? []) {
      const lane = rank.lanes.find((l) => l.id === id);
      if (lane) return lane.label;
    }
    return id;
  }

  private showMatch(match: SearchMatch): void {
    this.revealRank(match.rank);
    this.setWindow(fitWindow(match.start, match.start + match.dur, MATCH_PADDING, this.bounds));
    this.select({ rank: match.rank, id: match.id }, false);
  }

  // ---- pointer -----------------------------------------------------------------------------

  private hitTest(x: number, y: number): Hit | { rankBand: number } | null {
    if (y < AXIS_HEIGHT) return null;
    const band = bandAt(this.layout, y - AXIS_HEIGHT + this.scroller.scrollTop);
    if (!band) return null;
    if (band.type === "rank") return { rankBand: band.rank.rank };
    const time = this.timeAt(x);
    const row = rowAt(band, y - AXIS_HEIGHT + this.scroller.scrollTop);
    const boxes = this.tile?.lanes.get(band.lane.id);
    const box = boxes && row >= 0 && x >= GUTTER_WIDTH ? boxAt(boxes, row, time, HOVER_SLACK_PX * this.nsPerPx()) : -1;
    return { band, box, row, time };
  }

  private clickAt(x: number, y: number): void {
    this.canvas.focus();
    const hit = this.hitTest(x, y);
    if (hit && "rankBand" in hit) {
      this.toggleCollapsed(hit.rankBand);
      return;
    }
    const boxes = hit && this.tile?.lanes.get(hit.band.lane.id);
    if (!hit || !boxes || hit.box < 0) {
      if (x >= GUTTER_WIDTH) this.select(null, false);
      return;
    }
    const count = boxes.count[hit.box] ?? 1;
    const start = boxes.start[hit.box] ?? 0;
    const end = boxes.end[hit.box] ?? 0;
    // A summary box is many events: zoom in until they come apart.
    if (count > 1) this.setWindow(fitWindow(start, end, 0.1, this.bounds));
    else this.select({ rank: hit.band.rank, id: boxes.eventId[hit.box] ?? -1 }, false);
  }

  private hoverAt(x: number, y: number): void {
    const hit = this.hitTest(x, y);
    if (hit === null) return this.setHover(null, null);
    if ("rankBand" in hit) {
      const rank = this.meta?.ranks.find((r) => r.rank === hit.rankBand);
      this.canvas.style.cursor = "pointer";
      return this.setHover(null, rank ? [`rank ${rank.rank} (click to ${this.collapsedRanks.has(rank.rank) ? "expand" : "collapse"})`, ...alignmentDetails(rank.alignment)] : null, x, y);
    }
    this.canvas.style.cursor = "";
    const lane = hit.band.lane;
    if (x < GUTTER_WIDTH) return this.setHover(null, [lane.label, `rank ${hit.band.rank} · ${lane.kind}`], x, y);
    if (lane.kind === "counter") return this.setHover(null, this.counterTooltip(hit), x, y);
    const boxes = this.tile?.lanes.get(lane.id);
    if (!boxes || hit.box < 0) return this.setHover(null, null);
    const start = boxes.start[hit.box] ?? 0;
    const end = boxes.end[hit.box] ?? 0;
    const count = boxes.count[hit.box] ?? 1;
    const name = this.tile?.names[boxes.name[hit.box] ?? 0] ?? "";
    const zero = this.meta?.start ?? 0;
    const lines =
      count > 1
        ? [`${formatCount(count)} events`, `longest: ${name}`, `over ${formatDuration(end - start)} from ${formatTimestamp(start - zero)}`, "click to zoom in"]
        : [name, `duration ${formatDuration(end - start)}`, `start ${formatTimestamp(start - zero)}`];
    this.setHover({ lane: lane.id, row: hit.row, start, end }, lines, x, y);
  }

  private counterTooltip(hit: Hit): string[] | null {
    const series = this.tile?.counters.get(hit.band.lane.id);
    if (!series) return null;
    // The value in force at the cursor: the last point at or before it.
    let index = -1;
    for (let i = 0; i < series.t.length && (series.t[i] ?? 0) <= hit.time; i += 1) index = i;
    const value = series.value[index];
    if (value === undefined) return null;
    return [hit.band.lane.label, formatCounterValue(hit.band.lane.label, value)];
  }

  private setHover(span: LaneSpan | null, lines: string[] | null, x = 0, y = 0): void {
    this.hovered = span;
    this.scheduleDraw();
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

  // ---- status ------------------------------------------------------------------------------

  private showProgress(progress: Progress): void {
    const percent = Math.round(Math.min(1, Math.max(0, progress.fraction)) * 100);
    this.status.removeAttribute("role");
    this.status.textContent = `Reading run files… ${percent} % (${formatBytes(progress.done_bytes)} of ${formatBytes(progress.total_bytes)})`;
    this.status.hidden = false;
  }

  /** The previous tile stays drawn underneath: the view is still usable. */
  private showError(error: unknown): void {
    const detail = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    this.status.setAttribute("role", "alert");
    this.status.textContent = `Could not load this part of the timeline: ${detail}`;
    this.status.hidden = false;
  }

  // ---- drawing -----------------------------------------------------------------------------

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
    this.resizeSpacer();
    this.requestTiles(false);
    this.drawNow();
  }

  /** The spacer gives the scroller the lanes' full height, so its scrollbar moves the lanes. */
  private resizeSpacer(): void {
    this.spacer.style.height = `${Math.max(0, AXIS_HEIGHT + this.layout.height - this.size.height)}px`;
  }

  private scheduleDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => this.drawNow());
  }

  private drawNow(): void {
    this.drawPending = false;
    const { width, height, dpr } = this.size;
    if (width === 0 || height === 0 || !this.window) return;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTimeline(this.ctx, {
      width,
      height,
      scrollTop: this.scroller.scrollTop,
      window: this.window,
      zero: this.meta?.start ?? 0,
      layout: this.layout,
      tile: this.tile,
      theme: this.theme,
      hovered: this.hovered,
      ...this.selectionSpans(),
      emptyMessage: this.emptyMessage(),
    });
  }

  private emptyMessage(): string | null {
    if (this.layout.bands.length > 0) return null;
    return this.meta?.ranks.length
      ? "Every rank is hidden: turn one on with the rank buttons above."
      : "This run has no timeline events: no MyTimer spans and no profiler traces yet.";
  }

  private selectionSpans(): { selected: LaneSpan | null; flow: { from: LaneSpan; to: LaneSpan } | null } {
    const event = this.selectedEvent;
    if (!event || !sameRef(event, this.selected)) return { selected: null, flow: null };
    const span = (e: TimelineEvent): LaneSpan => ({ lane: e.lane, row: e.row, start: e.start, end: e.start + e.dur });
    const selected = span(event);
    const peer = this.flowPeer;
    if (!peer) return { selected, flow: null };
    // Arrows point from the launch (the runtime call) to the device event.
    return event.kind === "runtime"
      ? { selected, flow: { from: selected, to: span(peer) } }
      : { selected, flow: { from: span(peer), to: selected } };
  }
}
