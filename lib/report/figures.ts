/**
 * The report's figures as vega-lite specs wrapped in {@link Chart}s (saved as `.vl.json` and SVG):
 * per-turn curves, reuse vs resolve, Lines viewed vs recall, memory ablation bars and the
 * read-but-unused breakdown. Data are computed here (lib/report/aggregate.ts) and inlined, so each
 * spec is self-contained.
 *
 * @module
 */
import type pl from "nodejs-polars";
import {
  asTurnRows,
  byConfig,
  type ConfigKey,
  configMetrics,
  METRICS,
  metricsByTurn,
  type TurnRow,
  turnsOf,
} from "./aggregate.ts";
import { type OutcomeInput, targetOutcome } from "../metrics/mod.ts";
import { Chart, textWidth, type VegaLiteSpec } from "./display.ts";
import {
  HARNESSES,
  MEMORIES,
  memoryLabel,
  MODELS,
  numericFields,
  orderIndex,
  paperRecords,
} from "./paper.ts";
import type { Interval } from "./stats.ts";
import {
  chartConfig,
  harnessDashes,
  harnessFill,
  type Layout,
  lowerIsBetter,
  memoryScale,
  metricLabel,
  modelScale,
  modelShapes,
  OUTCOME_COLORS,
  OUTCOME_LABELS,
  PAPER_LAYER,
  paperMark,
  percentShare,
  SCREEN,
  vegaConfig,
} from "./style.ts";

/** Options of the figure builders. */
export interface FigureOptions {
  /** Provenance line printed under every title (e.g. "SIMULATED corpus — not measured agent runs"). */
  provenance?: string;
  /** Draw the paper's values as hollow reference marks where it has them (default true). */
  paper?: boolean;
  /** Fonts and sizes: the screen's (default) or a paper column's (`printLayout` of style.ts). */
  layout?: Layout;
}

const WIDTH = 200, HEIGHT = 180;

function title(text: string, opts: FigureOptions): VegaLiteSpec {
  return opts.provenance
    ? { text, subtitle: `Data: ${opts.provenance}`, subtitleColor: "#b00000", anchor: "start" }
    : { text, anchor: "start" };
}

