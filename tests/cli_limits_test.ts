/**
 * Limits and clear errors of the CLI (issue 11, item 17), run as a user runs it (a subprocess,
 * with a deadline): a device or a huge file as a log, a directory where an output file goes,
 * `--workers` out of bounds or not a number, and every field error of a config or meta.json.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { copyCorpus, FIXTURE, tempDir } from "./score_helpers.ts";
import { SCORED_FILES } from "../lib/frames/mod.ts";
import { runCli } from "./cli_helpers.ts";

/** Runs `reporeuse <args>`; killed (and the test failed) after `ms`. */
async function cli(args: string[], ms = 60_000) {
  const r = await runCli(args, { env: { REPOREUSE_CACHE_DIR: await tempDir() }, timeoutMs: ms });
  assert.ok(!r.killed, `reporeuse ${args.join(" ")} still ran after ${ms} ms`);
  return { code: r.code, out: r.out, err: r.err.trim() };
}

Deno.test("reads: /dev/zero and a file over the size limit are refused at once, named", async () => {
  const zero = await cli(["reads", "/dev/zero"], 20_000);
  assert.equal(zero.code, 2);
  assert.equal(zero.err, "reporeuse reads: /dev/zero: cannot read the file: not a regular file");
  const dir = await tempDir();
  const big = join(dir, "log.json");
  // sparse: 300 MiB on paper, no disk used
  await Deno.writeTextFile(big, "");
  await Deno.truncate(big, 300 * 2 ** 20);
  const r = await cli(["reads", big], 20_000);
  assert.equal(r.code, 2);
  assert.equal(
    r.err,
    `reporeuse reads: ${big}: cannot read the file: is 300 MiB, over the 256 MiB limit`,
  );
});

Deno.test("score: a directory where an output file goes is one line up front, nothing written", async () => {
  const out = await tempDir();
  await Deno.mkdir(join(out, "events.parquet"));
  const r = await cli(["score", FIXTURE, "--out", out, "--workers", "0"]);
  assert.equal(r.code, 1);
  assert.equal(
    r.err,
    `score: cannot write ${out}/events.parquet: a directory is in the way`,
  );
  const left = [];
  for await (const e of Deno.readDir(out)) left.push(e.name);
  assert.deepEqual(left, ["events.parquet"]);
  // --out itself a file
  const file = join(out, "plain");
  await Deno.writeTextFile(file, "");
  const f = await cli(["score", FIXTURE, "--out", file]);
  assert.deepEqual([f.code, f.err], [1, `score: cannot write ${file}: not a directory`]);
});

Deno.test("graph: --out naming a directory is one line before any analysis", async () => {
  const out = await tempDir();
  const r = await cli(["graph", join(FIXTURE, "repos"), "--out", out, "--no-cache"]);
  assert.deepEqual([r.code, r.err, r.out], [
    1,
    `reporeuse graph: cannot write ${out}: a directory is in the way`,
    "",
  ]);
});

Deno.test("score: --workers must be a whole number, and is bounded by the cores", async () => {
  for (const bad of ["abc", "-1", "1.5", ""]) {
    const r = await cli(["score", FIXTURE, "--out", await tempDir(), `--workers=${bad}`]);
    assert.equal(r.code, 2, bad);
    assert.equal(r.err, `score: --workers wants a whole number ≥ 0, got '${bad}' (see --help)`);
  }
  const out = await tempDir();
  const r = await cli(["score", FIXTURE, "--out", out, "--workers", "100", "--no-cache"]);
  assert.equal(r.code, 0, r.err);
  const cores = navigator.hardwareConcurrency || 1;
  assert.equal(
    r.err.split("\n")[0],
    `score: --workers 100 is more than this machine can use; using ${2 * cores} ` +
      `(twice its ${cores} cores)`,
  );
  assert.match(r.err, /5 turns scored, 0 turns with errors \(5 found\)/);
  for (const f of SCORED_FILES) assert.ok((await Deno.stat(join(out, f))).isFile, f);
});

Deno.test("validate: every field error of a config.json and a meta.json is shown", async () => {
  const dir = await copyCorpus();
  await Deno.writeTextFile(
    join(dir, "runs/k1/config.json"),
    JSON.stringify({ harness: "", model: 7, memory: "all", cwd: 1 }),
  );
  await Deno.writeTextFile(
    join(dir, "runs/k1/c1/turn1/meta.json"),
    JSON.stringify({ cost: -1, steps: "many", seconds: 3 }),
  );
  const r = await cli(["validate", dir]);
  assert.equal(r.code, 1);
  const lines = r.out.trim().split("\n");
  assert.ok(
    lines.includes(
      'runs/k1/config.json: "harness" must be a non-empty string; "model" must be a non-empty ' +
        'string; "memory" must be one of "none", "interface", "source", got "all"; "cwd" must be a string',
    ),
    r.out,
  );
  // (the config is unusable, so its turns are not checked; the meta.json of a usable config is)
  const dir2 = await copyCorpus();
  await Deno.writeTextFile(
    join(dir2, "runs/k1/c1/turn1/meta.json"),
    JSON.stringify({ cost: -1, steps: "many", seconds: 3 }),
  );
  const m = await cli(["validate", dir2]);
  assert.equal(m.code, 1);
  assert.ok(
    m.out.trim().split("\n").includes(
      'runs/k1/c1/turn1/meta.json: "cost" must be a non-negative number; "steps" must be a ' +
        "non-negative number",
    ),
    m.out,
  );
});
