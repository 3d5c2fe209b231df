/**
 * Scoring the hand-worked corpus (tests/fixtures/score/corpus): every expected value below is
 * worked out by hand from the fixture's files (line numbers as printed by `cat -n`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyCorpus, FIXTURE, tempDir } from "./score_helpers.ts";
import { type ScoredRows, scoreRows } from "../lib/frames/mod.ts";
import type { TargetRow, TurnRow } from "../lib/frames/schema.ts";

let scored: Promise<ScoredRows> | undefined;
function fixture(): Promise<ScoredRows> {
  scored ??= tempDir().then((cacheDir) => scoreRows(FIXTURE, { workers: 0, cacheDir }));
  return scored;
}

function turn(rows: ScoredRows, chain: string, t: number): TurnRow {
  const r = rows.turns.find((x) => x.chain === chain && x.turn === t);
  assert.ok(r, `turn ${chain}/${t} scored`);
  return r;
}

function target(rows: ScoredRows, chain: string, t: number, id: string): TargetRow {
  const r = rows.targets.find((x) => x.chain === chain && x.turn === t && x.target === id);
  assert.ok(r, `target ${id} of ${chain}/${t}`);
  return r;
}

const approx = (a: number | null, b: number) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

Deno.test("fixture: targets come from the reference solutions (repo vs self)", async () => {
  const rows = await fixture();
  assert.deepEqual(rows.errors, []);
  assert.equal(rows.turns.length, 5);
  const ids = (c: string, t: number) =>
    rows.targets.filter((x) => x.chain === c && x.turn === t).map((x) => `${x.kind}:${x.target}`);
  assert.deepEqual(ids("c1", 1), ["repo:minipkg.stats.mean", "repo:minipkg.stats.summary"]);
  assert.deepEqual(ids("c1", 2), [
    "repo:minipkg.core.rescale",
    "self:minipkg.report.describe",
    "self:minipkg.report.label",
  ]);
  assert.deepEqual(ids("c1", 3), ["self:minipkg.board.board"]);
  assert.deepEqual(ids("c2", 1), ["repo:minipkg.stats.summary"]);
  assert.deepEqual(ids("c2", 2), ["self:minipkg.alpha.first", "self:minipkg.alpha.second"]);
});

Deno.test("fixture c1 turn 1: re-implementation calling exactly 80% of the callees", async () => {
  const rows = await fixture();
  const t = turn(rows, "c1", 1);
  assert.deepEqual([t.n_repo, t.n_self, t.reuse_repo, t.reuse_self], [2, 0, 0.5, null]);
  // sed -n '1,12p' shows mean's body (6-7); grep shows only summary's def line (21), not its body (22-29)
  assert.deepEqual([t.recall_repo, t.recall_self], [0.5, null]);
  assert.equal(t.lines, 13); // lines 1-12 and 21 of stats.py
  // Files (lib/logs rule): operands viewed, searched or listed — the listed directory minipkg once,
  // stats.py; the written report.py is not viewed
  assert.equal(t.files, 2);
  assert.deepEqual([t.tests, t.passed, t.resolved, t.submitted], [3, 2, false, true]);
  approx(t.pass_rate, 2 / 3);
  assert.deepEqual([t.reimplemented, t.dup_chain], [1, true]);
  assert.deepEqual([t.cost, t.steps, t.seconds], [0.05, 5, null]);
  const summary = target(rows, "c1", 1, "minipkg.stats.summary");
  assert.deepEqual(
    [summary.read, summary.reused, summary.reimplemented, summary.reimplemented_by],
    [false, false, true, "minipkg.report.describe"],
  );
  // def line 21, body 22-29
  assert.deepEqual([
    summary.file,
    summary.start,
    summary.body_start,
    summary.end,
    summary.body_lines,
  ], [
    "minipkg/stats.py",
    21,
    22,
    29,
    8,
  ]);
  assert.deepEqual([summary.callees, summary.callee_overlap], [5, 0.8]);
  const mean = target(rows, "c1", 1, "minipkg.stats.mean");
  assert.deepEqual(
    [mean.read, mean.reused, mean.reimplemented, mean.callees, mean.callee_overlap],
    [
      true,
      true,
      false,
      0, // sum and len are builtins
      null,
    ],
  );
});

Deno.test("fixture c1 turn 2: local redefinition is not reuse; self targets read in the agent's file", async () => {
  const rows = await fixture();
  const t = turn(rows, "c1", 2);
  assert.deepEqual([t.n_repo, t.n_self, t.reuse_repo, t.reuse_self], [1, 2, 0, 0.5]);
  assert.deepEqual([t.recall_repo, t.recall_self], [0, 1]);
  assert.deepEqual([t.files, t.lines], [2, 17]); // cat of the agent's 16-line report.py + core.py:15
  assert.deepEqual([t.tests, t.passed, t.pass_rate, t.resolved], [2, 2, 1, true]);
  assert.deepEqual([t.reimplemented, t.dup_chain], [0, true]); // dup_chain is cumulative
  assert.deepEqual([t.cost, t.steps, t.seconds], [0.25, 7, 42.5]); // meta.json wins over the log
  const label = target(rows, "c1", 2, "minipkg.report.label");
  assert.deepEqual([label.implemented, label.read, label.reused], [true, true, false]);
  assert.deepEqual([label.file, label.start, label.body_start, label.end], [
    "minipkg/report.py",
    15,
    16,
    16,
  ]);
  const describe = target(rows, "c1", 2, "minipkg.report.describe");
  assert.deepEqual([
    describe.reused,
    describe.file,
    describe.start,
    describe.body_start,
    describe.end,
  ], [
    true,
    "minipkg/report.py",
    5,
    6,
    12,
  ]);
  assert.deepEqual([describe.callees, describe.callee_overlap], [4, 0.25]); // the agent's version
  const rescale = target(rows, "c1", 2, "minipkg.core.rescale");
  // grep shows the def line (15) only; 2 callees < 3: never re-implemented although both are called
  assert.deepEqual([
    rescale.read,
    rescale.reused,
    rescale.callees,
    rescale.callee_overlap,
    rescale.reimplemented,
  ], [
    false,
    false,
    2,
    1,
    false,
  ]);
});

Deno.test("fixture c1 turn 3: no submission, no repo target (null, not 0)", async () => {
  const rows = await fixture();
  const t = turn(rows, "c1", 3);
  assert.deepEqual([t.n_repo, t.reuse_repo, t.recall_repo], [0, null, null]);
  assert.deepEqual([t.n_self, t.reuse_self, t.recall_self], [1, 0, 0]);
  assert.deepEqual([t.submitted, t.tests, t.passed, t.pass_rate, t.resolved], [
    false,
    2,
    0,
    0,
    false,
  ]);
  assert.deepEqual(
    rows.tests.filter((x) => x.chain === "c1" && x.turn === 3).map((x) => x.passed),
    [false, false],
  );
  const board = target(rows, "c1", 3, "minipkg.board.board");
  assert.deepEqual([
    board.implemented,
    board.file,
    board.start,
    board.body_start,
    board.end,
    board.callees,
  ], [
    true,
    "minipkg/board.py",
    9,
    10,
    10,
    4,
  ]);
  assert.deepEqual([board.reused, board.read, board.reimplemented], [false, false, false]);
});

Deno.test("fixture c2: re-implementation below 80%; a self target the agent never implemented", async () => {
  const rows = await fixture();
  const t1 = turn(rows, "c2", 1);
  assert.deepEqual([t1.reuse_repo, t1.recall_repo, t1.reimplemented, t1.dup_chain], [
    0,
    1,
    0,
    false,
  ]);
  assert.deepEqual([t1.tests, t1.passed, t1.pass_rate], [2, 1, 0.5]); // case_02 has no result
  const summary = target(rows, "c2", 1, "minipkg.stats.summary");
  assert.deepEqual([summary.callees, summary.callee_overlap, summary.reimplemented], [
    5,
    0.6,
    false,
  ]);
  const t2 = turn(rows, "c2", 2);
  assert.deepEqual([t2.n_repo, t2.reuse_repo, t2.n_self, t2.reuse_self, t2.recall_self], [
    0,
    null,
    2,
    0.5,
    0.5,
  ]);
  const second = target(rows, "c2", 2, "minipkg.alpha.second");
  assert.deepEqual(
    [
      second.implemented,
      second.read,
      second.reused,
      second.file,
      second.body_lines,
      second.callees,
    ],
    [false, false, false, null, null, 0],
  );
  const first = target(rows, "c2", 2, "minipkg.alpha.first");
  assert.deepEqual([first.implemented, first.read, first.reused, first.callees], [
    true,
    true,
    true,
    3,
  ]);
});

Deno.test("fixture: scoring is cached and the cache gives identical rows; --no-cache too", async () => {
  const cacheDir = await tempDir();
  const cold = await scoreRows(FIXTURE, { workers: 1, cacheDir });
  const warm = await scoreRows(FIXTURE, { workers: 1, cacheDir });
  const none = await scoreRows(FIXTURE, { workers: 0, cache: false });
  assert.deepEqual(warm, cold);
  assert.deepEqual(none, cold);
  assert.deepEqual(cold.turns, (await fixture()).turns);
});

Deno.test("malformed corpus: every problem is an error row; turns found = scored + errored", async () => {
  const dir = await copyCorpus();
  await Deno.writeTextFile(join(dir, "runs/k1/c1/turn2/log.traj.json"), "{ this is not json");
  await Deno.writeTextFile(join(dir, "runs/k1/c2/turn1/results.xml"), "<testsuites><testcase");
  await Deno.remove(join(dir, "tasks/c2/turn2/tests.json"));
  await Deno.mkdir(join(dir, "runs/k2/c1/turn1"), { recursive: true });
  await Deno.writeTextFile(join(dir, "runs/k2/config.json"), `{"harness": "h", "model": "m"}`);
  await Deno.mkdir(join(dir, "runs/k1/c7/turn1"), { recursive: true });
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  const scored = rows.turns.map((t) => `${t.chain}/${t.turn}`);
  const errored = new Set(
    rows.errors.filter((e) => e.config && e.chain && e.turn).map((e) =>
      `${e.config}/${e.chain}/${e.turn}`
    ),
  );
  assert.deepEqual([...errored].sort(), [
    "k1/c1/2", // log not JSON
    "k1/c2/1", // results XML malformed
    "k1/c2/2", // tests.json missing
    "k1/c7/1", // unknown chain
    "k2/c1/1", // config.json without memory
    "k2/c1/2",
    "k2/c1/3",
  ]);
  assert.deepEqual(scored.sort(), ["c1/1", "c1/3"]);
  assert.equal(rows.found, scored.length + errored.size);
  const msg = (path: string) => rows.errors.find((e) => e.path === path)?.message ?? "";
  assert.match(msg("runs/k1/c1/turn2/log.traj.json"), /./);
  assert.match(msg("runs/k1/c2/turn1/results.xml"), /XML|testsuite/);
  assert.match(msg("tasks/c2/turn2/tests.json"), /missing tests.json/);
  assert.match(msg("runs/k2/config.json"), /"memory" must be one of/);
  // c1/3 builds on the submission of c1/2 although c1/2 itself could not be scored
  const t3 = rows.turns.find((t) => t.chain === "c1" && t.turn === 3)!;
  assert.equal(t3.n_self, 1);
  assert.equal(rows.targets.find((t) => t.chain === "c1" && t.turn === 3)!.implemented, true);
});

Deno.test("cache: a changed input re-scores exactly what it affects", async () => {
  const dir = await copyCorpus();
  const cacheDir = await tempDir();
  const first = await scoreRows(dir, { workers: 0, cacheDir });
  assert.equal(turn(first, "c1", 2).passed, 2);
  await Deno.writeTextFile(
    join(dir, "runs/k1/c1/turn2/results.json"),
    `{ "cases": [ { "id": "case_01", "passed": true }, { "id": "case_02", "passed": false } ] }`,
  );
  // the agent's turn-1 file now defines summary-like code calling only mean: no re-implementation
  await Deno.writeTextFile(
    join(dir, "runs/k1/c1/turn1/submission.py"),
    `from minipkg.stats import mean, summary\n\n\ndef describe(values):\n    return summary(values)\n\n\ndef label(values):\n    return mean(values)\n`,
  );
  const second = await scoreRows(dir, { workers: 0, cacheDir });
  const fresh = await scoreRows(dir, { workers: 0, cache: false });
  assert.deepEqual(second, fresh);
  assert.equal(turn(second, "c1", 2).passed, 1);
  assert.deepEqual([turn(second, "c1", 1).reuse_repo, turn(second, "c1", 1).reimplemented], [1, 0]);
  assert.deepEqual(second.turns.map((t) => t.dup_chain), [false, false, false, false, false]);
  // describe's callees in the agent's new turn-1 file: summary only
  assert.equal(target(second, "c1", 2, "minipkg.report.describe").callees, 1);
});
