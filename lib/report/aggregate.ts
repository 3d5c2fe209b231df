/**
 * Aggregation of the `turns` frame into the paper's metrics, as plain functions over turn rows so the
 * same code yields the point estimates and every bootstrap replicate.
 *
 * Conventions (paper §4.1, Tables 2–5 captions):
 * - every metric is macro-averaged over turns where it is defined (each scored turn weighs the same;
 *   null rates — no targets, no tests — are skipped);
 * - self metrics are defined from turn 2;
 * - rates are reported in %, Files and Lines as counts;
 * - `c_dup` (eq. 3) at turn t is the share of chains whose `dup_chain` is true at t; the overall
 *   value is the mean of the turn-wise rates C_dup(1..T).
 *
 * @module
 */
import type pl from "nodejs-polars";

/** One row of the `turns` frame with the columns the report uses. */
export interface TurnRow {
  harness: string;
  model: string;
  memory: string;
  chain: string;
  turn: number;
  n_repo: number | null;
  n_self: number | null;
  reuse_repo: number | null;
  reuse_self: number | null;
  recall_repo: number | null;
  recall_self: number | null;
  files: number | null;
  lines: number | null;
  pass_rate: number | null;
  resolved: boolean | null;
  dup_chain: boolean | null;
}

/** The metrics of Tables 2 and 4, in the paper's column order. */
export const METRICS = [
  "reuse_repo",
  "reuse_self",
  "recall_repo",
  "recall_self",
  "files",
  "lines",
  "resolve",
  "pass",
  "c_dup",
] as const;
/** A Table 2 metric. */
export type Metric = typeof METRICS[number];

/** Metrics reported as percentages (the others are counts). */
export const PERCENT_METRICS: ReadonlySet<Metric> = new Set([
  "reuse_repo",
  "reuse_self",
  "recall_repo",
  "recall_self",
  "resolve",
  "pass",
  "c_dup",
]);

const REQUIRED = [
  "harness",
  "model",
  "memory",
  "chain",
  "turn",
  "reuse_repo",
  "reuse_self",
  "recall_repo",
  "recall_self",
  "files",
  "lines",
  "pass_rate",
  "resolved",
  "dup_chain",
] as const;

function num(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === "bigint" ? Number(v) : Number(v);
  return Number.isFinite(n) ? n : null;
}

function bool(v: unknown): boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v === "true" || v === "1";
  return Boolean(v);
}

/**
 * Rows of a `turns` frame (lib/frames/schema.ts), typed and sorted by configuration, chain and turn.
 * Throws naming the missing columns when the frame is not a `turns` frame.
 */
export function turnRows(turns: pl.DataFrame): TurnRow[] {
  const have = new Set(turns.columns);
  const missing = REQUIRED.filter((c) => !have.has(c));
  if (missing.length) {
    throw new Error(`turns frame lacks column(s) ${missing.join(", ")} (see lib/frames/schema.ts)`);
  }
  const rows = turns.toRecords().map((r: Record<string, unknown>) => ({
    harness: String(r.harness),
    model: String(r.model),
    memory: String(r.memory),
    chain: String(r.chain),
    turn: num(r.turn) ?? 0,
    n_repo: num(r.n_repo),
    n_self: num(r.n_self),
    reuse_repo: num(r.reuse_repo),
    reuse_self: num(r.reuse_self),
    recall_repo: num(r.recall_repo),
    recall_self: num(r.recall_self),
    files: num(r.files),
    lines: num(r.lines),
    pass_rate: num(r.pass_rate),
    resolved: bool(r.resolved),
    dup_chain: bool(r.dup_chain),
  }));
  return rows.sort(compareRows);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRows(a: TurnRow, b: TurnRow): number {
  return cmp(a.harness, b.harness) || cmp(a.model, b.model) || cmp(a.memory, b.memory) ||
    cmp(a.chain, b.chain) || a.turn - b.turn;
}

/** A configuration's keys. */
export interface ConfigKey {
  harness: string;
  model: string;
  memory: string;
}

/** Stable string id of a configuration. */
export function configId(c: ConfigKey): string {
  return `${c.harness} · ${c.model} · ${c.memory}`;
}

/** Rows grouped by configuration (sorted by key). */
export function byConfig(rows: readonly TurnRow[]): { key: ConfigKey; rows: TurnRow[] }[] {
  const groups = new Map<string, { key: ConfigKey; rows: TurnRow[] }>();
  for (const r of rows) {
    const id = configId(r);
    let g = groups.get(id);
    if (!g) {
      g = { key: { harness: r.harness, model: r.model, memory: r.memory }, rows: [] };
      groups.set(id, g);
    }
    g.rows.push(r);
  }
  return [...groups.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, g]) => g);
}

