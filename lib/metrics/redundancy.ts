/**
 * Re-implementation and the duplicated-chain rate, paper §3.3.2 "Downstream Metrics", eq. (3).
 *
 * @module
 */

/** The share of a target's callees a submission must call to re-implement it (paper: 80%). */
export const REIMPLEMENTATION_SHARE = 0.8;
/** Targets calling fewer non-builtin functions than this are never re-implemented (paper: 3). */
export const REIMPLEMENTATION_MIN_CALLEES = 3;

/**
 * {@link REIMPLEMENTATION_SHARE} as prose writes it (`80%`): every sentence that states the rule
 * (reports, notebooks, the simulator's README, query views, docs) fills it in from here.
 */
export const REIMPLEMENTATION_PERCENT = `${Math.round(REIMPLEMENTATION_SHARE * 100)}%`;

/**
 * The fewest of a target's `n` distinct non-builtin callees a submission must call to
 * re-implement it: ⌈{@link REIMPLEMENTATION_SHARE}·n⌉, robust to floating-point error at exactly
 * the share (4 of 5 is 80%).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reimplementationHits } from "./redundancy.ts";
 * assert.equal(reimplementationHits(5), 4);
 * assert.equal(reimplementationHits(3), 3);
 * assert.equal(reimplementationHits(10), 8);
 * ```
 */
export function reimplementationHits(n: number): number {
  return Math.ceil(REIMPLEMENTATION_SHARE * n - 1e-9);
}

/** Result of {@link isReimplemented}. */
export interface Reimplementation {
  reimplemented: boolean;
  /** |callees ∩ calls| / |callees|, null when the target calls nothing non-builtin. */
  overlap: number | null;
}

/**
 * Whether target f is re-implemented at turn t: s_t does not call f but calls at least
 * {@link REIMPLEMENTATION_SHARE} (80%) of the non-builtin functions f itself calls, considering
 * only targets that call at least {@link REIMPLEMENTATION_MIN_CALLEES} (3) such functions (§3.3.2).
 * The one home of the rule: the simulator plants its truth with it, and prose states it from
 * these constants.
 *
 * `called` tells whether s_t calls f (the reuse decision of eq. 1); `callees` are f's non-builtin
 * callees; `calls` everything s_t calls, as comparable ids.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReimplemented } from "./redundancy.ts";
 * const callees = ["p.a", "p.b", "p.c", "p.d", "p.e"];
 * // 4 of 5 = exactly 80%: re-implemented
 * assert(isReimplemented(false, callees, new Set(["p.a", "p.b", "p.c", "p.d"])).reimplemented);
 * // 3 of 5 = 60%: not
 * assert(!isReimplemented(false, callees, new Set(["p.a", "p.b", "p.c"])).reimplemented);
 * // calling f itself is reuse, not re-implementation
 * assert(!isReimplemented(true, callees, new Set(callees)).reimplemented);
 * ```
 */
export function isReimplemented(
  called: boolean,
  callees: readonly string[],
  calls: ReadonlySet<string>,
): Reimplementation {
  const unique = new Set(callees);
  if (unique.size === 0) return { reimplemented: false, overlap: null };
  let hit = 0;
  for (const c of unique) if (calls.has(c)) hit++;
  const overlap = hit / unique.size;
  return {
    reimplemented: !called && unique.size >= REIMPLEMENTATION_MIN_CALLEES &&
      hit >= reimplementationHits(unique.size),
    overlap,
  };
}

/**
 * The first turn t ≤ `limit` at which a chain has a re-implementation (|R_{c,t}| > 0), or 0 when
 * it has none by then. `reimplemented[i-1]` is |R_{c,i}|.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstDuplicatedTurn } from "./redundancy.ts";
 * assert.equal(firstDuplicatedTurn([0, 2, 1], 5), 2);
 * assert.equal(firstDuplicatedTurn([0, 2, 1], 1), 0);
 * ```
 */
export function firstDuplicatedTurn(reimplemented: readonly number[], limit: number): number {
  const end = Math.min(limit, reimplemented.length);
  for (let i = 0; i < end; i++) if (reimplemented[i] > 0) return i + 1;
  return 0;
}

