/**
 * What docs/queries.md says Polars SQL (nodejs-polars 0.25.2) supports and does not, checked on
 * the fixture — so the page stays true when the dependency moves.
 */
import assert from "node:assert/strict";
import { writeFixture } from "./fixtures/query/fixture.ts";
import { openScored, type ScoredQuery } from "../lib/query/mod.ts";

let opened: ScoredQuery | undefined;
async function q(): Promise<ScoredQuery> {
  opened ??= await openScored(await writeFixture());
  return opened;
}
async function values(sql: string): Promise<unknown[][]> {
  const df = (await q()).sql(sql);
  return df.toRecords().map((r) => df.columns.map((c) => r[c]));
}

Deno.test("supported: window functions, CTE, IN subquery, HAVING, UNION, COUNT DISTINCT", async () => {
  assert.deepEqual(
    await values(
      `SELECT harness, turn, ROW_NUMBER() OVER (PARTITION BY harness ORDER BY turn DESC) AS rn,
         SUM(passed) OVER (PARTITION BY harness) AS total
       FROM turns ORDER BY harness, turn`,
    ),
    [["OpenCode", 1, 2, 2], ["OpenCode", 2, 1, 2], ["mini-SWE-agent", 1, 2, 3], [
      "mini-SWE-agent",
      2,
      1,
      3,
    ]],
  );
  assert.deepEqual(
    await values(
      `WITH r AS (SELECT * FROM targets WHERE reimplemented)
       SELECT harness, COUNT(*) AS n FROM r GROUP BY harness HAVING COUNT(*) > 1`,
    ),
    [["mini-SWE-agent", 2]],
  );
  assert.deepEqual(
    await values(
      "SELECT COUNT(DISTINCT target) AS n FROM targets WHERE chain IN (SELECT chain FROM tests)",
    ),
    [[4]],
  );
  assert.deepEqual(
    await values("SELECT kind FROM targets UNION SELECT kind FROM targets ORDER BY kind"),
    [["repo"], ["self"]],
  );
});

Deno.test("supported: regexp_like, ~, LIKE, ILIKE, starts_with, split_part", async () => {
  const n = async (where: string) =>
    (await values(`SELECT COUNT(*) AS n FROM events WHERE ${where}`))[0][0];
  assert.equal(await n(String.raw`regexp_like(command, '\bgrep\b')`), 2);
  assert.equal(await n("command ~ '^(cat|sed) '"), 2);
  assert.equal(await n("command LIKE 'grep%'"), 2);
  assert.equal(await n("command ILIKE 'GREP%'"), 2);
  assert.equal(await n("starts_with(command, '{')"), 4);
  assert.deepEqual(
    await values(
      "SELECT DISTINCT split_part(command, ' ', 1) AS w FROM events WHERE tool = 'bash' ORDER BY w",
    ),
    [["cat"], ["grep"], ["python"], ["sed"]],
  );
});

Deno.test("supported: list columns — UNNEST, array_contains, array_length", async () => {
  assert.deepEqual(
    await values(
      "SELECT idx, array_length(paths) AS n FROM events WHERE harness = 'mini-SWE-agent' AND turn = 2 ORDER BY idx",
    ),
    [[0, 1], [1, 1], [2, 0]],
  );
  assert.deepEqual(
    await values("SELECT COUNT(*) AS n FROM events WHERE array_contains(paths, 'pkg')"),
    [[2]],
  );
});

Deno.test("not supported (documented): non-equi joins, EXISTS, = (SELECT …)", async () => {
  const s = await q();
  assert.throws(
    () => s.sql("SELECT * FROM turns a JOIN turns b ON a.turn < b.turn"),
    /only equi-join/,
  );
  assert.throws(
    () => s.sql("SELECT * FROM turns t WHERE EXISTS (SELECT 1 FROM tests)"),
    { name: "QueryError" },
  );
  assert.throws(
    () => s.sql("SELECT * FROM turns WHERE turn = (SELECT MAX(turn) FROM turns)"),
    /use 'IN'/,
  );
});
