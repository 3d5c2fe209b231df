// Streaming score (lib/frames scoreTo, sink.ts), shards that merge exactly, the hive layout, and
// readers of all of them (readScored, openScored, reproduce --runs over shard directories).
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  checkShards,
  FRAME_KEYS,
  inOrder,
  readManifest,
  readScored,
  scanScored,
  scoreCorpus,
  type Scored,
  scoreTo,
  shardOf,
  writeScored,
} from "../lib/frames/mod.ts";
import { readCorpus } from "../lib/layout/mod.ts";
import { openScored } from "../lib/query/mod.ts";
import { reproduce } from "../lib/report/reproduce.ts";
import { simulateCorpus } from "../lib/simulate/mod.ts";
import { FIXTURE, tempDir } from "./score_helpers.ts";

const FRAMES = ["turns", "targets", "events", "tests", "errors", "configs"] as const;

function assertSameFrames(a: Scored, b: Scored, what: string) {
  for (const f of FRAMES) {
    assert.deepEqual(a[f].columns, b[f].columns, `${what}: ${f} columns`);
    assert.deepEqual(a[f].dtypes.map(String), b[f].dtypes.map(String), `${what}: ${f} dtypes`);
    assert.deepEqual(a[f].toRecords(), b[f].toRecords(), `${what}: ${f} rows`);
  }
}

/** Every file under a directory, relative path → bytes. */
async function files(dir: string, rel = ""): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const e of Deno.readDir(join(dir, rel))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) { for (const [k, v] of await files(dir, r)) out.set(k, v); }
    else out.set(r, await Deno.readFile(join(dir, r)));
  }
  return out;
}

// a simulated corpus (300 run turns, 20 configurations × 3 chains × 5 turns) scored once in
// memory (the reference) and once streamed, with one cache so later runs are warm
let shared: Promise<{ corpus: string; cacheDir: string; whole: Scored }> | undefined;
const simulated = () =>
  shared ??= (async () => {
    const root = await tempDir();
    const corpus = join(root, "corpus");
    await simulateCorpus(corpus, { seed: 3, scale: "small" });
    const cacheDir = join(root, "cache");
    return { corpus, cacheDir, whole: await scoreCorpus(corpus, { cacheDir }) };
  })();

Deno.test("inOrder: results leave in the items' order, at most `window` waiting", async () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const seen: number[] = [];
  let running = 0, most = 0;
  const delays = [40, 5, 30, 0, 10, 0, 25, 5, 0, 15];
  await inOrder(delays.map((d, i) => [d, i] as const), 4, 3, async ([d, i]) => {
    most = Math.max(most, ++running);
    await wait(d);
    running--;
    return i;
  }, (i) => seen.push(i));
  assert.deepEqual(seen, delays.map((_, i) => i));
  assert.ok(most <= 3, `at most the window at once (${most})`);
});

Deno.test("inOrder: items are pulled one as each starts, never ahead of the window", async () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let pulled = 0, finished = 0, ahead = 0;
  function* items() {
    for (let i = 0; i < 12; i++) {
      pulled++;
      // what a lane holds: started (pulled) but not yet emitted
      ahead = Math.max(ahead, pulled - finished);
      yield i;
    }
  }
  const seen: number[] = [];
  await inOrder(items(), 3, 2, async (i) => (await wait(i % 3 ? 0 : 20), i), (i) => {
    finished++;
    seen.push(i);
  });
  assert.deepEqual(seen, [...Array(12).keys()]);
  assert.equal(pulled, 12);
  assert.ok(ahead <= 2, `items pulled ahead of the emitted ones: ${ahead}`);
  // nothing to do: no lane waits forever
  await inOrder([], 4, 2, () => Promise.resolve(0), () => assert.fail("no items"));
});

Deno.test("scoreTo: the streamed flat directory equals writeScored of scoreCorpus, CSV byte for byte", async () => {
  const { corpus, cacheDir, whole } = await simulated();
  const root = await tempDir();
  await writeScored(whole, join(root, "memory"));
  // batches of ~200 rows: many parts, concatenated at the end
  const m = await scoreTo(corpus, join(root, "stream"), { cacheDir, batchRows: 200 });
  assert.equal(m.layout, "flat");
  assert.equal(m.turns, whole.turns.height);
  assertSameFrames(await readScored(join(root, "stream")), whole, "streamed");
  for (const csv of ["turns.csv", "targets.csv", "errors.csv"]) {
    assert.equal(
      await Deno.readTextFile(join(root, "stream", csv)),
      await Deno.readTextFile(join(root, "memory", csv)),
      csv,
    );
  }
  // no part file is left behind
  assert.deepEqual(
    [...(await files(join(root, "stream"))).keys()].sort(),
    [
      "_scored.json",
      "configs.parquet",
      "errors.csv",
      "errors.parquet",
      "events.parquet",
      "targets.csv",
      "targets.parquet",
      "tests.parquet",
      "turns.csv",
      "turns.parquet",
    ],
  );
});

