// Findings: the statistics behind the notebooks' closing sentences, by hand.
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  comparisonSentence,
  reuseResolveWithin,
  shareInterval,
  side,
  stratifiedBootstrap,
} from "../lib/report/notebook/findings.ts";
import { holmFamily, pairedComparison } from "../lib/report/ci.ts";
import { turnsFrame } from "./fixtures/report/frames.ts";

Deno.test("stratifiedBootstrap: resamples within groups; seeded", () => {
  // two groups whose clusters are all equal: every replicate gives the same mean
  const same = stratifiedBootstrap(
    [[1, 1, 1], [3, 3]],
    (gs) => gs.flat().reduce((a, b) => a + b) / gs.flat().length,
    { B: 50, seed: 1 },
  );
  assert.equal(same.low, same.high);
  assert.equal(same.estimate, (1 + 1 + 1 + 3 + 3) / 5);
  const stat = (gs: number[][]) => gs[0].reduce((a, b) => a + b, 0) / gs[0].length;
  const a = stratifiedBootstrap([[0, 1, 2, 3]], stat, { B: 200, seed: 9 });
  assert.deepEqual(a, stratifiedBootstrap([[0, 1, 2, 3]], stat, { B: 200, seed: 9 }));
  assert.ok(a.low! < 1.5 && a.high! > 1.5);
});

Deno.test("reuseResolveWithin: per-configuration buckets and the mean within-configuration difference", () => {
  const row = (model: string, chain: string, turn: number, reuse: number, pass: number) => ({
    harness: "OpenCode",
    model,
    memory: "interface",
    chain,
    turn,
    reuse_repo: reuse,
    tests: 1,
    pass_rate: pass,
    resolved: pass === 1,
  });
  // model A: high-reuse turns resolve 100%, low-reuse 0% → +100; model B: +0 (both 100%)
  const rows = [
    row("A", "c1", 1, 0.9, 1),
    row("A", "c1", 2, 0.1, 0),
    row("A", "c2", 1, 0.8, 1),
    row("A", "c2", 2, 0.2, 0),
    row("B", "c1", 1, 0.9, 1),
    row("B", "c1", 2, 0.1, 1),
    row("C", "c1", 1, 0.5, 1), // no high or low bucket: not counted
  ];
  const r = reuseResolveWithin(turnsFrame(rows), { B: 100, seed: 2 });
  assert.equal(r.configs, 2);
  assert.equal(r.delta.estimate, 50);
  const t = r.table.toRecords() as Record<string, unknown>[];
  const at = (m: string, b: string) => t.find((x) => x.model === m && x.reuse_repo_bucket === b)!;
  assert.equal(at("A", "≥ 2/3").resolve, 100);
  assert.equal(at("A", "< 1/3").resolve, 0);
  assert.equal(at("C", "1/3 – 2/3").turns, 1);
});

Deno.test("shareInterval: share of rows, chains resampled within configurations", () => {
  const f = pl.DataFrame({
    harness: ["h", "h", "h", "h"],
    model: ["m", "m", "m", "m"],
    memory: ["x", "x", "x", "x"],
    chain: ["a", "a", "b", "b"],
    gap: ["never read", "never read", "read but not reused", "never read"],
  });
  const i = shareInterval(f, (r) => r.gap === "never read", { B: 200, seed: 4 });
  assert.equal(i.estimate, 75);
  assert.ok(i.low! >= 50 && i.high! <= 100);
  assert.equal(side(i), "lies above 0");
});

Deno.test("comparisonSentence names what differs after Holm, with Δ and its interval", () => {
  const X = { harness: "OpenCode", model: "M", memory: "interface" };
  const Y = { harness: "OpenCode", model: "M", memory: "none" };
  const rows = ["c1", "c2", "c3", "c4", "c5"].flatMap((chain) => [
    { ...X, chain, turn: 1, files: 9, tests: 2, pass_rate: 1 },
    { ...Y, chain, turn: 1, files: 3, tests: 2, pass_rate: 1 },
  ]);
  const [p] = holmFamily("demo", [pairedComparison(turnsFrame(rows), undefined, X, Y, { B: 50 })]);
  const s = comparisonSentence(p, 0.5);
  // every chain: files +6; 2 of 32 sign patterns as extreme → p = 0.0625, Holm ×k
  assert.match(
    s,
    /^interface vs none \(5 chains\): differs in Files viewed \+6\.0 \[\+6\.0, \+6\.0\]/,
  );
  assert.match(s, /no difference shown in .*Pass/);
});