/** Greedy line breaks of `text` at `sep` so no line is wider than `width` px at `size`. */
function wrap(text: string, size: number, width: number, sep: string, bold = false): string[] {
  const parts = text.split(sep);
  const lines: string[] = [];
  let line = "";
  for (const p of parts) {
    const next = line ? `${line}${sep}${p}` : p;
    if (line && textWidth(next, size, bold) > width) {
      lines.push(sep === " · " ? line : line);
      line = p;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A title that fits a print layout's width: the title broken at spaces, each subtitle line at
 * " · " (then at spaces); unchanged on screen.
 */
function fitTitle(heading: VegaLiteSpec, layout: Layout): VegaLiteSpec {
  if (layout.width === undefined) return heading;
  const w = layout.width - 8;
  const text = wrap(String(heading.text), layout.fonts.heading, w, " ", true);
  const subs =
    (Array.isArray(heading.subtitle)
      ? heading.subtitle
      : heading.subtitle
      ? [heading.subtitle]
      : [])
      .flatMap((l: string) => wrap(l, layout.fonts.subtitle, w, " · "))
      .flatMap((l: string) => wrap(l, layout.fonts.subtitle, w, " "));
  return { ...heading, text, ...(subs.length ? { subtitle: subs } : {}) };
}

/** Width left for plots of a print layout after axes (and legends placed at the right). */
function plotWidth(layout: Layout, legend: number): number {
  return (layout.width ?? 0) - 56 - (layout.legend === "right" ? legend : 0);
}

function label(k: ConfigKey): string {
  return `${k.harness} · ${k.model}`;
}

/** Configurations of the main grid: the interface-memory ones when present, else all. */
function mainGroups(rows: TurnRow[]) {
  const all = byConfig(rows);
  const main = all.filter((g) => g.key.memory === "interface");
  return (main.length ? main : all).sort((a, b) =>
    orderIndex(HARNESSES, a.key.harness) - orderIndex(HARNESSES, b.key.harness) ||
    orderIndex(MODELS, a.key.model) - orderIndex(MODELS, b.key.model) ||
    label(a.key).localeCompare(label(b.key))
  );
}

function sorted(values: string[], order: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) =>
    orderIndex(order, a) - orderIndex(order, b) || a.localeCompare(b)
  );
}

/** A 0–100% axis with room for point marks at the ends (nothing drawn on or over the frame). */
const PCT = {
  type: "quantitative",
  scale: { domain: [-5, 105], nice: false },
  axis: { values: [0, 20, 40, 60, 80, 100] },
} as const;
/** A 0–100% axis for bars (they start at the frame). */
const PCT_BARS = {
  type: "quantitative",
  scale: { domain: [0, 105], nice: false },
  axis: { values: [0, 20, 40, 60, 80, 100] },
} as const;

/** How far right of its turn the paper's value is drawn (beside the computed point, not on it). */
const PAPER_OFFSET = 0.32;

/**
 * Per-turn curves of recall_repo, reuse_self and C_dup per configuration (interface memory; facets
 * by metric): colour and point shape = model, dash = harness; the paper's first- and last-turn
 * values (Table 3) as hollow diamonds just right of the computed point of their turn.
 */
export function perTurnFigure(turns: pl.DataFrame | TurnRow[], opts: FigureOptions = {}): Chart {
  const layout = opts.layout ?? SCREEN;
  const groups = mainGroups(asTurnRows(turns));
  const shown = [
    ["recall_repo", `${metricLabel("recall_repo")} (%)`],
    ["reuse_self", `${metricLabel("reuse_self")} (%)`],
    ["c_dup", `${metricLabel("c_dup")} (%, lower is better)`],
  ] as const;
  const values: Record<string, unknown>[] = groups.flatMap((g) => {
    const at = metricsByTurn(g.rows);
    return shown.flatMap(([m, name]) =>
      turnsOf(g.rows).map((t) => ({
        source: "computed",
        metric: name,
        harness: g.key.harness,
        model: g.key.model,
        turn: t,
        x: t,
        value: at.get(t)?.[m] ?? null,
      }))
    );
  }).filter((v) => v.value !== null);
  // the paper's first/last-turn values (Table 3) as hollow reference marks
  let reference = 0;
  for (const g of opts.paper === false ? [] : groups) {
    if (g.key.memory !== "interface") continue;
    const rec = paperRecords(3).find((r) => r.harness === g.key.harness && r.model === g.key.model);
    if (!rec) continue;
    for (const [m, name] of shown) {
      const first = m === "reuse_self" ? 2 : 1;
      for (const [turn, col] of [[first, `${m}_t${first}`], [5, `${m}_t5`]] as const) {
        values.push({
          source: "paper",
          metric: name,
          harness: g.key.harness,
          model: g.key.model,
          turn,
          x: turn + PAPER_OFFSET,
          value: Number(rec[col]),
        });
        reference++;
      }
    }
  }
  const memory = groups.some((g) => g.key.memory === "interface") ? " (interface memory)" : "";
  const t = `Recall (repo), reuse (self) and C_dup turn by turn${memory}`;
  const heading = title(t, opts);
  if (reference) {
    heading.subtitle = [
      ...(heading.subtitle ? [heading.subtitle] : []),
      "lines: computed · hollow diamonds just right of a turn: the paper's Table 3 (first, last turn)",
    ];
  }
  const turnList = [...new Set(values.map((v) => Number(v.turn)))].sort((a, b) => a - b);
  const models = values.map((v) => String(v.model));
  const color = { field: "model", type: "nominal", title: "Model", scale: modelScale(models) };
  const x = {
    field: "x",
    type: "quantitative",
    title: "Turn",
    scale: {
      domain: [(turnList[0] ?? 1) - 0.35, (turnList.at(-1) ?? 5) + PAPER_OFFSET + 0.3],
      nice: false,
      zero: false,
    },
    axis: { values: turnList, format: "d", grid: false },
  };
  const y = { field: "value", ...PCT, title: "%" };
  const tooltip = [
    { field: "source" },
    { field: "harness" },
    { field: "model" },
    { field: "turn" },
    { field: "value", format: ".1f" },
  ];
  const computed = "datum.source === 'computed'";
  const layer: VegaLiteSpec[] = [
    {
      transform: [{ filter: computed }],
      mark: { type: "line", strokeWidth: 1.5 },
      encoding: {
        x,
        y,
        color,
        detail: { field: "harness" },
        strokeDash: {
          field: "harness",
          type: "nominal",
          title: "Harness",
          scale: harnessDashes(values.map((v) => String(v.harness))),
          legend: {
            symbolType: "stroke",
            symbolStrokeWidth: 2,
            encode: { symbols: { update: { stroke: { value: "#333" } } } },
          },
        },
      },
    },
    {
      transform: [{ filter: computed }],
      mark: { type: "point", filled: true, size: 36, opacity: 1 },
      encoding: {
        x,
        y,
        color,
        shape: { field: "model", type: "nominal", title: "Model", scale: modelShapes(models) },
        tooltip,
      },
    },
  ];
  if (reference) {
    const p = paperMark(3);
    layer.push({
      name: PAPER_LAYER,
      transform: [{ filter: "datum.source === 'paper'" }],
      mark: { ...p.mark, size: 50, strokeWidth: 1.5 },
      encoding: { x, y, color, ...p.legend, tooltip },
    });
  }
  const print = layout.width !== undefined;
  const single = print && layout.legend === "bottom";
  const columns = single ? 1 : 3;
  const width = print ? Math.floor(plotWidth(layout, 150) / columns) - (single ? 0 : 14) : WIDTH;
  return new Chart(
    {
      title: fitTitle(heading, layout),
      config: chartConfig(layout),
      data: { values },
      facet: { field: "metric", type: "nominal", sort: shown.map((m) => m[1]), title: null },
      columns,
      spec: {
        width,
        height: print ? (single ? 110 : 130) : HEIGHT,
        layer,
      },
    },
    t,
    { vegaConfig: vegaConfig(layout) },
  );
}

/** " (interface memory)" when every configuration shown is one, else "". */
function memorySuffix(values: { memory: string }[]): string {
  return values.length && values.every((v) => v.memory === "interface")
    ? " (interface memory)"
    : "";
}

function configValues(rows: TurnRow[]) {
  return mainGroups(rows).map((g) => ({
    harness: g.key.harness,
    model: g.key.model,
    memory: g.key.memory,
    config: label(g.key),
    ...configMetrics(g.rows),
  }));
}

/** The paper's Table 2 values of the configurations present (interface memory), for reference marks. */
function paperPoints(values: Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const v of values) {
    if (v.memory !== "interface") continue;
    const rec = paperRecords(2).find((r) => r.harness === v.harness && r.model === v.model);
    if (rec) {
      out.push({
        harness: v.harness,
        model: v.model,
        config: `${v.config} (paper)`,
        ...numericFields(rec, ["harness", "model"]),
      });
    }
  }
  return out;
}

