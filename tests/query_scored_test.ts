/**
 * Integration: the views and examples over frames the real scorer wrote (the scorer's own fixture
 * corpus), cross-checked against the same questions asked through the DataFrame API.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { scoreCorpus, writeScored } from "../lib/frames/mod.ts";
import { EXAMPLES, openScored } from "../lib/query/mod.ts";

const CORPUS = new URL("./fixtures/score/corpus", import.meta.url).pathname;

Deno.test("scored corpus: every view and example runs; views agree with the DataFrame API", async () => {
  const scored = await scoreCorpus(CORPUS, { cache: false, workers: 0 });
  const dir = await Deno.makeTempDir();
  await writeScored(scored, dir);
  const q = await openScored(dir);
  assert.deepEqual(q.unavailable, {});
  for (const e of EXAMPLES) q.sql(e.sql);

  const t = scored.targets;
  const count = (sql: string) => Number(q.sql(sql).getColumn("n").get(0));
  assert.ok(t.height > 0);
  assert.equal(
    count("SELECT COUNT(*) AS n FROM missed_targets"),
    t.filter(pl.col("reused").not()).height,
  );
  assert.equal(
    count("SELECT COUNT(*) AS n FROM missed_targets WHERE class = 'read_not_used'"),
    t.filter(pl.col("reused").not().and(pl.col("read"))).height,
  );
  assert.equal(
    count("SELECT COUNT(*) AS n FROM reimplementations"),
    t.filter(pl.col("reimplemented")).height,
  );
  const paths = scored.events.getColumn("paths").toArray() as unknown as string[][];
  assert.equal(
    count("SELECT COUNT(*) AS n FROM event_paths"),
    paths.reduce((a, p) => a + p.length, 0),
  );

  // target_reads, recomputed in TypeScript from the rows.
  const key = (r: Record<string, unknown>) =>
    [r.harness, r.model, r.memory, r.chain, r.turn].join("\u0000");
  const byTurn = new Map<string, Record<string, unknown>[]>();
  for (const r of t.toRecords()) byTurn.set(key(r), [...(byTurn.get(key(r)) ?? []), r]);
  let expected = 0;
  for (const e of scored.events.toRecords()) {
    for (const p of e.paths as unknown as string[]) {
      for (const r of byTurn.get(key(e)) ?? []) {
        const f = r.file as string | null;
        if (f !== null && (f === p || f.startsWith(p + "/"))) expected++;
      }
    }
  }
  assert.ok(expected > 0);
  assert.equal(count("SELECT COUNT(*) AS n FROM target_reads"), expected);
});
