/**
 * Accuracy of the code model on PyCG's public call-graph micro-benchmark (vitsalis/PyCG,
 * Apache-2.0; a copy under tests/fixtures/pycg/, see SOURCES.md there): per category, file-level
 * "module M uses function F" precision and recall (lib/python/oracle.ts) against each test's
 * `callgraph.json`, beside PyCG's own published per-category results (ICSE'21 artifact,
 * vitsalis/pycg-evaluation data/results/table3.txt: tests whose call graph is complete / sound).
 *
 * Goals (issue 12): precision ≥ 0.97 and recall ≥ 0.95 over all pairs.
 * Run with `deno task bench callgraph` (or `deno run -A tasks/bench/callgraph.ts [suite-dir]
 * [--misses]` to list every wrong pair).
 * @module
 */
import { compareSuite, precisionRecall } from "../../lib/python/oracle.ts";

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
const rows: string[][] = [];
const all = { tp: 0, fp: 0, fn: 0 };
let tests = 0, complete = 0, sound = 0;
for (const [cat, list] of byCategory) {
  const c = { tp: 0, fp: 0, fn: 0 };
  let n = 0, comp = 0, snd = 0;
  for (const r of list) {
    const t = r.test;
    n++;
    if (r.fp === 0) comp++;
    if (r.fn === 0) snd++;
    c.tp += r.tp;
    c.fp += r.fp;
    c.fn += r.fn;
    if (showMisses) {
      for (const p of r.extra) console.log(`  extra  ${cat}/${t}: ${p.replace("\t", " uses ")}`);
      for (const p of r.missed) console.log(`  missed ${cat}/${t}: ${p.replace("\t", " uses ")}`);
    }
  }
  const { precision, recall } = precisionRecall(c);
  const theirs = PYCG[cat];
  rows.push([
    cat,
    String(n),
    String(c.tp + c.fn),
    pct(precision),
    pct(recall),
    `${comp}/${n}`,
    `${snd}/${n}`,
    theirs ? `${theirs[0]}/${theirs[2]}` : "–",
    theirs ? `${theirs[1]}/${theirs[2]}` : "–",
  ]);
  all.tp += c.tp;
  all.fp += c.fp;
  all.fn += c.fn;
  tests += n;
  complete += comp;
  sound += snd;
}
const { precision, recall } = precisionRecall(all);
const pub = Object.values(PYCG).reduce((a, x) => [a[0] + x[0], a[1] + x[1], a[2] + x[2]], [
  0,
  0,
  0,
]);
rows.push([
  "all",
  String(tests),
  String(all.tp + all.fn),
  pct(precision),
  pct(recall),
  `${complete}/${tests}`,
  `${sound}/${tests}`,
  `${pub[0]}/${pub[2]}`,
  `${pub[1]}/${pub[2]}`,
]);
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
// the same pairs from call and implicit edges only (no references): what runs, not what is named
const runs = { tp: 0, fp: 0, fn: 0 };
for (const r of await compareSuite(suite, ["call", "implicit"])) {
  runs.tp += r.tp;
  runs.fp += r.fp;
  runs.fn += r.fn;
}
const only = precisionRecall(runs);
console.log(
  `calls only (call + implicit edges, no references): precision ${pct(only.precision)}, recall ${
    pct(only.recall)
  }`,
);
console.log(
  `overall precision ${pct(precision)} (goal ≥ 0.97), recall ${pct(recall)} (goal ≥ 0.95); ${
    ((performance.now() - t0) / 1000).toFixed(2)
  } s`,
);
