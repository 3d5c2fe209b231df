/**
 * Statistics for the report: a seeded PRNG, percentile intervals, a cluster bootstrap that resamples
 * whole task chains, paired configuration deltas and McNemar's test.
 *
 * Turns of a chain are correlated (each builds on the previous one), so the unit of resampling is
 * the chain (analysis-anchors §5). Every random draw comes from {@link mulberry32} seeded by the
 * caller: the same seed gives the same intervals, bit for bit.
 *
 * @module
 */

/** Options of the bootstrap. */
export interface BootstrapOptions {
  /** Number of bootstrap replicates (default 1000). */
  B?: number;
  /** PRNG seed (default 20260). */
  seed?: number;
  /** Confidence level of the percentile interval (default 0.95). */
  level?: number;
}

/** Default bootstrap replicates. */
export const DEFAULT_B = 1000;
/** Default bootstrap seed. */
export const DEFAULT_SEED = 20260;

/** A point estimate with its percentile interval. */
export interface Interval {
  estimate: number | null;
  low: number | null;
  high: number | null;
  /** Replicates whose statistic was defined (not NaN/null). */
  replicates: number;
  B: number;
  seed: number;
  level: number;
}

/**
 * Mulberry32: a small, fast 32-bit PRNG; returns a function yielding floats in [0, 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "./stats.ts";
 * const a = mulberry32(7), b = mulberry32(7);
 * assert(a() === b() && a() < 1);
 * ```
 */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Quantile of sorted values by linear interpolation between order statistics (Hyndman–Fan type 7,
 * the default of R and NumPy).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quantileSorted } from "./stats.ts";
 * assert(quantileSorted([1, 2, 3, 4], 0.5) === 2.5);
 * ```
 */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

function isDefined(x: number | null | undefined): x is number {
  return x !== null && x !== undefined && Number.isFinite(x);
}

/**
 * Cluster bootstrap: resamples whole clusters (task chains) with replacement `B` times, evaluates
 * `stat` on each resample and returns the statistic on the full sample with its percentile interval.
 * Replicates where `stat` is undefined (null/NaN) are skipped and counted out of `replicates`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterBootstrap } from "./stats.ts";
 * const chains = [[1, 1], [0, 0], [1, 0]];
 * const mean = (cs: number[][]) => cs.flat().reduce((a, b) => a + b, 0) / cs.flat().length;
 * const ci = clusterBootstrap(chains, mean, { B: 200, seed: 1 });
 * assert(ci.estimate === 0.5 && ci.low! <= 0.5 && ci.high! >= 0.5);
 * ```
 */
export function clusterBootstrap<T>(
  clusters: readonly T[],
  stat: (sample: T[]) => number | null,
  opts: BootstrapOptions = {},
): Interval {
  return clusterBootstrapAll(clusters, (s) => ({ v: stat(s) }), opts).v;
}

/**
 * {@link clusterBootstrap} of several statistics at once: every statistic is evaluated on the same
 * resamples (one `stat` call per replicate returning a record of values).
 */
export function clusterBootstrapAll<T, K extends string>(
  clusters: readonly T[],
  stat: (sample: T[]) => Record<K, number | null>,
  opts: BootstrapOptions = {},
): Record<K, Interval> {
  const estimate = stat([...clusters]);
  return runBootstrap(
    clusters.length,
    Object.keys(estimate) as K[],
    estimate,
    (idx) => stat(idx.map((i) => clusters[i])),
    opts,
  );
}

function runBootstrap<K extends string>(
  n: number,
  keys: K[],
  estimate: Record<K, number | null>,
  stat: (indices: number[]) => Record<K, number | null>,
  opts: BootstrapOptions,
): Record<K, Interval> {
  const B = opts.B ?? DEFAULT_B;
  const seed = opts.seed ?? DEFAULT_SEED;
  const level = opts.level ?? 0.95;
  const reps = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  if (n > 0) {
    const rng = mulberry32(seed);
    const idx = new Array<number>(n);
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < n; i++) idx[i] = Math.floor(rng() * n);
      const v = stat(idx);
      for (const k of keys) if (isDefined(v[k])) reps[k].push(v[k] as number);
    }
  }
  return Object.fromEntries(keys.map((k) => {
    const e = n > 0 && isDefined(estimate[k]) ? estimate[k] : null;
    return [k, intervalOf(e, reps[k], B, seed, level)];
  })) as Record<K, Interval>;
}