/**
 * One point per configuration of `turns` (x and y: configuration metrics), with the paper's
 * values linked where it has them; `heading` gets the memory setting appended.
 */
function configScatter(
  turns: pl.DataFrame | TurnRow[],
  x: { field: string; title: string; zero?: boolean },
  y: { field: string; title: string },
  heading: string,
  opts: FigureOptions,
): Chart {
  const values = configValues(asTurnRows(turns));
  const t = `${heading}${memorySuffix(values)}`;
  const layout = opts.layout ?? SCREEN;
  const reference = opts.paper === false ? [] : paperPoints(values);
  const modelList = values.map((v) => String(v.model));
  const models = modelScale(modelList);
  const xs = { zero: x.zero ?? false, padding: 14, nice: false };
  const ys = { zero: false, padding: 14, nice: false };
  const tooltip = [
    { field: "config" },
    { field: x.field, format: ".1f" },
    { field: y.field, format: ".1f" },
  ];
  const layer: VegaLiteSpec[] = [];
  if (reference.length) {
    // a dashed link from each configuration to the paper's value of it, under both
    const linked = values.flatMap((v) => {
      const r = reference.find((p) => p.harness === v.harness && p.model === v.model);
      return r && r[x.field] != null && r[y.field] != null
        ? [{ ...v, px: r[x.field], py: r[y.field] }]
        : [];
    });
    layer.push({
      data: { values: linked },
      mark: { type: "rule", strokeDash: [3, 2], strokeWidth: 1 },
      encoding: {
        x: { field: x.field, type: "quantitative", scale: xs },
        y: { field: y.field, type: "quantitative", scale: ys },
        x2: { field: "px" },
        y2: { field: "py" },
        color: { field: "model", type: "nominal", title: "Model", scale: models },
      },
    });
    // the paper's values under the computed points (larger, hollow: their outline stays visible)
    const p = paperMark(2);
    layer.push({
      name: PAPER_LAYER,
      data: { values: reference },
      mark: { ...p.mark, size: 190 },
      encoding: {
        x: { field: x.field, type: "quantitative", scale: xs },
        y: { field: y.field, type: "quantitative", scale: ys },
        color: { field: "model", type: "nominal", title: "Model", scale: models },
        ...p.legend,
        tooltip,
      },
    });
  }
  // harness: OpenCode filled, mini-SWE-agent hollow — the fill follows a key of its own
  const fills = harnessFill(values.map((v) => String(v.harness)));
  const filled = (h: unknown) => (fills.range[fills.domain.indexOf(String(h))] ?? 1) > 0;
  const keyed = values.map((v) => ({ ...v, fill_key: filled(v.harness) ? v.model : "hollow" }));
  layer.push({
    data: { values: keyed },
    mark: { type: "point", filled: false, size: 80, strokeWidth: 1.8, opacity: 1 },
    encoding: {
      x: { field: x.field, type: "quantitative", title: x.title, scale: xs },
      y: { field: y.field, type: "quantitative", title: y.title, scale: ys },
      color: { field: "model", type: "nominal", title: "Model", scale: models },
      shape: { field: "model", type: "nominal", title: "Model", scale: modelShapes(modelList) },
      fill: {
        field: "fill_key",
        type: "nominal",
        scale: { domain: [...models.domain, "hollow"], range: [...models.range, "#FFFFFF"] },
        legend: null,
      },
      // the harness legend only (every mark at full opacity): filled or hollow symbols
      opacity: {
        field: "harness",
        type: "ordinal",
        sort: fills.domain,
        title: "Harness",
        scale: { domain: fills.domain, range: fills.domain.map(() => 1) },
        legend: {
          symbolType: "circle",
          symbolFillColor: "transparent",
          symbolStrokeColor: "#333",
          symbolStrokeWidth: 1.5,
          labelExpr: `datum.value + (indexof(${
            JSON.stringify(fills.domain.filter((h) => filled(h)))
          }, datum.value) >= 0 ? ': filled' : ': hollow')`,
        },
      },
      tooltip,
    },
  });
  const spec = title(t, opts);
  if (reference.length) {
    spec.subtitle = [
      ...(spec.subtitle ? [spec.subtitle] : []),
      "points: computed · hollow diamonds (dashed link), under them: the paper's Table 2",
    ];
  }
  const print = layout.width !== undefined;
  const width = print ? plotWidth(layout, 170) : 360;
  return new Chart(
    {
      title: fitTitle(spec, layout),
      config: chartConfig(layout),
      width,
      height: print ? Math.round(width * 0.62) : 260,
      layer,
      // the harness legend and the paper's legend are both opacity legends: keep them apart
      resolve: { scale: { opacity: "independent" }, legend: { opacity: "independent" } },
    },
    t,
    { vegaConfig: vegaConfig(layout) },
  );
}

