/**
 * Inclusive 1-based line ranges: merging, counting, building from line numbers.
 *
 * @module
 */
import type { Ranges } from "./types.ts";

/**
 * Sorts and merges overlapping or adjacent inclusive ranges.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeRanges } from "./ranges.ts";
 * assert.ok(JSON.stringify(mergeRanges([[5, 7], [1, 2], [3, 3], [9, 9]])) === "[[1,3],[5,7],[9,9]]");
 * ```
 */
export function mergeRanges(ranges: [number, number][]): [number, number][] {
  const valid = ranges.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && a <= b)
    .map(([a, b]) => [a, b] as [number, number])
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: [number, number][] = [];
  for (const r of valid) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

/**
 * Distinct (file, line) pairs of a {@link Ranges} value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countLines } from "./ranges.ts";
 * assert.ok(countLines({ "a.py": [[1, 3], [2, 5]], "b.py": [[7, 7]] }) === 6);
 * ```
 */
export function countLines(r: Ranges): number {
  let n = 0;
  for (const ranges of Object.values(r)) {
    for (const [a, b] of mergeRanges(ranges)) n += b - a + 1;
  }
  return n;
}

/**
 * Merged ranges of a set of line numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rangesOf } from "./ranges.ts";
 * assert.ok(JSON.stringify(rangesOf([4, 1, 2, 3, 9])) === "[[1,4],[9,9]]");
 * ```
 */
export function rangesOf(lines: Iterable<number>): [number, number][] {
  if (Array.isArray(lines)) {
    // fast path: ascending line numbers (the usual order of output lines)
    const out: [number, number][] = [];
    let ok = true;
    for (const n of lines) {
      if (!Number.isInteger(n) || n < 1) {
        ok = false;
        break;
      }
      const last = out[out.length - 1];
      if (!last) out.push([n, n]);
      else if (n === last[1] + 1) last[1] = n;
      else if (n > last[1] + 1) out.push([n, n]);
      else if (n < last[0]) {
        ok = false;
        break;
      }
    }
    if (ok) return out;
  }
  const sorted = [...new Set(lines)].filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) =>
    a - b
  );
  const out: [number, number][] = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/**
 * Union of several {@link Ranges} values, merged and with paths sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unionRanges } from "./ranges.ts";
 * const u = unionRanges([{ "b.py": [[1, 2]] }, { "a.py": [[3, 4]], "b.py": [[3, 3]] }]);
 * assert.ok(JSON.stringify(u) === '{"a.py":[[3,4]],"b.py":[[1,3]]}');
 * ```
 */
export function unionRanges(all: Iterable<Ranges>): Ranges {
  const acc = new Map<string, [number, number][]>();
  for (const r of all) {
    for (const [path, ranges] of Object.entries(r)) {
      const list = acc.get(path) ?? [];
      for (const r of ranges) list.push(r);
      acc.set(path, list);
    }
  }
  const out: Ranges = {};
  for (const path of [...acc.keys()].sort()) {
    const merged = mergeRanges(acc.get(path)!);
    if (merged.length) out[path] = merged;
  }
  return out;
}
