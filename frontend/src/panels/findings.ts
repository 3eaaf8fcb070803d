// The findings panel: most severe first, each with its evidence, what to change, and a link to
// the view that shows it; a symptom whose cause was found too is folded under that cause. All
// text from the server is set as text, never as HTML.

import type { NavigationParams } from "../base/dashboard";
import { h } from "../base/dom";
import { formatCount, formatDuration, formatMemory } from "../base/format";
import type { Finding } from "./types";

/** The tab labels of the dashboard ids a route may send the user to. */
export const TAB_LABELS: Record<string, string> = {
  overview: "Overview",
  timeline: "Timeline",
  operators: "Operators",
  kernels: "Kernels",
  memory: "Memory",
  gpu: "GPU",
  modules: "Modules",
  python: "Python",
  tasks: "Tasks",
  distributed: "Distributed",
};

function evidenceValue(value: number | string, unit: string): string {
  if (typeof value !== "number") return String(value);
  if (unit === "ns") return formatDuration(value);
  if (unit === "fraction") return `${(value * 100).toFixed(1)} %`;
  if (unit === "x") return `${value.toFixed(2)}×`;
  if (unit === "%") return `${value.toFixed(1)} %`;
  if (unit === "bytes") return formatMemory(value);
  if (unit === "bytes/step") return `${formatMemory(value)} per step`;
  if (unit === "step") return `step ${value}`;
  if (unit) return `${Number.isInteger(value) ? formatCount(value) : value.toPrecision(3)} ${unit}`;
  return String(value);
}

/** What a fix would save, in words. */
export function impactText(finding: Finding): string {
  const impact = finding.impact;
  if (!impact || impact.ns_per_step === null) return `No step-time estimate (${impact?.basis ?? "not estimated"})`;
  const share = impact.share_of_step === null ? "" : ` (${(impact.share_of_step * 100).toFixed(0)} % of the step)`;
  return `Saves ≈ ${formatDuration(impact.ns_per_step)} per step${share}`;
}

/** The findings whose fixes would save the most step time, causes only, largest first. */
export function savingsPanel(
  findings: readonly Finding[],
  navigate: (tab: string, params: NavigationParams) => void,
  count = 3,
): HTMLElement | null {
  const top = findings
    .filter((f) => !f.explained_by && f.impact?.ns_per_step != null)
    .sort((a, b) => (b.impact?.ns_per_step ?? 0) - (a.impact?.ns_per_step ?? 0))
    .slice(0, count);
  if (top.length === 0) return null;
  return h(
    "section",
    { class: "panel", "data-testid": "savings" },
    h("h2", {}, "What would save the most"),
    h(
      "ol",
      { class: "savings" },
      ...top.map((f) => {
        const link = h("button", { type: "button", class: "link-button" }, f.title);
        link.addEventListener("click", () => navigate(f.view.tab, f.view.params));
        return h(
          "li",
          { "data-testid": "saving", "data-key": f.key },
          h("strong", { class: "saving-amount" }, impactText(f)),
          " — ",
          link,
        );
      }),
    ),
  );
}

function findingItem(
  finding: Finding,
  navigate: (tab: string, params: NavigationParams) => void,
  symptoms: readonly Finding[] = [],
): HTMLElement {
  const tab = finding.view.tab;
  const link = h(
    "button",
    { type: "button", class: "link-button", "data-testid": "finding-link", "data-tab": tab },
    `Open in ${TAB_LABELS[tab] ?? tab}`,
  );
  link.addEventListener("click", () => navigate(tab, finding.view.params));
  const evidence = Object.entries(finding.evidence).map(([name, item]) =>
    h("li", {}, `${name.replaceAll("_", " ")}: ${evidenceValue(item.value, item.unit)}`),
  );
  return h(
    "li",
    {
      class: `finding severity-${finding.severity}`,
      "data-testid": "finding",
      "data-kind": finding.kind,
      "data-key": finding.key,
      "data-severity": finding.severity,
    },
    h(
      "div",
      { class: "finding-head" },
      h("span", { class: `severity-badge severity-${finding.severity}` }, finding.severity),
      h("strong", { class: "finding-title" }, finding.title),
    ),
    h("p", { class: "finding-impact", "data-testid": "finding-impact", title: finding.impact?.basis ?? "" }, impactText(finding)),
    h("ul", { class: "finding-evidence" }, ...evidence),
    h("p", { class: "finding-fix" }, finding.recommendation),
    link,
    symptoms.length === 0
      ? null
      : h(
          "details",
          { class: "finding-symptoms", "data-testid": "finding-symptoms" },
          h("summary", {}, `${symptoms.length === 1 ? "1 finding" : `${symptoms.length} findings`} this explains`),
          h("ol", { class: "findings" }, ...symptoms.map((f) => findingItem(f, navigate))),
        ),
  );
}

export function findingsPanel(
  findings: readonly Finding[],
  navigate: (tab: string, params: NavigationParams) => void,
): HTMLElement {
  const keys = new Set(findings.map((f) => f.key));
  const body =
    findings.length === 0
      ? h(
          "p",
          { class: "muted", "data-testid": "no-findings" },
          "No findings: nothing in this run crossed a threshold.",
        )
      : h(
          "ol",
          { class: "findings", "data-testid": "findings" },
          ...findings
            .filter((f) => !f.explained_by || !keys.has(f.explained_by))
            .map((f) => findingItem(f, navigate, findings.filter((s) => s.explained_by === f.key))),
        );
  return h("section", { class: "panel" }, h("h2", {}, "Findings"), body);
}