/** Repository reuse vs resolve rate across configurations (one point per configuration). */
export function reuseResolveFigure(
  turns: pl.DataFrame | TurnRow[],
  opts: FigureOptions = {},
): Chart {
  return configScatter(
    turns,
    { field: "reuse_repo", title: "Repository reuse (%)" },
    { field: "resolve", title: "Resolve rate (%)" },
    "Reuse vs resolve across configurations",
    opts,
  );
}

/** Lines viewed per turn vs repository recall (one point per configuration). */
export function linesRecallFigure(
  turns: pl.DataFrame | TurnRow[],
  opts: FigureOptions = {},
): Chart {
  return configScatter(
    turns,
    { field: "lines", title: "Distinct source lines viewed per turn", zero: true },
    { field: "recall_repo", title: "Repository recall (%)" },
    "Lines viewed vs repository recall",
    opts,
  );
}

/** The harness × model with the most memory settings (default OpenCode × Qwen3.7-plus). */
export function memoryConfig(rows: TurnRow[]): { harness: string; model: string } | undefined {
  const count = new Map<string, { harness: string; model: string; n: number }>();
  for (const g of byConfig(rows)) {
    const id = `${g.key.harness}\u0000${g.key.model}`;
    const c = count.get(id) ?? { harness: g.key.harness, model: g.key.model, n: 0 };
    c.n++;
    count.set(id, c);
  }
  const preferred = count.get("OpenCode\u0000Qwen3.7-plus");
  if (preferred && preferred.n > 1) return preferred;
  const best =
    [...count.values()].filter((c) => c.n > 1).sort((a, b) =>
      b.n - a.n || a.harness.localeCompare(b.harness) || a.model.localeCompare(b.model)
    )[0];
  return best;
}

