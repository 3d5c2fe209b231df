/**
 * Paired binary comparisons when the pairs are clustered: each reuse target is scored under
 * configuration A and under configuration B (a matched pair), and targets sit inside task chains,
 * so the pairs of one chain are not independent. McNemar's test, which assumes independent pairs,
 * rejects a true null far too often on such data; the tests here take the **chain** as the unit.
 *
 * Notation (per chain k = 1..K with n_k pairs): a_k both succeed, b_k only A, c_k only B, d_k
 * neither; D_k = b_k − c_k. Pair-weighted effect Δ̂ = Σ D_k / Σ n_k = p̂_A − p̂_B.
 *
 * - {@link obuchowski}: X² = ((K − 1)/K) · (Σ D_k)² / Σ D_k² (Obuchowski 1998 in Yang, Sun & Hardin's
 *   2010 simplified form; pair-weighted).
 * - {@link durkalski}: X² = (Σ D_k/n_k)² / Σ (D_k/n_k)² (Durkalski et al. 2003; each chain counts once).
 * - {@link yangObuchowski}: Yang, Sun & Hardin's (2010) modified Obuchowski statistic.
 * - {@link signFlip}: the chain-level randomization test — under H0 "A and B are exchangeable within
 *   each chain" every D_k is symmetric about 0, so |Σ D_k| is compared with its exact distribution
 *   over all 2^K sign patterns (computed by convolution, exact at any K).
 *
 * The three closed forms are checked against the published worked examples (Obuchowski's thyroid
 * data, Eliasziw & Donner's psychiatry data; tests/report_clustered_test.ts) and all of them on
 * simulated data with no true difference ({@link nullRejectionRates}; docs/statistics.md).
 *
 * @module
 */
import { chiSquare1Sf, mulberry32 } from "./stats.ts";

/** The 2×2 counts of one cluster (chain): a both, b only A, c only B, d neither. */
export interface Cells {
  a: number;
  b: number;
  c: number;
  d: number;
}

/** A χ²(1) statistic and its p-value. */
export interface ChiSquareTest {
  statistic: number;
  p: number;
}

function checked(cells: readonly Cells[]): Cells[] {
  for (const c of cells) {
    for (const v of [c.a, c.b, c.c, c.d]) {
      if (!Number.isInteger(v) || v < 0) {
        throw new Error(`clustered test: cell counts must be non-negative integers (got ${v})`);
      }
    }
  }
  // clusters without a pair carry no information (and would divide by 0 in Durkalski's weights)
  return cells.filter((c) => c.a + c.b + c.c + c.d > 0);
}

function chi(statistic: number): ChiSquareTest {
  return Number.isFinite(statistic) && statistic > 0
    ? { statistic, p: chiSquare1Sf(statistic) }
    : { statistic: 0, p: 1 };
}

/**
 * McNemar's statistic (b − c)² / (b + c) without continuity correction, pooling every cluster as
 * if all pairs were independent — for comparison only (it is what the clustered tests correct).
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { pooledMcNemar } from "./clustered.ts";
 * assert.equal(pooledMcNemar([{ a: 0, b: 1, c: 7, d: 0 }]).statistic, 4.5);
 * ```
 */
export function pooledMcNemar(cells: readonly Cells[]): ChiSquareTest {
  const cs = checked(cells);
  const b = cs.reduce((s, c) => s + c.b, 0), c = cs.reduce((s, x) => s + x.c, 0);
  return chi(b + c === 0 ? 0 : (b - c) ** 2 / (b + c));
}

/**
 * Obuchowski's (1998) clustered McNemar test, pair-weighted: ((K − 1)/K) · (Σ D_k)² / Σ D_k².
 * Σ D_k² = 0 (no discordance, or every chain balanced) gives statistic 0 and p = 1.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { obuchowski } from "./clustered.ts";
 * // two chains, D = (−2, −1): (1/2) · 9 / 5
 * assert.equal(obuchowski([{ a: 1, b: 0, c: 2, d: 0 }, { a: 0, b: 0, c: 1, d: 1 }]).statistic, 0.9);
 * ```
 */
export function obuchowski(cells: readonly Cells[]): ChiSquareTest {
  const cs = checked(cells);
  const K = cs.length;
  if (K < 2) return chi(0);
  const D = cs.map((c) => c.b - c.c);
  const sum = D.reduce((s, x) => s + x, 0);
  const sq = D.reduce((s, x) => s + x * x, 0);
  return chi(sq === 0 ? 0 : ((K - 1) / K) * sum * sum / sq);
}

/**
 * Durkalski et al.'s (2003) test: each chain's difference in proportions D_k / n_k counts once,
 * (Σ D_k/n_k)² / Σ (D_k/n_k)². Equals McNemar's statistic when every n_k = 1.
 */
