/**
 * Faults while scoring (issue 11 items 1, 11, 12 and the fault test): a cache that cannot be
 * written, cache entries of the wrong shape, a disk that fills while `--out` is written, and the
 * process killed at random points. Nothing may be lost and nothing half-written may be served.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { framesOf, readScored, scoreRows, writeScored } from "../lib/frames/mod.ts";
import { sha256 } from "../lib/util/cache.ts";
import { recoverDir } from "../lib/util/fs.ts";
import { copyCorpus, FIXTURE, tempDir } from "./score_helpers.ts";

const CLI = new URL("../tasks/cli.ts", import.meta.url).pathname;

/** Every regular file under `dir` (relative path → SHA-256), or null when `dir` is missing. */
async function snapshot(dir: string): Promise<Record<string, string> | null> {
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p, `${rel}${e.name}/`);
      else out[`${rel}${e.name}`] = sha256(await Deno.readFile(p));
    }
  };
  try {
    await walk(dir, "");
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Runs `score` in a child process (so that it can be killed), with its own cache. */
function scoreProcess(args: string[], cacheDir: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "score", ...args],
    env: { REPOREUSE_CACHE_DIR: cacheDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

async function scoreCli(args: string[], cacheDir: string) {
  const r = await scoreProcess(args, cacheDir).output();
  return { code: r.code, err: new TextDecoder().decode(r.stderr) };
}

/** The fixture with the log of k1/c2 turn 2 removed: other frames than the fixture's own. */
async function variantCorpus(): Promise<string> {
  const dir = await copyCorpus();
  await Deno.remove(join(dir, "runs/k1/c2/turn2/log.traj.json"));
  return dir;
}

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for await (const e of Deno.readDir(d)) {
      if (e.isDirectory) await walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  await walk(dir).catch(() => {});
  return out.sort();
}

Deno.test("cache that cannot be written: one warning, every turn scored, same rows (issue 11.1)", async () => {
  const reference = await scoreRows(FIXTURE, { cache: false, workers: 0 });
  const file = await Deno.makeTempFile();
  for (const cacheDir of [`${file}/cache`, `/proc/reporeuse-unwritable-${crypto.randomUUID()}`]) {
    const warnings: string[] = [];
    const error = console.error;
    console.error = (...a: unknown[]) => warnings.push(a.join(" "));
    let rows;
    try {
      rows = await scoreRows(FIXTURE, { cacheDir, workers: 0 });
    } finally {
      console.error = error;
    }
    assert.deepEqual(rows.errors, [], cacheDir);
    assert.equal(rows.turns.length, 5);
    assert.deepEqual(rows.turns, reference.turns);
    assert.deepEqual(rows.targets, reference.targets);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /warning: cache .* cannot be written/);
  }
  // the CLI as the issue ran it: exit 0, every turn scored, the warning once
  const out = await tempDir();
  const r = await scoreCli([FIXTURE, "--out", out], "/proc/x");
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /5 turns scored, 0 turns with errors \(5 found\)/);
  assert.equal(r.err.match(/warning: cache/g)?.length, 1, r.err);
});

