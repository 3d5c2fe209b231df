/**
 * The toolkit's ground floor: what every stage needs and no stage owns — the content-hash cache,
 * all-or-nothing file writes, processes under a time limit and a containment that no child
 * outlives, the one way git is run, the worker pool, progress lines, escaping for every format
 * written, tree-sitter grammars, and fingerprints of the toolkit's own code. It imports no other
 * folder of `lib`; the other folders import it through this file.
 *
 * @example
 * ```ts
 * import { csvField, eachLimited, escapeHtml, sha256 } from "./mod.ts";
 * console.assert(csvField("a,b") === '"a,b"' && escapeHtml("<") === "&lt;");
 * console.assert(sha256("").startsWith("e3b0c442"));
 * const seen: number[] = [];
 * await eachLimited([1, 2, 3], async (n) => {
 *   seen.push(n);
 * }, 2);
 * console.assert(seen.length === 3);
 * ```
 * @module
 */
export * from "./cache.ts";
export * from "./contain.ts";
export * from "./each.ts";
export * from "./fs.ts";
export * from "./git.ts";
export * from "./pool.ts";
export * from "./process.ts";
export * from "./progress.ts";
export * from "./python.ts";
export * from "./scratch.ts";
export * from "./slug.ts";
export * from "./source_hash.ts";
export * from "./text.ts";
export * from "./treesitter.ts";