/**
 * Memory ablation bars: reuse, recall, correctness and C_dup (%) per memory setting of one harness ×
 * model; with `intervals` (keyed `${memory}:${metric}`) 95% bootstrap error bars are drawn.
 */
export function memoryFigure(
  turns: pl.DataFrame | TurnRow[],
  opts: FigureOptions & {
    harness?: string;
    model?: string;
    intervals?: Record<string, Interval>;
  } = {},
): Chart | undefined {
  const layout = opts.layout ?? SCREEN;
  const rows = asTurnRows(turns);
  const which = opts.harness && opts.model
    ? { harness: opts.harness, model: opts.model }
    : memoryConfig(rows);
  if (!which) return undefined;
  const groups = byConfig(rows).filter((g) =>
    g.key.harness === which.harness && g.key.model === which.model
  );
  const ms = METRICS.filter((m) => m !== "files" && m !== "lines");
  const memories = sorted(groups.map((g) => g.key.memory), MEMORIES).map(memoryLabel);
  const isPaper = opts.paper !== false && which.harness === "OpenCode" &&
    which.model === "Qwen3.7-plus";
  // each memory setting has two slots side by side: its bar, then the paper's value of it
  const slots = memories.flatMap((m) => [m, `${m} (paper)`]);
  const values = groups.flatMap((g) => {
    const v = configMetrics(g.rows);
    const rec = isPaper ? paperRecords(4).find((r) => r.memory === g.key.memory) : undefined;
    return ms.map((m) => {
      const ci = opts.intervals?.[`${g.key.memory}:${m}`];
      return {
        memory: memoryLabel(g.key.memory),
        metric: m,
        value: v[m],
        low: ci?.low ?? null,
        high: ci?.high ?? null,
        paper: rec ? Number(rec[m]) : null,
        slot: memoryLabel(g.key.memory),
        source: "computed",
      };
    });
  }).filter((v) => v.value !== null);
  // the paper's values as rows of their own, in the slot right of their setting's bar
  values.push(
    ...values.filter((v) => v.paper !== null).map((v) => ({
      ...v,
      value: v.paper,
      low: null,
      high: null,
      slot: `${v.memory} (paper)`,
      source: "paper",
    })),
  );
  const t = `Memory ablation: ${which.harness} with ${which.model}`;
  const heading = title(t, opts);
  const withPaper = values.some((v) => v.paper !== null);
  if (withPaper || opts.intervals) {
    heading.subtitle = [
      ...(heading.subtitle ? [heading.subtitle] : []),
      [
        "bars: computed",
        ...(opts.intervals ? ["whiskers: 95% cluster-bootstrap interval"] : []),
        ...(withPaper ? ["hollow diamond right of each bar: the paper's Table 4"] : []),
      ].join(" · "),
    ];
  }
  const byMemory = memoryScale(groups.map((g) => g.key.memory), which.model);
  const colors = { domain: byMemory.domain.map(memoryLabel), range: byMemory.range };
  const labelled = values.map((v) => ({ ...v, label: metricLabel(v.metric) }));
  const print = layout.width !== undefined;
  const single = print && layout.legend === "bottom";
  const step = !print
    ? 88
    : single
    ? Math.floor(((layout.width ?? 0) - 70) / (ms.length - 1))
    : Math.floor((plotWidth(layout, 120) - 30) / ms.length);
  const panel = (metrics: readonly string[], header: string, width: number): VegaLiteSpec => {
    const x = {
      field: "label",
      type: "nominal",
      sort: metrics.map(metricLabel),
      title: null,
      // in print, "Recall (repo)" on two lines: one line each would run into the next
      axis: print
        ? { labelAngle: 0, labelExpr: "split(datum.label, ' ')", labelLineHeight: 11 }
        : { labelAngle: 0, labelLimit: 120 },
    };
    const xOffset = {
      field: "slot",
      type: "nominal",
      sort: slots,
      scale: { domain: withPaper ? slots : memories },
    };
    // every layer filters its metrics itself: with the filter on the panel, vega-lite shares the
    // paper layer's data between the two panels and misplaces its marks
    const only = { filter: { field: "metric", oneOf: [...metrics] } };
    const computed = { filter: "datum.source === 'computed'" };
    const layer: VegaLiteSpec[] = [{
      transform: [only, computed],
      mark: "bar",
      encoding: {
        x,
        xOffset,
        y: { field: "value", ...PCT_BARS, title: "%" },
        color: { field: "memory", type: "nominal", title: "Memory", scale: colors },
        tooltip: [{ field: "memory" }, { field: "label", title: "metric" }, {
          field: "value",
          format: ".1f",
        }],
      },
    }];
    if (opts.intervals) {
      layer.push({
        transform: [only, computed],
        mark: { type: "rule", color: "black" },
        encoding: {
          x,
          xOffset,
          y: { field: "low", type: "quantitative" },
          y2: { field: "high" },
        },
      });
    }
    if (withPaper) {
      const p = paperMark(4);
      layer.push({
        // names must be unique in a spec (vega-lite shares the data of equally named layers)
        name: `${PAPER_LAYER}_${header.toLowerCase().replace(/\W+/g, "_")}`,
        transform: [only, { filter: "datum.source === 'paper'" }],
        mark: { ...p.mark, color: "black", size: print ? 30 : 45, strokeWidth: 1.5 },
        encoding: {
          x,
          xOffset,
          y: { field: "paper", type: "quantitative" },
          ...p.legend,
          tooltip: [{ field: "memory" }, { field: "label", title: "metric" }, {
            field: "paper",
            title: "paper",
          }],
        },
      });
    }
    return {
      title: { text: header, fontSize: layout.fonts.header, fontWeight: "normal" },
      width,
      height: print ? (single ? 130 : 170) : 220,
      layer,
    };
  };
  const higher = ms.filter((m) => !lowerIsBetter(m));
  const lower = ms.filter(lowerIsBetter);
  return new Chart(
    {
      title: fitTitle(heading, layout),
      config: chartConfig(layout),
      data: { values: labelled },
      // a single column stacks the panels: side by side a metric gets too narrow for its name
      [single ? "vconcat" : "hconcat"]: [
        panel(higher, "Higher is better", step * higher.length),
        ...(lower.length ? [panel(lower, "Lower is better", step * lower.length)] : []),
      ],
      resolve: { scale: { y: "shared" } },
    },
    t,
    { vegaConfig: vegaConfig(layout) },
  );
}

