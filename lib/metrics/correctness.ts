/**
 * Functional correctness, paper §3.3.2 "Downstream Metrics": pass rate and resolved.
 *
 * @module
 */

/** Outcome of one test case. */
export interface CaseOutcome {
  passed: boolean;
}

/**
 * Pass rate of a turn: the proportion of its test cases passed (the total is the number of cases
 * of tests.json; a case without a result, or any case of a turn without a submission, failed).
 * Undefined (null) for a turn with no cases.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passRate } from "./correctness.ts";
 * assert(passRate([{ passed: true }, { passed: false }, { passed: true }, { passed: true }]) === 0.75);
 * assert(passRate([]) === null);
 * ```
 */
export function passRate(cases: readonly CaseOutcome[]): number | null {
  if (cases.length === 0) return null;
  return cases.filter((c) => c.passed).length / cases.length;
}

/**
 * Whether a turn is resolved: it has cases and all of them pass. The resolve rate is the
 * proportion of resolved turns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolved } from "./correctness.ts";
 * assert(resolved([{ passed: true }, { passed: true }]) === true);
 * assert(resolved([{ passed: true }, { passed: false }]) === false);
 * assert(resolved([]) === false);
 * ```
 */
export function resolved(cases: readonly CaseOutcome[]): boolean {
  return cases.length > 0 && cases.every((c) => c.passed);
}
