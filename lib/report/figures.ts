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
import { type OutcomeInput, targetOutcome } from "../metrics/outcomes.ts";
import { Chart, type VegaLiteSpec } from "./display.ts";
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
  CHART_CONFIG,
  harnessDashes,
  harnessShapes,
  lowerIsBetter,
  memoryScale,
  metricLabel,
  modelScale,
  OUTCOME_COLORS,
  paperLabel,
  paperMark,
  percentShare,
} from "./style.ts";

/** Options of the figure builders. */
export interface FigureOptions {
  /** Provenance line printed under every title (e.g. "SIMULATED corpus — not measured agent runs"). */
  provenance?: string;
  /** Draw the paper's values as hollow reference marks where it has them (default true). */
  paper?: boolean;
}

const WIDTH = 200, HEIGHT = 180;

function title(text: string, opts: FigureOptions): VegaLiteSpec {
  return opts.provenance
    ? { text, subtitle: `Data: ${opts.provenance}`, subtitleColor: "#b00000", anchor: "start" }
    : { text, anchor: "start" };
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

/** Per-turn curves of recall_repo, reuse_self and C_dup per configuration (facets by metric). */
export function perTurnFigure(turns: pl.DataFrame | TurnRow[], opts: FigureOptions = {}): Chart {
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
          value: Number(rec[col]),
        });
        reference++;
      }
    }
  }
  const t = "Recall (repo), reuse (self) and C_dup turn by turn";
  const heading = title(t, opts);
  if (reference) {
    heading.subtitle = [
      ...(heading.subtitle ? [heading.subtitle] : []),
      "lines: computed · hollow diamonds: the paper's Table 3 (first and last turn)",
    ];
  }
  const encoding = {
    x: { field: "turn", type: "ordinal", title: "Turn", axis: { labelAngle: 0 } },
    y: { field: "value", ...PCT, title: "%" },
    color: {
      field: "model",
      type: "nominal",
      title: "Model",
      scale: modelScale(values.map((v) => String(v.model))),
    },
    tooltip: [
      { field: "source" },
      { field: "harness" },
      { field: "model" },
      { field: "turn" },
      { field: "value", format: ".1f" },
    ],
  };
  const layer: VegaLiteSpec[] = [{
    transform: [{ filter: "datum.source === 'computed'" }],
    mark: { type: "line", point: true },
    encoding: {
      ...encoding,
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
  }];
  if (reference) {
    const p = paperMark(3);
    layer.push({
      transform: [{ filter: "datum.source === 'paper'" }],
      mark: p.mark,
      encoding: { ...encoding, shape: p.shape },
    });
  }
  return new Chart({
    title: heading,
    config: CHART_CONFIG,
    data: { values },
    facet: {
      column: { field: "metric", type: "nominal", sort: shown.map((m) => m[1]), title: null },
    },
    spec: { width: WIDTH, height: HEIGHT, layer },
  }, t);
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

function scatter(
  values: Record<string, unknown>[],
  x: { field: string; title: string; zero?: boolean },
  y: { field: string; title: string },
  t: string,
  opts: FigureOptions,
): Chart {
  const reference = opts.paper === false ? [] : paperPoints(values);
  const models = modelScale(values.map((v) => String(v.model)));
  const harnesses = harnessShapes(values.map((v) => String(v.harness)));
  const xs = { zero: x.zero ?? false, padding: 14, nice: false };
  const ys = { zero: false, padding: 14, nice: false };
  const tooltip = [
    { field: "config" },
    { field: x.field, format: ".1f" },
    { field: y.field, format: ".1f" },
  ];
  const layer: VegaLiteSpec[] = [];
  if (reference.length) {
    // a dashed link from each configuration to the paper's value of it
    const linked = values.flatMap((v) => {
      const r = reference.find((p) => p.harness === v.harness && p.model === v.model);
      return r && r[x.field] != null && r[y.field] != null
        ? [{ ...v, px: r[x.field], py: r[y.field] }]
        : [];
    });
    layer.push({
      data: { values: linked },
      mark: { type: "rule", strokeDash: [3, 3], opacity: 0.6 },
      encoding: {
        x: { field: x.field, type: "quantitative", scale: xs },
        y: { field: y.field, type: "quantitative", scale: ys },
        x2: { field: "px" },
        y2: { field: "py" },
        color: { field: "model", type: "nominal", scale: models },
      },
    });
  }
  layer.push({
    data: { values },
    mark: { type: "point", filled: true, size: 90, opacity: 0.9 },
    encoding: {
      x: { field: x.field, type: "quantitative", title: x.title, scale: xs },
      y: { field: y.field, type: "quantitative", title: y.title, scale: ys },
      color: { field: "model", type: "nominal", title: "Model", scale: models },
      shape: { field: "harness", type: "nominal", title: "Harness", scale: harnesses },
      tooltip,
    },
  });
  if (reference.length) {
    const p = paperMark(2);
    layer.push({
      data: { values: reference },
      // the shape scale is the harnesses': the diamond is set on the mark, its legend by opacity
      mark: { ...p.mark, shape: "diamond" },
      encoding: {
        x: { field: x.field, type: "quantitative", scale: xs },
        y: { field: y.field, type: "quantitative", scale: ys },
        color: { field: "model", type: "nominal", scale: models },
        opacity: {
          datum: paperLabel(2),
          scale: { range: [1] },
          legend: {
            title: "Reference",
            symbolType: "diamond",
            symbolFillColor: "transparent",
            symbolStrokeColor: "black",
            symbolStrokeWidth: 2,
          },
        },
        tooltip,
      },
    });
  }
  const spec = title(t, opts);
  if (reference.length) {
    spec.subtitle = [
      ...(spec.subtitle ? [spec.subtitle] : []),
      "filled: computed · hollow diamonds (dashed link): the paper's Table 2",
    ];
  }
  return new Chart(
    { title: spec, config: CHART_CONFIG, width: 360, height: 260, layer },
    t,
  );
}

/** Repository reuse vs resolve rate across configurations (one point per configuration). */
export function reuseResolveFigure(
  turns: pl.DataFrame | TurnRow[],
  opts: FigureOptions = {},
): Chart {
  return scatter(
    configValues(asTurnRows(turns)),
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
  return scatter(
    configValues(asTurnRows(turns)),
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
      };
    });
  }).filter((v) => v.value !== null);
  const t = `Memory ablation: ${which.harness} with ${which.model}`;
  const heading = title(t, opts);
  const withPaper = values.some((v) => v.paper !== null);
  if (withPaper || opts.intervals) {
    heading.subtitle = [
      ...(heading.subtitle ? [heading.subtitle] : []),
      [
        "bars: computed",
        ...(opts.intervals ? ["whiskers: 95% cluster-bootstrap interval"] : []),
        ...(withPaper ? ["hollow diamonds: the paper's Table 4"] : []),
      ].join(" · "),
    ];
  }
  const byMemory = memoryScale(groups.map((g) => g.key.memory));
  const colors = { domain: byMemory.domain.map(memoryLabel), range: byMemory.range };
  const labelled = values.map((v) => ({ ...v, label: metricLabel(v.metric) }));
  const panel = (metrics: readonly string[], header: string, width: number): VegaLiteSpec => {
    const x = {
      field: "label",
      type: "nominal",
      sort: metrics.map(metricLabel),
      title: null,
      axis: { labelAngle: 0, labelLimit: 120 },
    };
    const xOffset = { field: "memory", type: "nominal", sort: memories };
    const layer: VegaLiteSpec[] = [{
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
        mark: { type: "rule", color: "black" },
        encoding: { x, xOffset, y: { field: "low", type: "quantitative" }, y2: { field: "high" } },
      });
    }
    if (withPaper) {
      const p = paperMark(4);
      layer.push({
        transform: [{ filter: "datum.paper !== null" }],
        mark: { ...p.mark, color: "black", size: 70 },
        encoding: {
          x,
          xOffset,
          y: { field: "paper", type: "quantitative" },
          shape: p.shape,
          tooltip: [{ field: "memory" }, { field: "label", title: "metric" }, {
            field: "paper",
            title: "paper",
          }],
        },
      });
    }
    return {
      title: { text: header, fontSize: 12, fontWeight: "normal" },
      transform: [{ filter: { field: "metric", oneOf: [...metrics] } }],
      width,
      height: 220,
      layer,
    };
  };
  const higher = ms.filter((m) => !lowerIsBetter(m));
  const lower = ms.filter(lowerIsBetter);
  return new Chart({
    title: heading,
    config: CHART_CONFIG,
    data: { values: labelled },
    hconcat: [
      panel(higher, "Higher is better", 88 * higher.length),
      ...(lower.length ? [panel(lower, "Lower is better", 88 * lower.length)] : []),
    ],
    resolve: { scale: { y: "shared" } },
  }, t);
}

