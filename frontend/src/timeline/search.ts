// Search box with a result count and next/prev (also Enter / Shift+Enter). Typing only counts the
// matches; moving to one is explicit, and starts from the first match at or after the view.

import { ApiError } from "../base/api";
import { h } from "../base/dom";
import { formatCount } from "../base/format";
import type { SearchMatch, SearchResult } from "./types";

const TYPING_DEBOUNCE_MS = 250;

export interface SearchOptions {
  initialText: string;
  search: (text: string, signal: AbortSignal) => Promise<SearchResult>;
  onMatch: (match: SearchMatch) => void;
  onTextChange: (text: string) => void;
  /** Where the view starts: the first "next" goes to the first match from there. */
  viewStart: () => number;
}

export class TimelineSearch {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count = h("span", {
    class: "search-count",
    "data-testid": "timeline-search-count",
    "aria-live": "polite",
  });
  private result: SearchResult | null = null;
  /** The text `result` answers; a different input text means it is stale. */
  private resultText = "";
  private index = -1;
  private inFlight = new AbortController();
  private typingTimer = 0;

  constructor(private readonly options: SearchOptions) {
    this.input = h("input", {
      type: "search",
      class: "search-input",
      placeholder: "Search events by name",
      "aria-label": "Search events by name",
      "data-testid": "timeline-search",
      value: options.initialText,
    });
    const prev = h(
      "button",
      { type: "button", "data-testid": "timeline-prev", title: "Previous match (Shift+Enter)" },
      "‹ Prev",
    );
    const next = h(
      "button",
      { type: "button", "data-testid": "timeline-next", title: "Next match (Enter)" },
      "Next ›",
    );
    prev.addEventListener("click", () => void this.step(-1));
    next.addEventListener("click", () => void this.step(1));
    this.input.addEventListener("input", () => {
      this.options.onTextChange(this.text());
      clearTimeout(this.typingTimer);
      this.typingTimer = window.setTimeout(() => void this.refresh(), TYPING_DEBOUNCE_MS);
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      void this.step(event.shiftKey ? -1 : 1);
    });
    this.element = h("div", { class: "search", role: "search" }, this.input, this.count, prev, next);
  }

  private text(): string {
    return this.input.value.trim();
  }

  /** Search again for the current text (the ranks or the data changed); forgets the position. */
  refresh(): Promise<void> {
    clearTimeout(this.typingTimer);
    this.inFlight.abort();
    this.inFlight = new AbortController();
    const signal = this.inFlight.signal;
    const text = this.text();
    this.index = -1;
    if (text === "") {
      this.result = null;
      this.resultText = "";
      this.showCount();
      return Promise.resolve();
    }
    this.count.textContent = "…";
    return this.options.search(text, signal).then(
      (result) => {
        if (signal.aborted) return;
        this.result = result;
        this.resultText = text;
        this.showCount();
      },
      (error: unknown) => {
        if (signal.aborted) return;
        this.result = null;
        this.count.textContent = "search failed";
        this.count.title = error instanceof ApiError ? error.message : String(error);
      },
    );
  }

  private async step(direction: 1 | -1): Promise<void> {
    if (this.result === null || this.resultText !== this.text()) await this.refresh();
    const matches = this.result?.matches ?? [];
    if (matches.length === 0) return;
    if (this.index === -1) {
      const viewStart = this.options.viewStart();
      const first = matches.findIndex((match) => match.start >= viewStart);
      const atOrAfter = first === -1 ? 0 : first;
      this.index = direction === 1 ? atOrAfter : (atOrAfter - 1 + matches.length) % matches.length;
    } else {
      this.index = (this.index + direction + matches.length) % matches.length;
    }
    this.showCount();
    const match = matches[this.index];
    if (match) this.options.onMatch(match);
  }

  private showCount(): void {
    const result = this.result;
    this.count.title = "";
    if (result === null) {
      this.count.textContent = "";
    } else if (result.total === 0) {
      this.count.textContent = "no matches";
    } else if (this.index === -1) {
      this.count.textContent = `${formatCount(result.total)} ${result.total === 1 ? "match" : "matches"}`;
    } else {
      this.count.textContent = `${formatCount(this.index + 1)} / ${formatCount(result.total)}`;
    }
    if (result !== null && result.total > result.matches.length) {
      this.count.title = `Next and previous visit the first ${formatCount(result.matches.length)} matches in time order.`;
    }
  }
}