/** Display labels of the outcomes of implemented targets (lib/metrics/outcomes.ts; style.ts). */
const IMPLEMENTED_OUTCOMES = {
  reused_read: OUTCOME_LABELS.reused_read,
  reused_unread: OUTCOME_LABELS.reused_unread,
  read_not_used: OUTCOME_LABELS.read_not_used,
  never_read: OUTCOME_LABELS.never_read,
} as const;

/** Outcome categories of a target in the read-but-unused breakdown, in display order. */
export const TARGET_OUTCOMES = Object.values(IMPLEMENTED_OUTCOMES);

/** Counts of target outcomes per (turn, kind) — implemented targets of the selected configs. */
export function targetOutcomes(
  targets: pl.DataFrame,
  filter: (r: { harness: string; model: string; memory: string }) => boolean = () => true,
): { turn: number; kind: string; outcome: string; count: number; share: number }[] {
  const need = ["harness", "model", "memory", "turn", "kind", "implemented", "read", "reused"];
  const missing = need.filter((c) => !targets.columns.includes(c));
  if (missing.length) {
    throw new Error(
      `targets frame lacks column(s) ${missing.join(", ")} (see lib/frames/schema.ts)`,
    );
  }
  const counts = new Map<string, number>();
  const totals = new Map<string, number>();
  for (const r of targets.select(...need).toRecords() as Record<string, unknown>[]) {
    const key = { harness: String(r.harness), model: String(r.model), memory: String(r.memory) };
    if (!filter(key) || r.implemented === false) continue;
    const outcome = IMPLEMENTED_OUTCOMES[
      targetOutcome(r as unknown as OutcomeInput) as keyof typeof IMPLEMENTED_OUTCOMES
    ];
    const tk = `${Number(r.turn)}\u0000${r.kind}`;
    counts.set(`${tk}\u0000${outcome}`, (counts.get(`${tk}\u0000${outcome}`) ?? 0) + 1);
    totals.set(tk, (totals.get(tk) ?? 0) + 1);
  }
  const out = [...counts.entries()].map(([k, count]) => {
    const [turn, kind, outcome] = k.split("\u0000");
    return {
      turn: Number(turn),
      kind,
      outcome,
      count,
      share: (100 * count) / totals.get(`${turn}\u0000${kind}`)!,
    };
  });
  return out.sort((a, b) =>
    a.kind.localeCompare(b.kind) || a.turn - b.turn ||
    TARGET_OUTCOMES.indexOf(a.outcome as typeof TARGET_OUTCOMES[number]) -
      TARGET_OUTCOMES.indexOf(b.outcome as typeof TARGET_OUTCOMES[number])
  );
}

