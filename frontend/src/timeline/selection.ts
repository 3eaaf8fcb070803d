// The selected event as the renderer outlines it: its box, and the arrow to its flow's other end
// (from the launching runtime call to the device event). Pure functions.

import type { LaneSpan } from "./render";
import type { EventRef, TimelineEvent } from "./types";

export function sameRef(a: EventRef | null, b: EventRef | null): boolean {
  return a !== null && b !== null && a.rank === b.rank && a.id === b.id;
}

export interface SelectionSpans {
  selected: LaneSpan | null;
  flow: { from: LaneSpan; to: LaneSpan } | null;
}

function spanOf(event: TimelineEvent): LaneSpan {
  return { lane: event.lane, row: event.row, start: event.start, end: event.start + event.dur };
}

/** Nothing until the details of the selected event (`selected`) have arrived as `event`. */
export function selectionSpans(
  selected: EventRef | null,
  event: TimelineEvent | null,
  peer: TimelineEvent | null,
): SelectionSpans {
  if (!event || !sameRef(event, selected)) return { selected: null, flow: null };
  const span = spanOf(event);
  if (!peer) return { selected: span, flow: null };
  return event.kind === "runtime"
    ? { selected: span, flow: { from: span, to: spanOf(peer) } }
    : { selected: span, flow: { from: spanOf(peer), to: span } };
}
