// Keeps a tile for the view: asks `timeline/tiles` for the visible window (plus half a view of
// margin each side, so short pans need nothing new) once the view has settled, skips the request
// when the tile at hand or in flight already covers the view, and aborts requests the view has left.

import type { ProgressListener } from "../base/api";
import { fetchTiles, type TileQuery } from "./api";
import { prepareTile, type Tile } from "./tile";
import type { TimeWindow } from "../canvas/viewWindow";

const SETTLE_MS = 60;
const MAX_WIDTH_PX = 8192;
/** Zooming in this much past a tile's resolution makes its merged boxes visibly coarse. */
const MAX_COARSENESS = 1.5;

export interface TileNeed {
  window: TimeWindow;
  /** Width of the time area in CSS px. */
  widthPx: number;
  /** Null for every rank. */
  ranks: readonly number[] | null;
  /** The run's extent: nothing to fetch outside it. */
  extent: TimeWindow;
}

export interface TileListener {
  onTile: (tile: Tile) => void;
  /** The server is still reading the run (202); the request keeps polling. */
  onProgress: ProgressListener;
  onError: (error: unknown) => void;
}

interface Covered {
  start: number;
  end: number;
  nsPerPx: number;
  ranksKey: string;
}

function ranksKey(ranks: readonly number[] | null): string {
  return ranks === null ? "all" : ranks.join(",");
}

function covers(have: Covered | null, need: TileNeed): boolean {
  if (have === null || have.ranksKey !== ranksKey(need.ranks)) return false;
  const { window, extent } = need;
  const nsPerPx = (window.end - window.start) / need.widthPx;
  return (
    have.start <= Math.max(window.start, extent.start) &&
    have.end >= Math.min(window.end, extent.end) &&
    have.nsPerPx <= nsPerPx * MAX_COARSENESS
  );
}

function queryFor(need: TileNeed): TileQuery & Covered {
  const { window, extent } = need;
  const width = window.end - window.start;
  const nsPerPx = width / need.widthPx;
  const margin = Math.max(0, Math.min(width / 2, (MAX_WIDTH_PX * nsPerPx - width) / 2));
  const start = Math.floor(Math.max(extent.start, window.start - margin));
  const end = Math.ceil(Math.min(extent.end, window.end + margin));
  const widthPx = Math.min(MAX_WIDTH_PX, Math.max(1, Math.round((end - start) / nsPerPx)));
  return {
    start,
    end: Math.max(end, start + 1),
    widthPx,
    ranks: need.ranks,
    nsPerPx: (end - start) / widthPx,
    ranksKey: ranksKey(need.ranks),
  };
}

export class TileLoader {
  private timer = 0;
  private inFlight: { query: Covered; controller: AbortController } | null = null;

  constructor(
    private readonly run: string,
    private readonly listener: TileListener,
  ) {}

  /** The view changed: fetch once it settles, unless `have` or the request in flight covers it. */
  want(need: TileNeed, have: Tile | null): void {
    clearTimeout(this.timer);
    if (covers(have, need) || covers(this.inFlight?.query ?? null, need)) return;
    this.timer = window.setTimeout(() => this.fetch(need), SETTLE_MS);
  }

  /** The data changed (TensorBoard's reload): fetch now whatever is at hand. */
  refetch(need: TileNeed): void {
    clearTimeout(this.timer);
    this.fetch(need);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.inFlight?.controller.abort();
    this.inFlight = null;
  }

  private fetch(need: TileNeed): void {
    this.cancel();
    const query = queryFor(need);
    const controller = new AbortController();
    this.inFlight = { query, controller };
    fetchTiles(this.run, query, controller.signal, this.listener.onProgress).then(
      (response) => {
        if (controller.signal.aborted) return;
        this.inFlight = null;
        this.listener.onTile(prepareTile(response, query.ranksKey));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.inFlight = null;
        this.listener.onError(error);
      },
    );
  }
}
