// A small SVG line chart: shared x axis, one line per series, legend, and a hover tooltip that
// lists every series' value at the nearest x; optionally a range picked by dragging across it.
// Redrawn at the container's width on resize.

import { h, svg } from "./dom";

export interface LineSeries {
  label: string;
  color: string;
  /** Ascending. */
  x: readonly number[];
  y: readonly number[];
  /** Drawn dashed (a fitted line rather than data). */
  dashed?: boolean;
}

export interface LineChartOptions {
  series: readonly LineSeries[];
  height: number;
  xLabel: string;
  formatX: (x: number) => string;
  /** Values in the tooltip. */
  formatY: (y: number) => string;
  /** Labels of the y axis, given all its ticks so they can share a unit. */
  yTickFormat: (ticks: readonly number[]) => (y: number) => string;
  testId: string;
  /** x positions marked by thin vertical lines (e.g. step boundaries). */
  markers?: readonly number[];
  markerLabel?: string;
  /** Called with the x range (ascending) the user dragged across; the range stays shaded. */
  onRangeSelect?: (from: number, to: number) => void;
}

const MARGIN = { top: 10, right: 16, bottom: 38, left: 68 };
const PIXELS_PER_X_TICK = 90;
const PIXELS_PER_Y_TICK = 40;

interface Axis {
  min: number;
  max: number;
  ticks: number[];
}

/** Ticks at 1, 2 or 5 × 10^k covering [min, max]; the axis widens to whole ticks. */
export function niceAxis(min: number, max: number, targetTicks: number, integer: boolean): Axis {
  const span = max - min || Math.abs(max) || 1;
  const rough = span / Math.max(1, targetTicks);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  if (integer) step = Math.max(1, Math.round(step));
  const lo = Math.floor(min / step) * step;
  const hi = Math.max(Math.ceil(max / step) * step, lo + step);
  const ticks: number[] = [];
  for (let i = 0; lo + i * step <= hi + step / 2; i += 1) {
    ticks.push(Number((lo + i * step).toPrecision(12)));
  }
  return { min: lo, max: hi, ticks };
}

/** Index of the first element >= value in an ascending array. */
function lowerBound(values: readonly number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] ?? Infinity) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function nearestX(series: readonly LineSeries[], target: number): number | null {
  let best: number | null = null;
  for (const { x } of series) {
    const i = lowerBound(x, target);
    for (const candidate of [x[i - 1], x[i]]) {
      if (candidate === undefined) continue;
      if (best === null || Math.abs(candidate - target) < Math.abs(best - target)) best = candidate;
    }
  }
  return best;
}

function extent(values: Iterable<number>): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}

function* allValues(series: readonly LineSeries[], axis: "x" | "y"): Generator<number> {
  for (const s of series) yield* s[axis];
}

