/**
 * The notebook helpers of lib/report/notebook.ts on the scorer's hand-worked fixture corpus
 * (tests/fixtures/score/corpus) and on hand-made frames: loading, the read-but-unused
 * classification, the Appendix C case study (repo and self targets), display bundles.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import {
  benchmarkChart,
  bundleOf,
  caseStudy,
  classifyMisses,
  dtypeName,
  formatP,
  frame,
  gapBreakdown,
  gapChart,
  intervalFrame,
  intervalTable,
  loadRuns,
  pairedChart,
  pickCase,
  show,
} from "../lib/report/notebook.ts";
import type { CellInterval } from "../lib/report/ci.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(HERE, "fixtures", "score", "corpus");
const runs = await loadRuns(CORPUS);

const fileLines = async (path: string, start: number, end: number) =>
  (await Deno.readTextFile(path)).split("\n").slice(start - 1, end).join("\n");

Deno.test("loadRuns: a corpus directory is scored; its provenance names it", () => {
  assert.equal(runs.simulated, false);
  assert.equal(runs.corpus, CORPUS);
  assert.match(runs.provenance, /run logs in .*fixtures\/score\/corpus/);
  assert.equal(runs.scored.turns.height, 5);
  assert.equal(runs.scored.targets.height, 9);
});

Deno.test("loadRuns: clear errors for a missing path and for a directory that is no corpus", async () => {
  await assert.rejects(loadRuns(join(HERE, "no-such-dir")), /is not a directory/);
  await assert.rejects(loadRuns(join(HERE, "fixtures", "score")), /neither a scored directory/);
});

Deno.test("classifyMisses: every missed target of the fixture classed by hand", () => {
  // by hand from the fixture's targets (tests/score fixture): reused = false rows are
  // c1/1 summary (not read), c1/2 rescale (not read), c1/2 label (read), c1/3 board (not read),
  // c2/1 summary (read), c2/2 second (self target the agent never implemented)
  const missed = classifyMisses(runs.scored.targets);
  const got =
    (missed.select("chain", "turn", "target", "gap").toRecords() as Record<string, unknown>[])
      .map((r) => `${r.chain}/${r.turn} ${r.target}: ${r.gap}`);
  assert.deepEqual(got, [
    "c1/1 minipkg.stats.summary: never read",
    "c1/2 minipkg.core.rescale: never read",
    "c1/2 minipkg.report.label: read but not reused",
    "c1/3 minipkg.board.board: never read",
    "c2/1 minipkg.stats.summary: read but not reused",
    "c2/2 minipkg.alpha.second: absent",
  ]);
  const byKind = gapBreakdown(missed, "kind").toRecords() as Record<string, unknown>[];
  assert.deepEqual(
    byKind.map((r) => [r.kind, r.missed, r["never read"], r["read but not reused"], r.absent]),
    [
      ["repo", 3, 2, 1, 0],
      ["self", 3, 1, 1, 1],
    ],
  );
  assert.equal(byKind[0]["never read %"], 66.7);
  assert.equal(byKind[1]["absent %"], 33.3);
});

Deno.test("gapBreakdown: size buckets and memory settings in their own order, not alphabetical", () => {
  const missed = pl.DataFrame({
    size: [">50", "1-10", "26-50", "11-25", "unknown", "1-10"],
    gap: [
      "never read",
      "never read",
      "read but not reused",
      "never read",
      "absent",
      "read but not reused",
    ],
  });
  const t = gapBreakdown(missed, "size").toRecords() as Record<string, unknown>[];
  assert.deepEqual(t.map((r) => r.size), ["1-10", "11-25", "26-50", ">50", "unknown"]);
  assert.deepEqual(t.map((r) => r.missed), [2, 1, 1, 1, 1]);
  const byMemory = gapBreakdown(
    pl.DataFrame({
      memory: ["source", "interface", "none"],
      gap: ["never read", "never read", "absent"],
    }),
    "memory",
  ).toRecords() as Record<string, unknown>[];
  assert.deepEqual(byMemory.map((r) => r.memory), ["none", "interface", "source"]);
});

Deno.test("gapChart: stacked shares per group sum to 100 and carry the counts", async () => {
  const missed = classifyMisses(runs.scored.targets);
  const c = gapChart(missed, "kind");
  const values = c.toSpec().data.values as {
    kind: string;
    gap: string;
    count: number;
    share: number;
  }[];
  for (const kind of ["repo", "self"]) {
    const rows = values.filter((v) => v.kind === kind);
    assert.ok(Math.abs(rows.reduce((a, v) => a + v.share, 0) - 100) < 0.2); // shares rounded to 0.1
    assert.equal(rows.reduce((a, v) => a + v.count, 0), 3);
  }
  const b = await bundleOf(c);
  assert.ok(String(b["image/svg+xml"]).startsWith("<svg"));
  assert.ok("application/vnd.vegalite.v5+json" in b);
});

Deno.test("caseStudy: repo target beside the submission function that re-implements it", async () => {
  const key = pickCase(runs.scored.targets, runs.scored.turns);
  assert.deepEqual(key, {
    harness: "mini-SWE-agent",
    model: "Model A",
    memory: "interface",
    chain: "c1",
    turn: 1,
  });
  const cs = await caseStudy(runs);
  assert.equal(cs.pairs.length, 1);
  const p = cs.pairs[0];
  assert.equal(p.target, "minipkg.stats.summary");
  assert.equal(p.by, "minipkg.report.describe");
  // the whole def of summary (stats.py 21-29) from W0, the whole def of describe (report.py 5-12)
  assert.equal(p.path, join(CORPUS, "repos", "minipkg", "minipkg", "stats.py"));
  assert.equal(p.source, await fileLines(p.path!, 21, 29));
  assert.ok(p.source.startsWith("def summary(values):"));
  assert.equal(p.bySource, await fileLines(join(CORPUS, "runs/k1/c1/turn1/submission.py"), 5, 12));
  assert.equal(cs.submissionPath, "minipkg/report.py");
  assert.equal(
    cs.requirement,
    await Deno.readTextFile(join(CORPUS, "tasks/c1/turn1/requirement.md")),
  );
  assert.equal(cs.targets.height, 2);
  const diff = cs.diff().text;
  assert.match(diff, /^- {8}"clip": clip\(values, 0, 1\),$/m);
  assert.match(diff, /^\+def describe\(values\):$/m);
  const side = await bundleOf(cs.sideBySide());
  assert.match(
    String(side["text/html"]),
    /<table[\s\S]*def summary\(values\)[\s\S]*def describe\(values\)/,
  );
  assert.deepEqual(cs.pairsFrame().toRecords(), [{
    target: "minipkg.stats.summary",
    kind: "repo",
    read: false,
    target_lines: 9,
    reimplemented_by: "minipkg.report.describe",
    by_lines: 8,
    callee_overlap: 0.8,
  }]);
  const chart = cs.chart().toSpec();
  assert.deepEqual(
    [...new Set((chart.data.values as { turn: number }[]).map((v) => v.turn))],
    [1, 2, 3],
  );
});

Deno.test("caseStudy: a self target's source comes from the agent's earlier submission (W_{t-1})", async () => {
  // mark the self target label of c1/2 as re-implemented by the turn-2 submission's own `label`
  const t = runs.scored.targets;
  const hit = pl.col("chain").eq(pl.lit("c1")).and(pl.col("turn").eq(pl.lit(2)))
    .and(pl.col("target").eq(pl.lit("minipkg.report.label")));
  const targets = t.withColumns(
    pl.when(hit).then(pl.lit(true)).otherwise(pl.col("reimplemented")).alias("reimplemented"),
    pl.when(hit).then(pl.lit("minipkg.board.label")).otherwise(pl.col("reimplemented_by"))
      .alias("reimplemented_by"),
  );
  const cs = await caseStudy({ ...runs, scored: { ...runs.scored, targets } }, {
    harness: "mini-SWE-agent",
    model: "Model A",
    memory: "interface",
    chain: "c1",
    turn: 2,
  });
  assert.equal(cs.pairs.length, 1);
  const p = cs.pairs[0];
  assert.equal(p.path, join(CORPUS, "runs/k1/c1/turn1/submission.py"));
  assert.equal(p.source, await fileLines(p.path!, 15, 16));
  assert.equal(p.bySource, await fileLines(join(CORPUS, "runs/k1/c1/turn2/submission.py"), 5, 6));
});

Deno.test("caseStudy: clear errors without a corpus or for an unknown turn", async () => {
  await assert.rejects(caseStudy({ ...runs, corpus: null }), /needs the corpus directory/);
  await assert.rejects(
    caseStudy(runs, {
      harness: "mini-SWE-agent",
      model: "Model A",
      memory: "interface",
      chain: "c1",
      turn: 9,
    }),
    /no turn 9/,
  );
});

Deno.test("frame: caption with shape, dtypes, head and tail, escaped cells, text fallback", async () => {
  const df = pl.DataFrame({ n: [1, 2, 3, 4, 5], s: ["<a>", "b", null, "d", "e"] });
  const b = await bundleOf(frame(df, { title: "t", rows: 2 }));
  const html = String(b["text/html"]);
  assert.match(html, /shape: \(5, 2\)/);
  assert.match(html, /&lt;a&gt;/);
  assert.doesNotMatch(html, />b</); // row 2 is elided (head 1 + tail 1)
  assert.match(html, />e</);
  assert.match(html, /…/);
  assert.match(String(b["text/plain"]), /shape: \(5, 2\)/);
});

Deno.test("intervalFrame: one row per configuration, estimate [low, high] per metric", () => {
  const iv = (estimate: number, low: number, high: number) => ({
    estimate,
    low,
    high,
    replicates: 10,
    B: 10,
    seed: 1,
    level: 0.95,
  });
  const cfg = { harness: "h", model: "m", memory: "interface" };
  const cells: CellInterval[] = [
    { config: cfg, metric: "reuse_repo", chains: 7, interval: iv(62.84, 58.05, 67.5) },
    { config: cfg, metric: "lines", chains: 7, interval: iv(1147.4, 1117.2, 1176.6) },
  ];
  const f = intervalTable(cells, ["reuse_repo", "lines"]).toRecords();
  assert.deepEqual(f, [{
    harness: "h",
    model: "m",
    memory: "interface",
    chains: 7,
    reuse_repo: "62.8 [58.1, 67.5]",
    lines: "1147 [1117, 1177]",
  }]);
  // the frame to compute on: numeric estimate / low / high, and the formatted interval beside
  const n = intervalFrame(cells, ["reuse_repo", "lines"]);
  assert.deepEqual(n.dtypes.map(dtypeName), [
    "str",
    "str",
    "str",
    "str",
    "i32",
    "f64",
    "f64",
    "f64",
    "str",
  ]);
  assert.deepEqual(n.toRecords(), [
    {
      harness: "h",
      model: "m",
      memory: "interface",
      metric: "reuse_repo",
      chains: 7,
      estimate: 62.84,
      low: 58.05,
      high: 67.5,
      interval: "62.8 [58.1, 67.5]",
    },
    {
      harness: "h",
      model: "m",
      memory: "interface",
      metric: "lines",
      chains: 7,
      estimate: 1147.4,
      low: 1117.2,
      high: 1176.6,
      interval: "1147 [1117, 1177]",
    },
  ]);
  assert.equal(n.sort("high", true).getColumn("metric").get(0), "lines");
});

Deno.test("frame: dtypes as Python Polars names them; pairedFrames p-values readable", () => {
  const h = frame(
    pl.DataFrame({ s: ["a"], x: [1.5], ok: [true] }).withColumns(
      pl.lit(1).cast(pl.Int32).alias("i"),
    ),
  );
  assert.match(h.html, /<small style="color:#777">str<\/small>.*f64.*bool.*i32/s);
  assert.doesNotMatch(h.html, /DataType/);
  assert.equal(formatP(0), "< 1e-16");
  assert.equal(formatP(1e-20), "< 1e-16");
  assert.equal(formatP(0.0123), "0.012");
  // a small number is shown with its digits, not rounded to 0 beside its formatted p
  const small = frame(pl.DataFrame({ p_value: [4.4e-14, 0.01234567, 0.5] }));
  assert.match(small.html, /<td style="text-align:right">4\.4e-14<\/td>/);
  assert.match(small.html, />0\.0123<\/td>/);
});

Deno.test("benchmarkChart: per-turn means from tasks and reference targets", () => {
  const tasks = pl.DataFrame({
    chain: ["a", "a", "b", "b"],
    turn: [1, 2, 1, 2],
    tests: [10, 12, 8, 10],
    requirement_chars: [2000, 3000, 1000, 3000],
    functions: [3, 3, 3, 3],
  });
  const turns = pl.DataFrame({
    chain: ["a", "a", "b", "b", "a"],
    turn: [1, 2, 1, 2, 2],
    n_repo: [2, 1, 0, 3, 1],
    n_self: [0, 2, 0, 4, 2],
  });
  const v = benchmarkChart(tasks, turns).toSpec().data.values as {
    turn: number;
    statistic: string;
    mean: number;
  }[];
  const at = (turn: number, s: string) => v.find((x) => x.turn === turn && x.statistic === s)?.mean;
  assert.equal(at(1, "test cases"), 9);
  assert.equal(at(2, "requirement (k chars)"), 3);
  assert.equal(at(1, "repo targets"), 1);
  assert.equal(at(2, "repo targets"), 2); // (a,2) counted once
  assert.equal(at(2, "self targets"), 3);
  assert.equal(at(1, "self targets"), undefined); // self targets from turn 2
});

Deno.test("show: prints plain text outside the Jupyter kernel", async () => {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  try {
    await show(frame(pl.DataFrame({ x: [1] }), { title: "tiny" }), "hello");
  } finally {
    console.log = log;
  }
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^tiny\nshape: \(1, 1\)/);
  assert.equal(lines[1], "hello");
});

Deno.test("pairedChart: the legend names what differs (two memory settings), readable metrics", () => {
  const d = (metric: string) => ({
    metric,
    a: 1,
    b: 0,
    delta: { estimate: 1, low: 0.5, high: 1.5, replicates: 10, B: 10, seed: 1, level: 0.95 },
  });
  const k = { harness: "OpenCode", model: "Qwen3.7-plus" };
  const p = (m: string) => ({
    a: { ...k, memory: "interface" },
    b: { ...k, memory: m },
    chains: 3,
    deltas: [d("reuse_self"), d("c_dup")],
    targets: [],
  });
  const spec = pairedChart([p("none"), p("source")] as never).toSpec();
  const v = spec.data.values as { comparison: string; metric: string }[];
  assert.deepEqual([...new Set(v.map((x) => x.comparison))], [
    "interface − none",
    "interface − source",
  ]);
  assert.deepEqual([...new Set(v.map((x) => x.metric))], ["Reuse (self)", "C_dup ↓"]);
  // comparisons are told apart by shape: colour means models in every figure
  assert.equal(spec.layer[2].encoding.shape.title, "Memory compared (A − B)");
  assert.equal(spec.layer[2].encoding.color, undefined);
  assert.equal(spec.title.subtitle[0], "OpenCode · Qwen3.7-plus; ↓ lower is better");
});