/** Rows of one configuration grouped into chains (clusters for the bootstrap), sorted by chain. */
export function byChain(rows: readonly TurnRow[]): TurnRow[][] {
  const groups = new Map<string, TurnRow[]>();
  for (const r of rows) {
    const g = groups.get(r.chain);
    if (g) g.push(r);
    else groups.set(r.chain, [r]);
  }
  return [...groups.entries()].sort((a, b) => cmp(a[0], b[0])).map(([, g]) => g);
}

/** The per-turn value of a metric for one row, in report units (% or count); null if undefined. */
export function rowValue(r: TurnRow, metric: Exclude<Metric, "c_dup">): number | null {
  const pct = (x: number | null) => (x === null ? null : 100 * x);
  switch (metric) {
    case "reuse_repo":
      return pct(r.reuse_repo);
    case "reuse_self":
      return r.turn >= 2 ? pct(r.reuse_self) : null;
    case "recall_repo":
      return pct(r.recall_repo);
    case "recall_self":
      return r.turn >= 2 ? pct(r.recall_self) : null;
    case "files":
      return r.files;
    case "lines":
      return r.lines;
    case "resolve":
      return r.resolved === null ? null : r.resolved ? 100 : 0;
    case "pass":
      return pct(r.pass_rate);
  }
}

function mean(xs: readonly (number | null)[]): number | null {
  let s = 0, n = 0;
  for (const x of xs) {
    if (x !== null) {
      s += x;
      n++;
    }
  }
  return n ? s / n : null;
}

/** C_dup(t) in %: share of chains with a re-implementation at a turn ≤ t (rows at turn t). */
export function cdupAt(rows: readonly TurnRow[], turn: number): number | null {
  return mean(
    rows.filter((r) => r.turn === turn).map((r) =>
      r.dup_chain === null ? null : r.dup_chain ? 100 : 0
    ),
  );
}

/** Distinct turn numbers of the rows, ascending. */
export function turnsOf(rows: readonly TurnRow[]): number[] {
  return [...new Set(rows.map((r) => r.turn))].sort((a, b) => a - b);
}

/**
 * A metric over a set of turn rows (one configuration, possibly a bootstrap resample), macro-
 * averaged over turns where defined; `c_dup` is the mean of the turn-wise rates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { metric, type TurnRow } from "./aggregate.ts";
 * const row = (turn: number, reuse: number, dup: boolean) => ({
 *   harness: "h", model: "m", memory: "interface", chain: "c", turn, n_repo: 1, n_self: 1,
 *   reuse_repo: reuse, reuse_self: reuse, recall_repo: 1, recall_self: 1, files: 2, lines: 10,
 *   pass_rate: 1, resolved: true, dup_chain: dup,
 * }) as TurnRow;
 * const rows = [row(1, 0.5, false), row(2, 1, true)];
 * assert(metric(rows, "reuse_repo") === 75);
 * assert(metric(rows, "reuse_self") === 100); // from turn 2
 * assert(metric(rows, "c_dup") === 50); // mean of C_dup(1) = 0, C_dup(2) = 100
 * ```
 */
export function metric(rows: readonly TurnRow[], m: Metric): number | null {
  if (m === "c_dup") return mean(turnsOf(rows).map((t) => cdupAt(rows, t)));
  return mean(rows.map((r) => rowValue(r, m)));
}

/** A metric at one turn (mean over the chains' rows at that turn). */
export function metricAtTurn(rows: readonly TurnRow[], m: Metric, turn: number): number | null {
  if (m === "c_dup") return cdupAt(rows, turn);
  return mean(rows.filter((r) => r.turn === turn).map((r) => rowValue(r, m)));
}
