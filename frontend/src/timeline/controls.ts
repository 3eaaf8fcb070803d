// Toolbar controls of the timeline: rank on/off toggles and the jump-to-step selector.

import { h } from "../dom";
import { formatDuration } from "../format";
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
