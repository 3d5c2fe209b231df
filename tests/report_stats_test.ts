// Statistics: PRNG, percentiles, McNemar by hand, bootstrap determinism and degenerate cases,
// paired comparisons on hand-made frames.
import assert from "node:assert/strict";
import {
  byChain,
  cellIntervals,
  chainStats,
  chiSquare1Sf,
  ciMarkdown,
  clusterBootstrap,
  configMetrics,
  holm,
  holmFamily,
  mcnemar,
  metricsAtTurnOfStats,
  metricsByTurn,
  metricsOfStats,
  mulberry32,
  pairedComparison,
  quantileSorted,
  resampledRows,
  turnCellIntervals,
  turnRows,
} from "../lib/report/mod.ts";
import {
  CONFIG_A,
  CONFIG_B,
  type Target,
  targetsFrame,
  turnsFrame,
} from "./fixtures/report/frames.ts";

const near = (a: number | null | undefined, b: number, eps = 1e-9) =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < eps, `${a} ≉ ${b}`);

Deno.test("mulberry32 matches an independent (Python) port of the reference algorithm", () => {
  const r = mulberry32(1);
  assert.deepEqual([r(), r(), r()], [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]);
});

Deno.test("quantileSorted: type-7 interpolation", () => {
  near(quantileSorted([1, 2, 3, 4, 5], 0.025), 1.1);
  near(quantileSorted([1, 2, 3, 4, 5], 0.975), 4.9);
  near(quantileSorted([7], 0.3), 7);
  assert.ok(Number.isNaN(quantileSorted([], 0.5)));
});

Deno.test("mcnemar: exact binomial and chi-square with continuity correction, by hand", () => {
  // b = 1, c = 6: p = 2 · (C(7,0) + C(7,1)) / 2^7 = 16 / 128
  const e = mcnemar(1, 6);
  assert.equal(e.method, "exact");
  near(e.p, 0.125, 1e-12);
  near(e.statistic, 16 / 7); // (|1 − 6| − 1)² / 7
  assert.equal(mcnemar(3, 3).p, 1);
  assert.equal(mcnemar(0, 0).p, 1);
  // b + c = 42 ≥ 25: χ² = (|30 − 12| − 1)² / 42 = 289 / 42; p from Python math.erfc
  const c = mcnemar(30, 12);
  assert.equal(c.method, "chi2");
  near(c.statistic, 289 / 42, 1e-12);
  near(c.p, 0.008711912962379598, 1e-7);
  // forced exact on the same counts: 2 · Σ_{k ≤ 12} C(42, k) / 2^42 (Python math.comb)
  near(mcnemar(30, 12, "exact").p, 0.007915897334896727, 1e-12);
  // boundary: 24 discordant pairs → exact, 25 → chi-square
  assert.equal(mcnemar(20, 4).method, "exact");
  assert.equal(mcnemar(20, 5).method, "chi2");
  near(chiSquare1Sf(3.841458820694124), 0.05, 1e-6);
  assert.throws(() => mcnemar(-1, 2), /non-negative integers/);
});

Deno.test("clusterBootstrap: one replicate equals the hand-drawn resample", () => {
  // mulberry32(1) draws 0.627, 0.0027, 0.527 → indices 1, 0, 1 of three clusters
  const clusters = [[10], [20], [30]];
  const mean = (cs: number[][]) => cs.flat().reduce((a, b) => a + b, 0) / cs.flat().length;
  const ci = clusterBootstrap(clusters, mean, { B: 1, seed: 1 });
  near(ci.estimate, 20);
  near(ci.low, 50 / 3);
  near(ci.high, 50 / 3);
  assert.equal(ci.replicates, 1);
});

Deno.test("clusterBootstrap: same seed → same intervals; other seed → other intervals", () => {
  // configuration A plus six chains with distinct repo reuse
  const more = [0.1, 0.3, 0.35, 0.6, 0.8, 0.95].flatMap((x, k) =>
    [1, 2].map((turn) => ({ ...CONFIG_A[0], chain: `d${k}`, turn, reuse_repo: x, tests: 2 }))
  );
  const f = turnsFrame([...CONFIG_A, ...CONFIG_B, ...more]);
  const a = cellIntervals(f, { B: 300, seed: 11 });
  const b = cellIntervals(f, { B: 300, seed: 11 });
  const c = cellIntervals(f, { B: 300, seed: 12 });
  assert.deepEqual(a, b);
  const pick = (cs: typeof a) =>
    cs.find((x) => x.config.harness === "OpenCode" && x.metric === "reuse_repo")!;
  assert.notEqual(pick(a).interval.low, pick(c).interval.low);
  const cell = pick(a);
  near(cell.interval.estimate, (2.75 + 2 * (0.1 + 0.3 + 0.35 + 0.6 + 0.8 + 0.95)) / 17 * 100);
  assert.equal(cell.chains, 8);
  assert.equal(cell.interval.B, 300);
  assert.equal(cell.interval.seed, 11);
  assert.equal(cell.interval.replicates, 300);
  assert.ok(
    cell.interval.low! < cell.interval.estimate! && cell.interval.high! > cell.interval.estimate!,
  );
});

