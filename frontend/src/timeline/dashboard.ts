// The Timeline tab. One view is kept for the current run, so switching tabs keeps its state;
// the first view of the page load starts from the hash. A run with nothing to draw gets the
// server's sentence saying why instead of an empty canvas.

import { ApiError } from "../base/api";
import type { Dashboard } from "../base/dashboard";
import { h } from "../base/dom";
import { EMPTY_STATE, readTimelineHash, writeTimelineHash } from "./hashState";
import { TimelineView } from "./timelineView";

let view: TimelineView | null = null;
let hashRestored = false;

function viewFor(run: string): TimelineView {
  if (view?.run === run) return view;
  view?.dispose();
  // The hash describes the run of the page load; another run starts from a clean view.
  const state = hashRestored ? EMPTY_STATE : readTimelineHash();
  if (hashRestored) writeTimelineHash(EMPTY_STATE);
  hashRestored = true;
  view = new TimelineView(run, state);
  return view;
}

function nothingToDraw(message: string): HTMLElement {
  return h(
    "div",
    { class: "empty", "data-testid": "timeline-empty", role: "status" },
    h("h2", {}, "Nothing to draw"),
    h("p", {}, message),
  );
}

export const timelineDashboard: Dashboard = {
  id: "timeline",
  label: "Timeline",
  usesRankSelect: false,
  async show({ run, signal, refresh, onProgress, params }) {
    const current = viewFor(run);
    const listed = String(params["ranks"] ?? "")
      .split(",")
      .filter((text) => text.trim() !== "")
      .map(Number);
    const ranks = listed.every(Number.isInteger) ? listed : [];
    try {
      if (refresh || !current.loaded) await current.load(signal, onProgress, ranks);
    } catch (error) {
      // timeline/meta's 404 for a run of the list: no trace events or spans, and why
      if (error instanceof ApiError && error.code === "not_found") return nothingToDraw(error.message);
      throw error;
    }
    const rank = Number(params["rank"]);
    if (ranks.length > 0) current.showRanks(ranks);
    else if (params["rank"] != null && Number.isInteger(rank)) current.revealRank(rank);
    const step = Number(params["step"]);
    if (params["step"] != null && Number.isInteger(step)) current.showStep(step);
    return current.element;
  },
};
