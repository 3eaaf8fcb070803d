// The details panel of the selected event. Every server string goes in as text (base/dom.ts h()).

import { h } from "../base/dom";
import { formatDuration, formatTimestamp } from "../base/format";
import type { EventRef, TimelineEvent } from "./types";

export interface DetailsOptions {
  event: TimelineEvent;
  laneLabel: (laneId: string) => string;
  /** Run start: times are shown from here. */
  zero: number;
  /** The other end of the event's flow, once fetched. */
  peer: TimelineEvent | null;
  onJump: (ref: EventRef) => void;
  onZoom: () => void;
}

function argText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function fieldRow(label: string, value: Node | string): HTMLElement {
  return h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, value));
}

function flowRow(options: DetailsOptions): HTMLElement | null {
  const { event, peer } = options;
  const flow = event.flow;
  if (flow === null) return null;
  // The runtime call is the launch end; anything else is the device end.
  const isLaunch = event.kind === "runtime";
  const label = isLaunch ? "Launches" : "Launched by";
  const peerName = peer?.name ?? `event ${flow.id}`;
  const link = h(
    "button",
    { type: "button", class: "link-button", "data-testid": "timeline-flow-link" },
    `${peerName} (rank ${flow.rank}, ${options.laneLabel(flow.lane)}) →`,
  );
  link.addEventListener("click", () => options.onJump({ rank: flow.rank, id: flow.id }));
  return fieldRow(label, link);
}

export function renderDetails(options: DetailsOptions): HTMLElement {
  const { event, zero } = options;
  const zoom = h("button", { type: "button", class: "link-button" }, "Zoom to event");
  zoom.addEventListener("click", options.onZoom);
  const args = Object.entries(event.args);
  return h(
    "div",
    { class: "details-body" },
    h(
      "div",
      { class: "details-header" },
      h("h2", { class: "details-title", title: event.name }, event.name),
      zoom,
    ),
    h(
      "table",
      { class: "details-table" },
      h(
        "tbody",
        {},
        fieldRow("kind", event.kind),
        fieldRow("rank", String(event.rank)),
        fieldRow("lane", options.laneLabel(event.lane)),
        fieldRow("step", event.step === null ? "—" : String(event.step)),
        fieldRow("start", `${formatTimestamp(event.start - zero)} from run start`),
        fieldRow("duration", `${formatDuration(event.dur)} (${event.dur.toLocaleString("en-US")} ns)`),
        fieldRow("event id", String(event.id)),
        flowRow(options),
      ),
    ),
    args.length === 0
      ? null
      : h(
          "table",
          { class: "details-table details-args", "data-testid": "timeline-details-args" },
          h("caption", {}, "Arguments"),
          h("tbody", {}, ...args.map(([key, value]) => fieldRow(key, argText(value)))),
        ),
  );
}
