/**
 * Recall rate, paper §3.3.2 eq. (2).
 *
 * @module
 */
import type { Ranges } from "../logs/mod.ts";

/** The source body of a target: workspace-relative file and inclusive 1-based line range. */
export interface Body {
  file: string;
  start: number;
  end: number;
}

/**
 * Whether the turn's reads overlap at least one line of a target's body ("f is read in turn t").
 * `reads` are the lines the agent's read and search actions showed (directory listings never
 * contribute lines). A target without a body (a self function the agent never wrote) is not read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRead } from "./recall.ts";
 * const reads = { "pkg/a.py": [[1, 4], [20, 30]] as [number, number][] };
 * assert(isRead({ file: "pkg/a.py", start: 5, end: 12 }, reads) === false);
 * assert(isRead({ file: "pkg/a.py", start: 12, end: 20 }, reads) === true);
 * assert(isRead(null, reads) === false);
 * ```
 */
export function isRead(body: Body | null | undefined, reads: Ranges): boolean {
  if (!body) return false;
  const ranges = reads[body.file];
  if (!ranges) return false;
  for (const [a, b] of ranges) if (a <= body.end && b >= body.start) return true;
  return false;
}

/**
 * recall_s(t), eq. (2): the fraction of the turn's targets of kind s that the agent read in the
 * turn — `|{f ∈ T^s_t : f is read in turn t}| / |T^s_t|`, with "read" as in {@link isRead}.
 * Undefined (null, never 0) when the turn has no target of that kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recall_s } from "./recall.ts";
 * const reads = { "pkg/a.py": [[10, 12]] as [number, number][] };
 * const bodies = [{ file: "pkg/a.py", start: 11, end: 15 }, { file: "pkg/b.py", start: 1, end: 3 }, null];
 * assert(Math.abs(recall_s(bodies, reads)! - 1 / 3) < 1e-12);
 * assert(recall_s([], reads) === null);
 * ```
 */
export function recall_s(bodies: readonly (Body | null)[], reads: Ranges): number | null {
  if (bodies.length === 0) return null;
  return bodies.filter((b) => isRead(b, reads)).length / bodies.length;
}