Deno.test("clusterBootstrap: identical chains give a zero-width interval", () => {
  const chains = ["c1", "c2", "c3", "c4"].flatMap((chain) =>
    CONFIG_B.map((r) => ({
      ...r,
      chain,
      reimplemented: r.turn === 2 ? 1 : 0,
      dup_chain: r.turn >= 2,
    }))
  );
  for (const cell of cellIntervals(turnsFrame(chains), { B: 200, seed: 5 })) {
    assert.equal(cell.interval.low, cell.interval.high, cell.metric);
    near(cell.interval.low, cell.interval.estimate!, 1e-9);
  }
  const cdup = cellIntervals(turnsFrame(chains), { B: 50 }).find((c) => c.metric === "c_dup")!;
  near(cdup.interval.estimate, 200 / 3); // C_dup = 0, 100, 100
});

Deno.test("pairedComparison: paired deltas, chain-level tests, Holm over the family", () => {
  const X = { harness: "OpenCode", model: "M", memory: "interface" };
  const Y = { harness: "OpenCode", model: "M", memory: "none" };
  const rows = ["c1", "c2", "c3"].flatMap((chain, k) =>
    [1, 2].flatMap((turn) => [
      { ...X, chain, turn, files: 5 + k + turn, reuse_repo: 0.2 * (k + 1), tests: 2, pass_rate: 1 },
      { ...Y, chain, turn, files: 3 + k + turn, reuse_repo: 0.1 * k, tests: 2, pass_rate: 0.5 },
    ])
  );
  rows.push({ ...X, chain: "c4", turn: 1, files: 100, reuse_repo: 1, tests: 2, pass_rate: 1 });
  const mk = (cfg: typeof X, chain: string, n: number, reused: boolean, tag: string): Target[] =>
    Array.from({ length: n }, (_, i) => ({
      ...cfg,
      chain,
      turn: 1,
      target: `${tag}${i}`,
      kind: tag.startsWith("s") ? "self" : "repo",
      read: true,
      reused,
    }));
  const pairs = (chain: string, tag: string, n: number, rx: boolean, ry: boolean) => [
    ...mk(X, chain, n, rx, tag),
    ...mk(Y, chain, n, ry, tag),
  ];
  // repo: c1 both 2, only X 3, neither 1 (D = +3); c2 both 1, only X 2, only Y 1, neither 1
  // (D = +1); self: c3 only Y 2 (D = −2)
  const targets = targetsFrame([
    ...pairs("c1", "rb", 2, true, true),
    ...pairs("c1", "rx", 3, true, false),
    ...pairs("c1", "rn", 1, false, false),
    ...pairs("c2", "rb", 1, true, true),
    ...pairs("c2", "rx", 2, true, false),
    ...pairs("c2", "ry", 1, false, true),
    ...pairs("c2", "rn", 1, false, false),
    ...pairs("c3", "sy", 2, false, true),
    ...mk(X, "c1", 4, true, "only-in-x"), // unpaired: ignored
  ]);
  const p = pairedComparison(turnsFrame(rows), targets, X, Y, { B: 200, seed: 3 });
  assert.equal(p.chains, 3);
  const files = p.deltas.find((d) => d.metric === "files")!;
  near(files.a, 7.5); // c4 excluded: (6 + 7 + 7 + 8 + 8 + 9) / 6
  near(files.delta.estimate, 2);
  near(files.delta.low, 2);
  near(files.delta.high, 2);
  // every chain's A − B is +2: only the identity and the full swap reach |Δ| = 2 (2 of 8 patterns)
  assert.equal(files.test.exact, true);
  near(files.test.p, 2 / 8);
  const reuse = p.deltas.find((d) => d.metric === "reuse_repo")!;
  near(reuse.delta.estimate, 100 * (0.4 - 0.1)); // (.2 + .4 + .6) / 3 − (0 + .1 + .2) / 3
  near(p.deltas.find((d) => d.metric === "pass")!.delta.estimate, 50);
  const [all, repo, self] = p.targets;
  assert.deepEqual([all.both, all.aOnly, all.bOnly, all.neither], [3, 5, 3, 2]);
  assert.deepEqual(all.chains, [{ a: 2, b: 3, c: 0, d: 1 }, { a: 1, b: 2, c: 1, d: 1 }, {
    a: 0,
    b: 0,
    c: 2,
    d: 0,
  }]);
  // sign flips of D = (3, 1, −2): |±3 ± 1 ± 2| ≥ 2 in 6 of 8 patterns
  near(all.clustered.signFlip.p, 6 / 8);
  near(all.delta.estimate, 100 * 2 / 13);
  assert.deepEqual([repo.pairs, repo.aOnly, repo.bOnly], [11, 5, 1]);
  near(repo.clustered.signFlip.p, 2 / 4); // D = (3, 1): |±3 ± 1| ≥ 4 in 2 of 4
  near(repo.clustered.obuchowski.statistic, 0.5 * 16 / 10); // ((K−1)/K) (ΣD)² / ΣD²
  assert.deepEqual([self.pairs, self.aOnly, self.bOnly], [2, 0, 2]);
  assert.equal(self.clustered.signFlip.p, 1); // one discordant chain

  // Holm over the family: 9 metric tests (those defined) and 3 target tests
  const [adj] = holmFamily("demo", [p]);
  const ps = [...adj.deltas.filter((d) => d.test.p !== null).map((d) => d.test.p!), 0.75, 0.5, 1];
  assert.equal(adj.family!.tests, ps.length);
  const q = holm(ps);
  near(adj.targets[1].pHolm!, q[ps.length - 2]);
  assert.equal(p.targets[1].pHolm, undefined); // the input is not modified

  const md = ciMarkdown(cellIntervals(turnsFrame(rows), { B: 100, seed: 9 }), [adj], {
    provenance: "hand-made frames",
    B: 100,
    seed: 9,
  });
  assert.ok(md.includes("B = 100 replicates, seed = 9"));
  assert.ok(md.includes("> **Data: hand-made frames**"));
  // the table names its unit, tests and correction
  assert.ok(md.includes("**Unit: the task chain**"), md);
  assert.ok(md.includes("sign-flip test") && md.includes("Holm over the family"), md);
  assert.ok(md.includes("### Family: demo (1 comparison, "), md);
  assert.ok(md.includes("| Files viewed | 7.5 | 5.5 | +2.0 [+2.0, +2.0] | 0.250 |"), md);
  assert.ok(md.includes("| repo | 11 | 2 (2) | 3 | 5 | 1 | 2 |"), md);
  assert.ok(!md.includes("exact binomial"), md);
  assert.throws(
    () => pairedComparison(turnsFrame(rows), undefined, X, { ...Y, memory: "source" }),
    /no turns for OpenCode · M · source/,
  );
});