Deno.test("shards: N outputs together are one run, row for row; each chain in one shard", async () => {
  const { corpus, cacheDir, whole } = await simulated();
  const root = await tempDir();
  const n = 3;
  const keyOf = (r: { harness?: unknown; model?: unknown; memory?: unknown }) =>
    `${r.harness}\0${r.model}\0${r.memory}`;
  const dirOf = new Map((await readCorpus(corpus)).corpus.configs.map((c) => [keyOf(c), c.id]));
  const dirs: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = join(root, `shard-${i}`);
    const m = await scoreTo(corpus, out, { cacheDir, shard: { index: i, count: n } });
    assert.deepEqual(m.shard, { index: i, count: n });
    dirs.push(out);
  }
  // every shard's turns are exactly the chains its hash names
  for (let i = 0; i < n; i++) {
    const rows = (await readScored(dirs[i])).turns.toRecords();
    assert.ok(rows.length > 0 && rows.length < whole.turns.height);
    for (const r of rows) assert.equal(shardOf(dirOf.get(keyOf(r))!, String(r.chain), n), i);
  }
  assertSameFrames(await readScored(dirs), whole, "merged shards");
  // the shards must be complete and of one run
  assert.throws(() => checkShards(dirs.slice(0, 2)), /shards 2\/3 missing/);
  assert.throws(() => checkShards([dirs[0], dirs[0], dirs[1], dirs[2]]), /shard 0 again/);
  assert.throws(() => checkShards([dirs[0], FIXTURE]), /no _scored.json/);
});

Deno.test("shards read only their own chain directories; errors planted in every chain merge exactly", async () => {
  const { corpus: clean, cacheDir } = await simulated();
  const root = await tempDir();
  const corpus = join(root, "corpus");
  const cp = await new Deno.Command("cp", { args: ["-r", clean, corpus] }).output();
  assert.ok(cp.success);
  // a fault in every (configuration, chain) directory, a different one by position
  const pairs: [string, string][] = [];
  for (const k of [...Deno.readDirSync(join(corpus, "runs"))].map((e) => e.name).sort()) {
    for (
      const e of [...Deno.readDirSync(join(corpus, "runs", k))].sort((a, b) =>
        a.name < b.name ? -1 : 1
      )
    ) {
      if (e.isDirectory) pairs.push([k, e.name]);
    }
  }
  pairs.forEach(([k, c], i) => {
    const dir = join(corpus, "runs", k, c);
    if (i % 4 === 0) Deno.writeTextFileSync(join(dir, "turn2", "notes.txt"), "stray");
    else if (i % 4 === 1) Deno.mkdirSync(join(dir, "turn01"));
    else if (i % 4 === 2) {
      // no log: the turn is blocked
      for (const e of Deno.readDirSync(join(dir, "turn3"))) {
        if (e.name.startsWith("log.")) Deno.removeSync(join(dir, "turn3", e.name));
      }
    } else Deno.symlinkSync("/etc", join(dir, "turn1", "elsewhere"));
  });
  const n = 3;
  const whole = await scoreCorpus(corpus, { cacheDir });
  assert.ok(whole.errors.height >= pairs.length, `${whole.errors.height} error rows`);
  const dirs: string[] = [];
  for (let i = 0; i < n; i++) {
    const select = (config: string, chain: string) => shardOf(config, chain, n) === i;
    // the shard's own read lists no run turn, and no problem, of another shard's directories
    const { corpus: read, problems } = await readCorpus(corpus, { select });
    assert.ok(read.runs.length > 0);
    for (const r of read.runs) assert.ok(select(r.config, r.chain));
    for (const p of problems) {
      if (p.config !== undefined && p.chain !== undefined) assert.ok(select(p.config, p.chain));
    }
    const out = join(root, `shard-${i}`);
    await scoreTo(corpus, out, { cacheDir, shard: { index: i, count: n } });
    dirs.push(out);
  }
  assertSameFrames(await readScored(dirs), whole, "merged shards with errors");
});

