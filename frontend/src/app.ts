// The plugin shell: dashboard tabs, run and rank selectors, view state in the hash,
// loading/progress/error states, what was left out of the logdir, and the current dashboard.

import { ApiError, fetchNotices, fetchRuns } from "./base/api";
import type { Dashboard, NavigationParams, RankOption } from "./base/dashboard";
import { DASHBOARDS } from "./dashboards";
import { h } from "./base/dom";
import { formatBytes } from "./base/format";
import { readHash, updateHash } from "./base/hashState";
import type { NoticesAnswer, Progress, RunInfo } from "./base/types";

const ALL_RANKS = "";
const NO_NOTICES: NoticesAnswer = { notices: [], total: 0 };

function dashboardById(id: string | null): Dashboard {
  const fallback = DASHBOARDS[0];
  if (fallback === undefined) throw new Error("no dashboards registered");
  return DASHBOARDS.find((dashboard) => dashboard.id === id) ?? fallback;
}

function progressView(progress: Progress): HTMLElement {
  const percent = Math.round(Math.min(1, Math.max(0, progress.fraction)) * 100);
  const bar = h("div", { class: "progress-bar" });
  bar.style.width = `${percent}%`;
  return h(
    "div",
    { class: "progress", "data-testid": "progress" },
    h(
      "div",
      {
        class: "progress-track",
        role: "progressbar",
        "aria-valuemin": 0,
        "aria-valuemax": 100,
        "aria-valuenow": percent,
      },
      bar,
    ),
    h(
      "p",
      {},
      `Reading run files… ${percent} % (${formatBytes(progress.done_bytes)} of ${formatBytes(progress.total_bytes)})`,
    ),
  );
}

function errorView(what: string, error: unknown): HTMLElement {
  const detail = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
  return h(
    "div",
    { class: "error", "data-testid": "error", role: "alert" },
    h("strong", {}, what),
    h("p", {}, detail),
  );
}

/** What was left out of the logdir and why, one line a path. */
function noticeList(answer: NoticesAnswer): HTMLElement {
  const more = answer.total - answer.notices.length;
  return h(
    "ul",
    { class: "logdir-notices", "data-testid": "logdir-notices" },
    ...answer.notices.map((notice) =>
      h("li", { "data-testid": "logdir-notice" }, `${notice.path}: ${notice.message}`),
    ),
    more > 0 ? h("li", { class: "muted" }, `and ${more} more`) : null,
  );
}

function leftOutCount(total: number): string {
  return `${total} ${total === 1 ? "path" : "paths"} left out of the logdir`;
}

/** With runs: one folded line, so what is missing can be explained without taking room. */
function foldedNotices(answer: NoticesAnswer): HTMLElement | null {
  if (answer.total === 0) return null;
  const toggle = h("span", { class: "link-button" }, "show");
  const folded = h(
    "details",
    { class: "logdir-notices-fold", "data-testid": "logdir-notices-fold" },
    h("summary", {}, `${leftOutCount(answer.total)} — `, toggle),
    noticeList(answer),
  );
  folded.addEventListener("toggle", () => {
    toggle.textContent = folded.open ? "hide" : "show";
  });
  return folded;
}

