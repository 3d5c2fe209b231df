/**
 * Accuracy of the code model on PyCG's public call-graph micro-benchmark (vitsalis/PyCG,
 * Apache-2.0; a copy under tests/fixtures/pycg/, see SOURCES.md there): per category, file-level
 * "module M uses function F" precision and recall (lib/python/oracle.ts) against each test's
 * `callgraph.json`, beside PyCG's own published per-category results (ICSE'21 artifact,
 * vitsalis/pycg-evaluation data/results/table3.txt: tests whose call graph is complete / sound).
 *
 * Goals of the code model: precision ≥ 0.97 and recall ≥ 0.95 over all pairs.
 * Run with `deno task bench callgraph` (or `deno run -A tasks/bench/callgraph.ts [suite-dir]
 * [--misses]` to list every wrong pair).
 * @module
 */
import {
  CALL_KINDS,
  compareSuite,
  precisionRecall,
  type SnippetResult,
  sumCounts,
} from "../../lib/python/mod.ts";

const args = Deno.args.filter((a) => !a.startsWith("--"));
const showMisses = Deno.args.includes("--misses");
const suite = args[0] ?? new URL("../../tests/fixtures/pycg/micro", import.meta.url).pathname;

/**
 * PyCG's published micro-benchmark results per category, [complete, sound, tests] (table3.txt of
 * the ICSE'21 artifact; 112 tests of an earlier suite version: `parameters` is now `args`; the
 * `external` and `dynamic` categories are newer and have no published figure).
 */
const PYCG: Record<string, [number, number, number]> = {
  assignments: [4, 3, 4],
  builtins: [3, 1, 3],
  classes: [22, 22, 22],
  decorators: [6, 5, 7],
  dicts: [12, 11, 12],
  direct_calls: [4, 4, 4],
  exceptions: [3, 3, 3],
  functions: [4, 4, 4],
  generators: [6, 6, 6],
  imports: [14, 14, 14],
  kwargs: [3, 3, 3],
  lambdas: [5, 5, 5],
  lists: [8, 7, 8],
  mro: [7, 5, 7],
  args: [6, 6, 6],
  returns: [4, 4, 4],
};

const pct = (x: number) => x.toFixed(3);
const t0 = performance.now();
const results = await compareSuite(suite);
const byCategory = Map.groupBy(results, (r) => r.category);
/** A table row of a set of tests: pooled pairs, tests complete / sound, PyCG's figures. */
function row(name: string, list: SnippetResult[], theirs?: [number, number, number]): string[] {
  const c = sumCounts(list);
  const { precision, recall } = precisionRecall(c);
  const n = list.length;
  return [
    name,
    String(n),
    String(c.tp + c.fn),
    pct(precision),
    pct(recall),
    `${list.filter((r) => r.fp === 0).length}/${n}`,
    `${list.filter((r) => r.fn === 0).length}/${n}`,
    theirs ? `${theirs[0]}/${theirs[2]}` : "–",
    theirs ? `${theirs[1]}/${theirs[2]}` : "–",
  ];
}

const rows: string[][] = [];
for (const [cat, list] of byCategory) {
  rows.push(row(cat, list, PYCG[cat]));
  if (!showMisses) continue;
  for (const r of list) {
    for (const p of r.extra) console.log(`  extra  ${cat}/${r.test}: ${p.replace("\t", " uses ")}`);
    for (const p of r.missed) {
      console.log(`  missed ${cat}/${r.test}: ${p.replace("\t", " uses ")}`);
    }
  }
}
const published = Object.values(PYCG).reduce(
  (a, x) => [a[0] + x[0], a[1] + x[1], a[2] + x[2]] as [number, number, number],
  [0, 0, 0] as [number, number, number],
);
rows.push(row("all", results, published));
const { precision, recall } = precisionRecall(sumCounts(results));
const head = [
  "category",
  "tests",
  "pairs",
  "precision",
  "recall",
  "complete",
  "sound",
  "PyCG complete",
  "PyCG sound",
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r: string[]) =>
  r.map((x, i) => i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]));
console.log(`suite: ${suite}`);
console.log(
  "file-level pairs 'module M uses function F'; complete = no extra pair, sound = no missed pair",
);
console.log(line(head).join("  "));
for (const r of rows) console.log(line(r).join("  "));
// the same pairs from edges of what runs only (no references), not what is named
const runs = sumCounts(await compareSuite(suite, [...CALL_KINDS, "implicit"]));
const only = precisionRecall(runs);
console.log(
  `calls only (call, decorator, dunder and implicit edges; no references): precision ${
    pct(only.precision)
  }, recall ${pct(only.recall)}`,
);
console.log(
  `overall precision ${pct(precision)} (goal ≥ 0.97), recall ${pct(recall)} (goal ≥ 0.95); ${
    ((performance.now() - t0) / 1000).toFixed(2)
  } s`,
);
