// Toolbar controls of the timeline: rank on/off toggles, the jump-to-step selector and the
// step number field.

import { h } from "../base/dom";
import { formatDuration } from "../base/format";
import type { RankMeta, StepExtent } from "./types";

export function rankToggles(
  ranks: readonly RankMeta[],
  isEnabled: (rank: number) => boolean,
  onToggle: (rank: number) => void,
): HTMLElement[] {
  return ranks.map(({ rank }) => {
    const button = h(
      "button",
      {
        type: "button",
        class: "rank-toggle",
        "aria-pressed": String(isEnabled(rank)),
        "data-testid": "timeline-rank-toggle",
        "data-rank": rank,
        title: `Show or hide rank ${rank}`,
      },
      `rank ${rank}`,
    );
    button.addEventListener("click", () => onToggle(rank));
    return button;
  });
}

/** "0-3, 37" → [0, 1, 2, 3, 37]; null when the text is not such a list or names no rank. */
export function parseRankList(text: string, known: ReadonlySet<number>): number[] | null {
  const ranks = new Set<number>();
  for (const part of text.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!match) return null;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (last < first) return null;
    for (let rank = first; rank <= last && ranks.size <= known.size; rank++) {
      if (known.has(rank)) ranks.add(rank);
    }
  }
  return ranks.size ? [...ranks].sort((a, b) => a - b) : null;
}

/** [0, 1, 2, 3, 37] → "0-3, 37". */
export function formatRankList(ranks: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ranks.length; ) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === (ranks[j] ?? 0) + 1) j++;
    parts.push(i === j ? String(ranks[i]) : `${ranks[i]}-${ranks[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

/** For runs with many ranks: a text field of the ranks shown ("0-3, 37") instead of a button each. */
export function rankPicker(
  ranks: readonly RankMeta[],
  enabled: readonly number[],
  onPick: (ranks: number[]) => void,
): HTMLElement {
  const known = new Set(ranks.map((r) => r.rank));
  const input = h("input", {
    type: "text",
    value: formatRankList(enabled),
    placeholder: "e.g. 0-7, 37",
    size: 16,
    "data-testid": "timeline-rank-picker",
    "aria-label": "Ranks to show",
  });
  input.addEventListener("change", () => {
    const picked = parseRankList(input.value, known);
    input.setAttribute("aria-invalid", String(picked === null));
    input.title = picked === null ? `Ranks as a list such as "0-7, 37", of ranks 0–${Math.max(...known)}` : "";
    if (picked) onPick(picked);
  });
  return h(
    "label",
    { class: "rank-picker" },
    "Ranks ",
    input,
    h("span", { class: "muted" }, ` ${enabled.length} of ${ranks.length}`),
  );
}

export function stepSelect(
  steps: readonly StepExtent[],
  onStep: (step: StepExtent) => void,
): HTMLSelectElement {
  const select = h(
    "select",
    { "data-testid": "timeline-step-select", "aria-label": "Jump to step", disabled: steps.length === 0 },
    h("option", { value: "" }, steps.length === 0 ? "No steps" : "Jump to step…"),
    ...steps.map((step, index) =>
      h("option", { value: String(index) }, `step ${step.step} (${formatDuration(step.end - step.start)})`),
    ),
  );
  select.addEventListener("change", () => {
    const step = steps[Number(select.value)];
    if (select.value !== "" && step) onStep(step);
  });
  return select;
}

/** A field to go to a step by its number: quicker than the selector in a run of thousands of
 * steps, and it reaches steps no window recorded (which the view then says). */
export function stepInput(onStep: (step: number) => void): HTMLInputElement {
  const input = h("input", {
    type: "number",
    min: 0,
    step: 1,
    placeholder: "step #",
    "data-testid": "timeline-step-input",
    "aria-label": "Go to step number",
    class: "step-input",
  });
  input.addEventListener("change", () => {
    const step = Number(input.value);
    if (input.value.trim() !== "" && Number.isSafeInteger(step)) onStep(step);
  });
  return input;
}