export function durkalski(cells: readonly Cells[]): ChiSquareTest {
  const cs = checked(cells);
  const w = cs.map((c) => (c.b - c.c) / (c.a + c.b + c.c + c.d));
  const sum = w.reduce((s, x) => s + x, 0);
  const sq = w.reduce((s, x) => s + x * x, 0);
  return chi(sq === 0 ? 0 : sum * sum / sq);
}

/**
 * Yang, Sun & Hardin's (2010) modified Obuchowski test: the variance averages the null-restricted
 * Σ D_k² and the unrestricted Σ (D_k − n_k Δ̂)².
 */
export function yangObuchowski(cells: readonly Cells[]): ChiSquareTest {
  const cs = checked(cells);
  const K = cs.length;
  if (K < 2) return chi(0);
  const n = cs.map((c) => c.a + c.b + c.c + c.d);
  const D = cs.map((c) => c.b - c.c);
  const N = n.reduce((s, x) => s + x, 0);
  const sum = D.reduce((s, x) => s + x, 0);
  const delta = sum / N;
  let v = 0;
  for (let k = 0; k < K; k++) v += ((D[k] - n[k] * delta) ** 2 + D[k] ** 2) / 2;
  return chi(v === 0 ? 0 : ((K - 1) / K) * sum * sum / v);
}

/** Result of the chain-level sign-flip test. */
export interface SignFlip {
  /** |Σ D_k|. */
  statistic: number;
  /** Exact two-sided p: P(|Σ s_k D_k| ≥ |Σ D_k|) over all 2^K sign patterns s. */
  p: number;
  /** Chains with D_k ≠ 0 (the others flip onto themselves). */
  discordantChains: number;
  /** Smallest p attainable with that many discordant chains: 2 / 2^K_d (1 when K_d = 0). */
  minP: number;
}

/**
 * The chain-level sign-flip (randomization) test of Σ D_k, exact at any K: the distribution of
 * Σ s_k D_k over the 2^K sign patterns is built by convolution over the integer sums.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { signFlip } from "./clustered.ts";
 * // D = (−2, −1, −1, +1, −2, −1): 10 of the 64 patterns reach |Σ| ≥ 6
 * assert.equal(signFlip([-2, -1, -1, 1, -2, -1]).p, 10 / 64);
 * ```
 */
export function signFlip(differences: readonly number[]): SignFlip {
  const D = differences.filter((d) => d !== 0).map((d) => {
    if (!Number.isInteger(d)) throw new Error(`signFlip: differences must be integers (got ${d})`);
    return Math.abs(d);
  });
  const observed = Math.abs(differences.reduce((s, d) => s + d, 0));
  const total = D.reduce((s, d) => s + d, 0);
  const Kd = D.length;
  if (Kd === 0) return { statistic: 0, p: 1, discordantChains: 0, minP: 1 };
  // probabilities of each sum in [−total, total], offset by total
  let dist = new Float64Array(2 * total + 1);
  dist[total] = 1;
  let reach = 0;
  for (const d of D) {
    const next = new Float64Array(dist.length);
    for (let s = total - reach; s <= total + reach; s++) {
      const q = dist[s];
      if (q === 0) continue;
      next[s + d] += q / 2;
      next[s - d] += q / 2;
    }
    dist = next;
    reach += d;
  }
  let p = 0;
  for (let s = 0; s < dist.length; s++) if (Math.abs(s - total) >= observed) p += dist[s];
  return {
    statistic: observed,
    p: Math.min(1, p),
    discordantChains: Kd,
    minP: Math.min(1, 2 / 2 ** Kd),
  };
}

/** Everything the report prints about one clustered paired comparison of binary outcomes. */
export interface ClusteredPaired {
  /** Clusters (chains) holding at least one pair. */
  chains: number;
  /** Pairs. */
  pairs: number;
  /** Only A (Σ b_k) and only B (Σ c_k). */
  aOnly: number;
  bOnly: number;
  /** Pair-weighted Δ̂ = (Σ b_k − Σ c_k) / N (a fraction). */
  delta: number | null;
  /** The primary test: the chain-level sign-flip test. */
  signFlip: SignFlip;
  /** Obuchowski's clustered McNemar test (a closed-form check of the same hypothesis). */
  obuchowski: ChiSquareTest;
}

/**
 * The clustered paired comparison of per-chain cells: Δ̂, the sign-flip test (primary) and
 * Obuchowski's test.
 */
export function clusteredPaired(cells: readonly Cells[]): ClusteredPaired {
  const cs = checked(cells);
  const pairs = cs.reduce((s, c) => s + c.a + c.b + c.c + c.d, 0);
  const aOnly = cs.reduce((s, c) => s + c.b, 0), bOnly = cs.reduce((s, c) => s + c.c, 0);
  return {
    chains: cs.length,
    pairs,
    aOnly,
    bOnly,
    delta: pairs ? (aOnly - bOnly) / pairs : null,
    signFlip: signFlip(cs.map((c) => c.b - c.c)),
    obuchowski: obuchowski(cs),
  };
}

