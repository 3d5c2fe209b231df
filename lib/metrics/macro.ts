/**
 * Macro-averaging as in the paper (§4.1 "All metrics are macro-averaged over turns where they are
 * defined"): rates are computed per turn and averaged over the turns where they are defined (self
 * metrics from turn 2 on, since turn 1 has no self target); C_dup is averaged over the cumulative
 * turn-wise rates C_dup(1..T) (Table 2: "averaged over the five cumulative turn-wise rates").
 *
 * @module
 */
import type { TurnRow } from "./rows.ts";
import { C_dup, meanC_dup } from "./redundancy.ts";

/**
 * Mean of the defined values (null/undefined/NaN skipped); null when none is defined — an
 * undefined metric never averages in as 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { macroAverage } from "./macro.ts";
 * assert(macroAverage([0.5, null, 1]) === 0.75);
 * assert(macroAverage([null, undefined]) === null);
 * ```
 */
export function macroAverage(values: readonly (number | null | undefined)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (!isDefined(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

/** A value that counts in a macro average: not null, undefined or NaN. */
function isDefined(v: number | null | undefined): v is number {
  return v !== null && v !== undefined && !Number.isNaN(v);
}

/** Configuration keys of a summary row. */
export interface ConfigKey {
  harness: string;
  model: string;
  memory: string;
}

/** Macro averages of one configuration (Table 2, 4) or of one configuration at one turn. */
export interface ConfigAverages extends ConfigKey {
  /** Scored turns averaged. */
  turns: number;
  /** Chains with at least one scored turn. */
  chains: number;
  reuse_repo: number | null;
  reuse_self: number | null;
  recall_repo: number | null;
  recall_self: number | null;
  files: number | null;
  lines: number | null;
  /** Resolve rate: share of turns with all cases passed. */
  resolve: number | null;
  /** Mean per-turn pass rate. */
  pass: number | null;
  /** Summary: mean of C_dup(1..T); by turn: C_dup(t). */
  c_dup: number | null;
}

const key = (r: ConfigKey) => `${r.harness}\u0000${r.model}\u0000${r.memory}`;

function groupBy<T>(rows: readonly T[], k: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const g = m.get(k(r));
    if (g) g.push(r);
    else m.set(k(r), [r]);
  }
  return new Map([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * |R_{c,i}| of one chain's rows, indexed by turn − 1 (a missing turn: 0) — the vector
 * {@link C_dup} and {@link meanC_dup} take per chain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reimplementationCounts } from "./macro.ts";
 * assert.deepEqual(reimplementationCounts([{ turn: 1, reimplemented: 0 }, { turn: 3, reimplemented: 2 }]), [0, 0, 2]);
 * ```
 */
export function reimplementationCounts(
  chain: readonly Pick<TurnRow, "turn" | "reimplemented">[],
): number[] {
  const counts: number[] = [];
  for (const r of chain) {
    while (counts.length < r.turn) counts.push(0);
    counts[r.turn - 1] += r.reimplemented;
  }
  return counts;
}

/** |R_{c,i}| per chain of a configuration's rows ({@link reimplementationCounts}), by chain. */
function reimplementations(rows: readonly TurnRow[]): number[][] {
  return [...groupBy(rows, (r) => r.chain).values()].map(reimplementationCounts);
}

/**
 * The metrics averaged over turns (every Table 2 column but C_dup), each with the value it takes
 * from a `turns` row — null where it is undefined at that turn, so the turn does not count:
 * resolve only where the turn has test cases. The one table both `averageByConfig` and the
 * report's bootstrap (lib/report/aggregate.ts) average.
 */
export const TURN_VALUES = {
  reuse_repo: (r: TurnRow) => r.reuse_repo,
  reuse_self: (r: TurnRow) => r.reuse_self,
  recall_repo: (r: TurnRow) => r.recall_repo,
  recall_self: (r: TurnRow) => r.recall_self,
  files: (r: TurnRow) => r.files,
  lines: (r: TurnRow) => r.lines,
  resolve: (r: TurnRow) => (r.tests > 0 ? Number(r.resolved) : null),
  pass: (r: TurnRow) => r.pass_rate,
} as const satisfies Record<string, (r: TurnRow) => number | null>;

/** A metric averaged over turns (a key of {@link TURN_VALUES}). */
export type MeanMetric = keyof typeof TURN_VALUES;

/** The metrics of {@link TURN_VALUES}, in the paper's column order. */
export const MEAN_METRICS = Object.keys(TURN_VALUES) as MeanMetric[];

/**
 * Sums and counts of each averaged metric's defined values over a set of turns, in
 * {@link MEAN_METRICS} order: the sufficient statistics of the macro averages. They add up over
 * disjoint sets of turns ({@link addMeanSums}) — the report's bootstrap adds up resampled chains.
 */
export interface MeanSums {
  sums: number[];
  counts: number[];
}

/** {@link MeanSums} of some turns' rows (values taken by {@link TURN_VALUES}, in row order). */
export function meanSums(rows: readonly TurnRow[]): MeanSums {
  const sums = MEAN_METRICS.map(() => 0), counts = MEAN_METRICS.map(() => 0);
  for (const r of rows) {
    for (let i = 0; i < MEAN_METRICS.length; i++) {
      const v = TURN_VALUES[MEAN_METRICS[i]](r);
      if (!isDefined(v)) continue;
      sums[i] += v;
      counts[i]++;
    }
  }
  return { sums, counts };
}

/** The {@link MeanSums} of the union of disjoint sets of turns (undefined parts: no turns). */
export function addMeanSums(parts: readonly (MeanSums | undefined)[]): MeanSums {
  const sums: number[] = [], counts: number[] = [];
  for (let i = 0; i < MEAN_METRICS.length; i++) {
    let sum = 0, count = 0;
    for (const p of parts) {
      if (!p) continue;
      sum += p.sums[i];
      count += p.counts[i];
    }
    sums.push(sum);
    counts.push(count);
  }
  return { sums, counts };
}

/**
 * The macro average of each metric of {@link MEAN_METRICS} from its sums and counts: null where
 * no turn defines it (as {@link macroAverage}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addMeanSums, meansOf, meanSums } from "./macro.ts";
 * import { rowOf, TURN_COLUMNS } from "./rows.ts";
 * const row = rowOf(TURN_COLUMNS, { harness: "h", model: "m", memory: "none", chain: "c", turn: 1,
 *   n_repo: 1, reuse_repo: 1, recall_repo: 1, files: 2, lines: 10, submitted: true, coverage: 1 });
 * const m = meansOf(addMeanSums([meanSums([row]), meanSums([{ ...row, reuse_repo: 0, files: 4 }])]));
 * assert.equal(m.reuse_repo, 0.5);
 * assert.equal(m.files, 3);
 * assert.equal(m.resolve, null); // no turn with test cases
 * ```
 */
export function meansOf(s: MeanSums): Record<MeanMetric, number | null> {
  const out = {} as Record<MeanMetric, number | null>;
  MEAN_METRICS.forEach((m, i) => (out[m] = s.counts[i] === 0 ? null : s.sums[i] / s.counts[i]));
  return out;
}

function averages(rows: readonly TurnRow[]) {
  const chains = new Set(rows.map((r) => r.chain)).size;
  return { turns: rows.length, chains, ...meansOf(meanSums(rows)) };
}

/**
 * Per-configuration macro averages (the paper's Table 2 and Table 4 columns), sorted by
 * harness, model, memory. C_dup is the mean of C_dup(t) over t = 1..T, T the longest chain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averageByConfig } from "./macro.ts";
 * import { rowOf, TURN_COLUMNS } from "./rows.ts";
 * const base = { harness: "h", model: "m", memory: "interface", n_repo: 1, files: 2, lines: 10,
 *   tests: 2, passed: 2, resolved: true, submitted: true, coverage: 1, pass_rate: 1, recall_repo: 1 };
 * const rows = [
 *   rowOf(TURN_COLUMNS, { ...base, chain: "c1", turn: 1, reuse_repo: 1 }),
 *   rowOf(TURN_COLUMNS, { ...base, chain: "c1", turn: 2, n_self: 2, reuse_repo: 0, reuse_self: 0.5, reimplemented: 1 }),
 * ];
 * const [s] = averageByConfig(rows);
 * assert(s.reuse_repo === 0.5 && s.reuse_self === 0.5);
 * assert(s.c_dup === 0.5); // C_dup(1) = 0, C_dup(2) = 1
 * ```
 */
export function averageByConfig(rows: readonly TurnRow[]): ConfigAverages[] {
  const out: ConfigAverages[] = [];
  for (const group of groupBy(rows, key).values()) {
    const { harness, model, memory } = group[0];
    const c_dup = meanC_dup(reimplementations(group));
    out.push({ harness, model, memory, ...averages(group), c_dup });
  }
  return out;
}

/**
 * Per-configuration, per-turn macro averages (Tables 3 and 5 take their T1/T2/T5 columns from
 * these), sorted by configuration then turn; `c_dup` is C_dup(t).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averageByTurn } from "./macro.ts";
 * assert(averageByTurn([]).length === 0);
 * ```
 */
export function averageByTurn(rows: readonly TurnRow[]): (ConfigAverages & { turn: number })[] {
  const out: (ConfigAverages & { turn: number })[] = [];
  for (const group of groupBy(rows, key).values()) {
    const { harness, model, memory } = group[0];
    const chains = reimplementations(group);
    const turns = [...new Set(group.map((r) => r.turn))].sort((a, b) => a - b);
    for (const t of turns) {
      const at = group.filter((r) => r.turn === t);
      out.push({ harness, model, memory, turn: t, ...averages(at), c_dup: C_dup(chains, t) });
    }
  }
  return out;
}

/** Metrics reported at the first and last turn (Tables 3 and 5). */
export const FIRST_LAST_METRICS = [
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

/** One metric of one configuration at its first and last turn. */
export interface FirstLast extends ConfigKey {
  metric: (typeof FIRST_LAST_METRICS)[number];
  /** First turn at which the metric is defined in this configuration (self metrics: 2). */
  first_turn: number | null;
  first: number | null;
  /** Last turn of the configuration's chains. */
  last_turn: number | null;
  last: number | null;
  /** last − first (null when either is). */
  delta: number | null;
}

/**
 * First- and last-turn values of each metric per configuration, as the paper's Tables 3 and 5
 * (T1 / T5 / Δ; self reuse from T2): the per-turn macro averages of {@link averageByTurn} at
 * the first turn where the metric is defined and at the last turn. Sorted by configuration, then
 * in the order of {@link FIRST_LAST_METRICS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstLastTurns, averageByTurn } from "./macro.ts";
 * const by = [
 *   { harness: "h", model: "m", memory: "none", turn: 1, turns: 1, chains: 1, reuse_repo: 0.5,
 *     reuse_self: null, recall_repo: 1, recall_self: null, files: 3, lines: 9, resolve: 1,
 *     pass: 1, c_dup: 0 },
 *   { harness: "h", model: "m", memory: "none", turn: 2, turns: 1, chains: 1, reuse_repo: 0.25,
 *     reuse_self: 1, recall_repo: 0, recall_self: 1, files: 1, lines: 2, resolve: 0, pass: 0.5,
 *     c_dup: 1 },
 * ];
 * const rows = firstLastTurns(by);
 * const self = rows.find((r) => r.metric === "reuse_self")!;
 * assert.deepEqual([self.first_turn, self.first, self.last_turn, self.last, self.delta], [2, 1, 2, 1, 0]);
 * const repo = rows.find((r) => r.metric === "reuse_repo")!;
 * assert.deepEqual([repo.first, repo.last, repo.delta], [0.5, 0.25, -0.25]);
 * assert.equal(averageByTurn([]).length, 0);
 * ```
 */
export function firstLastTurns(
  byTurn: readonly (ConfigAverages & { turn: number })[],
): FirstLast[] {
  const out: FirstLast[] = [];
  for (const group of groupBy(byTurn, key).values()) {
    const { harness, model, memory } = group[0];
    const sorted = [...group].sort((a, b) => a.turn - b.turn);
    const lastRow = sorted[sorted.length - 1];
    for (const metric of FIRST_LAST_METRICS) {
      const firstRow = sorted.find((r) => r[metric] !== null);
      const first = firstRow ? firstRow[metric] : null;
      const last = lastRow[metric];
      out.push({
        harness,
        model,
        memory,
        metric,
        first_turn: firstRow?.turn ?? null,
        first,
        last_turn: lastRow.turn,
        last,
        delta: first !== null && last !== null ? last - first : null,
      });
    }
  }
  return out;
}
