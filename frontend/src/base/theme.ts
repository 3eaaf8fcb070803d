// Light/dark theme. TensorBoard toggles the `dark-mode` class on its own <body>; our iframe is
// same-origin, so we follow that class. Elsewhere we follow the browser's colour-scheme preference.

function setTheme(dark: boolean): void {
  document.documentElement.dataset["theme"] = dark ? "dark" : "light";
}

function parentBody(): HTMLElement | null {
  if (window.parent === window) return null;
  try {
    return window.parent.document.body;
  } catch {
    return null; // Cross-origin parent: not TensorBoard.
  }
}

export function followTheme(): void {
  const body = parentBody();
  if (body) {
    const update = (): void => setTheme(body.classList.contains("dark-mode"));
    update();
    new MutationObserver(update).observe(body, { attributes: true, attributeFilter: ["class"] });
    return;
  }
  const query = window.matchMedia("(prefers-color-scheme: dark)");
  setTheme(query.matches);
  query.addEventListener("change", (event) => setTheme(event.matches));
}

// Tableau 10: distinguishable on TensorBoard's white and #303030 backgrounds alike.
const SERIES_COLORS = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

export function seriesColor(index: number): string {
  return SERIES_COLORS[Math.max(0, index) % SERIES_COLORS.length] ?? "#888";
}