/**
 * Whether a chain is duplicated by turn t (eq. 3's indicator `1[∃ i ≤ t : R_{c,i} ≠ ∅]`):
 * `reimplemented[i-1]` is |R_{c,i}|; a chain shorter than t counts with the turns it has.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { duplicatedBy } from "./redundancy.ts";
 * assert(!duplicatedBy([0, 2, 0], 1));
 * assert(duplicatedBy([0, 2, 0], 2) && duplicatedBy([0, 2], 5));
 * ```
 */
export function duplicatedBy(reimplemented: readonly number[], t: number): boolean {
  return firstDuplicatedTurn(reimplemented, t) > 0;
}

/**
 * C_dup(1), …, C_dup(T) of eq. (3) in one pass over the chains (see {@link C_dup}; `unit` as
 * there). Empty when there are no chains.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { C_dupCurve } from "./redundancy.ts";
 * assert.deepEqual(C_dupCurve([[0, 1, 0], [0, 0, 0], [2, 0, 0], [0, 0, 1]], 3), [0.25, 0.5, 0.75]);
 * ```
 */
export function C_dupCurve(
  chains: readonly (readonly number[])[],
  T: number,
  unit = 1,
): number[] {
  if (chains.length === 0) return [];
  const firstAt = new Array<number>(T + 1).fill(0);
  for (const r of chains) firstAt[firstDuplicatedTurn(r, T)]++;
  const out: number[] = [];
  let dup = 0;
  for (let t = 1; t <= T; t++) {
    dup += firstAt[t];
    out.push((unit * dup) / chains.length);
  }
  return out;
}

/**
 * C_dup(t), eq. (3): the fraction of task chains that have become duplicated by turn t —
 * `(1/|C|) Σ_c 1[∃ i ≤ t : R_{c,i} ≠ ∅]` ({@link duplicatedBy}). Cumulative: it never decreases
 * with t.
 *
 * `chains[c][i-1]` is |R_{c,i}|, the number of targets re-implemented at turn i of chain c
 * (a chain shorter than t counts with the turns it has). Null when there are no chains. `unit` is
 * 1 for a fraction, 100 for percentage points (scaled before the division, so a percentage is the
 * exact quotient 100·k/|C| rounded once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { C_dup } from "./redundancy.ts";
 * const chains = [[0, 1, 0], [0, 0, 0], [2, 0, 0], [0, 0, 1]];
 * assert(C_dup(chains, 1) === 0.25);
 * assert(C_dup(chains, 2) === 0.5);
 * assert(C_dup(chains, 3) === 0.75);
 * assert(C_dup([], 1) === null);
 * assert(C_dup([[1], [0], [0]], 1, 100) === 100 / 3);
 * ```
 */
export function C_dup(
  chains: readonly (readonly number[])[],
  t: number,
  unit = 1,
): number | null {
  if (chains.length === 0) return null;
  const turn = Math.floor(t);
  return turn < 1 ? 0 : C_dupCurve(chains, turn, unit)[turn - 1];
}

/**
 * The C_dup of a configuration (Tables 2 and 4: "averaged over the cumulative turn-wise rates"):
 * the mean of {@link C_dup}(t) over t = 1..T, T the longest chain's last turn. `chains` as for
 * {@link C_dup}; null when there are no chains (or no turns). `unit` as for {@link C_dup}: 100
 * scales the sum of the rates before dividing by T.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanC_dup } from "./redundancy.ts";
 * // C_dup(1) = 0, C_dup(2) = 0.5, C_dup(3) = 0.5 (the short chain counts with its two turns)
 * assert(meanC_dup([[0, 1, 0], [0, 0]]) === 1 / 3);
 * assert(meanC_dup([]) === null);
 * ```
 */
export function meanC_dup(chains: readonly (readonly number[])[], unit = 1): number | null {
  let T = 0;
  for (const r of chains) T = Math.max(T, r.length);
  if (chains.length === 0 || T === 0) return null;
  let sum = 0;
  for (const rate of C_dupCurve(chains, T)) sum += rate;
  return (unit * sum) / T;
}
