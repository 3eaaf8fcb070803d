// The stylesheet's theme colours (styles.css custom properties) for drawing on the canvas.

import { boxPalette } from "./colors";

export interface CanvasTheme {
  dark: boolean;
  background: string;
  surface: string;
  text: string;
  mutedText: string;
  border: string;
  grid: string;
  accent: string;
  /** Text drawn on top of boxes. */
  boxText: string;
  boxes: string[];
}

export function readCanvasTheme(): CanvasTheme {
  const style = getComputedStyle(document.documentElement);
  const variable = (name: string): string => style.getPropertyValue(name).trim();
  const dark = document.documentElement.dataset["theme"] === "dark";
  return {
    dark,
    background: variable("--bg"),
    surface: variable("--surface"),
    text: variable("--fg"),
    mutedText: variable("--fg-muted"),
    border: variable("--border"),
    grid: variable("--grid"),
    accent: variable("--accent"),
    boxText: dark ? "#f5f5f5" : "#212121",
    boxes: boxPalette(dark),
  };
}
