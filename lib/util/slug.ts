/**
 * A file-name- and anchor-safe, collision-free form of a name: the name as is when it is a plain
 * lower-case word (`[a-z0-9][a-z0-9._-]*`, at most 60 characters, no `..`); anything else becomes
 * its safe characters plus a hash of the original, so two names never share a page or an anchor
 * and no name can climb out of a directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slug } from "./slug.ts";
 * assert.equal(slug("seaborn-001"), "seaborn-001");
 * assert.match(slug("../../etc/passwd"), /^etc_passwd-[0-9a-f]{8}$/);
 * assert.notEqual(slug("A"), slug("a"));
 * ```
 * @module
 */
import { sha256 } from "./cache.ts";

/** A file-name-safe, collision-free form of a name (see the module doc). */
export function slug(name: string): string {
  if (/^[a-z0-9][a-z0-9._-]{0,59}$/.test(name) && !name.includes("..")) return name;
  const safe = name.toLowerCase().replace(/[^a-z0-9._-]+/g, "_").replace(/\.{2,}/g, "_")
    .replace(/^[._-]+|[._-]+$/g, "").slice(0, 40);
  return `${safe || "x"}-${sha256(name).slice(0, 8)}`;
}
