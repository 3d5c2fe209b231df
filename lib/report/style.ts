/**
 * One visual style for every figure and notebook chart: a fixed colour per model (and a fixed
 * shape / dash per harness) in every chart, the colour-blind-safe Okabe–Ito palette, readable
 * labels instead of column names, the paper's values as one legend entry, and widths that fit a
 * notebook column (≤ 980 px) and, scaled, a paper column.
 *
 * @module
 */
import { HARNESSES, MODELS } from "./paper.ts";

/** Okabe & Ito (2008), safe for the common colour-vision deficiencies. */
export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  green: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  purple: "#CC79A7",
  black: "#000000",
  grey: "#999999",
} as const;

const O = OKABE_ITO;
/** Colours given, in order, to models not in the paper (outside every other colour family). */
const SPARE = ["#000000", "#8C564B", "#7F7F7F"];

/**
 * The paper's models, each with its colour in every chart. One meaning per colour family: blue,
 * orange, bluish green and reddish purple mean these models and nothing else in any figure.
 */
export const MODEL_COLORS: Readonly<Record<string, string>> = {
  [MODELS[0]]: O.blue,
  [MODELS[1]]: O.orange,
  [MODELS[2]]: O.green,
  [MODELS[3]]: O.purple,
};

/** The paper's models, each with its point shape: colour's redundant channel, for every reader. */
export const MODEL_SHAPES: Readonly<Record<string, string>> = {
  [MODELS[0]]: "circle",
  [MODELS[1]]: "square",
  [MODELS[2]]: "triangle-up",
  [MODELS[3]]: "triangle-down",
};

/** The paper's harnesses, each with its point shape and its line dash. */
export const HARNESS_SHAPES: Readonly<Record<string, string>> = {
  [HARNESSES[0]]: "circle",
  [HARNESSES[1]]: "square",
};
export const HARNESS_DASHES: Readonly<Record<string, number[]>> = {
  [HARNESSES[0]]: [1, 0],
  [HARNESSES[1]]: [6, 3],
};
/** The paper's harnesses as filled (OpenCode) or hollow (mini-SWE-agent) points: fill opacity. */
export const HARNESS_FILL: Readonly<Record<string, number>> = {
  [HARNESSES[0]]: 0,
  [HARNESSES[1]]: 1,
};

/**
 * Memory settings (the ablation), light to dark by how much of the past the prompt holds — in the
 * colour family of the model the ablation ran (see {@link memoryScale}); these greys only when the
 * model has no colour of its own.
 */
export const MEMORY_COLORS: Readonly<Record<string, string>> = {
  none: "#C8C8C8",
  interface: "#808080",
  source: "#303030",
};

/**
 * The one spelling of each target outcome (lib/metrics/outcomes.ts) in every figure, table and
 * notebook. "reused (not read)": the submission calls the target although the agent never opened
 * its body — it knew the interface from the requirement, its memory or other code.
 */
export const OUTCOME_LABELS = {
  reused_read: "reused (read)",
  reused_unread: "reused (not read)",
  read_not_used: "read but not reused",
  never_read: "never read",
  absent: "absent",
} as const;

/**
 * Target outcomes and gap classes, in colour families no model uses: reused in greys (read: dark,
 * not read: light), read but not reused in vermillion (the execution gap), never read in yellow
 * (the exploration gap), absent in near-white.
 */
export const OUTCOME_COLORS: Readonly<Record<string, string>> = {
  [OUTCOME_LABELS.reused_read]: "#3C3C3C",
  [OUTCOME_LABELS.reused_unread]: "#A8A8A8",
  [OUTCOME_LABELS.read_not_used]: O.vermillion,
  [OUTCOME_LABELS.never_read]: O.yellow,
  [OUTCOME_LABELS.absent]: "#E8E8E8",
};

/** Neutral marks that encode no series (single-series bars, reference lines). */
export const NEUTRAL = "#4D4D4D";

/** Readable names of metric columns. */
export const METRIC_LABELS: Readonly<Record<string, string>> = {
  reuse_repo: "Reuse (repo)",
  reuse_self: "Reuse (self)",
  recall_repo: "Recall (repo)",
  recall_self: "Recall (self)",
  files: "Files viewed",
  lines: "Lines viewed",
  resolve: "Resolve",
  pass: "Pass",
  pass_rate: "Pass rate",
  c_dup: "C_dup",
};

/**
 * The readable name of a metric column ("reuse_self" → "Reuse (self)"); unknown names are returned
 * with underscores as spaces.
 *
 * ```ts
 * import { metricLabel } from "./style.ts";
 * console.assert(metricLabel("reuse_self") === "Reuse (self)");
 * console.assert(metricLabel("body_lines") === "body lines");
 * ```
 */
