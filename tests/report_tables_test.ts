// Table builders against small hand-computed frames (tests/fixtures/report/frames.ts).
import assert from "node:assert/strict";
import {
  configMetrics,
  parseCSV,
  readTasks,
  table1,
  table2,
  table3,
  table4,
  table5,
  tasksFrame,
  toCSV,
  toLaTeX,
  toMarkdown,
  turnRows,
} from "../lib/report/mod.ts";
import { CONFIG_A, CONFIG_B, turnsFrame } from "./fixtures/report/frames.ts";

const close = (a: number | null | undefined, b: number, eps = 1e-9) =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < eps, `${a} ≉ ${b}`);

Deno.test("metrics: macro averages of configuration A computed by hand", () => {
  const m = configMetrics(turnRows(turnsFrame(CONFIG_A)));
  close(m.reuse_repo, 55); // (.5 + 1 + 0 + .25 + 1) / 5, turn 3 of c1 has no repo target
  close(m.reuse_self, 62.5); // (.5 + 1 + 0 + 1) / 4, turns ≥ 2
  close(m.recall_repo, 65); // (1 + .5 + .5 + .25 + 1) / 5
  close(m.recall_self, 87.5); // (1 + 1 + .5 + 1) / 4
  close(m.files, 25 / 6);
  close(m.lines, 100);
  close(m.resolve, 60); // 3 of the 5 turns with tests
  close(m.pass, 74); // (1 + .5 + .2 + 1 + 1) / 5
  close(m.c_dup, 50); // C_dup(1) = 0, C_dup(2) = 50, C_dup(3) = 100
});

Deno.test("table2: values, paper, differences, bold and agreement check", () => {
  const t = table2(turnsFrame([...CONFIG_A, ...CONFIG_B]), { provenance: "hand-made frames" });
  assert.deepEqual(t.rows.map((r) => r.keys), [
    ["mini-SWE-agent", "GLM-5.3"],
    ["OpenCode", "GLM-5.3"],
  ]);
  const [b, a] = t.rows;
  close(b.values.reuse_repo, 60);
  close(b.values.c_dup, 0);
  assert.equal(a.paper?.reuse_repo, 56.1);
  assert.equal(b.paper?.lines, 1104);
  const md = toMarkdown(t);
  assert.match(md, /> \*\*Data: hand-made frames\*\*/);
  assert.ok(
    md.includes(
      "| OpenCode | GLM-5.3 | 55.0 / 56.1 (-1.1) | 62.5 / 73.7 (-11.2) | **65.0** / 51.5 (+13.5) |",
    ),
    md,
  );
  assert.ok(
    md.includes("| mini-SWE-agent | GLM-5.3 | **60.0** / 55.3 (+4.7) | **70.0** / 71.7 (-1.7) |"),
  );
  assert.ok(md.includes("| 4.2 / 29.3 (-25.1) | 100 / 900 (-800) | **60.0** / 44.3 (+15.7) |"));
  assert.ok(md.includes("✗ reuse_self, recall_repo, recall_self, resolve, pass, c_dup |"));
  assert.ok(md.includes("4/14 cells within tolerance"));
  assert.ok(
    md.includes(
      "Scored: mini-SWE-agent · GLM-5.3: 1 chains, 3 turns; OpenCode · GLM-5.3: 2 chains, 6 turns.",
    ),
  );

  const csv = parseCSV(toCSV(t));
  assert.equal(csv.length, 2);
  assert.equal(csv[1].source, "hand-made frames");
  assert.equal(csv[1].harness, "OpenCode");
  assert.equal(Number(csv[1].files), 4.167);
  assert.equal(Number(csv[1].files_paper), 29.3);
  assert.equal(Number(csv[1].reuse_repo_diff), -1.1);
  assert.equal(csv[1].within_tolerance, "false");

  const tex = toLaTeX(t);
  for (const s of ["\\toprule", "\\midrule", "\\bottomrule", "\\multicolumn{2}{c}{Reuse}"]) {
    assert.ok(tex.includes(s), s);
  }
  assert.ok(tex.includes("\\textbf{65.0} {\\scriptsize(51.5, $+$13.5)}"));
  assert.ok(tex.includes("55.0 {\\scriptsize(56.1, $-$1.1)}"));
});

Deno.test("table2: configurations the paper lacks get no paper values; no-paper mode", () => {
  const rows = CONFIG_A.map((r) => ({ ...r, model: "my-model" }));
  const t = table2(turnsFrame(rows));
  assert.equal(t.rows[0].paper, undefined);
  assert.ok(!toMarkdown(t).includes("Agreement"));
  const t2 = table2(turnsFrame(CONFIG_A), { paper: false });
  assert.equal(t2.rows[0].paper, undefined);
  assert.ok(toMarkdown(t2).includes("| OpenCode | GLM-5.3 | 55.0 | 62.5 |"));
});

