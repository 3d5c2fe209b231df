// The flat files' final concatenation (lib/frames/sink.ts concatParts): the parts' rows in name
// order, row groups of at most FLAT_ROW_GROUP_ROWS (read back by DuckDB's parquet_metadata, an
// independent reader), and Polars' scan setting scoped to the concatenation.
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { DuckDBInstance } from "@duckdb/node-api";
import { concatParts, FLAT_ROW_GROUP_ROWS } from "../lib/frames/sink.ts";
import { tempDir } from "./score_helpers.ts";

const SCANS = "POLARS_MAX_CONCURRENT_SCANS";

async function partsOf(dir: string, sizes: number[]): Promise<number> {
  await Deno.mkdir(dir, { recursive: true });
  let at = 0;
  for (const [i, n] of sizes.entries()) {
    const id = Array.from({ length: n }, (_, k) => at + k);
    const df = pl.DataFrame({ id, text: id.map((x) => `row ${x}`) });
    // names sort in the order written, as the sink's zero-padded sequence numbers do
    df.writeParquet(join(dir, `part-${String(i).padStart(6, "0")}.parquet`));
    at += n;
  }
  return at;
}

async function rowGroups(file: string): Promise<number[]> {
  const db = await DuckDBInstance.create(":memory:");
  const duck = await db.connect();
  const r = await duck.runAndReadAll(
    `SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata('${file}') ORDER BY 1`,
  );
  const sizes = r.getRowObjectsJson().map((x) => Number(x.row_group_num_rows));
  duck.closeSync();
  return sizes;
}

Deno.test("concatParts: every row in part order, row groups of at most FLAT_ROW_GROUP_ROWS", async () => {
  const dir = await tempDir();
  const total = await partsOf(join(dir, "parts"), [12_000, 3, 25_000, 0, 9_999]);
  const out = join(dir, "events.parquet");
  const had = Deno.env.get(SCANS);
  if (had !== undefined) Deno.env.delete(SCANS);
  try {
    await concatParts(join(dir, "parts"), out);
    assert.equal(Deno.env.get(SCANS), undefined, "the scan setting is removed after");
  } finally {
    if (had !== undefined) Deno.env.set(SCANS, had);
  }
  const back = pl.readParquet(out);
  assert.deepEqual(back.getColumn("id").toArray(), Array.from({ length: total }, (_, i) => i));
  assert.equal(back.getColumn("text").get(total - 1), `row ${total - 1}`);
  const groups = await rowGroups(out);
  assert.equal(groups.reduce((a, b) => a + b, 0), total);
  assert.ok(groups.length >= Math.ceil(total / FLAT_ROW_GROUP_ROWS), `groups ${groups}`);
  assert.ok(Math.max(...groups) <= FLAT_ROW_GROUP_ROWS, `groups ${groups}`);
});

Deno.test("concatParts keeps a POLARS_MAX_CONCURRENT_SCANS the user exported", async () => {
  const dir = await tempDir();
  await partsOf(join(dir, "parts"), [5, 5]);
  const had = Deno.env.get(SCANS);
  Deno.env.set(SCANS, "3");
  try {
    await concatParts(join(dir, "parts"), join(dir, "out.parquet"));
    assert.equal(Deno.env.get(SCANS), "3");
  } finally {
    if (had === undefined) Deno.env.delete(SCANS);
    else Deno.env.set(SCANS, had);
  }
  assert.equal(pl.readParquet(join(dir, "out.parquet")).height, 10);
});
