/**
 * The `query` command as a user runs it (a subprocess): one clear line and a non-zero exit for
 * bad SQL, an unknown table and a missing scored directory; CSV output round-trips.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { writeFixture } from "./fixtures/query/fixture.ts";
import { openScored } from "../lib/query/mod.ts";
import { runCli } from "./cli_helpers.ts";

let dir: string | undefined;

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  dir ??= await writeFixture();
  const { code, out, err } = await runCli(["query", "--scored", dir, ...args]);
  return { code, out, err };
}

function oneLine(err: string): string {
  const lines = err.trim().split("\n");
  assert.equal(lines.length, 1, `one line on stderr, got:\n${err}`);
  return lines[0];
}

Deno.test("cli: bad SQL → one line naming the syntax error, exit 1", async () => {
  const r = await cli("SELEC * FROM turns");
  assert.equal(r.code, 1);
  assert.equal(r.out, "");
  assert.match(oneLine(r.err), /^query: SQL syntax error: .*found: SELEC at Line: 1, Column: 1$/);
});

Deno.test("cli: unknown table → one line listing tables and views, exit 1", async () => {
  const r = await cli("SELECT * FROM turn WHERE model = 'x'");
  assert.equal(r.code, 1);
  assert.equal(
    oneLine(r.err),
    "query: unknown table 'turn' (did you mean 'turns'?); tables: configs, errors, events, " +
      "targets, tests, turns; views: event_paths, flips, missed_targets, reimplementations, target_reads",
  );
});

Deno.test("cli: unknown column → one line naming the table and its columns, exit 1", async () => {
  const r = await cli("SELECT c.harness, c.modle FROM configs c");
  assert.equal(r.code, 1);
  assert.equal(
    oneLine(r.err),
    "query: unknown column 'modle' in table 'configs' (did you mean 'model'?); " +
      "its columns: harness, model, memory, chains, turns",
  );
});

Deno.test("cli: missing scored directory → one line, exit 1", async () => {
  const missing = `${await Deno.makeTempDir()}/nope`;
  const r = await cli("--scored", missing, "SELECT * FROM turns");
  assert.equal(r.code, 1);
  assert.match(oneLine(r.err), new RegExp(`^query: scored directory '${missing}' not found`));
});

Deno.test("cli: usage errors exit 2 (no query, bad format)", async () => {
  assert.equal((await cli()).code, 2);
  const r = await cli("--format", "xml", "SELECT 1");
  assert.equal(r.code, 2);
  assert.match(oneLine(r.err), /unknown format 'xml'; use one of table, csv, json, md/);
});

Deno.test("cli: --format csv round-trips through the CSV reader", async () => {
  const sql = "SELECT * FROM turns ORDER BY harness, turn";
  const r = await cli("--format", "csv", sql);
  assert.equal(r.code, 0, r.err);
  const back = pl.readCSV(Buffer.from(r.out));
  const q = await openScored(dir!);
  const direct = q.sql(sql);
  assert.deepEqual(back.columns, direct.columns);
  assert.equal(back.height, 4);
  // Same values, nulls and full float precision (reuse_repo = 1/3).
  assert.deepEqual(back.toRecords(), direct.toRecords());
  assert.equal(back.getColumn("reuse_repo").get(0), 1 / 3);
  assert.equal(back.getColumn("cost").get(1), null); // OpenCode turn 2
});

Deno.test("cli: list columns come out as JSON arrays in CSV; json and md formats", async () => {
  const csv = await cli(
    "--format",
    "csv",
    "SELECT idx, paths FROM events WHERE turn = 2 AND harness = 'mini-SWE-agent' ORDER BY idx",
  );
  assert.equal(csv.out, 'idx,paths\n0,"[""pkg/util.py""]"\n1,"[""pkg/feat/f1.py""]"\n2,[]\n');
  const json = await cli(
    "--format",
    "json",
    "SELECT target, body_lines FROM reimplementations ORDER BY body_lines DESC LIMIT 1",
  );
  assert.deepEqual(JSON.parse(json.out), [{ target: "pkg.util.scale", body_lines: 69 }]);
  const md = await cli("--format", "md", "SELECT model, COUNT(*) AS n FROM configs GROUP BY model");
  assert.equal(md.out, "| model | n |\n|---|---:|\n| Qwen3.7-plus | 2 |\n");
});

Deno.test("cli: --limit shows the first N rows and says how many there were", async () => {
  const r = await cli("--limit", "2", "SELECT target FROM missed_targets ORDER BY target");
  assert.equal(r.code, 0);
  assert.equal(r.out, "target\n-------------\npkg.core.load\npkg.core.load\n");
  assert.equal(r.err.trim(), "(2 of 6 rows)");
});

Deno.test("cli: --schema lists tables and views with typed columns", async () => {
  const r = await cli("--schema");
  assert.equal(r.code, 0);
  assert.match(r.out, /^table turns {2}\(.*turns\.parquet\)$/m);
  assert.match(r.out, /^ {2}paths +str\[\]$/m);
  assert.match(r.out, /^view target_reads$/m);
  assert.match(r.out, /^ {2}class +str$/m);
});

Deno.test("cli: --file - reads the query from stdin", async () => {
  dir ??= await writeFixture();
  const res = await runCli(["query", "--scored", dir, "--format", "csv", "--file", "-"], {
    stdin: "-- a comment\nSELECT COUNT(*) AS n\nFROM reimplementations;\n",
  });
  assert.equal(res.code, 0, res.err);
  assert.equal(res.out, "n\n3\n");
});
