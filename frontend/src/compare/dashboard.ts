// The Compare tab: a baseline and a candidate run (hash keys `base`, `cand`), the step-time
// verdict, category deltas, operator / kernel / module delta tables, the collectives'
// bandwidths, memory, GPU and balance side by side, the findings that appeared or disappeared,
// and links into each run's Timeline.

import { ApiError, fetchRuns } from "../base/api";
import type { Dashboard, NavigationParams } from "../base/dashboard";
import { h } from "../base/dom";
import { formatCount, formatDuration } from "../base/format";
import { readHash, updateHash } from "../base/hashState";
import { fetchCompare } from "./api";
import { defaultBaseline } from "./baseline";
import { collectiveDeltaTable } from "./collectives";
import { categoryDeltaChart } from "./deltaChart";
import { deltaTable } from "./deltaTable";
import { balanceTable, metricsTable } from "./metrics";
import type { BriefFinding, CompareAnswer, StepLink, StepTimeDiff } from "./types";

type Navigate = (tab: string, params: NavigationParams) => void;

function section(
  title: string,
  testId: string,
  ...content: (Node | string | null)[]
): HTMLElement {
  return h("section", { class: "panel", "data-testid": testId }, h("h2", {}, title), ...content);
}

function notice(testId: string, text: string): HTMLElement {
  return h("section", { class: "notice", "data-testid": testId, role: "status" }, text);
}

/**
 * Open `run`'s Timeline at `step`. Navigation opens a tab for the toolbar's run, so the run is
 * chosen first through the toolbar's own selector, as a user would.
 */
function openTimeline(run: string, step: number, navigate: Navigate): void {
  const select = document.querySelector<HTMLSelectElement>('[data-testid="run-select"]');
  if (select && select.value !== run) {
    select.value = run;
    select.dispatchEvent(new Event("change"));
  }
  navigate("timeline", { step });
}

function headline(step: StepTimeDiff): HTMLElement {
  const slug = step.verdict.replace(" ", "-");
  const stats = (side: "baseline" | "candidate"): HTMLElement => {
    const s = step[side];
    return h(
      "tr",
      { "data-testid": `step-stats-${side}` },
      h("th", {}, side),
      h("td", { class: "numeric" }, formatCount(s.steps)),
      h("td", { class: "numeric" }, formatDuration(s.median_ns)),
      h("td", { class: "numeric" }, formatDuration(s.p95_ns)),
    );
  };
  const [low, high] = step.ci;
  const interval =
    step.ratio === null || low === null || high === null
      ? "One of the runs has fewer than two steps: no ratio to test."
      : `median(candidate) / median(baseline) = ${step.ratio.toFixed(3)}, ` +
        `${Math.round((1 - step.alpha) * 100)} % bootstrap interval ` +
        `[${low.toFixed(3)}, ${high.toFixed(3)}].`;
  return h(
    "section",
    { class: "panel" },
    h(
      "p",
      {
        class: `compare-headline verdict-${slug}`,
        "data-testid": "compare-headline",
        "data-verdict": step.verdict,
      },
      // the headline says the verdict itself ("inconclusive: …", "candidate is … faster"):
      // no second verdict word beside it, only its colour
      step.headline,
    ),
    h("p", { class: "muted", "data-testid": "compare-ratio" }, interval),
    h(
      "table",
      { class: "data-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, "run"),
          h("th", { class: "numeric" }, "steps"),
          h("th", { class: "numeric" }, "median step"),
          h("th", { class: "numeric" }, "p95 step"),
        ),
      ),
      h("tbody", {}, stats("baseline"), stats("candidate")),
    ),
  );
}

function timelineLinks(answer: CompareAnswer, navigate: Navigate): HTMLElement | null {
  const link = (target: StepLink | null, side: string): HTMLElement | null => {
    if (target === null) return null;
    const { run, step } = target;
    const button = h(
      "button",
      {
        type: "button",
        class: "link-button",
        "data-testid": `timeline-link-${side}`,
        "data-run": run,
        "data-step": step,
      },
      `${side} ${run}, step ${step}`,
    );
    button.addEventListener("click", () => openTimeline(run, step, navigate));
    return h("li", {}, button);
  };
  const items = [
    link(answer.links.baseline_step, "baseline"),
    link(answer.links.candidate_step, "candidate"),
  ];
  if (items.every((item) => item === null)) return null;
  return section(
    "Open in the Timeline",
    "timeline-links",
    h("p", { class: "muted" }, "A typical step of each run (nearest its median step time):"),
    h("ul", { class: "top-list" }, ...items),
  );
}