Deno.test("reproduce --runs over the N shard directories equals the single run's report, byte for byte", async () => {
  const { corpus, cacheDir } = await simulated();
  const root = await tempDir();
  const single = join(root, "single");
  await scoreTo(corpus, single, { cacheDir });
  const dirs = [0, 1].map((i) => join(root, `shard-${i}`));
  for (const [i, d] of dirs.entries()) {
    await scoreTo(corpus, d, { cacheDir, shard: { index: i, count: 2 } });
  }
  const opts = { B: 50, cache: true };
  await reproduce({ ...opts, runs: single, out: join(root, "report-single") });
  await reproduce({ ...opts, runs: dirs, out: join(root, "report-shards") });
  const a = await files(join(root, "report-single")), b = await files(join(root, "report-shards"));
  assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
  for (const [name, bytes] of a) assert.deepEqual(b.get(name), bytes, name);
});

Deno.test("hive layout: partitioned frames read back equal; Polars lazy and SQL agree", async () => {
  const { corpus, cacheDir, whole } = await simulated();
  const root = await tempDir();
  const hive = join(root, "hive");
  const m = await scoreTo(corpus, hive, { cacheDir, partitioned: true, batchRows: 500 });
  assert.equal(m.layout, "hive");
  assert.equal(readManifest(hive)?.turns, whole.turns.height);
  // one directory per configuration, the keys only in the path
  const parts = [...(await files(hive)).keys()].filter((f) =>
    f.startsWith("turns/") && f.endsWith(".parquet")
  );
  const configs = new Set(parts.map((p) => p.split("/").slice(1, 4).join("/")));
  assert.equal(configs.size, whole.configs.height);
  assert.ok(
    parts.every((p) =>
      /^turns\/harness=[^/]+\/model=[^/]+\/memory=[^/]+\/part-\d{6}\.parquet$/.test(p)
    ),
  );
  assert.ok([...configs].some((c) => c.includes("%20")), "spaces in model names are encoded");
  const one = pl.readParquet(join(hive, parts[0]));
  assert.equal(one.columns.includes("harness"), false);
  assertSameFrames(await readScored(hive), whole, "hive");
  // the same aggregate through Polars' lazy API over the partitions and through `query`'s SQL
  const lazy = scanScored(hive, "turns")!.lf
    .groupBy(["harness", "model", "memory"])
    .agg(pl.col("reuse_repo").mean().alias("reuse"), pl.len().alias("n"))
    .sort(["harness", "model", "memory"])
    .collectSync();
  const q = await openScored(hive);
  const sql = q.sql(
    "SELECT harness, model, memory, AVG(reuse_repo) AS reuse, COUNT(*) AS n FROM turns " +
      "GROUP BY harness, model, memory ORDER BY harness, model, memory",
  );
  assert.deepEqual(
    lazy.toRecords().map((r) => ({ ...r, n: Number(r.n) })),
    sql.toRecords().map((r) => ({ ...r, n: Number(r.n) })),
  );
  // and over the flat frames in memory
  const direct = whole.turns.groupBy(["harness", "model", "memory"])
    .agg(pl.col("reuse_repo").mean().alias("reuse"), pl.len().alias("n"))
    .sort(["harness", "model", "memory"]);
  assert.deepEqual(
    sql.toRecords().map((r) => ({ ...r, n: Number(r.n) })),
    direct.toRecords().map((r) => ({ ...r, n: Number(r.n) })),
  );
});

Deno.test("openScored over shard directories: SQL sees the whole run; configs summed", async () => {
  const { corpus, cacheDir, whole } = await simulated();
  const root = await tempDir();
  const dirs = [0, 1, 2].map((i) => join(root, `s${i}`));
  for (const [i, d] of dirs.entries()) {
    await scoreTo(corpus, d, { cacheDir, shard: { index: i, count: 3 }, partitioned: i === 1 });
  }
  const q = await openScored(dirs);
  const sql = (s: string) => q.sql(s).toRecords();
  assert.deepEqual(sql("SELECT COUNT(*) AS n FROM turns").map((r) => Number(r.n)), [
    whole.turns.height,
  ]);
  const configs = q.sql("SELECT * FROM configs ORDER BY harness, model, memory");
  assert.deepEqual(configs.toRecords(), whole.configs.sort([...FRAME_KEYS.configs]).toRecords());
  const missed = "SELECT model, class, COUNT(*) AS n FROM missed_targets GROUP BY model, class " +
    "ORDER BY model, class";
  const single = join(root, "single");
  await writeScored(whole, single);
  assert.deepEqual(sql(missed), (await openScored(single)).sql(missed).toRecords());
});
