/**
 * Regression tests of issue 11 ("silent wrong numbers", layout side): symbolic links inside and
 * out of a corpus, duplicate configuration keys, `turn0/`, stray files in turn directories. Each
 * case was seen to go wrong silently before its fix; expected values are worked out from the
 * hand-worked fixture (5 run turns, no problem).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { readCorpus, validateCorpus } from "../lib/layout/mod.ts";
import { type ScoredRows, scoreRows } from "../lib/frames/mod.ts";
import { copyCorpus, FIXTURE, tempDir } from "./score_helpers.ts";

/** Moves `rel` (under dir) to `dir/store/rel` and puts a relative symbolic link in its place. */
async function linkInside(dir: string, rel: string): Promise<void> {
  const to = join(dir, "store", rel);
  await Deno.mkdir(dirname(to), { recursive: true });
  await Deno.rename(join(dir, rel), to);
  const depth = rel.split("/").length - 1;
  await Deno.symlink(`${"../".repeat(depth)}store/${rel}`, join(dir, rel));
}

/** Moves `rel` out of the corpus (to a fresh temp dir) and links to it by absolute path. */
async function linkOutside(dir: string, rel: string): Promise<string> {
  const to = join(await tempDir(), rel.replaceAll("/", "_"));
  await Deno.rename(join(dir, rel), to);
  await Deno.symlink(to, join(dir, rel));
  return to;
}

const turnsOf = (rows: ScoredRows) =>
  rows.turns.map((t) => `${t.chain}/${t.turn} ${t.reuse_repo} ${t.recall_repo} ${t.lines}`);

let fixtureRows: Promise<ScoredRows> | undefined;
const fixture = () =>
  fixtureRows ??= tempDir().then((cacheDir) => scoreRows(FIXTURE, { workers: 0, cacheDir }));

Deno.test("issue 11.2: run files linked inside the corpus are followed, links out reported", async () => {
  const dir = await copyCorpus();
  // every kind of run file as a link inside the corpus
  await linkInside(dir, "runs/k1/c1/turn1/submission.py");
  await linkInside(dir, "runs/k1/c1/turn1/results.xml");
  await linkInside(dir, "runs/k1/c1/turn1/log.traj.json");
  await linkInside(dir, "runs/k1/c1/turn2/meta.json");
  const { corpus, problems } = await readCorpus(dir);
  assert.deepEqual(problems, []);
  const t1 = corpus.runs.find((r) => r.chain === "c1" && r.turn === 1)!;
  assert.ok(t1.submission && t1.results && t1.log, JSON.stringify(t1));
  assert.ok(corpus.runs.find((r) => r.chain === "c1" && r.turn === 2)!.meta);
  assert.deepEqual(await validateCorpus(dir), []);
  // scored exactly like the fixture (the submission counts: reuse and later self targets)
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  assert.deepEqual(rows.errors, []);
  assert.deepEqual(turnsOf(rows), turnsOf(await fixture()));

  // links out of the corpus are never followed: the turn is blocked, the problem names the link
  const out = await copyCorpus();
  await linkOutside(out, "runs/k1/c2/turn1/submission.py");
  await linkOutside(out, "runs/k1/c2/turn2/results.json");
  const r = await readCorpus(out);
  const has = (path: string) =>
    assert.ok(
      r.problems.some((p) => p.path === path && /link out of the corpus/.test(p.message)),
      `${path} in ${JSON.stringify(r.problems)}`,
    );
  has("runs/k1/c2/turn1/submission.py");
  has("runs/k1/c2/turn2/results.json");
  const blocked = r.corpus.runs.filter((x) => x.blocked.length).map((x) => `${x.chain}/${x.turn}`);
  assert.deepEqual(blocked, ["c2/1", "c2/2"]);
  // a broken link is reported too
  const broken = await copyCorpus();
  await Deno.remove(join(broken, "runs/k1/c1/turn2/results.json"));
  await Deno.symlink("nowhere.json", join(broken, "runs/k1/c1/turn2/results.json"));
  const b = await validateCorpus(broken);
  assert.ok(
    b.some((p) => p.path === "runs/k1/c1/turn2/results.json" && /broken/.test(p.message)),
    JSON.stringify(b),
  );
});

Deno.test("issue 11.8: a linked configuration directory is counted; one linked out is reported", async () => {
  const dir = await copyCorpus();
  await linkInside(dir, "runs/k1");
  await linkInside(dir, "tasks/c2");
  const { corpus, problems } = await readCorpus(dir);
  assert.deepEqual(problems, []);
  assert.equal(corpus.runs.length, 5);
  assert.deepEqual(corpus.configs.map((c) => c.id), ["k1"]);
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  assert.equal(rows.found, 5);
  assert.deepEqual(turnsOf(rows), turnsOf(await fixture()));

  const out = await copyCorpus();
  const target = await linkOutside(out, "runs/k1");
  const r = await readCorpus(out);
  assert.ok(
    r.problems.some((p) =>
      p.path === "runs/k1" && p.message.includes("link out of the corpus") &&
      p.message.includes(target)
    ),
    JSON.stringify(r.problems),
  );
});