function findingList(
  findings: readonly BriefFinding[],
  testId: string,
  empty: string,
): HTMLElement {
  if (findings.length === 0) return h("p", { class: "muted", "data-testid": testId }, empty);
  return h(
    "ul",
    { class: "findings", "data-testid": testId },
    ...findings.map((f) =>
      h(
        "li",
        {
          class: `finding severity-${f.severity}`,
          "data-testid": "compare-finding",
          "data-kind": f.kind,
        },
        h(
          "div",
          { class: "finding-head" },
          h("span", { class: `severity-badge severity-${f.severity}` }, f.severity),
          h("strong", { class: "finding-title" }, f.title),
        ),
      ),
    ),
  );
}

function findingsSection(answer: CompareAnswer): HTMLElement {
  const { appeared, disappeared, kept } = answer.findings;
  return section(
    "Findings",
    "compare-findings",
    h("h3", {}, `Appeared in the candidate (${appeared.length})`),
    findingList(
      appeared,
      "findings-appeared",
      "None: the candidate has no finding the baseline lacks.",
    ),
    h("h3", {}, `Gone from the candidate (${disappeared.length})`),
    findingList(
      disappeared,
      "findings-disappeared",
      "None: every finding of the baseline is still there.",
    ),
    h("h3", {}, `In both runs (${kept.length})`),
    findingList(kept, "findings-kept", "None."),
  );
}

/** What operator and kernel times are per (docs/DIFF.md: `per_step`). */
function tracePer({ baseline, candidate }: CompareAnswer["per_step"]): string {
  return (
    `Time per traced step and rank (the traces cover ${formatCount(baseline)} and ` +
    `${formatCount(candidate)} such windows; a trace without steps counts whole)`
  );
}

function renderCompare(answer: CompareAnswer, navigate: Navigate): HTMLElement {
  return h(
    "div",
    { "data-testid": "compare-result" },
    answer.ranks.note ? notice("compare-ranks-note", answer.ranks.note) : null,
    headline(answer.step_time),
    timelineLinks(answer, navigate),
    section(
      "Where the step time changed",
      "compare-categories",
      answer.attribution.length > 0 || answer.categories.length === 0
        ? categoryDeltaChart(answer.attribution, answer.category_source, "median")
        : categoryDeltaChart(answer.categories, answer.category_source, "mean"),
    ),
    findingsSection(answer),
    section(
      "Operators",
      "compare-operators",
      deltaTable({
        prefix: "co",
        noun: "operator",
        per: tracePer(answer.per_step),
        rows: answer.operators,
        total: answer.operators_total,
        name: (r) => r.name,
        calls: (r) => [r.baseline_calls, r.candidate_calls],
      }),
    ),
    section(
      "Kernels",
      "compare-kernels",
      deltaTable({
        prefix: "ck",
        label: (r) => r.short_name,
        noun: "kernel",
        per: tracePer(answer.per_step),
        rows: answer.kernels,
        total: answer.kernels_total,
        name: (r) => r.name,
        calls: (r) => [r.baseline_calls, r.candidate_calls],
      }),
    ),
    section(
      "Modules",
      "compare-modules",
      deltaTable({
        prefix: "cm",
        noun: "module",
        per: "Time per step and rank",
        rows: answer.modules,
        total: answer.modules_total,
        name: (r) => r.path || "(model)",
        extra: [{ key: "phase", label: "phase", numeric: false, value: (r) => r.phase }],
      }),
    ),
    answer.collectives.length
      ? section(
          "Collectives",
          "compare-collectives",
          collectiveDeltaTable(answer.collectives, answer.collectives_total),
        )
      : null,
    section(
      "Memory",
      "compare-memory",
      metricsTable(answer.memory, "memory", "Neither run sampled memory (MemorySampler)."),
    ),
    section(
      "GPU",
      "compare-gpu",
      metricsTable(answer.gpu, "gpu", "Neither run has GPU kernels in traces or GpuTracker samples."),
    ),
    section("Rank balance", "compare-balance", balanceTable(answer.balance)),
  );
}

/**
 * The runs as options, plus `value` marked missing when the logdir no longer has it, or a
 * "pick a run" placeholder when `value` is "" (none chosen yet).
 */