Deno.test("cache entries of the wrong shape are recomputed, never served (issue 11.12)", async () => {
  const reference = await scoreRows(FIXTURE, { cache: false, workers: 0 });
  const cacheDir = join(await tempDir(), "cache");
  assert.deepEqual((await scoreRows(FIXTURE, { cacheDir, workers: 0 })).turns, reference.turns);
  const files = await filesUnder(cacheDir);
  assert.ok(files.some((f) => f.includes("/scored-turn-")), files.join("\n"));
  // one log-hash memo per configuration with run turns (each let go when its groups are done)
  assert.equal(
    files.filter((f) => f.includes("/scored-hashes-v2/")).length,
    new Set(reference.turns.map((t) => `${t.harness}\u0000${t.model}\u0000${t.memory}`)).size,
    files.join("\n"),
  );
  // valid JSON, wrong shapes: in every kind of entry the scorer reads
  const shapes = [
    `{"turn": 1}`,
    `[]`,
    `null`,
    `"text"`,
    `{"turn": {"reimplemented": "x"}, "targets": 5, "events": [], "tests": []}`,
    `[{"turn": null, "targets": [], "events": [], "tests": []}]`,
  ];
  files.forEach((f, i) => {
    if (f.includes("/scored-hashes-")) return; // below: it would only make every key new
    if (f.endsWith(".txt")) Deno.writeTextFileSync(f, `{"version": 1}\n{"uses": 3}`);
    else if (f.endsWith(".meta.json")) Deno.writeTextFileSync(f, `{"metas": 5, "errors": []}`);
    else Deno.writeTextFileSync(f, shapes[i % shapes.length]);
  });
  const same = async () => {
    const again = await scoreRows(FIXTURE, { cacheDir, workers: 0 });
    assert.deepEqual(again.errors, []);
    assert.deepEqual(again.turns, reference.turns);
    assert.deepEqual(again.targets, reference.targets);
    assert.deepEqual(again.events, reference.events);
    assert.deepEqual(again.tests, reference.tests);
  };
  await same();
  // the log-hash memo with entries of the wrong shape: the logs are hashed again
  for (const f of files.filter((f) => f.includes("/scored-hashes-"))) {
    const memo = JSON.parse(Deno.readTextFileSync(f));
    for (const k of Object.keys(memo)) memo[k] = k.length % 2 ? [1, 2] : { digest: 5 };
    Deno.writeTextFileSync(f, JSON.stringify(memo));
  }
  await same();
  // and the bad entries were replaced: a third run is served from the cache, still identical
  assert.deepEqual((await scoreRows(FIXTURE, { cacheDir, workers: 0 })).turns, reference.turns);
});

Deno.test("writing --out fails midway (disk full): the old frames stay whole (issue 11.11)", async () => {
  const parent = await tempDir();
  const out = join(parent, "out");
  const old = framesOf(await scoreRows(await variantCorpus(), { cache: false, workers: 0 }));
  await writeScored(old, out);
  const before = await snapshot(out);
  const fresh = framesOf(await scoreRows(FIXTURE, { cache: false, workers: 0 }));
  // the writer of events.parquet fails as on a full disk, after the turns and targets were written
  const full = {
    writeParquet: () => {
      throw new Error("No space left on device (os error 28)");
    },
  } as unknown as typeof fresh.events;
  await assert.rejects(writeScored({ ...fresh, events: full }, out), /No space left/);
  assert.deepEqual(await snapshot(out), before, "a mix of old and new frames");
  assert.deepEqual([...Deno.readDirSync(parent)].map((e) => e.name), ["out"], "temporary left");
  await writeScored(fresh, out);
  assert.equal((await readScored(out)).turns.height, 5);
  assert.notDeepEqual(await snapshot(out), before);
});

/** Mounts a tmpfs of `size` at a new directory (root only); undefined when that is not allowed. */
async function smallDisk(size: string): Promise<string | undefined> {
  if (Deno.build.os !== "linux") return undefined;
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-tmpfs-" });
  const r = await new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir],
    stdout: "null",
    stderr: "null",
  }).output().catch(() => ({ success: false }));
  if (r.success) return dir;
  await Deno.remove(dir);
  return undefined;
}

