/**
 * Re-implementation and the duplicated-chain rate, paper §3.3.2 "Downstream Metrics", eq. (3).
 *
 * @module
 */

/** The share of a target's callees a submission must call to re-implement it (paper: 80%). */
export const REIMPLEMENTATION_SHARE = 0.8;
/** Targets calling fewer non-builtin functions than this are never re-implemented (paper: 3). */
export const REIMPLEMENTATION_MIN_CALLEES = 3;

/** Result of {@link isReimplemented}. */
export interface Reimplementation {
  reimplemented: boolean;
  /** |callees ∩ calls| / |callees|, null when the target calls nothing non-builtin. */
  overlap: number | null;
}

/**
 * Whether target f is re-implemented at turn t: s_t does not call f but calls at least 80% of
 * the non-builtin functions f itself calls, considering only targets that call at least three such
 * functions (§3.3.2).
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
  // hit ≥ 0.8·n, robust to floating-point error at exactly 80%
  const enough = hit >= Math.ceil(REIMPLEMENTATION_SHARE * unique.size - 1e-9);
  return {
    reimplemented: !called && unique.size >= REIMPLEMENTATION_MIN_CALLEES && enough,
    overlap,
  };
}

/**
 * C_dup(t), eq. (3): the fraction of task chains that have become duplicated by turn t —
 * `(1/|C|) Σ_c 1[∃ i ≤ t : R_{c,i} ≠ ∅]`. Cumulative: it never decreases with t.
 *
 * `chains[c][i-1]` is |R_{c,i}|, the number of targets re-implemented at turn i of chain c
 * (a chain shorter than t counts with the turns it has). Null when there are no chains.
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
 * ```
 */
export function C_dup(chains: readonly (readonly number[])[], t: number): number | null {
  if (chains.length === 0) return null;
  let dup = 0;
  for (const r of chains) if (r.slice(0, t).some((n) => n > 0)) dup++;
  return dup / chains.length;
}
