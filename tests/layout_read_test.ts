import assert from "node:assert/strict";
import { join } from "node:path";
import {
  LayoutError,
  loadRunContents,
  matchResults,
  parseMeta,
  parseResults,
  parseTests,
  readCorpus,
  validateCorpus,
} from "../lib/layout/mod.ts";

import { copyCorpus, FIXTURE, tempDir } from "./score_helpers.ts";

Deno.test("readCorpus: the hand-worked corpus has no problem and 5 run turns", async () => {
  const { corpus, problems } = await readCorpus(FIXTURE);
  assert.deepEqual(problems, []);
  assert.deepEqual(corpus.chains.map((c) => [c.chain, c.turns.length]), [["c1", 3], ["c2", 2]]);
  assert.equal(corpus.chains[0].repo.package, "minipkg");
  assert.equal(corpus.chains[0].turns[1].path, "minipkg/board.py");
  assert.deepEqual(corpus.chains[0].turns[0].cases, ["case_01", "case_02", "case_03"]);
  assert.deepEqual(corpus.configs.map((c) => [c.id, c.harness, c.model, c.memory, c.cwd]), [
    ["k1", "mini-SWE-agent", "Model A", "interface", "/testbed"],
  ]);
  assert.deepEqual(
    corpus.runs.map((
      r,
    ) => [r.chain, r.turn, !!r.submission, r.results?.split("/").pop(), r.blocked.length]),
    [
      ["c1", 1, true, "results.xml", 0],
      ["c1", 2, true, "results.json", 0],
      ["c1", 3, false, undefined, 0],
      ["c2", 1, true, "results.xml", 0],
      ["c2", 2, true, "results.json", 0],
    ],
  );
  assert.deepEqual(await validateCorpus(FIXTURE), []);
});