function intervalOf(
  estimate: number | null,
  replicates: number[],
  B: number,
  seed: number,
  level: number,
): Interval {
  const sorted = [...replicates].sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return {
    estimate,
    low: sorted.length ? quantileSorted(sorted, alpha) : null,
    high: sorted.length ? quantileSorted(sorted, 1 - alpha) : null,
    replicates: sorted.length,
    B,
    seed,
    level,
  };
}

/**
 * Paired cluster bootstrap of `stat(a) − stat(b)` where `a[i]` and `b[i]` are the same cluster (task
 * chain) under two configurations: each replicate draws one set of chain indices and applies it to
 * both sides, so chain difficulty cancels out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedBootstrap } from "./stats.ts";
 * const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
 * const d = pairedBootstrap([3, 5, 7], [1, 3, 5], mean, { B: 100, seed: 3 });
 * assert(Math.abs(d.estimate! - 2) < 1e-12 && Math.abs(d.high! - d.low!) < 1e-12);
 * ```
 */
export function pairedBootstrap<T>(
  a: readonly T[],
  b: readonly T[],
  stat: (sample: T[]) => number | null,
  opts: BootstrapOptions = {},
): Interval {
  return pairedBootstrapAll(a, b, (s) => ({ v: stat(s) }), opts).v;
}

/** {@link pairedBootstrap} of several statistics at once (same resamples for all). */
export function pairedBootstrapAll<T, K extends string>(
  a: readonly T[],
  b: readonly T[],
  stat: (sample: T[]) => Record<K, number | null>,
  opts: BootstrapOptions = {},
): Record<K, Interval> {
  if (a.length !== b.length) {
    throw new Error(`pairedBootstrap: ${a.length} vs ${b.length} clusters; pair them first`);
  }
  const delta = (ia: T[], ib: T[]) => {
    const x = stat(ia), y = stat(ib);
    const out = {} as Record<K, number | null>;
    for (const k of Object.keys(x) as K[]) {
      out[k] = isDefined(x[k]) && isDefined(y[k]) ? (x[k] as number) - (y[k] as number) : null;
    }
    return out;
  };
  const estimate = delta([...a], [...b]);
  return runBootstrap(
    a.length,
    Object.keys(estimate) as K[],
    estimate,
    (idx) => delta(idx.map((i) => a[i]), idx.map((i) => b[i])),
    opts,
  );
}

/** Options of {@link pairedPermutationAll}. */
export interface PermutationOptions {
  /** Random sign patterns when they are not enumerated (default 9999). */
  flips?: number;
  /** PRNG seed (default 20260). */
  seed?: number;
  /** Enumerate all 2^n patterns when there are at most this many (default 2^14). */
  exactUpTo?: number;
}

/** Default random sign patterns of the permutation test. */
export const DEFAULT_FLIPS = 9999;

/** A chain-level permutation p-value of one paired difference. */
export interface PermutationP {
  /** The observed statistic A − B (null when undefined). */
  estimate: number | null;
  /** Two-sided p (null when the statistic is undefined). */
  p: number | null;
  /** Whether every sign pattern was enumerated (exact), else Monte Carlo with `flips`. */
  exact: boolean;
  /** Patterns evaluated (2^n when exact). */
  patterns: number;
  seed: number;
}

/**
 * Chain-level permutation (sign-flip) test of `stat(a) − stat(b)` where `a[i]` and `b[i]` are the
 * same cluster (task chain) under two configurations. Under H0 the two configurations are
 * exchangeable within each chain, so each pattern swaps A and B in a random subset of chains; the
 * two-sided p is the share of patterns whose |difference| reaches the observed one. All 2^n
 * patterns are enumerated when there are few (exact p); otherwise `flips` seeded random patterns,
 * p = (1 + hits) / (1 + flips), never 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedPermutationAll } from "./stats.ts";
 * const mean = (xs: number[]) => ({ m: xs.reduce((s, x) => s + x, 0) / xs.length });
 * // three chains, each A − B = +1: only the identity and the full swap are as extreme: 2/8
 * const r = pairedPermutationAll([2, 3, 4], [1, 2, 3], mean);
 * assert(r.m.exact && r.m.p === 0.25 && r.m.estimate === 1);
 * ```
 */
