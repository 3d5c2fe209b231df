/**
 * What became of a target at its turn — the one classification of missed targets that the SQL
 * view (`missed_targets`), the figures and the notebooks share (paper §3.3.2: a target not reused
 * was either never read, an exploration-side gap, or read and still not called, an
 * execution-side gap). A self target the agent never wrote (`implemented` false) has nothing to
 * read: it is `absent`, a class of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetOutcome } from "./outcomes.ts";
 * assert.equal(targetOutcome({ implemented: true, read: true, reused: false }), "read_not_used");
 * assert.equal(targetOutcome({ implemented: false, read: false, reused: false }), "absent");
 * assert.equal(targetOutcome({ implemented: true, read: false, reused: true }), "reused_unread");
 * ```
 * @module
 */

/** Every outcome, in display order: reused (read or not), then the three gaps. */
export const TARGET_OUTCOMES = [
  "reused_read",
  "reused_unread",
  "read_not_used",
  "never_read",
  "absent",
] as const;
/** An outcome of {@link TARGET_OUTCOMES}. */
export type TargetOutcome = typeof TARGET_OUTCOMES[number];

/** The outcomes of a target that was not reused (the gaps). */
export const MISSED_OUTCOMES = ["never_read", "read_not_used", "absent"] as const;
/** A gap of {@link MISSED_OUTCOMES}. */
export type MissedOutcome = typeof MISSED_OUTCOMES[number];

/** The decisions on a target the classification looks at (a `targets` row has them). */
export interface OutcomeInput {
  implemented: boolean | null;
  read: boolean | null;
  reused: boolean | null;
}

/** The outcome of one target: reused (read or not), else absent, read but not used, never read. */
export function targetOutcome(t: OutcomeInput): TargetOutcome {
  if (t.reused) return t.read ? "reused_read" : "reused_unread";
  if (t.implemented === false) return "absent";
  return t.read ? "read_not_used" : "never_read";
}

/**
 * {@link targetOutcome} as an SQL `CASE` expression over a `targets` table's columns (the query
 * layer's views use it, so SQL and TypeScript cannot disagree).
 *
 * @example
 * ```ts
 * import { targetOutcomeSql } from "./outcomes.ts";
 * console.assert(targetOutcomeSql().startsWith("CASE WHEN reused THEN"));
 * ```
 */
export function targetOutcomeSql(): string {
  return "CASE WHEN reused THEN (CASE WHEN read THEN 'reused_read' ELSE 'reused_unread' END) " +
    "WHEN implemented = false THEN 'absent' " +
    "WHEN read THEN 'read_not_used' ELSE 'never_read' END";
}
