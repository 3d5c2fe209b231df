// examples/dask/score_with_dask.py end to end: a local Dask cluster (Debian's python3-dask and
// python3-distributed, installed by tasks/setup.sh) runs the shards of a corpus as tasks, and
// dask.dataframe's aggregates of the partitioned frames equal `query`'s over the same shards.
import assert from "node:assert/strict";
import { join } from "node:path";
import { scoreCorpus } from "../lib/frames/mod.ts";
import { openScored } from "../lib/query/mod.ts";
import { simulateCorpus } from "../lib/simulate/mod.ts";
import { tempDir } from "./score_helpers.ts";

const EXAMPLE = new URL("../examples/dask/score_with_dask.py", import.meta.url).pathname;

Deno.test("Dask example: shards as tasks on a local cluster; dask.dataframe agrees with query", async () => {
  const root = await tempDir();
  const corpus = join(root, "corpus"), out = join(root, "out"), cacheDir = join(root, "cache");
  await simulateCorpus(corpus, { seed: 7, scale: "small" });
  await scoreCorpus(corpus, { cacheDir }); // a warm cache: the example's shards only read it
  const run = await new Deno.Command("/usr/bin/python3", {
    args: [EXAMPLE, "--corpus", corpus, "--out", out, "--shards", "3", "--local-workers", "2"],
    env: { REPOREUSE_CACHE_DIR: cacheDir, DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(run.stderr);
  assert.equal(run.code, 0, err.slice(-3000));
  const result = JSON.parse(new TextDecoder().decode(run.stdout));
  assert.equal(result.shards.length, 3);
  const q = await openScored(result.shards);
  const expected = q.sql(
    `SELECT harness, model, memory, COUNT(*) AS turns, AVG(reuse_repo) AS reuse_repo,
       AVG(recall_repo) AS recall_repo, SUM(reimplemented) AS reimplemented, SUM(lines) AS lines
     FROM turns GROUP BY harness, model, memory ORDER BY harness, model, memory`,
  ).toRecords();
  assert.equal(result.configs.length, expected.length);
  assert.ok(expected.length >= 10);
  result.configs.forEach((r: Record<string, unknown>, i: number) => {
    const e = expected[i] as Record<string, unknown>;
    for (const k of ["harness", "model", "memory"]) assert.equal(r[k], e[k], k);
    for (const k of ["turns", "reimplemented", "lines"]) assert.equal(r[k], Number(e[k]), k);
    for (const k of ["reuse_repo", "recall_repo"]) {
      if (e[k] === null) assert.equal(r[k], null, k);
      else {assert.ok(
          Math.abs((r[k] as number) - (e[k] as number)) < 1e-12,
          `${k}: ${r[k]} vs ${e[k]}`,
        );}
    }
  });
});