Deno.test("table3: first/last turn values and Δ of the rounded values", () => {
  const t = table3(turnsFrame([...CONFIG_A, ...CONFIG_B]));
  const a = t.rows[1].values;
  close(a.recall_repo_t1, 75);
  close(a.recall_repo_t5, 100); // last turn (3): only c2 defines recall_repo
  close(a.recall_repo_delta, 25);
  close(a.reuse_repo_t1, 25);
  close(a.reuse_repo_t5, 100);
  close(a.reuse_self_t2, 25);
  close(a.reuse_self_t5, 100);
  close(a.c_dup_t1, 0);
  close(a.c_dup_t5, 100);
  close(a.c_dup_delta, 100);
  assert.equal(t.rows[1].paper?.recall_repo_delta, -44.9);
  const md = toMarkdown(t);
  assert.ok(md.includes("| 75.0 / 86.7 (-11.7) | 100.0 / 41.8 (+58.2) | +25.0 / -44.9 (+69.9) |"));
  assert.ok(md.includes('The last turn present is 3, not 5; "T5" columns show it.'));
  const tex = toLaTeX(t);
  assert.ok(tex.includes("\\multicolumn{3}{c}{$\\mathrm{reuse}_{\\mathrm{self}}$}"), tex);
  assert.ok(tex.includes("\\begin{table*}[t]") && tex.includes("\\resizebox{\\textwidth}{!}{%"));
  const rowsMd = md.split("\n").filter((l) => l.startsWith("|"));
  assert.ok(!rowsMd.some((l) => l.includes("**")), "Table 3 has no bold");
});

Deno.test("table3: Δ is the difference of the rounded values", () => {
  const base = { harness: "OpenCode", model: "GLM-5.3", memory: "interface", chain: "c" };
  const t = table3(turnsFrame([
    { ...base, turn: 1, recall_repo: 0.8634 }, // 86.34 → 86.3
    { ...base, turn: 5, recall_repo: 0.3886 }, // 38.86 → 38.9
  ]));
  close(t.rows[0].values.recall_repo_delta, 38.9 - 86.3, 1e-9); // not −47.48 → −47.5
});

Deno.test("table4/table5: memory rows in the paper's order with the paper's values", () => {
  const base = { harness: "OpenCode", model: "Qwen3.7-plus" };
  const rows = ["source", "none", "interface"].flatMap((memory, k) =>
    [1, 2].map((turn) => ({
      ...base,
      memory,
      chain: "c1",
      turn,
      reuse_repo: 0.1 * (k + 1),
      reuse_self: turn > 1 ? 0.2 * (k + 1) : null,
      recall_repo: turn === 1 ? 0.9 : 0.3,
      files: 10 * (k + 1),
      tests: 4,
      pass_rate: 0.5,
    }))
  );
  const other = { harness: "OpenCode", model: "GLM-5.3", memory: "none", chain: "c1", turn: 1 };
  const f = turnsFrame([...rows, other]);
  const t4 = table4(f);
  assert.deepEqual(t4.rows.map((r) => r.keys[0]), [
    "No memory",
    "Interface memory",
    "Source memory",
  ]);
  close(t4.rows[0].values.reuse_repo, 20); // "none" was the 2nd setting built (k = 1)
  close(t4.rows[2].values.files, 10);
  assert.equal(t4.rows[0].paper?.reuse_self, 30.0);
  assert.equal(t4.rows[2].paper?.c_dup, 70.7);
  assert.ok(toMarkdown(t4).includes("No memory: 1 chains, 2 turns"));
  const t5 = table5(f);
  close(t5.rows[1].values.recall_repo_t1, 90);
  close(t5.rows[1].values.recall_repo_t5, 30);
  close(t5.rows[1].values.recall_repo_delta, -60);
  assert.equal(t5.rows[1].paper?.recall_repo_delta, -61.6);
  // another harness × model: no paper values
  assert.equal(table4(f, { model: "GLM-5.3" }).rows[0].paper, undefined);
  assert.ok(
    toMarkdown(table5(f, { model: "nope" })).includes("No scored turns of OpenCode with nope."),
  );
});