export function pairedPermutationAll<T, K extends string>(
  a: readonly T[],
  b: readonly T[],
  stat: (sample: T[]) => Record<K, number | null>,
  opts: PermutationOptions = {},
): Record<K, PermutationP> {
  if (a.length !== b.length) {
    throw new Error(`pairedPermutation: ${a.length} vs ${b.length} clusters; pair them first`);
  }
  const n = a.length;
  const seed = opts.seed ?? DEFAULT_SEED;
  const diff = (swap: (i: number) => boolean) => {
    const xa: T[] = new Array(n), xb: T[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const s = swap(i);
      xa[i] = s ? b[i] : a[i];
      xb[i] = s ? a[i] : b[i];
    }
    const x = stat(xa), y = stat(xb);
    const out = {} as Record<K, number | null>;
    for (const k of Object.keys(x) as K[]) {
      out[k] = isDefined(x[k]) && isDefined(y[k]) ? (x[k] as number) - (y[k] as number) : null;
    }
    return out;
  };
  const observed = diff(() => false);
  const keys = Object.keys(observed) as K[];
  const hits = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const defined = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const count = (d: Record<K, number | null>) => {
    for (const k of keys) {
      const o = observed[k], v = d[k];
      if (o === null || v === null) continue;
      defined[k]++;
      // ties within rounding count as "as extreme"
      if (Math.abs(v) >= Math.abs(o) - 1e-9 * Math.max(1, Math.abs(o))) hits[k]++;
    }
  };
  const exactUpTo = opts.exactUpTo ?? 2 ** 14;
  const exact = n < 31 && 2 ** n <= exactUpTo;
  let patterns: number;
  if (exact) {
    patterns = 2 ** n;
    for (let m = 0; m < patterns; m++) count(diff((i) => ((m >>> i) & 1) === 1));
  } else {
    patterns = opts.flips ?? DEFAULT_FLIPS;
    const rng = mulberry32(seed);
    const swaps = new Array<boolean>(n);
    for (let r = 0; r < patterns; r++) {
      for (let i = 0; i < n; i++) swaps[i] = rng() < 0.5;
      count(diff((i) => swaps[i]));
    }
  }
  return Object.fromEntries(keys.map((k) => {
    const o = observed[k];
    const p = o === null || defined[k] === 0
      ? null
      : exact
      ? hits[k] / defined[k]
      : (1 + hits[k]) / (1 + defined[k]);
    return [k, { estimate: o, p, exact, patterns, seed }];
  })) as Record<K, PermutationP>;
}

/** Result of McNemar's test on paired binary outcomes. */
export interface McNemar {
  /** Pairs where only A succeeded. */
  b: number;
  /** Pairs where only B succeeded. */
  c: number;
  /** "exact" (two-sided binomial on the discordant pairs) or "chi2" (with continuity correction). */
  method: "exact" | "chi2";
  /** Chi-square statistic (with continuity correction) — also reported for the exact method. */
  statistic: number;
  p: number;
}

/** Discordant-pair count below which {@link mcnemar} uses the exact binomial test. */
export const MCNEMAR_EXACT_BELOW = 25;

/**
 * McNemar's test from the discordant counts `b` (A yes, B no) and `c` (A no, B yes). With
 * `b + c < 25` the exact two-sided binomial test (p = min(1, 2·P[X ≤ min(b,c)]), X ~ Bin(b+c, ½));
 * otherwise the chi-square statistic with continuity correction (|b − c| − 1)² / (b + c) on 1 df.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcnemar } from "./stats.ts";
 * const r = mcnemar(1, 6); // exact: 2 · (1 + 7) / 128 = 0.125
 * assert(r.method === "exact" && Math.abs(r.p - 0.125) < 1e-12);
 * ```
 */
