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
/** Colours given, in order, to models not in the paper. */
const SPARE = [O.vermillion, O.skyBlue, O.yellow, O.black, O.grey];

/** The paper's models, each with its colour in every chart. */
export const MODEL_COLORS: Readonly<Record<string, string>> = {
  [MODELS[0]]: O.blue,
  [MODELS[1]]: O.orange,
  [MODELS[2]]: O.green,
  [MODELS[3]]: O.purple,
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

/** Memory settings (the ablation), light to dark by how much of the past the prompt holds. */
export const MEMORY_COLORS: Readonly<Record<string, string>> = {
  none: O.grey,
  interface: O.skyBlue,
  source: O.blue,
};

/** Target outcomes and gap classes: never read (blue), read but not used (orange), reused (green). */
export const OUTCOME_COLORS: Readonly<Record<string, string>> = {
  "never read": O.blue,
  "read, not used": O.orange,
  "absent": "#BBBBBB",
  "reused (read)": O.green,
  "reused (not read)": "#8FD3BE",
  "read but not reused": O.orange,
  "never read, not reused": O.blue,
};

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

/** The colour scale of memory settings, in the paper's order. */
export function memoryScale(memories: Iterable<string>): { domain: string[]; range: string[] } {
  return scaleOf(memories, MEMORY_COLORS, [O.vermillion, O.purple], [
    "none",
    "interface",
    "source",
  ]);
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

/** Chart-wide config: fonts, readable label limits, legends that never truncate names. */
export const CHART_CONFIG = {
  font: "sans-serif",
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  legend: {
    labelFontSize: 11,
    titleFontSize: 12,
    labelLimit: 320,
    titleLimit: 320,
    orient: "right",
  },
  header: { labelFontSize: 12, titleFontSize: 12 },
  title: { fontSize: 14, subtitleFontSize: 11, anchor: "start" },
  view: { stroke: "#ddd" },
} as const;

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

/**
 * The paper's values as hollow diamonds with a black outline and a legend entry of their own
 * (a `shape` datum), drawn above the computed marks.
 */
export function paperMark(
  table: number,
): { mark: Record<string, unknown>; shape: Record<string, unknown> } {
  return {
    mark: { type: "point", filled: false, size: 120, strokeWidth: 2, opacity: 1 },
    shape: {
      datum: paperLabel(table),
      scale: { range: ["diamond"] },
      legend: { title: "Reference", symbolStrokeColor: "black", symbolStrokeWidth: 2 },
    },
  };
}