Deno.test("a really full disk (tmpfs) while writing --out: old frames whole, then new ones", async (t) => {
  const disk = await smallDisk("2m");
  if (!disk) {
    // not root: the simulated writer failure above covers it
    await t.step({ name: "tmpfs mount not permitted", ignore: true, fn: () => {} });
    return;
  }
  try {
    const out = join(disk, "out");
    const old = framesOf(await scoreRows(await variantCorpus(), { cache: false, workers: 0 }));
    await writeScored(old, out);
    const before = await snapshot(out);
    const fresh = framesOf(await scoreRows(FIXTURE, { cache: false, workers: 0 }));
    // fill the disk but for a few kilobytes
    const free = () => {
      const df = new Deno.Command("df", { args: ["-B1", "--output=avail", disk] }).outputSync();
      return Number(new TextDecoder().decode(df.stdout).trim().split("\n").pop());
    };
    Deno.writeFileSync(join(disk, "filler"), new Uint8Array(Math.max(0, free() - 12 * 1024)));
    await assert.rejects(writeScored(fresh, out));
    assert.deepEqual(await snapshot(out), before, "a mix of old and new frames");
    assert.deepEqual([...Deno.readDirSync(disk)].map((e) => e.name).sort(), ["filler", "out"]);
    await Deno.remove(join(disk, "filler"));
    await writeScored(fresh, out);
    assert.equal((await readScored(out)).turns.height, 5);
  } finally {
    await new Deno.Command("umount", { args: [disk] }).output();
    await Deno.remove(disk, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name:
    "score killed (SIGINT/SIGKILL) at random points: --out old or new, never a mix; the cache " +
    "never serves a broken entry",
  sanitizeResources: false,
  fn: async () => {
    const work = await tempDir();
    const oldRef = join(work, "old"), newRef = join(work, "new"), out = join(work, "out");
    const cache = join(work, "cache");
    const variant = await variantCorpus();
    assert.equal((await scoreCli([variant, "--out", oldRef, "--no-cache"], cache)).code, 0);
    assert.equal((await scoreCli([FIXTURE, "--out", newRef, "--no-cache"], cache)).code, 0);
    const OLD = await snapshot(oldRef), NEW = await snapshot(newRef);
    // how long a cold run with the cache takes: the kills fall anywhere in it
    const t0 = performance.now();
    assert.equal((await scoreCli([FIXTURE, "--out", out], cache)).code, 0);
    const full = performance.now() - t0;
    assert.deepEqual(await snapshot(out), NEW);
    assert.notDeepEqual(OLD, NEW);
    let seed = Number(Deno.env.get("FAULT_SEED") ?? Date.now() % 100000);
    console.log(`fault test seed ${seed} (FAULT_SEED=${seed} repeats it), full run ${full | 0} ms`);
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const outcomes = { old: 0, new: 0, restored: 0 };
    for (let i = 0; i < 8; i++) {
      await Deno.remove(out, { recursive: true }).catch(() => {});
      // the old frames as `score` wrote them (byte for byte: its Parquet is not writeScored's)
      await Deno.mkdir(out);
      for await (const e of Deno.readDir(oldRef)) {
        await Deno.copyFile(join(oldRef, e.name), join(out, e.name));
      }
      if (i % 4 === 0) await Deno.remove(cache, { recursive: true }).catch(() => {});
      const child = scoreProcess([FIXTURE, "--out", out], cache);
      await new Promise((r) => setTimeout(r, 1.2 * rand() * full));
      try {
        child.kill(i % 2 ? "SIGKILL" : "SIGINT");
      } catch { /* already done */ }
      await child.output();
      let snap = await snapshot(out);
      if (snap === null) {
        // killed between the two renames: the old copy waits beside, and is put back
        assert.ok(await recoverDir(out), "out missing and not recoverable");
        outcomes.restored++;
        snap = await snapshot(out);
      }
      const same = (a: unknown) => JSON.stringify(a) === JSON.stringify(snap);
      assert.ok(same(OLD) || same(NEW), `round ${i}: --out is a mix: ${JSON.stringify(snap)}`);
      outcomes[same(OLD) ? "old" : "new"]++;
      // a torn cache file (as a crash of a non-atomic writer would leave) must not be served
      const files = await filesUnder(cache);
      if (files.length && rand() < 0.5) {
        const f = files[Math.floor(rand() * files.length)];
        const bytes = Deno.readFileSync(f);
        Deno.writeFileSync(f, bytes.slice(0, Math.floor(rand() * bytes.length)));
      }
    }
    console.log(`outcomes: ${JSON.stringify(outcomes)}`);
    // whatever the cache holds now, a clean run gives the frames of a run without cache
    const r = await scoreCli([FIXTURE, "--out", out], cache);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(await snapshot(out), NEW);
  },
});

Deno.test("writeDirAtomic: a file in place of --out is an error and is left alone; foreign files are kept", async () => {
  const { writeDirAtomic } = await import("../lib/util/fs.ts");
  const dir = await tempDir();
  await Deno.writeTextFile(join(dir, "file"), "mine");
  await assert.rejects(
    writeDirAtomic(join(dir, "file"), (d) => Deno.writeTextFile(join(d, "a"), "1")),
    /not a directory/,
  );
  assert.equal(await Deno.readTextFile(join(dir, "file")), "mine");
  const out = join(dir, "out");
  await Deno.mkdir(join(out, "notes"), { recursive: true });
  await Deno.writeTextFile(join(out, "notes/keep.md"), "keep");
  await Deno.writeTextFile(join(out, "a"), "old");
  await writeDirAtomic(out, (d) => Deno.writeTextFile(join(d, "a"), "new"));
  assert.deepEqual(await snapshot(out), {
    a: sha256("new"),
    "notes/keep.md": sha256("keep"),
  });
  assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["file", "out"]);
});
