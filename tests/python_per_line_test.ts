/**
 * `PerLine` (lib/python/per_line.ts) keeps exactly what the plain rule keeps — a use is dropped
 * when an equal one was kept on the same line — also past the point where it switches to a set.
 */
import assert from "node:assert/strict";
import { PerLine } from "../lib/python/per_line.ts";

Deno.test("PerLine: same decisions as the plain rule, on lines short and long", () => {
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (const many of [1, 4, 32]) {
    const seen = new PerLine<[number, string]>(
      (a, b) => a[0] === b[0] && a[1] === b[1],
      (a) => `${a[0]}|${a[1]}`,
      many,
    );
    const kept: [number, number, string][] = [];
    let line = 1;
    for (let i = 0; i < 5000; i++) {
      if (rand(40) === 0) line += 1 + rand(3); // long runs on one line, then a few short ones
      const item: [number, string] = [rand(3), `f${rand(60)}`];
      // the plain rule, computed independently
      const plain = !kept.some((k) => k[0] === line && k[1] === item[0] && k[2] === item[1]);
      assert.equal(seen.add(line, item), plain, `use ${i} (many=${many})`);
      if (plain) kept.push([line, ...item]);
    }
    assert.ok(kept.length > 500 && kept.length < 4900, `${kept.length} kept`);
  }
});
