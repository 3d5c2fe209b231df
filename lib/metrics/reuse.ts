/**
 * Reuse rate, paper §3.3.2 eq. (1).
 *
 * @module
 */

/**
 * reuse_s(t), eq. (1): the fraction of the turn's targets of kind s ∈ {repo, self} that the
 * submission s_t calls — `|{f ∈ T^s_t : f is called in s_t}| / |T^s_t|`.
 *
 * `targets` are the qualified ids of T^s_t; `called` the ids the submission reaches through a
 * resolved call or reference edge (a function the agent redefines locally under the same name
 * resolves to the local definition, so it does not count). Each target counts 0/1 regardless of
 * how often it is called. Undefined (null, never 0) when the turn has no target of that kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reuse_s } from "./reuse.ts";
 * assert(reuse_s(["p.a", "p.b"], new Set(["p.a", "p.a", "q.x"])) === 0.5);
 * assert(reuse_s([], new Set(["p.a"])) === null);
 * ```
 */
export function reuse_s(targets: readonly string[], called: ReadonlySet<string>): number | null {
  if (targets.length === 0) return null;
  const unique = new Set(targets);
  let n = 0;
  for (const f of unique) if (called.has(f)) n++;
  return n / unique.size;
}
