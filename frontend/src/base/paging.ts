// Which rows a page of a long table holds, and how its pager says so. Pure.

export interface PageRange {
  /** The page shown, clamped to the pages there are (0 when there are no rows). */
  page: number;
  pages: number;
  /** Index of its first row, and one past its last. */
  first: number;
  end: number;
}

/** The rows of page `page` (0-based, clamped) of `total` rows, `size` per page (one page of
 * every row unless `size` is a positive finite number). */
export function pageOf(total: number, page: number, size: number): PageRange {
  if (!Number.isFinite(size) || size <= 0) return { page: 0, pages: 1, first: 0, end: total };
  const pages = Math.max(1, Math.ceil(total / size));
  const shown = Math.min(Math.max(0, Math.trunc(page)), pages - 1);
  const first = Math.min(shown * size, total);
  return { page: shown, pages, first, end: Math.min(first + size, total) };
}

/** "rows 51–100 of 1,234" (`count` formats the numbers). */
export function pageRangeText(range: PageRange, total: number, count: (n: number) => string): string {
  if (total === 0) return "no rows";
  return `rows ${count(range.first + 1)}–${count(range.end)} of ${count(total)}`;
}