export function mcnemar(b: number, c: number, method?: "exact" | "chi2"): McNemar {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new Error(`mcnemar: discordant counts must be non-negative integers (got ${b}, ${c})`);
  }
  const n = b + c;
  const chosen = method ?? (n < MCNEMAR_EXACT_BELOW ? "exact" : "chi2");
  const statistic = n === 0 ? 0 : Math.max(0, Math.abs(b - c) - 1) ** 2 / n;
  if (chosen === "exact") {
    if (n === 0) return { b, c, method: "exact", statistic, p: 1 };
    let tail = 0;
    for (let k = 0; k <= Math.min(b, c); k++) tail += Math.exp(logChoose(n, k) - n * Math.LN2);
    return { b, c, method: "exact", statistic, p: Math.min(1, 2 * tail) };
  }
  return { b, c, method: "chi2", statistic, p: n === 0 ? 1 : chiSquare1Sf(statistic) };
}

/** ln C(n, k) by summing logs (exact enough for counts met here). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * Complementary error function (Numerical Recipes `erfcc`, fractional error < 1.2e-7).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { erfc } from "./stats.ts";
 * assert(Math.abs(erfc(1) - 0.157299207) < 1e-7);
 * ```
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(
    -z * z - 1.26551223 +
      t * (1.00002368 +
          t * (0.37409196 +
              t * (0.09678418 +
                  t * (-0.18628806 +
                      t * (0.27886807 +
                          t *
                            (-1.13520398 +
                              t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
  );
  return x >= 0 ? r : 2 - r;
}

/**
 * Survival function of the chi-square distribution with one degree of freedom: P[X > x].
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chiSquare1Sf } from "./stats.ts";
 * assert(Math.abs(chiSquare1Sf(3.841458820694124) - 0.05) < 1e-6);
 * ```
 */
export function chiSquare1Sf(x: number): number {
  if (x <= 0) return 1;
  return erfc(Math.sqrt(x / 2));
}

/**
 * Holm–Bonferroni adjusted p-values (step-down; monotone; capped at 1), in the input order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holm } from "./stats.ts";
 * // sorted 0.01, 0.02, 0.04 → 3·0.01, max(0.03, 2·0.02), max(0.04, 1·0.04)
 * assert.deepEqual(holm([0.04, 0.01, 0.02]).map((p) => +p.toFixed(10)), [0.04, 0.03, 0.04]);
 * ```
 */
export function holm(pvalues: readonly number[]): number[] {
  const m = pvalues.length;
  const order = pvalues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}

/**
 * A p-value as people read it: `< 1e-16` below double precision's resolution (an exact 0 from the
 * test is an underflow, not certainty), 2 significant digits in scientific notation below 0.001,
 * else 3 decimals.
 *
 * ```ts
 * import { formatP } from "./stats.ts";
 * console.assert(formatP(0) === "< 1e-16");
 * console.assert(formatP(3.2e-9) === "3.2e-9");
 * console.assert(formatP(0.04567) === "0.046");
 * console.assert(formatP(null) === null);
 * ```
 */
export function formatP(p: number | null | undefined): string | null {
  if (p === null || p === undefined || !Number.isFinite(p)) return null;
  if (p < 1e-16) return "< 1e-16";
  if (p < 0.001) return p.toExponential(1).replace("e-0", "e-");
  return p.toFixed(3);
}

/**
 * The p of a permutation test as text: {@link formatP}, with "≤" when a Monte Carlo test met no
 * pattern as extreme as the observed one (its p is then the floor 1 / (1 + patterns)).
 *
 * ```ts
 * import { formatPermutationP } from "./stats.ts";
 * console.assert(formatPermutationP({ p: 1 / 10000, exact: false, patterns: 9999 }) === "≤ 1.0e-4");
 * console.assert(formatPermutationP({ p: 0.25, exact: true, patterns: 8 }) === "0.250");
 * ```
 */
export function formatPermutationP(
  t: { p: number | null; exact: boolean; patterns: number } | undefined,
): string | null {
  if (!t || t.p === null) return null;
  const floor = !t.exact && Math.abs(t.p - 1 / (1 + t.patterns)) < 1e-15;
  return `${floor ? "≤ " : ""}${formatP(t.p)}`;
}