export function metricLabel(metric: string): string {
  return METRIC_LABELS[metric] ?? metric.replaceAll("_", " ");
}

/** Whether lower values of a metric are better (C_dup: re-implementations). */
export function lowerIsBetter(metric: string): boolean {
  return metric === "c_dup";
}

function scaleOf<T>(
  values: Iterable<string>,
  fixed: Readonly<Record<string, T>>,
  spare: readonly T[],
  order: readonly string[] = [],
): { domain: string[]; range: T[] } {
  const seen = [...new Set(values)];
  const domain = [
    ...order.filter((v) => seen.includes(v)),
    ...seen.filter((v) => !order.includes(v)).sort(),
  ];
  let k = 0;
  const range = domain.map((v) => fixed[v] ?? spare[k++ % spare.length]);
  return { domain, range };
}

/**
 * The vega-lite colour scale of the models present: the paper's models keep their colour in every
 * chart; others get the spare Okabe–Ito colours in name order.
 *
 * ```ts
 * import { MODEL_COLORS, modelScale } from "./style.ts";
 * const s = modelScale(["Qwen3.7-plus", "DeepSeek-v4.1-flash"]);
 * console.assert(s.domain[0] === "DeepSeek-v4.1-flash"); // the paper's order
 * console.assert(s.range[1] === MODEL_COLORS["Qwen3.7-plus"]);
 * ```
 */
export function modelScale(models: Iterable<string>): { domain: string[]; range: string[] } {
  return scaleOf(models, MODEL_COLORS, SPARE, MODELS);
}

/** The shape scale of the models present (paper's models fixed; others: spare shapes). */
export function modelShapes(models: Iterable<string>): { domain: string[]; range: string[] } {
  return scaleOf(models, MODEL_SHAPES, ["cross", "triangle-right", "triangle-left"], MODELS);
}

/** The fill-opacity scale of the harnesses present: OpenCode filled, mini-SWE-agent hollow. */
export function harnessFill(harnesses: Iterable<string>): { domain: string[]; range: number[] } {
  return scaleOf(harnesses, HARNESS_FILL, [0.45, 0.2], HARNESSES);
}

/** The shape scale of the harnesses present (paper's harnesses fixed). */
export function harnessShapes(harnesses: Iterable<string>): { domain: string[]; range: string[] } {
  return scaleOf(harnesses, HARNESS_SHAPES, ["triangle-up", "diamond", "cross"], HARNESSES);
}

/** The dash scale of the harnesses present (paper's harnesses fixed). */
export function harnessDashes(
  harnesses: Iterable<string>,
): { domain: string[]; range: number[][] } {
  return scaleOf(harnesses, HARNESS_DASHES, [[2, 2], [8, 2, 2, 2]], HARNESSES);
}

/** `hex` mixed with white (`t` > 0) or black (`t` < 0) by |t|. */
export function shade(hex: string, t: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = [n >> 16 & 255, n >> 8 & 255, n & 255].map((c) =>
    Math.round(t >= 0 ? c + (255 - c) * t : c * (1 + t))
  );
  return `#${ch.map((c) => c.toString(16).padStart(2, "0")).join("").toUpperCase()}`;
}

/**
 * The colour scale of memory settings, in the paper's order: with `model`, light to dark shades of
 * that model's colour (the ablation is that model's data, so its colour keeps its meaning); else
 * greys.
 *
 * ```ts
 * import { MODEL_COLORS, memoryScale } from "./style.ts";
 * const s = memoryScale(["source", "none", "interface"], "Qwen3.7-plus");
 * console.assert(s.domain.join() === "none,interface,source");
 * console.assert(s.range[1] === MODEL_COLORS["Qwen3.7-plus"]);
 * ```
 */
export function memoryScale(
  memories: Iterable<string>,
  model?: string,
): { domain: string[]; range: string[] } {
  const base = model ? MODEL_COLORS[model] : undefined;
  const fixed = base
    ? { none: shade(base, 0.6), interface: base, source: shade(base, -0.55) }
    : MEMORY_COLORS;
  return scaleOf(memories, fixed, ["#5A5A5A", "#B0B0B0"], ["none", "interface", "source"]);
}

/**
 * The colour scale of configurations labelled "harness · model": the model's colour; the
 * harness tells itself by shape or dash.
 */
export function configScale(configs: Iterable<string>): { domain: string[]; range: string[] } {
  const all = [...new Set(configs)];
  const model = (c: string) => c.split(" · ").slice(1).join(" · ");
  const models = modelScale(all.map(model));
  const domain = all.sort((a, b) =>
    models.domain.indexOf(model(a)) - models.domain.indexOf(model(b)) || a.localeCompare(b)
  );
  return { domain, range: domain.map((c) => models.range[models.domain.indexOf(model(c))]) };
}