function drawPlot(options: LineChartOptions, width: number, tooltip: HTMLElement): SVGSVGElement {
  const { series, height } = options;
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const plotHeight = height - MARGIN.top - MARGIN.bottom;
  const [xMin, xMax] = extent(allValues(series, "x"));
  const [, yMax] = extent(allValues(series, "y"));
  const xAxis = niceAxis(xMin, xMax, plotWidth / PIXELS_PER_X_TICK, true);
  const yAxis = niceAxis(0, yMax, plotHeight / PIXELS_PER_Y_TICK, false);
  const px = (x: number): number =>
    MARGIN.left + ((x - xAxis.min) / (xAxis.max - xAxis.min)) * plotWidth;
  const py = (y: number): number =>
    MARGIN.top + (1 - (y - yAxis.min) / (yAxis.max - yAxis.min)) * plotHeight;
  const bottom = MARGIN.top + plotHeight;

  const root = svg("svg", { width, height, class: "chart-svg", role: "img" });
  const yTickLabel = options.yTickFormat(yAxis.ticks);
  for (const tick of yAxis.ticks) {
    const y = py(tick).toFixed(1);
    root.append(
      svg("line", { class: "chart-grid", x1: MARGIN.left, x2: width - MARGIN.right, y1: y, y2: y }),
      svg(
        "text",
        {
          class: "chart-tick",
          x: MARGIN.left - 6,
          y,
          "text-anchor": "end",
          "dominant-baseline": "middle",
        },
        yTickLabel(tick),
      ),
    );
  }
  for (const tick of xAxis.ticks) {
    root.append(
      svg(
        "text",
        { class: "chart-tick", x: px(tick).toFixed(1), y: bottom + 16, "text-anchor": "middle" },
        options.formatX(tick),
      ),
    );
  }
  root.append(
    svg("line", {
      class: "chart-axis",
      x1: MARGIN.left,
      x2: width - MARGIN.right,
      y1: bottom,
      y2: bottom,
    }),
    svg(
      "text",
      {
        class: "chart-label",
        x: MARGIN.left + plotWidth / 2,
        y: height - 4,
        "text-anchor": "middle",
      },
      options.xLabel,
    ),
  );

  if (options.markers?.length) {
    const marks = svg("g", { class: "chart-markers", "data-testid": `${options.testId}-markers` });
    for (const x of options.markers) {
      if (x < xAxis.min || x > xAxis.max) continue;
      const at = px(x).toFixed(1);
      marks.append(svg("line", { class: "chart-mark", x1: at, x2: at, y1: MARGIN.top, y2: bottom }));
    }
    root.append(marks);
  }

  for (const s of series) {
    const points = s.x.map((x, i) => `${px(x).toFixed(1)},${py(s.y[i] ?? 0).toFixed(1)}`);
    // A single point has no line to draw; a dot keeps it visible.
    root.append(
      points.length === 1
        ? svg("circle", {
            cx: px(s.x[0] ?? 0),
            cy: py(s.y[0] ?? 0),
            r: 3,
            fill: s.color,
            "data-series": s.label,
          })
        : svg("polyline", {
            class: s.dashed ? "chart-line chart-dashed" : "chart-line",
            points: points.join(" "),
            stroke: s.color,
            "data-series": s.label,
          }),
    );
  }

  const guide = svg("line", {
    class: "chart-guide",
    y1: MARGIN.top,
    y2: bottom,
    visibility: "hidden",
  });
  const markers = svg("g");
  const hoverArea = svg("rect", {
    x: MARGIN.left,
    y: MARGIN.top,
    width: plotWidth,
    height: plotHeight,
    class: "chart-hover",
  });
  const picked = svg("rect", { class: "chart-range", y: MARGIN.top, height: plotHeight, visibility: "hidden" });
  root.append(picked, guide, markers, hoverArea);
  if (options.onRangeSelect) {
    pickRange(hoverArea, picked, (clientX) => {
      const left = root.getBoundingClientRect().left;
      const offset = Math.min(Math.max(clientX - left - MARGIN.left, 0), plotWidth);
      return { px: MARGIN.left + offset, x: xAxis.min + (offset / plotWidth) * (xAxis.max - xAxis.min) };
    }, options.onRangeSelect);
  }

  const hide = (): void => {
    guide.setAttribute("visibility", "hidden");
    markers.replaceChildren();
    tooltip.hidden = true;
  };
  hoverArea.addEventListener("pointerleave", hide);
  hoverArea.addEventListener("pointermove", (event: PointerEvent) => {
    const left = root.getBoundingClientRect().left;
    const target =
      xAxis.min + ((event.clientX - left - MARGIN.left) / plotWidth) * (xAxis.max - xAxis.min);
    const x = nearestX(series, target);
    if (x === null) return hide();
    const rows: HTMLElement[] = [];
    markers.replaceChildren();
    for (const s of series) {
      const i = lowerBound(s.x, x);
      const y = s.y[i];
      if (s.x[i] !== x || y === undefined) continue;
      markers.append(
        svg("circle", { cx: px(x), cy: py(y), r: 3.5, fill: s.color, class: "chart-marker" }),
      );
      rows.push(
        h(
          "div",
          { class: "tooltip-row" },
          h("span", { class: "swatch", style: `background:${s.color}` }),
          `${s.label}: ${options.formatY(y)}`,
        ),
      );
    }
    guide.setAttribute("x1", px(x).toFixed(1));
    guide.setAttribute("x2", px(x).toFixed(1));
    guide.setAttribute("visibility", "visible");
    tooltip.replaceChildren(
      h("div", { class: "tooltip-title" }, `${options.xLabel} ${options.formatX(x)}`),
      ...rows,
    );
    tooltip.hidden = false;
    // Keep the tooltip inside the chart: flip it to the left of the cursor near the right edge.
    const offset = 12;
    const flip = px(x) + offset + tooltip.offsetWidth > width;
    tooltip.style.left = `${flip ? px(x) - offset - tooltip.offsetWidth : px(x) + offset}px`;
    tooltip.style.top = `${MARGIN.top}px`;
  });
  return root;
}

/** Dragging across `area` shades `picked` and reports the x range on release (a click, under
 * 3 px of drag, picks nothing). */
function pickRange(
  area: SVGElement,
  picked: SVGElement,
  at: (clientX: number) => { px: number; x: number },
  onRange: (from: number, to: number) => void,
): void {
  let start: { px: number; x: number } | null = null;
  const shade = (a: number, b: number): void => {
    picked.setAttribute("x", Math.min(a, b).toFixed(1));
    picked.setAttribute("width", Math.abs(b - a).toFixed(1));
    picked.setAttribute("visibility", "visible");
  };
  area.addEventListener("pointerdown", (event: PointerEvent) => {
    start = at(event.clientX);
    area.setPointerCapture?.(event.pointerId);
  });
  area.addEventListener("pointermove", (event: PointerEvent) => {
    if (start !== null) shade(start.px, at(event.clientX).px);
  });
  area.addEventListener("pointerup", (event: PointerEvent) => {
    if (start === null) return;
    const end = at(event.clientX);
    const from = start;
    start = null;
    if (Math.abs(end.px - from.px) < 3) return;
    shade(from.px, end.px);
    onRange(Math.min(from.x, end.x), Math.max(from.x, end.x));
  });
}

export function lineChart(options: LineChartOptions): HTMLElement {
  const tooltip = h("div", {
    class: "chart-tooltip",
    role: "tooltip",
    "data-testid": `${options.testId}-tooltip`,
  });
  tooltip.hidden = true;
  const plot = h("div", { class: "chart-plot", style: `min-height:${options.height}px` }, tooltip);
  const legend = h(
    "ul",
    { class: "chart-legend" },
    ...options.series.map((s) =>
      h("li", {}, h("span", { class: "swatch", style: `background:${s.color}` }), s.label),
    ),
    options.markers?.length && options.markerLabel
      ? h("li", {}, h("span", { class: "swatch chart-mark-swatch" }), options.markerLabel)
      : null,
  );
  let drawnWidth = 0;
  // The iframe is hidden on tab switches (width 0): draw only once there is room.
  new ResizeObserver(() => {
    const width = plot.clientWidth;
    if (width === 0 || width === drawnWidth) return;
    drawnWidth = width;
    plot.replaceChildren(drawPlot(options, width, tooltip), tooltip);
  }).observe(plot);
  return h("figure", { class: "chart", "data-testid": options.testId }, plot, legend);
}