function fillSelect(select: HTMLSelectElement, names: readonly string[], value: string): void {
  const options = value === "" || names.includes(value) ? names : [...names, value];
  const items = options.map((name) =>
    names.includes(name)
      ? h("option", { value: name }, name)
      : h("option", { value: name, disabled: true }, `${name} (missing)`),
  );
  if (value === "") items.unshift(h("option", { value: "", disabled: true }, "— pick a run —"));
  select.replaceChildren(...items);
  select.value = value;
}

/** Why there is nothing to compare, or null when the pair can be compared. */
function problem(
  names: readonly string[],
  baseline: string,
  candidate: string,
): HTMLElement | null {
  if (names.length < 2) {
    const held = names.length === 1 ? "only one" : "none";
    return notice("compare-problem", `Compare needs two runs; this logdir holds ${held}.`);
  }
  for (const [role, run] of [["baseline", baseline], ["candidate", candidate]] as const) {
    if (run === "") {
      const other = role === "baseline" ? candidate : baseline;
      const why =
        role === "baseline"
          ? " (no earlier run with the same number of ranks to start from)"
          : "";
      return notice(
        "compare-prompt",
        `Pick a ${role} run to compare with “${other}”${why}.`,
      );
    }
    if (!names.includes(run)) {
      return notice(
        "compare-problem",
        `The ${role} run “${run}” is not in this logdir; pick another.`,
      );
    }
  }
  if (baseline === candidate) {
    return notice(
      "compare-problem",
      `Baseline and candidate are the same run (“${baseline}”): pick two different runs.`,
    );
  }
  return null;
}

export const compareDashboard: Dashboard = {
  id: "compare",
  label: "Compare",
  usesRankSelect: false,
  async show({ run, signal, onProgress, navigate }) {
    const runs = await fetchRuns(signal);
    const names = runs.map((r) => r.name);
    const hash = readHash();
    // Without a saved pair: the toolbar's run is the candidate, the baseline the most similar
    // earlier run (same number of ranks), else none until the user picks one.
    let candidate = hash.get("cand") ?? run;
    let baseline = hash.get("base") ?? defaultBaseline(runs, candidate) ?? "";
    const baselineSelect = h("select", {
      "data-testid": "compare-baseline",
      "aria-label": "Baseline run",
    });
    const candidateSelect = h("select", {
      "data-testid": "compare-candidate",
      "aria-label": "Candidate run",
    });
    const swap = h(
      "button",
      { type: "button", class: "compare-swap", "data-testid": "compare-swap" },
      "⇄ swap",
    );
    const body = h("div", { "data-testid": "compare-body" });
    let inFlight = new AbortController();

    const load = async (progress: typeof onProgress): Promise<void> => {
      inFlight.abort();
      inFlight = new AbortController();
      fillSelect(baselineSelect, names, baseline);
      fillSelect(candidateSelect, names, candidate);
      const own = AbortSignal.any([signal, inFlight.signal]);
      updateHash({ base: baseline || null, cand: candidate || null });
      const why = problem(names, baseline, candidate);
      if (why) {
        body.replaceChildren(why);
        return;
      }
      body.setAttribute("aria-busy", "true");
      try {
        const answer = await fetchCompare(baseline, candidate, own, progress);
        if (!own.aborted) body.replaceChildren(renderCompare(answer, navigate));
      } catch (error) {
        if (own.aborted) return;
        const detail =
          error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
        body.replaceChildren(
          h(
            "div",
            { class: "error", "data-testid": "error", role: "alert" },
            h("strong", {}, "Could not compare the runs"),
            h("p", {}, detail),
          ),
        );
      } finally {
        if (!own.aborted) body.removeAttribute("aria-busy");
      }
    };
    // After the first answer the tab is on screen: show later progress inside it.
    const inlineProgress: typeof onProgress = (p) =>
      body.replaceChildren(
        h("p", { class: "muted" }, `Reading run files… ${Math.round(p.fraction * 100)} %`),
      );

    baselineSelect.addEventListener("change", () => {
      baseline = baselineSelect.value;
      void load(inlineProgress);
    });
    candidateSelect.addEventListener("change", () => {
      candidate = candidateSelect.value;
      void load(inlineProgress);
    });
    swap.addEventListener("click", () => {
      [baseline, candidate] = [candidate, baseline];
      void load(inlineProgress);
    });

    await load(onProgress);
    return h(
      "div",
      { class: "compare", "data-testid": "compare" },
      h(
        "div",
        { class: "compare-pickers" },
        h("label", {}, "Baseline ", baselineSelect),
        swap,
        h("label", {}, "Candidate ", candidateSelect),
      ),
      body,
    );
  },
};
