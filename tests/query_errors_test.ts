/** One-line explanations of query errors, and the pre-check of table names. */
import assert from "node:assert/strict";
import {
  checkTables,
  EXAMPLES,
  explainError,
  openScored,
  QueryError,
  relations,
} from "../lib/query/mod.ts";
import { writeFixture } from "./fixtures/query/fixture.ts";

const CATALOG = {
  turns: ["harness", "chain", "turn"],
  targets: ["chain", "turn", "target", "reused"],
  flips: ["chain", "config_a"],
};

Deno.test("relations: names and aliases after FROM/JOIN; keywords are not aliases", () => {
  const r = relations(
    "SELECT * FROM targets t JOIN turns ON t.chain = turns.chain LEFT JOIN flips AS f ON f.chain = t.chain WHERE x",
  );
  assert.deepEqual(r.names, ["targets", "turns", "flips"]);
  assert.deepEqual(r.aliases, {
    t: "targets",
    targets: "targets",
    turns: "turns",
    f: "flips",
    flips: "flips",
  });
  assert.deepEqual(relations("SELECT 'FROM nowhere' FROM (SELECT * FROM turns) -- FROM x").names, [
    "turns",
  ]);
});

Deno.test("checkTables: CTE names, EXTRACT(… FROM col) and subqueries pass; unknown names fail", () => {
  checkTables(
    "WITH x AS (SELECT * FROM turns), y AS (SELECT 1) SELECT * FROM x JOIN y ON 1 = 1",
    CATALOG,
  );
  checkTables("SELECT EXTRACT(year FROM turn) FROM turns", CATALOG);
  checkTables('SELECT * FROM "turns"', CATALOG);
  assert.throws(
    () => checkTables("SELECT * FROM turns JOIN target ON 1 = 1", CATALOG, ["flips"]),
    (e: Error) =>
      e instanceof QueryError &&
      e.message ===
        "unknown table 'target' (did you mean 'targets'?); tables: targets, turns; views: flips",
  );
});

Deno.test("explainError: each Polars message becomes one line naming what is wrong", () => {
  const cases: [string, string, string][] = [
    [
      "sql parser error: Expected: an expression, found: EOF",
      "SELECT * FROM turns WHERE",
      "SQL syntax error: Expected: an expression, found: EOF",
    ],
    [
      "no column named 'reuse' found in table 't'",
      "SELECT t.reuse FROM targets t",
      "unknown column 'reuse' in table 'targets' (did you mean 'reused'?); its columns: chain, turn, target, reused",
    ],
    [
      'not found: unable to find column "trn"; valid columns: ["harness", "chain", "turn"]\n\nResolved plan until failure: …',
      "SELECT * FROM turns WHERE trn = 1",
      "unknown column 'trn' in table 'turns' (did you mean 'turn'?); its columns: harness, chain, turn",
    ],
    [
      "no table or struct column named 'u' found",
      "SELECT u.chain FROM turns t",
      "unknown table or alias 'u'; this query names: t (= turns)",
    ],
    ["unsupported function 'foo'", "SELECT foo(1) FROM turns", "Polars SQL has no function 'foo'"],
    [
      "subquery comparisons with '=' are not supported; use 'IN' instead",
      "SELECT * FROM turns WHERE turn = (SELECT 1)",
      "query failed: subquery comparisons with '=' are not supported; use 'IN' instead",
    ],
  ];
  for (const [polars, sql, want] of cases) {
    const e = explainError(polars, sql, CATALOG);
    assert.ok(e instanceof QueryError);
    assert.equal(e.message, want);
    assert.ok(!e.message.includes("\n"));
  }
});

Deno.test("docs/queries.md shows exactly the example queries (kept in sync)", async () => {
  const docs = await Deno.readTextFile(new URL("../docs/queries.md", import.meta.url));
  const blocks = [...docs.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1].trim());
  assert.deepEqual(blocks, EXAMPLES.map((e) => e.sql.trim()));
});

Deno.test("relations: FROM inside EXTRACT/TRIM/SUBSTRING and IS DISTINCT FROM is not a table", () => {
  assert.deepEqual(
    relations(
      "SELECT TRIM(BOTH 'x' FROM chain), SUBSTRING(target FROM 2) FROM turns WHERE chain IS DISTINCT FROM model",
    ).names,
    ["turns"],
  );
});

Deno.test("openScored: a missing frame file makes its table and dependent views unavailable, said so", async () => {
  const dir = await writeFixture();
  await Deno.remove(`${dir}/events.parquet`);
  const q = await openScored(dir);
  assert.deepEqual(q.views, ["missed_targets", "reimplementations", "flips"]);
  assert.equal(q.sql("SELECT COUNT(*) AS n FROM missed_targets").getColumn("n").get(0), 6);
  assert.throws(() => q.sql("SELECT * FROM events"), { message: `no events.parquet in ${dir}` });
  assert.throws(() => q.sql("SELECT * FROM target_reads"), {
    message: `view 'target_reads' is unavailable: it needs 'event_paths' (view 'event_paths' is ` +
      `unavailable: it needs 'events' (no events.parquet in ${dir}))`,
  });
});

Deno.test("openScored: missing directory, empty directory, damaged file → one-line QueryError", async () => {
  const dir = await Deno.makeTempDir();
  await assert.rejects(() => openScored(`${dir}/nope`), {
    name: "QueryError",
    message: `scored directory '${dir}/nope' not found (write it with: deno task reporeuse score ` +
      `<corpus> --out ${dir}/nope)`,
  });
  await assert.rejects(() => openScored(dir), /^QueryError: no scored frames in/);
  await Deno.writeTextFile(`${dir}/turns.parquet`, "not parquet");
  await assert.rejects(
    () => openScored(dir),
    (e: Error) =>
      e instanceof QueryError && e.message.startsWith(`cannot read ${dir}/turns.parquet: `) &&
      !e.message.includes("\n"),
  );
});

Deno.test("table/md formats: one line per row — line breaks shown as ⏎, long cells cut", async () => {
  const { default: pl } = await import("nodejs-polars");
  const { formatFrame, MAX_CELL } = await import("../lib/query/mod.ts");
  const df = pl.DataFrame({ command: ["cat <<'EOF' > a.py\nx = 1\nEOF", "y".repeat(200)] });
  const lines = formatFrame(df, "table").split("\n");
  assert.equal(lines.length, 4);
  assert.equal(lines[2].trimEnd(), "cat <<'EOF' > a.py⏎x = 1⏎EOF");
  assert.equal(lines[3], "y".repeat(MAX_CELL - 1) + "…");
  assert.equal(formatFrame(df, "md").split("\n").length, 4);
  assert.equal(pl.readCSV(formatFrame(df, "csv")).getColumn("command").get(1), "y".repeat(200));
});
