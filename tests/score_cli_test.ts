import assert from "node:assert/strict";
import { join } from "node:path";
import { run as score } from "../tasks/commands/score.ts";
import { run as validate } from "../tasks/commands/validate.ts";
import { readScored, SCORED_FILES } from "../lib/frames/mod.ts";
import { copyCorpus, FIXTURE, tempDir } from "./score_helpers.ts";

/** Runs a command with console output captured. */
async function capture(
  f: () => Promise<number>,
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    return { code: await f(), out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("score CLI: writes every file; exit 0 even with errors.csv rows", async () => {
  const out = await tempDir();
  const r = await capture(() => score([FIXTURE, "--out", out, "--no-cache", "--workers", "0"]));
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /5 turns scored, 0 turns with errors \(5 found\)/);
  for (const f of SCORED_FILES) assert.ok((await Deno.stat(join(out, f))).isFile, f);
  assert.equal((await readScored(out)).turns.height, 5);

  const broken = await copyCorpus();
  await Deno.remove(join(broken, "runs/k1/c2/turn2/log.traj.json"));
  const out2 = await tempDir();
  const r2 = await capture(() => score([broken, "--out", out2, "--no-cache", "--workers", "0"]));
  assert.equal(r2.code, 0, r2.err);
  assert.match(r2.err, /4 turns scored, 1 turns with errors \(5 found\)/);
  const errors = await Deno.readTextFile(join(out2, "errors.csv"));
  assert.match(errors, /runs\/k1\/c2\/turn2\/log\.json,c2,2,k1,"missing log/);
});

Deno.test("score CLI: unusable input exits 1, usage errors exit 2", async () => {
  const out = await tempDir();
  const missing = await capture(() => score(["/nonexistent/corpus", "--out", out]));
  assert.equal(missing.code, 1);
  assert.match(missing.err, /corpus directory does not exist/);
  const empty = await capture(async () => score([await tempDir(), "--out", out]));
  assert.equal(empty.code, 1);
  assert.match(empty.err, /neither tasks\/ nor runs\//);
  const file = await Deno.makeTempFile();
  const unwritable = await capture(() =>
    score([FIXTURE, "--out", `${file}/out`, "--workers", "0"])
  );
  assert.equal(unwritable.code, 1);
  assert.match(unwritable.err, /cannot write/);
  assert.equal((await capture(() => score([FIXTURE]))).code, 2); // no --out
  assert.equal((await capture(() => score(["--out", out]))).code, 2); // no corpus
  assert.equal((await capture(() => score([FIXTURE, "--out", out, "--bogus"]))).code, 2);
  assert.equal((await capture(() => score([FIXTURE, "--out", out, "--workers", "x"]))).code, 2);
});

Deno.test("validate CLI: lists problems with paths; exit 1 when any, 0 when none", async () => {
  const ok = await capture(() => validate([FIXTURE]));
  assert.equal(ok.code, 0);
  assert.match(ok.out, /no problems/);
  const dir = await copyCorpus();
  await Deno.writeTextFile(join(dir, "runs/k1/c1/turn1/log.traj.json"), `{"hello": 1}`);
  await Deno.writeTextFile(
    join(dir, "runs/k1/c1/turn1/results.xml"),
    `<testsuites><testcase name="x">`,
  );
  await Deno.writeTextFile(join(dir, "runs/k1/c1/turn2/meta.json"), `{"cost": -1}`);
  await Deno.remove(join(dir, "tasks/c2/turn1/requirement.md"));
  const bad = await capture(() => validate([dir]));
  assert.equal(bad.code, 1);
  const lines = bad.out.split("\n");
  const has = (prefix: string) =>
    assert.ok(lines.some((l) => l.startsWith(prefix)), `${prefix} in\n${bad.out}`);
  has("runs/k1/c1/turn1/log.traj.json: ");
  has("runs/k1/c1/turn1/results.xml: invalid XML");
  has('runs/k1/c1/turn2/meta.json: "cost" must be a non-negative number');
  has("tasks/c2/turn1/requirement.md: missing requirement text");
  const json = await capture(() => validate([dir, "--json"]));
  const problems = JSON.parse(json.out);
  assert.ok(
    problems.some((p: { path: string; config?: string; turn?: number }) =>
      p.path === "runs/k1/c1/turn2/meta.json" && p.config === "k1" && p.turn === 2
    ),
  );
  assert.equal((await capture(() => validate([]))).code, 2);
});