function emptyView(notices: NoticesAnswer): HTMLElement {
  const explained =
    notices.total > 0
      ? [
          h("h3", {}, `${leftOutCount(notices.total)}, which may be why`),
          noticeList(notices),
        ]
      : [];
  return h(
    "div",
    { class: "empty", "data-testid": "empty" },
    h("h2", {}, "No runs yet"),
    h(
      "p",
      {},
      "This logdir holds no tb-perf runs. See the README quick start to record one with the collectors " +
        "(or point TensorBoard at a torch.profiler trace directory), then press TensorBoard's reload button.",
    ),
    ...explained,
  );
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

export class App {
  private runs: RunInfo[] = [];
  private run: string | null;
  private rank: number | null;
  private dashboard: Dashboard;
  /** The request chain in flight; a newer selection or reload aborts it. */
  private inFlight = new AbortController();
  private readonly runSelect = h("select", { "data-testid": "run-select", "aria-label": "Run" });
  private readonly runStatus = h("span", { class: "badge", "data-testid": "run-status" });
  private readonly jobSelect = h("select", { "data-testid": "job-select", "aria-label": "Job" });
  private readonly jobLabel = h("label", { hidden: true }, "Job ", this.jobSelect);
  private readonly rankSelect = h("select", { "data-testid": "rank-select", "aria-label": "Rank" });
  private readonly rankLabel = h("label", {}, "Rank ", this.rankSelect);
  private readonly tabs = DASHBOARDS.map((dashboard) =>
    h(
      "button",
      { type: "button", role: "tab", class: "tab", "data-testid": `tab-${dashboard.id}` },
      dashboard.label,
    ),
  );
  private readonly toolbar = h(
    "header",
    // Shown once the run list arrives.
    { class: "toolbar", hidden: true },
    h("nav", { class: "tabs", role: "tablist", "aria-label": "Dashboards" }, ...this.tabs),
    h("label", {}, "Run ", this.runSelect),
    this.jobLabel,
    this.runStatus,
    this.rankLabel,
  );
  /** What was left out of the logdir, folded, while there are runs. */
  private readonly notices = h("div", { class: "logdir-notices-bar" });
  private readonly content = h(
    "main",
    { class: "content" },
    h("p", { class: "muted" }, "Loading runs…"),
  );

  constructor(root: HTMLElement) {
    const hash = readHash();
    this.run = hash.get("run");
    const rank = Number.parseInt(hash.get("rank") ?? "", 10);
    this.rank = Number.isInteger(rank) ? rank : null;
    this.dashboard = dashboardById(hash.get("dashboard"));
    this.showActiveTab();
    this.tabs.forEach((tab, index) =>
      tab.addEventListener("click", () => {
        const dashboard = DASHBOARDS[index];
        if (dashboard === undefined || dashboard === this.dashboard) return;
        this.open(dashboard, {});
      }),
    );

    this.runSelect.addEventListener("change", () => {
      this.run = this.runSelect.value;
      this.showSelectedRun();
      void this.loadDashboard(this.restart(), true);
    });
    this.jobSelect.addEventListener("change", () => {
      this.run = this.jobSelect.value;
      this.showSelectedRun();
      void this.loadDashboard(this.restart(), true);
    });
    this.rankSelect.addEventListener("change", () => {
      this.rank = this.rankSelect.value === ALL_RANKS ? null : Number(this.rankSelect.value);
      this.saveSelection();
      void this.loadDashboard(this.restart(), true);
    });
    root.replaceChildren(h("div", { class: "app" }, this.toolbar, this.notices, this.content));
  }

  /** Fetch the run list, then the current dashboard's data. Also TensorBoard's reload. */
  async reload(): Promise<void> {
    const signal = this.restart();
    let notices: NoticesAnswer;
    try {
      // The notices only explain: a failure of theirs must not hide the runs.
      [this.runs, notices] = await Promise.all([
        fetchRuns(signal),
        fetchNotices(signal).catch(() => NO_NOTICES),
      ]);
    } catch (error) {
      if (!isAbort(error))
        this.content.replaceChildren(errorView("Could not list the runs", error));
      return;
    }
    // Selectors with nothing to select would only distract from the "no runs" explanation.
    this.toolbar.hidden = this.runs.length === 0;
    if (this.runs.length === 0) {
      this.run = null;
      this.notices.replaceChildren();
      this.content.replaceChildren(emptyView(notices));
      return;
    }
    const folded = foldedNotices(notices);
    this.notices.replaceChildren(...(folded ? [folded] : []));
    // An older job of a directory is reached through the Job selector, not listed as a run.
    this.runSelect.replaceChildren(
      ...this.runs
        .filter((run) => run.name === run.directory)
        .map((run) => h("option", { value: run.name }, `${run.name} (${run.status})`)),
    );
    if (!this.runs.some((run) => run.name === this.run)) this.run = this.runs[0]?.name ?? null;
    this.showSelectedRun();
    await this.loadDashboard(signal, true);
  }

  private restart(): AbortSignal {
    this.inFlight.abort();
    this.inFlight = new AbortController();
    return this.inFlight.signal;
  }

  /** Switch to a dashboard; a link's `rank` also selects that rank where the rank applies. */
  private open(dashboard: Dashboard, params: NavigationParams): void {
    this.dashboard = dashboard;
    const rank = Number(params["rank"]);
    if (dashboard.usesRankSelect && params["rank"] != null && Number.isInteger(rank)) {
      this.rank = rank;
      this.rankSelect.value = String(rank);
    }
    this.showActiveTab();
    this.saveSelection();
    void this.loadDashboard(this.restart(), false, params);
  }

  private showActiveTab(): void {
    this.tabs.forEach((tab, index) => {
      const active = DASHBOARDS[index] === this.dashboard;
      tab.setAttribute("aria-selected", String(active));
      tab.classList.toggle("active", active);
    });
    this.rankLabel.hidden = !this.dashboard.usesRankSelect;
  }

  private selectedRun(): RunInfo | undefined {
    return this.runs.find((run) => run.name === this.run);
  }

  /** Sync the selectors with the chosen run; drop a rank the run does not have; hide the tabs
   * that do not apply to it (leaving one that was open for the first). */
  private showSelectedRun(): void {
    const run = this.selectedRun();
    if (!run) return;
    this.tabs.forEach((tab, index) => {
      tab.hidden = !(DASHBOARDS[index]?.available?.(run) ?? true);
    });
    if (!(this.dashboard.available?.(run) ?? true)) {
      this.dashboard = dashboardById(null);
      this.showActiveTab();
    }
    this.runSelect.value = run.directory;
    this.jobLabel.hidden = run.jobs.length < 2;
    this.jobSelect.replaceChildren(
      ...run.jobs.map((job, index) =>
        h(
          "option",
          { value: job.run },
          `${job.id}${index === 0 ? " (newest)" : ""} · ${job.ranks.length} rank(s)`,
        ),
      ),
    );
    this.jobSelect.value = run.name;
    this.runStatus.textContent = run.status;
    this.runStatus.className = `badge status-${run.status}`;
    if (this.rank !== null && !run.ranks.includes(this.rank)) this.rank = null;
    this.fillRankSelect(run.ranks.map((rank) => ({ rank })));
    this.saveSelection();
  }

  /** Ranks come from the run list first, then with their host from the summary. */
  private fillRankSelect(ranks: readonly RankOption[]): void {
    this.rankSelect.replaceChildren(
      h("option", { value: ALL_RANKS }, "All ranks"),
      ...ranks.map((r) =>
        h(
          "option",
          { value: String(r.rank) },
          r.host ? `rank ${r.rank} · ${r.host}` : `rank ${r.rank}`,
        ),
      ),
    );
    this.rankSelect.value = this.rank === null ? ALL_RANKS : String(this.rank);
  }

  private saveSelection(): void {
    const isDefault = this.dashboard === DASHBOARDS[0];
    updateHash({
      run: this.run,
      rank: this.rank === null ? null : String(this.rank),
      dashboard: isDefault ? null : this.dashboard.id,
    });
  }

  private async loadDashboard(
    signal: AbortSignal,
    refresh: boolean,
    params: NavigationParams = {},
  ): Promise<void> {
    const run = this.run;
    if (run === null) return;
    this.content.setAttribute("aria-busy", "true");
    try {
      const content = await this.dashboard.show({
        run,
        rank: this.rank,
        signal,
        refresh,
        onProgress: (progress) => this.content.replaceChildren(progressView(progress)),
        onRanks: (ranks) => this.fillRankSelect(ranks),
        navigate: (id, linkParams) => this.open(dashboardById(id), linkParams),
        params,
      });
      if (!signal.aborted) this.content.replaceChildren(content);
    } catch (error) {
      if (!isAbort(error))
        this.content.replaceChildren(errorView(`Could not load run “${run}”`, error));
    } finally {
      if (!signal.aborted) this.content.removeAttribute("aria-busy");
    }
  }
}
