// The Timeline dashboard of one run: owns the view state (window, ranks, selection), wires the
// canvas, tiles, search, controls and details panel together, and keeps the hash in sync.

import { ApiError, type ProgressListener } from "../base/api";
import { h } from "../base/dom";
import { attachPanZoom, nsPerPx, panByPx, timeAtPx, zoomAtPx } from "../canvas/panZoom";
import { clampWindow, fitWindow, revealWindow, type TimeWindow } from "../canvas/viewWindow";
import { MANY_RANKS, startingRanks } from "../panels/rankHeatmap";
import { fetchCriticalPath, fetchEvent, fetchTimelineMeta, searchEvents } from "./api";
import { rankPicker, rankToggles, stepInput, stepSelect } from "./controls";
import { CriticalPathToggle, pathSpans, pathSummary, shownStep } from "./criticalPath";
import { renderDetails } from "./details";
import { type TimelineHashState, writeTimelineHash } from "./hashState";
import { GUTTER_WIDTH, layoutTimeline, type TimelineLayout, visibleRanks } from "./layout";
import { hitTest, hoverOf, type PointerHit } from "./pointer";
import type { LaneSpan } from "./render";
import { TimelineSearch } from "./search";
import { sameRef, selectionSpans } from "./selection";
import { type SceneParts, TimelineStage } from "./stage";
import type { Tile } from "./tile";
import { TileLoader } from "./tileLoader";
import type { EventRef, SearchMatch, TimelineEvent, TimelineMeta } from "./types";
import { ALL, choiceBounds, choiceShowing, gapsBetween, initialChoice, locateStep, type WindowChoice, windowSelect } from "./windows";

const HASH_WRITE_MS = 200;
const HOVER_SLACK_PX = 2;
/** A match fills the middle third of the view it is zoomed to. */
const MATCH_PADDING = 1;

export class TimelineView {
  readonly element: HTMLElement;
  /** Whether meta has been loaded at least once (a tab switch then needs no fetch). */
  loaded = false;

  private meta: TimelineMeta | null = null;
  private layout: TimelineLayout = { bands: [], lanes: new Map(), height: 0 };
  private bounds: TimeWindow = { start: 0, end: 1 };
  /** The recorded window the view is limited to, or ALL. */
  private choice: WindowChoice = ALL;
  private gaps: TimeWindow[] = [];
  private window: TimeWindow | null;
  private enabledRanks: Set<number> | null;
  private readonly collapsedRanks = new Set<number>();
  private tile: Tile | null = null;
  private selected: EventRef | null;
  private selectedEvent: TimelineEvent | null = null;
  private flowPeer: TimelineEvent | null = null;
  private hovered: LaneSpan | null = null;
  private selectionRequest = new AbortController();

  private readonly stage = new TimelineStage(
    () => this.sceneParts(),
    () => this.requestTiles(false),
  );
  private readonly canvas = this.stage.canvas;
  private readonly details = h(
    "section",
    { class: "timeline-details", "data-testid": "timeline-details", "aria-live": "polite" },
    h("p", { class: "muted" }, "Click an event to see its details."),
  );
  private readonly rankToggleGroup = h("div", { class: "rank-toggles", role: "group", "aria-label": "Ranks" });
  private readonly stepPicker = h("label", { class: "step-picker" });
  private readonly windowPicker = h("label", { class: "window-picker" });
  /** Why a jump went nowhere (a step outside every window). */
  private readonly windowNote = h("span", { class: "window-note", role: "status", "data-testid": "timeline-window-note", hidden: true });
  private readonly search: TimelineSearch;
  private readonly tiles: TileLoader;
  private readonly criticalPath = new CriticalPathToggle(() => this.refreshCriticalPath(true));
  /** The step whose critical path is drawn (or being fetched), and its spans. */
  private pathStep: number | null = null;
  private path: LaneSpan[] = [];
  private pathRequest = new AbortController();
  private hashTimer = 0;