/** Display labels of the outcomes of implemented targets (lib/metrics/outcomes.ts). */
const OUTCOME_LABELS = {
  reused_read: "reused (read)",
  reused_unread: "reused (not read)",
  read_not_used: "read but not reused",
  never_read: "never read, not reused",
} as const;

/** Outcome categories of a target in the read-but-unused breakdown, in display order. */
export const TARGET_OUTCOMES = Object.values(OUTCOME_LABELS);

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
    const outcome = OUTCOME_LABELS[
      targetOutcome(r as unknown as OutcomeInput) as keyof typeof OUTCOME_LABELS
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
 * read, per turn and target kind (interface-memory configurations pooled when present).
 */
export function readUnusedFigure(targets: pl.DataFrame, opts: FigureOptions = {}): Chart {
  const memories = new Set(
    (targets.select("memory").unique().toRecords() as { memory: string }[]).map((r) => r.memory),
  );
  const onlyInterface = memories.has("interface");
  const values = targetOutcomes(targets, (k) => !onlyInterface || k.memory === "interface")
    .map((v) => ({
      ...v,
      order: TARGET_OUTCOMES.indexOf(v.outcome as typeof TARGET_OUTCOMES[number]),
    }));
  const t = "Reuse targets: reused, read but not reused, never read";
  const heading = title(t, opts);
  if (onlyInterface) {
    heading.subtitle = [...(heading.subtitle ? [heading.subtitle] : []), "interface memory"];
  }
  return new Chart({
    title: heading,
    config: CHART_CONFIG,
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
      width: WIDTH,
      height: HEIGHT,
      mark: "bar",
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
  }, t);
}