// ---------------------------------------------------------------------------------------------
// Calibration on simulated data with no true difference

/** The tests compared by {@link nullRejectionRates}. */
export const CALIBRATED_TESTS = [
  "pooled McNemar",
  "Obuchowski",
  "Durkalski",
  "Yang",
  "sign-flip",
] as const;
/** One of {@link CALIBRATED_TESTS}. */
export type CalibratedTest = typeof CALIBRATED_TESTS[number];

/** A setting of the null simulation. */
export interface NullSetting {
  /** Chains. */
  K: number;
  /** Mean pairs per chain: n_k = 1 + Poisson(meanPairs − 1). */
  meanPairs: number;
  /** SD of the chain's tilt w_k (0: pairs independent given the chain). */
  tau: number;
  /**
   * Pairs per chain to draw n_k from (uniformly, with replacement) instead of the Poisson — e.g.
   * the chain sizes of a real comparison; `meanPairs` is then ignored.
   */
  sizes?: readonly number[];
}

function gaussian(rng: () => number): number {
  let u = 0;
  while (u === 0) u = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

function poisson(rng: () => number, lambda: number): number {
  const L = Math.exp(-lambda);
  let k = 0, p = 1;
  do {
    k++;
    p *= rng();
  } while (p > L);
  return k - 1;
}

/**
 * One simulated data set with no true difference between A and B: chain k holds
 * n_k = 1 + Poisson(meanPairs − 1) pairs (or one of `sizes`), a chain effect u_k ~ N(0, 1) and a tilt w_k ~ N(0, τ²);
 * P(A succeeds) = logit⁻¹(−0.3 + u_k + w_k), P(B succeeds) = logit⁻¹(−0.3 + u_k − w_k). H0 holds
 * (the tilt is symmetric) but, with τ > 0, the direction of discordance is shared within a chain.
 */
export function simulateNullCells(setting: NullSetting, rng: () => number): Cells[] {
  const out: Cells[] = [];
  const logistic = (x: number) => 1 / (1 + Math.exp(-x));
  for (let k = 0; k < setting.K; k++) {
    const n = setting.sizes?.length
      ? setting.sizes[Math.floor(rng() * setting.sizes.length)]
      : 1 + poisson(rng, setting.meanPairs - 1);
    const u = gaussian(rng), w = setting.tau * gaussian(rng);
    const pa = logistic(-0.3 + u + w), pb = logistic(-0.3 + u - w);
    const cell = { a: 0, b: 0, c: 0, d: 0 };
    for (let i = 0; i < n; i++) {
      const A = rng() < pa, B = rng() < pb;
      if (A && B) cell.a++;
      else if (A) cell.b++;
      else if (B) cell.c++;
      else cell.d++;
    }
    out.push(cell);
  }
  return out;
}

/**
 * Share of `replicates` simulated null data sets ({@link simulateNullCells}, seeded) on which each
 * test rejects at level `alpha` — the false-positive rate, which should be near `alpha`.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { nullRejectionRates } from "./clustered.ts";
 * const r = nullRejectionRates({ K: 30, meanPairs: 10, tau: 1 }, { replicates: 200, seed: 1 });
 * assert(r["pooled McNemar"] > r["sign-flip"]); // pooling the pairs of a chain inflates it
 * ```
 */
export function nullRejectionRates(
  setting: NullSetting,
  opts: { replicates?: number; seed?: number; alpha?: number } = {},
): Record<CalibratedTest, number> {
  const R = opts.replicates ?? 4000, alpha = opts.alpha ?? 0.05;
  const rng = mulberry32(opts.seed ?? 1);
  const rejected = Object.fromEntries(CALIBRATED_TESTS.map((t) => [t, 0])) as Record<
    CalibratedTest,
    number
  >;
  for (let r = 0; r < R; r++) {
    const cells = simulateNullCells(setting, rng);
    const p: Record<CalibratedTest, number> = {
      "pooled McNemar": pooledMcNemar(cells).p,
      "Obuchowski": obuchowski(cells).p,
      "Durkalski": durkalski(cells).p,
      "Yang": yangObuchowski(cells).p,
      "sign-flip": signFlip(cells.map((c) => c.b - c.c)).p,
    };
    for (const t of CALIBRATED_TESTS) if (p[t] <= alpha) rejected[t]++;
  }
  return Object.fromEntries(CALIBRATED_TESTS.map((t) => [t, rejected[t] / R])) as Record<
    CalibratedTest,
    number
  >;
}