Deno.test("issue 11.3: two configuration directories with the same keys are rejected, naming both", async () => {
  const dir = await copyCorpus();
  await Deno.mkdir(join(dir, "runs/k1-copy/c1/turn1"), { recursive: true });
  await Deno.copyFile(join(dir, "runs/k1/config.json"), join(dir, "runs/k1-copy/config.json"));
  for (const f of ["log.traj.json", "submission.py", "results.xml"]) {
    await Deno.copyFile(join(dir, "runs/k1/c1/turn1", f), join(dir, "runs/k1-copy/c1/turn1", f));
  }
  const problems = await validateCorpus(dir);
  for (const config of ["k1", "k1-copy"]) {
    assert.ok(
      problems.some((p) =>
        p.config === config && p.path === `runs/${config}/config.json` &&
        p.message.includes("runs/k1/config.json") && p.message.includes("runs/k1-copy/config.json")
      ),
      `${config}: ${JSON.stringify(problems)}`,
    );
  }
  // score refuses both: no merged rows, every turn of both named in errors
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  assert.equal(rows.turns.length, 0);
  const errored = new Set(
    rows.errors.filter((e) => e.turn !== null && e.config !== null).map((e) =>
      `${e.config}/${e.chain}/${e.turn}`
    ),
  );
  assert.equal(errored.size, rows.found);
  assert.ok(errored.has("k1/c1/1") && errored.has("k1-copy/c1/1"));
});

Deno.test("issue 11.9: turn0/ and turn01/ are reported as misnamed, never scored as a turn", async () => {
  const dir = await copyCorpus();
  for (const name of ["turn0", "turn01"]) {
    await Deno.mkdir(join(dir, "runs/k1/c1", name));
    for (const f of ["log.traj.json", "submission.py", "results.xml"]) {
      await Deno.copyFile(join(dir, "runs/k1/c1/turn1", f), join(dir, "runs/k1/c1", name, f));
    }
  }
  const problems = await validateCorpus(dir);
  for (const name of ["turn0", "turn01"]) {
    assert.ok(
      problems.some((p) =>
        p.path === `runs/k1/c1/${name}` && /numbered from 1/.test(p.message) && p.turn === undefined
      ),
      `${name}: ${JSON.stringify(problems)}`,
    );
  }
  const rows = await scoreRows(dir, { workers: 0, cache: false });
  assert.equal(rows.found, 5);
  assert.equal(rows.turns.length, 5);
  assert.ok(!rows.errors.some((e) => /reading|undefined/.test(e.message)), JSON.stringify(rows));
  assert.ok(rows.errors.every((e) => e.turn === null));
});

Deno.test("issue 11.10: stray files in turn directories are reported; a log under another name is named", async () => {
  const dir = await copyCorpus();
  await Deno.rename(
    join(dir, "runs/k1/c1/turn1/log.traj.json"),
    join(dir, "runs/k1/c1/turn1/session.json"),
  );
  await Deno.writeTextFile(join(dir, "runs/k1/c2/turn1/notes.txt"), "by hand\n");
  await Deno.mkdir(join(dir, "runs/k1/c2/turn1/workspace"));
  // what `run` writes beside the layout's files is expected, not stray
  for (const f of ["prompt.md", "agent-stdout.txt", "agent-stderr.txt"]) {
    await Deno.writeTextFile(join(dir, "runs/k1/c2/turn2", f), "x\n");
  }
  const problems = await validateCorpus(dir);
  const find = (path: string) => problems.filter((p) => p.path === path);
  const missing = find("runs/k1/c1/turn1/log.json");
  assert.equal(missing.length, 1, JSON.stringify(problems));
  assert.match(missing[0].message, /missing log/);
  assert.match(missing[0].message, /session\.json/);
  for (const stray of ["runs/k1/c2/turn1/notes.txt", "runs/k1/c2/turn1/workspace"]) {
    const p = find(stray);
    assert.equal(p.length, 1, `${stray}: ${JSON.stringify(problems)}`);
    assert.match(p[0].message, /unexpected/);
    // blocks nothing: no turn number, so it is not counted as a turn with errors
    assert.equal(p[0].turn, undefined);
    assert.deepEqual([p[0].config, p[0].chain], ["k1", "c2"]);
  }
  assert.ok(!problems.some((p) => p.path.startsWith("runs/k1/c2/turn2")), JSON.stringify(problems));
});
