// The scored frames as other engines read them: DuckDB (npm @duckdb/node-api, pinned in
// deno.json) over the flat files, the hive layout and the shards of a run gives the same
// aggregates as `query` (Polars SQL over the same directories).
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { scoreTo } from "../lib/frames/mod.ts";
import { openScored } from "../lib/query/mod.ts";
import { simulateCorpus } from "../lib/simulate/mod.ts";
import { tempDir } from "./score_helpers.ts";

/** The same question in both dialects: per configuration, turns, reuse, recall and C_dup's parts. */
const PER_CONFIG = (from: string) =>
  `SELECT harness, model, memory, COUNT(*) AS turns, AVG(reuse_repo) AS reuse_repo,
     AVG(recall_repo) AS recall_repo, SUM(reimplemented) AS reimplemented,
     SUM(CASE WHEN dup_chain THEN 1 ELSE 0 END) AS dup_turns, SUM(lines) AS lines
   FROM ${from} GROUP BY harness, model, memory ORDER BY harness, model, memory`;
const MISSED = (targets: string) =>
  `SELECT model, SUM(CASE WHEN read THEN 1 ELSE 0 END) AS read_not_used,
     SUM(CASE WHEN read THEN 0 ELSE 1 END) AS never_read
   FROM ${targets} WHERE kind = 'repo' AND NOT reused AND implemented GROUP BY model ORDER BY model`;

/** Numbers as numbers (DuckDB's BIGINT/HUGEINT come back as text in JSON form). */
function plain(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map((
        [k, v],
      ) => [k, typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v]),
    )
  );
}

function close(a: Record<string, unknown>[], b: Record<string, unknown>[]) {
  assert.equal(a.length, b.length);
  a.forEach((r, i) => {
    assert.deepEqual(Object.keys(r), Object.keys(b[i]));
    for (const [k, v] of Object.entries(r)) {
      const w = b[i][k];
      if (typeof v === "number" && typeof w === "number") {
        assert.ok(Math.abs(v - w) <= 1e-12 * Math.max(1, Math.abs(v)), `${k}: ${v} vs ${w}`);
      } else assert.deepEqual(v, w, k);
    }
  });
}

Deno.test("DuckDB reads the flat, hive and sharded layouts: the same aggregates as query", async () => {
  const root = await tempDir();
  const corpus = join(root, "corpus");
  await simulateCorpus(corpus, { seed: 5, scale: "small" });
  const cacheDir = join(root, "cache");
  const flat = join(root, "flat"), hive = join(root, "hive");
  await scoreTo(corpus, flat, { cacheDir });
  await scoreTo(corpus, hive, { cacheDir, partitioned: true });
  const shards = [0, 1].map((i) => join(root, `s${i}`));
  for (const [i, d] of shards.entries()) {
    await scoreTo(corpus, d, { cacheDir, shard: { index: i, count: 2 }, partitioned: true });
  }
  const polars = await openScored(flat);
  const expected = {
    config: plain(polars.sql(PER_CONFIG("turns")).toRecords()),
    missed: plain(polars.sql(MISSED("targets")).toRecords()),
  };
  assert.ok(expected.config.length > 5);

  const db = await DuckDBInstance.create(":memory:");
  const duck = await db.connect();
  const sql = async (q: string) => plain((await duck.runAndReadAll(q)).getRowObjectsJson());
  const hiveRead = (glob: string) =>
    `read_parquet('${glob}', hive_partitioning = true, ` +
    `hive_types = {'harness': VARCHAR, 'model': VARCHAR, 'memory': VARCHAR})`;
  const sources = {
    flat: (f: string) => `read_parquet('${join(flat, `${f}.parquet`)}')`,
    hive: (f: string) => hiveRead(join(hive, f, "**", "*.parquet")),
    shards: (f: string) => hiveRead(join(root, "s*", f, "**", "*.parquet")),
  };
  for (const [layout, from] of Object.entries(sources)) {
    close(await sql(PER_CONFIG(from("turns"))), expected.config);
    close(await sql(MISSED(from("targets"))), expected.missed);
    // and query over the same directories says the same
    const q = await openScored(layout === "flat" ? flat : layout === "hive" ? hive : shards);
    close(plain(q.sql(PER_CONFIG("turns")).toRecords()), expected.config);
  }
  duck.closeSync();
});