/**
 * Read-but-unused breakdown: share of targets reused (read or not), read but not reused, and never
 * read, per turn and target kind — the interface-memory configurations pooled when present (the
 * title says how many), else all configurations pooled.
 */
export function readUnusedFigure(targets: pl.DataFrame, opts: FigureOptions = {}): Chart {
  const layout = opts.layout ?? SCREEN;
  const configs = targets.select("harness", "model", "memory").unique().toRecords() as {
    harness: string;
    model: string;
    memory: string;
  }[];
  const onlyInterface = configs.some((c) => c.memory === "interface");
  const pooled = configs.filter((c) => !onlyInterface || c.memory === "interface").length;
  const values = targetOutcomes(targets, (k) => !onlyInterface || k.memory === "interface")
    .map((v) => ({
      ...v,
      order: TARGET_OUTCOMES.indexOf(v.outcome as typeof TARGET_OUTCOMES[number]),
    }));
  const what = onlyInterface ? "interface-memory configurations" : "configurations";
  const t = `Reuse targets: reused, read but not reused, never read (${pooled} ${what} pooled)`;
  const heading = title(t, opts);
  heading.subtitle = [
    ...(heading.subtitle ? [heading.subtitle] : []),
    "reused (not read): called although the agent never opened its body (it knew the interface from the requirement, its memory or other code)",
  ];
  const print = layout.width !== undefined;
  const width = print ? Math.floor(plotWidth(layout, 170) / 2) - 10 : WIDTH;
  return new Chart(
    {
      title: fitTitle(heading, layout),
      config: chartConfig(layout),
      data: { values },
      facet: {
        column: {
          field: "kind",
          type: "nominal",
          sort: ["repo", "self"],
          title: null,
          header: { labelExpr: "datum.value === 'repo' ? 'Repository targets' : 'Self targets'" },
        },
      },
      spec: {
        width,
        height: print ? 130 : HEIGHT,
        mark: { type: "bar", stroke: "#666", strokeWidth: 0.5 },
        encoding: {
          x: { field: "turn", type: "ordinal", title: "Turn", axis: { labelAngle: 0 } },
          y: percentShare("% of targets"),
          color: {
            field: "outcome",
            type: "nominal",
            sort: [...TARGET_OUTCOMES],
            title: "Outcome",
            scale: {
              domain: [...TARGET_OUTCOMES],
              range: TARGET_OUTCOMES.map((o) => OUTCOME_COLORS[o]),
            },
          },
          order: { field: "order", type: "quantitative" },
          tooltip: [
            { field: "kind" },
            { field: "turn" },
            { field: "outcome" },
            { field: "count" },
            { field: "share", format: ".1f" },
          ],
        },
      },
    },
    t,
    { vegaConfig: vegaConfig(layout) },
  );
}