Deno.test("table1: benchmark statistics from a tasks frame and the turns' target counts", () => {
  const tasks = tasksFrame([
    { chain: "a", turn: 1, tests: 10, requirement_chars: 2000, functions: 3 },
    { chain: "a", turn: 2, tests: 12, requirement_chars: 3000, functions: 3 },
    { chain: "b", turn: 1, tests: 8, requirement_chars: 2500, functions: 2 },
  ]);
  const t = table1(tasks, turnsFrame([...CONFIG_A, ...CONFIG_B]));
  const v = Object.fromEntries(t.rows.map((r) => [r.keys[0], r.values.value]));
  assert.equal(v["Tasks"], 2);
  assert.equal(v["Avg. turns per task"], 1.5);
  assert.equal(v["Avg. test cases per turn"], 10);
  assert.equal(v["Avg. requirement length (chars)"], 2500);
  close(v["New functions per turn"], 8 / 3);
  close(v["Reused symbols per turn (repo)"], 1.5); // (2 + 0 + 1 + 3) / 4, turns ≥ 2
  close(v["Reused symbols per turn (self)"], 2); // (1 + 2 + 2 + 3) / 4
  const md = toMarkdown(t);
  assert.ok(md.includes("| Avg. requirement length (chars) | 2500 / 2570 (-70) |"));
  const tex = toLaTeX(t);
  assert.ok(tex.includes("\\begin{table}[t]") && !tex.includes("resizebox"), tex);
  assert.ok(
    tex.includes("Avg. requirement length (chars) & 2500 {\\scriptsize(2570, $-$70)} \\\\"),
  );
  assert.ok(md.includes("| New functions per turn | 3 / 3 (0) |"), md); // 2.67 printed as 3
});

Deno.test("readTasks: tests, functions and requirement length per turn; bad files listed", async () => {
  const dir = new URL("./fixtures/report/corpus", import.meta.url).pathname;
  const { tasks, problems } = await readTasks(dir);
  assert.deepEqual(tasks.toRecords(), [
    { chain: "x-001", turn: 1, tests: 2, requirement_chars: 5, functions: 3 }, // "héllo": 5 chars
    { chain: "x-001", turn: 2, tests: 3, requirement_chars: 3, functions: 2 },
  ]);
  assert.deepEqual(problems.map((p) => p.path), [
    "tasks/x-002/chain.json", // invalid JSON
    "tasks/x-003/turn1/tests.json", // missing: the turn is left out
  ]);
  const missing = await readTasks(`${dir}/nope`);
  assert.equal(missing.tasks.height, 0);
  assert.match(missing.problems[0].message, /corpus directory does not exist/);
});

Deno.test("turnRows: a frame lacking columns is named in the error", () => {
  const f = turnsFrame(CONFIG_A).drop("dup_chain").drop("tests");
  assert.throws(() => turnRows(f), /lacks column\(s\) tests, dup_chain/);
});

Deno.test("printed difference is that of the printed values; the check uses the exact one", () => {
  const t = {
    id: "t",
    title: "T",
    caption: "",
    provenance: "p",
    keys: [{ name: "k", label: "K" }],
    columns: [{ key: "v", label: "V", digits: 1, tolerance: 5 }],
    rows: [
      { keys: ["a"], values: { v: 85.25 }, paper: { v: 85.5 } },
      { keys: ["b"], values: { v: 10.04 }, paper: { v: 5 } }, // 5.04 > 5: outside
    ],
    notes: [],
  };
  const md = toMarkdown(t);
  assert.ok(md.includes("| a | 85.3 / 85.5 (-0.2) | ✓ |"), md); // not −0.25 → −0.3
  assert.ok(md.includes("| b | 10.0 / 5.0 (+5.0) | ✗ v |"), md);
  assert.ok(md.includes("1/2 cells within tolerance; outside: b V (+5.0)."), md);
});

Deno.test("table2/table3: runs without the interface setting show every configuration", () => {
  const rows = CONFIG_A.map((r) => ({ ...r, memory: "none" }));
  const t = table2(turnsFrame(rows));
  assert.deepEqual(t.rows.map((r) => r.keys), [["OpenCode", "GLM-5.3 (none)"]]);
  assert.equal(t.rows[0].paper, undefined);
  assert.ok(
    toMarkdown(t).includes('No configuration uses the paper\'s default "interface" memory'),
  );
  assert.deepEqual(table3(turnsFrame(rows)).rows.map((r) => r.keys), [[
    "OpenCode",
    "GLM-5.3 (none)",
  ]]);
  const asked = table2(turnsFrame(rows), { memory: "source" });
  assert.equal(asked.rows.length, 0);
  assert.ok(toMarkdown(asked).includes('No scored turns with memory setting "source".'));
});