/** Font sizes (px) and legend placement of a chart: on screen, or at a paper column's width. */
export interface Layout {
  /** Width the whole chart should fit, CSS px (undefined: the screen default sizes). */
  width?: number;
  /** Axis and legend labels, axis and legend titles, chart title, subtitle, facet headers. */
  fonts: { label: number; title: number; heading: number; subtitle: number; header: number };
  /** Where legends go. */
  legend: "right" | "bottom";
}

/** The screen layout (notebooks, out/figures/*.svg). */
export const SCREEN: Layout = {
  fonts: { label: 11, title: 12, heading: 14, subtitle: 11, header: 12 },
  legend: "right",
};

/** CSS pixels per inch (an SVG's px). */
export const PX_PER_IN = 96;
/** Smallest text at print size, in points. */
export const MIN_PRINT_PT = 7;
/** The paper's column widths, in inches: single (one column of two) and double (full width). */
export const COLUMN_WIDTHS = { single: 3.33, double: 7 } as const;

/**
 * The layout of a figure printed `inches` wide: its width in CSS px and fonts of at least 7.5 pt at
 * that size (the figure is drawn at exactly that width, so sizes are print sizes); legends below
 * the plot in a single column.
 */
export function printLayout(inches: number): Layout {
  const pt = (p: number) => (p * PX_PER_IN) / 72;
  return {
    width: Math.round(inches * PX_PER_IN),
    fonts: { label: pt(7.5), title: pt(8), heading: pt(9), subtitle: pt(7.5), header: pt(8) },
    legend: inches < 4 ? "bottom" : "right",
  };
}

/** Chart-wide config of a layout: fonts, readable label limits, legends that never truncate names. */
export function chartConfig(layout: Layout = SCREEN): Record<string, unknown> {
  const f = layout.fonts;
  return {
    font: "sans-serif",
    axis: { labelFontSize: f.label, titleFontSize: f.title, labelLimit: 260 },
    legend: {
      labelFontSize: f.label,
      titleFontSize: f.title,
      labelLimit: 320,
      titleLimit: 320,
      orient: layout.legend,
      // swatches at full strength whatever the marks' opacity
      symbolOpacity: 1,
      ...(layout.legend === "bottom"
        ? { direction: "horizontal", columns: 2, columnPadding: 8 }
        : {}),
    },
    header: { labelFontSize: f.header, titleFontSize: f.header },
    title: { fontSize: f.heading, subtitleFontSize: f.subtitle, anchor: "start" },
    view: { stroke: "#ddd" },
  };
}

/**
 * Vega settings of a layout that vega-lite cannot express, for `Chart`'s `vegaConfig`: legends
 * below the plot stacked one under the other (side by side they outgrow a column).
 */
export function vegaConfig(layout: Layout): Record<string, unknown> | undefined {
  return layout.legend === "bottom"
    ? { legend: { layout: { bottom: { anchor: "start", direction: "vertical", margin: 4 } } } }
    : undefined;
}

/** Chart-wide config of the screen layout. */
export const CHART_CONFIG: Record<string, unknown> = chartConfig(SCREEN);

/** The quantitative encoding of stacked shares (field `share`, in %): 0–100, a tick every 20. */
export function percentShare(title: string): Record<string, unknown> {
  return {
    field: "share",
    type: "quantitative",
    stack: "zero",
    title,
    scale: { domain: [0, 100] },
    axis: { values: [0, 20, 40, 60, 80, 100] },
  };
}

/** Label of the paper's reference marks in every legend ("paper (Table 2)"). */
export function paperLabel(table: number): string {
  return `paper (Table ${table})`;
}

/** Name of the layers that draw the paper's values (the browser check finds them by it). */
export const PAPER_LAYER = "paper_reference";

/**
 * The paper's values as hollow diamonds with a legend entry of their own (a `shape` datum). Put
 * them beside the computed marks (an offset) or under them, never over them.
 */
export function paperMark(
  table: number,
): { mark: Record<string, unknown>; legend: Record<string, unknown> } {
  return {
    // the shape is set on the mark, so a chart's shape scale stays the models'
    mark: { type: "point", shape: "diamond", filled: false, size: 120, strokeWidth: 2, opacity: 1 },
    legend: {
      opacity: {
        datum: paperLabel(table),
        scale: { range: [1] },
        legend: {
          title: "Reference",
          symbolType: "diamond",
          symbolFillColor: "transparent",
          symbolStrokeColor: "black",
          symbolStrokeWidth: 2,
        },
      },
    },
  };
}
