// What the plugin shell (src/app.ts) needs from a dashboard tab.

import type { ProgressListener } from "./api";
import type { RunInfo } from "./types";

export interface RankOption {
  rank: number;
  host?: string;
}

export interface DashboardContext {
  run: string;
  /** The toolbar's rank selection; null for all ranks. */
  rank: number | null;
  signal: AbortSignal;
  /** True on first load and on TensorBoard's reload (data may have changed); false on a tab switch. */
  refresh: boolean;
  onProgress: ProgressListener;
  /** Lets a dashboard that learns the ranks' hosts label the rank selector with them. */
  onRanks: (ranks: readonly RankOption[]) => void;
  /** Open another dashboard, e.g. the view of a finding, with parameters for it. */
  navigate: (dashboard: string, params: NavigationParams) => void;
  /** Parameters another dashboard opened this one with (empty otherwise). */
  params: NavigationParams;
}

/** What a link into a dashboard asks for: `rank`, `step`, `q` (a search or filter text). */
export type NavigationParams = Readonly<Record<string, string | number | null>>;

export interface Dashboard {
  /** Key in the location hash (`dashboard=<id>`) and in the tab's `data-testid` (`tab-<id>`). */
  readonly id: string;
  readonly label: string;
  /** Whether the toolbar's rank selector applies; dashboards that show every rank hide it. */
  readonly usesRankSelect: boolean;
  /** Whether the tab applies to a run (e.g. only runs with imported profiles); default: all. */
  readonly available?: (run: RunInfo) => boolean;
  /** Fetch what the dashboard needs and return its content. */
  show(context: DashboardContext): Promise<HTMLElement>;
}