Deno.test("readCorpus: an unusable directory throws, naming it", async () => {
  await assert.rejects(() => readCorpus("/nonexistent/reporeuse"), LayoutError);
  const empty = await tempDir();
  await assert.rejects(() => readCorpus(empty), /neither tasks\/ nor runs\//);
  assert.equal((await validateCorpus(empty)).length, 1);
});

Deno.test("validateCorpus: every problem with its path; blocked turns listed", async () => {
  const dir = await copyCorpus();
  await Deno.writeTextFile(join(dir, "tasks/c2/chain.json"), `{"chain": "c2", "repo": `); // bad JSON
  await Deno.writeTextFile(join(dir, "tasks/c1/turn2/tests.json"), `{"cases": [{"id": 3}]}`);
  await Deno.remove(join(dir, "tasks/c1/turn3/solution.py"));
  await Deno.remove(join(dir, "runs/k1/c1/turn1/log.traj.json"));
  await Deno.writeTextFile(
    join(dir, "runs/k1/c1/turn2/results.json"),
    `{"cases": [{"id": "case_01"}]}`,
  );
  await Deno.mkdir(join(dir, "runs/k2/c1/turn1"), { recursive: true });
  await Deno.writeTextFile(
    join(dir, "runs/k2/config.json"),
    `{"harness": "h", "model": "m", "memory": "full"}`,
  );
  await Deno.mkdir(join(dir, "runs/k1/c9/turn1"), { recursive: true });
  await Deno.remove(join(dir, "runs/k1/c1/turn3"), { recursive: true });

  const { corpus, problems } = await readCorpus(dir);
  const has = (path: string, re: RegExp) =>
    assert.ok(problems.some((p) => p.path === path && re.test(p.message)), `${path} ${re}`);
  has("tasks/c2/chain.json", /invalid JSON/);
  has("tasks/c1/turn2/tests.json", /cases\[0\].*"id"/);
  has("tasks/c1/turn3/solution.py", /missing reference solution/);
  has("runs/k1/c1/turn1/log.json", /missing log/);
  has("runs/k2/config.json", /"memory" must be one of/);
  has("runs/k1/c9", /no task chain "c9"/);
  has("runs/k1/c1/turn3", /missing turn directory/);
  has("runs/k2/c2", /no runs of this chain/);
  // results are parsed by validate (not by readCorpus)
  const all = await validateCorpus(dir);
  assert.ok(
    all.some((p) =>
      p.path === "runs/k1/c1/turn2/results.json" && /boolean "passed"/.test(p.message)
    ),
  );

  const blocked = corpus.runs.filter((r) => r.blocked.length).map((r) =>
    `${r.config}/${r.chain}/${r.turn}`
  );
  assert.deepEqual(blocked, [
    "k1/c1/1", // no log
    "k1/c1/2", // tests.json
    "k1/c1/3", // solution + missing dir
    "k1/c2/1", // chain.json
    "k1/c2/2",
    "k1/c9/1", // unknown chain
    "k2/c1/1", // config, missing log
    "k2/c1/2", // config, expected turns of c1 are found turns, dirs missing
    "k2/c1/3",
  ]);
});

Deno.test("parseResults: JUnit XML and simple JSON; matchResults counts missing cases as failed", () => {
  const xml = `<?xml version="1.0"?><testsuite name="pytest" tests="3">
    <testcase classname="t" name="test_case_01"/>
    <testcase classname="t" name="test_x[case_02]"><error message="boom"/></testcase>
    <testcase classname="t" name="case_03"><skipped/></testcase>
    <testcase classname="t" name="case_04"></testcase>
  </testsuite>`;
  const r = parseResults(xml, "results.xml");
  assert.deepEqual(r.map((c) => [c.id, c.passed]), [
    ["test_case_01", true],
    ["test_x[case_02]", false],
    ["case_03", false],
    ["case_04", true],
  ]);
  assert.deepEqual(
    matchResults(["case_01", "case_02", "case_03", "case_04", "case_05"], r).map((c) => c.passed),
    [true, false, false, true, false],
  );
  const json = parseResults(
    `{"cases": [{"id": "a", "passed": true}, {"id": "b", "passed": false, "message": "x"}]}`,
    "r.json",
  );
  assert.deepEqual(json, [{ id: "a", passed: true }, { id: "b", passed: false, message: "x" }]);
  assert.throws(
    () => parseResults("{", "runs/k/c/turn1/results.json"),
    /runs\/k\/c\/turn1\/results.json: invalid JSON/,
  );
  assert.throws(() => parseResults("<html/>", "r.xml"), /no <testsuites> or <testsuite>/);
  assert.throws(
    () => parseTests(`{"cases": [{"id": "a"}, {"id": "a"}]}`, "t.json"),
    /duplicate case id/,
  );
  assert.deepEqual(parseMeta(`{"cost": 0.5, "steps": 3}`, "m.json"), { cost: 0.5, steps: 3 });
  assert.throws(
    () => parseMeta(`{"cost": "cheap"}`, "m.json"),
    /"cost" must be a non-negative number/,
  );
});

Deno.test("loadRunContents: no submission fails every case; missing result fails that case", async () => {
  const { corpus } = await readCorpus(FIXTURE);
  const c1 = corpus.chains[0];
  const t3 = await loadRunContents(corpus.runs[2], c1.turns[2]);
  assert.equal(t3.submission, undefined);
  assert.deepEqual(t3.cases.map((c) => c.passed), [false, false]);
  const c2t1 = await loadRunContents(corpus.runs[3], corpus.chains[1].turns[0]);
  assert.deepEqual(c2t1.cases.map((c) => [c.id, c.passed]), [["case_01", true], [
    "case_02",
    false,
  ]]);
  const c1t2 = await loadRunContents(corpus.runs[1], c1.turns[1]);
  assert.deepEqual(c1t2.meta, { cost: 0.25, steps: 7, seconds: 42.5 });
});

Deno.test("parseResults: JUnit messages from the attribute, else the text, else the element name", () => {
  const xml = `<testsuites><testsuite name="pytest">
    <testcase name="a"><failure message="line 1&#10;line 2">trace</failure></testcase>
    <testcase name="b"><error>boom &amp; more</error></testcase>
    <testcase name="c"><skipped/></testcase>
  </testsuite></testsuites>`;
  assert.deepEqual(parseResults(xml, "results.xml"), [
    { id: "a", passed: false, message: "line 1\nline 2" },
    { id: "b", passed: false, message: "boom & more" },
    { id: "c", passed: false, message: "skipped" },
  ]);
});