Deno.test("metricsOfStats (bootstrap fast path) equals the scorer's macro-averaging", () => {
  let x = 7;
  const r = () => (x = (x * 16807) % 2147483647) / 2147483647;
  const maybe = (v: number) => (r() < 0.15 ? null : v);
  const rows = ["a", "b", "c", "d", "e"].flatMap((chain, k) =>
    Array.from({ length: k === 4 ? 3 : 5 }, (_, i) => ({
      harness: "H",
      model: "M",
      memory: "interface",
      chain,
      turn: i + 1,
      reuse_repo: maybe(r()),
      reuse_self: i > 0 ? maybe(r()) : null,
      recall_repo: maybe(r()),
      recall_self: i > 0 ? r() : null,
      files: Math.floor(10 * r()),
      lines: Math.floor(500 * r()),
      tests: r() < 0.2 ? 0 : 4,
      pass_rate: maybe(r()),
      resolved: r() < 0.5,
      reimplemented: r() < 0.2 ? 1 : 0,
    }))
  );
  const chains = byChain(turnRows(turnsFrame(rows)));
  const same = (a: Record<string, number | null>, b: Record<string, number | null>) => {
    for (const k of Object.keys(b)) {
      if (b[k] === null) assert.equal(a[k], null, k);
      else near(a[k], b[k]!, 1e-9);
    }
  };
  same(metricsOfStats(chains.map(chainStats)), configMetrics(chains.flat()));
  for (const [turn, m] of metricsByTurn(chains.flat())) {
    same(metricsAtTurnOfStats(chains.map(chainStats), turn), m);
  }
  const draw = [4, 0, 0, 2, 4]; // a resample with repeated chains, including the short one
  same(
    metricsOfStats(draw.map((i) => chainStats(chains[i]))),
    configMetrics(resampledRows(draw.map((i) => chains[i]))),
  );
});

Deno.test("holm: step-down adjusted p-values by hand", () => {
  // sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.06, 0.04·1) = 0.06
  const q = holm([0.01, 0.04, 0.03, 0.005]);
  [0.03, 0.06, 0.06, 0.02].forEach((e, i) => near(q[i], e, 1e-12));
  assert.deepEqual(holm([0.6, 0.9]), [1, 1]);
  assert.deepEqual(holm([]), []);
});

Deno.test("turnCellIntervals: estimates are the Table 3 values; Δ unrounded", () => {
  const cells = turnCellIntervals(turnsFrame(CONFIG_A), { B: 100, seed: 2 });
  const est = Object.fromEntries(cells.map((c) => [c.cell, c.interval.estimate]));
  near(est.recall_repo_t1, 75);
  near(est.recall_repo_t5, 100); // last turn present: 3
  near(est.recall_repo_delta, 25);
  near(est.reuse_self_t2, 25);
  near(est.reuse_self_t5, 100);
  near(est.c_dup_t1, 0);
  near(est.c_dup_t5, 100);
  assert.equal(cells.length, 12);
  for (const c of cells) assert.ok(c.interval.low! <= c.interval.estimate! + 1e-9, c.cell);
  const md = ciMarkdown([], [], { provenance: "p", turnCells: cells });
  assert.ok(md.includes("## 95% cluster-bootstrap intervals of the Table 3 and Table 5 cells"));
  assert.ok(md.includes("| OpenCode | GLM-5.3 | interface | 2 | 75.0 ["), md);
});