  constructor(
    readonly run: string,
    initial: TimelineHashState,
  ) {
    this.window = initial.window;
    this.selected = initial.selected;
    this.enabledRanks = initial.enabledRanks && new Set(initial.enabledRanks);
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
        this.stage.hideStatus();
        this.scheduleDraw();
      },
      onProgress: (progress) => this.stage.showProgress(progress),
      onError: (error) => this.stage.showError(error),
    });

    const reset = h("button", { type: "button", "data-testid": "timeline-reset" }, "Reset zoom");
    reset.addEventListener("click", () => this.setWindow(this.bounds));
    this.element = h(
      "div",
      { class: "timeline", "data-testid": "timeline", "data-run": run },
      h(
        "div",
        { class: "timeline-toolbar" },
        this.rankToggleGroup,
        this.windowPicker,
        this.stepPicker,
        reset,
        this.criticalPath.element,
        this.windowNote,
        this.search.element,
        h("span", { class: "muted hint" }, "W/S or wheel: zoom · A/D or drag: pan · Esc: deselect"),
      ),
      this.stage.element,
      this.details,
    );
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
    // A reload keeps the window picked while the run still has it.
    const kept = this.loaded && (this.choice === ALL || this.choice < meta.windows.length);
    this.meta = meta;
    this.loaded = true;
    this.gaps = gapsBetween(meta.windows);
    this.relayout();
    this.pickWindow(kept ? this.choice : initialChoice(meta.windows, this.window), this.window);
    this.stepPicker.replaceChildren(
      stepSelect(meta.steps, (step) => this.showStep(step.step)),
      stepInput((step) => this.showStep(step)),
    );
    this.tile = null;
    this.tiles.cancel();
    this.requestTiles(true);
    if (this.selected) this.select(this.selected, false);
    void this.search.refresh();
    this.refreshCriticalPath(true);
  }

  /** Frame step `step` (the step pickers, a finding's link) in the window that holds it (from
   * "all" too); a step outside every window leaves the view as it is and says so. */
  showStep(step: number): void {
    const meta = this.meta;
    if (!meta) return;
    const found = locateStep(meta.windows, meta.steps, step);
    if ("message" in found) {
      this.windowNote.textContent = found.message;
      this.windowNote.hidden = false;
      return;
    }
    if (meta.windows.length > 1 && found.window !== this.choice) this.pickWindow(found.window);
    this.showRange(found.extent.start, found.extent.end, 0.02);
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
    this.pathRequest.abort();
    this.selectionRequest.abort();
    this.stage.dispose();
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
    this.stage.setLanesHeight(this.layout.height);
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

  /** Limit the view to a recorded window (or the whole run, ALL) and show `view` in it
   * (all of it by default). */
  private pickWindow(choice: WindowChoice, view: TimeWindow | null = null): void {
    const meta = this.meta;
    if (!meta) return;
    this.choice = choice;
    this.bounds = choiceBounds(meta.windows, choice, { start: meta.start, end: meta.end });
    this.canvas.dataset["window"] = String(choice);
    this.windowNote.hidden = true;
    this.windowPicker.replaceChildren(
      ...(meta.windows.length > 1 ? [windowSelect(meta.windows, choice, (picked) => this.pickWindow(picked))] : []),
    );
    this.setWindow(view ?? this.bounds);
  }

  /** Frame [start, end) with `padding`, in the window that holds it when the current one does not. */
  private showRange(start: number, end: number, padding: number): void {
    const meta = this.meta;
    if (!meta) return;
    const choice = choiceShowing(meta.windows, this.choice, start, end, { start: meta.start, end: meta.end });
    if (choice !== this.choice) this.pickWindow(choice);
    this.windowNote.hidden = true;
    this.setWindow(fitWindow(start, end, padding, this.bounds));
  }

  private setWindow(next: TimeWindow): void {
    this.window = clampWindow(next, this.bounds);
    this.canvas.dataset["start"] = String(Math.round(this.window.start));
    this.canvas.dataset["end"] = String(Math.round(this.window.end));
    const shown = this.window;
    this.canvas.dataset["gaps"] = String(this.gaps.filter((g) => g.start < shown.end && g.end > shown.start).length);
    this.scheduleDraw();
    this.requestTiles(false);
    this.refreshCriticalPath(false);
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
    const extent = { start: Math.max(meta.start, this.bounds.start), end: Math.min(meta.end, this.bounds.end) };
    const need = { window, widthPx, ranks: all ? null : ranks, extent };
    if (now) this.tiles.refetch(need);
    else this.tiles.want(need, this.tile);
  }

  private timeAreaWidth(): number {
    return Math.max(0, this.stage.width - GUTTER_WIDTH);
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

  // ---- critical path -----------------------------------------------------------------------

  /** With the toggle on, fetch the critical path of the step in view when that step changed
   * (`force`: also when it did not: the toggle, a reload); with it off, drop the path. */
  private refreshCriticalPath(force: boolean): void {
    const meta = this.meta;
    if (!this.criticalPath.on || !meta || !this.window) {
      this.pathRequest.abort();
      this.pathStep = null;
      this.path = [];
      this.criticalPath.say("");
      delete this.canvas.dataset["criticalPath"];
      this.scheduleDraw();
      return;
    }
    const step = shownStep(meta.steps, this.window);
    if (step === this.pathStep && !force) return;
    this.pathRequest.abort();
    this.pathRequest = new AbortController();
    this.pathStep = step;
    this.path = [];
    delete this.canvas.dataset["criticalPath"];
    this.scheduleDraw();
    if (step === null) {
      this.criticalPath.say("no step in view");
      return;
    }
    this.criticalPath.say(`step ${step}…`);
    void this.loadCriticalPath(step, this.pathRequest.signal);
  }

  private async loadCriticalPath(step: number, signal: AbortSignal): Promise<void> {
    try {
      const path = await fetchCriticalPath(this.run, step, signal, (progress) =>
        this.criticalPath.say(`step ${step}: computing… ${Math.round(progress.fraction * 100)}%`),
      );
      if (signal.aborted) return;
      this.path = pathSpans(path);
      this.criticalPath.say(pathSummary(path));
      this.canvas.dataset["criticalPath"] = `${path.step}:${path.rank}:${path.timeline.length}`;
      this.scheduleDraw();
    } catch (error) {
      if (signal.aborted) return;
      this.criticalPath.say(`step ${step}: ${error instanceof ApiError ? error.message : String(error)}`);
    }
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
        const end = event.start + event.dur;
        const bounds = this.bounds;
        if (event.start >= bounds.start && end <= bounds.end) this.setWindow(revealWindow(this.window, event.start, end, bounds));
        else this.showRange(event.start, end, 0.5);
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
        onZoom: () => this.showRange(event.start, event.start + event.dur, 0.5),
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
    this.showRange(match.start, match.start + match.dur, MATCH_PADDING);
    this.select({ rank: match.rank, id: match.id }, false);
  }

  // ---- pointer -----------------------------------------------------------------------------

  private hitTest(x: number, y: number): PointerHit {
    const query = { x, y, scrollTop: this.stage.scrollTop, time: this.timeAt(x), slack: HOVER_SLACK_PX * this.nsPerPx() };
    return hitTest(this.layout, this.tile, query);
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
    const hover = hoverOf(this.hitTest(x, y), x, this.tile, this.meta, this.collapsedRanks);
    if (hover === null) return this.setHover(null, null);
    this.canvas.style.cursor = hover.cursor;
    this.setHover(hover.span, hover.lines, x, y);
  }

  private setHover(span: LaneSpan | null, lines: string[] | null, x = 0, y = 0): void {
    this.hovered = span;
    this.scheduleDraw();
    this.stage.showTooltip(lines, x, y);
  }

  // ---- drawing -----------------------------------------------------------------------------

  private scheduleDraw(): void {
    this.stage.scheduleDraw();
  }

  private sceneParts(): SceneParts | null {
    if (!this.window) return null;
    return {
      window: this.window,
      zero: this.meta?.start ?? 0,
      layout: this.layout,
      gaps: this.gaps,
      tile: this.tile,
      hovered: this.hovered,
      ...selectionSpans(this.selected, this.selectedEvent, this.flowPeer),
      path: this.path,
      emptyMessage: this.emptyMessage(),
    };
  }

  private emptyMessage(): string | null {
    if (this.layout.bands.length > 0) return null;
    return this.meta?.ranks.length
      ? "Every rank is hidden: turn one on with the rank buttons above."
      : "This run has no timeline events: no MyTimer spans and no profiler traces yet.";
  }
}
