/**
 * The cache against other users and planted entries (issue 22 item 3, cache part): the root is a
 * per-user directory created 0700 and checked for owner and mode (one that others can write is
 * refused with one line naming it and the fix); with HOME unset there is no fallback to a
 * directory under /tmp that everyone shares; a planted or edited `scored-turn` entry is never
 * served as is.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readScored, scoreRows } from "../lib/frames/mod.ts";
import * as cache from "../lib/util/cache.ts";
import { FIXTURE, tempDir } from "./score_helpers.ts";
import { runCli } from "./cli_helpers.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const dec = new TextDecoder();
const isRoot = Deno.uid() === 0;

/** Every file under `dir` whose path contains `part`. */
function entries(dir: string, part: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else if (p.includes(part) && p.endsWith(".json")) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * Edits a scored-turn entry on disk as an attacker would: reuse 0.777 and pass_rate 0.111 in
 * every turn row (whatever line holds the JSON; a signature line, if any, is kept as it was).
 */
function plant(file: string): void {
  const text = Deno.readTextFileSync(file);
  const nl = text.indexOf("\n");
  const signed = nl === 64 && /^[0-9a-f]{64}$/.test(text.slice(0, nl));
  const json = signed ? text.slice(nl + 1) : text;
  const edit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(edit);
    if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if ("pass_rate" in o) {
        for (const k of Object.keys(o)) if (k.startsWith("reuse")) o[k] = 0.777;
        o.pass_rate = 0.111;
      }
      for (const k of Object.keys(o)) o[k] = edit(o[k]);
    }
    return v;
  };
  const planted = JSON.stringify(edit(JSON.parse(json)));
  Deno.writeTextFileSync(file, signed ? `${text.slice(0, nl)}\n${planted}` : planted);
}

/** `reporeuse score FIXTURE --out <out>` in a child process, with its cache in `cacheDir`. */
async function scoreCli(cacheDir: string, out: string) {
  const r = await runCli(["score", FIXTURE, "--out", out, "--workers", "0"], {
    env: { REPOREUSE_CACHE_DIR: cacheDir },
  });
  return { code: r.code, err: r.err };
}

/** Every file under `dir` with its bytes (what is there, and what it says). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else out[p] = cache.sha256(Deno.readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

Deno.test("a planted scored-turn entry (reuse 0.777, pass_rate 0.111) is never served", async () => {
  const reference = await scoreRows(FIXTURE, { cache: false, workers: 0 });
  assert.ok(reference.turns.every((t) => t.pass_rate !== 0.111));
  const cacheDir = join(await tempDir(), "cache");
  await scoreRows(FIXTURE, { cacheDir, workers: 0 });
  const files = entries(cacheDir, "/scored-turn-");
  assert.ok(files.length >= 5, files.join("\n"));
  files.forEach(plant);
  const again = await scoreRows(FIXTURE, { cacheDir, workers: 0 });
  assert.deepEqual(again.turns, reference.turns);
  assert.deepEqual(again.targets, reference.targets);
  // an entry copied under another key (a real entry of another turn) is no more served
  const fresh = join(await tempDir(), "cache");
  await scoreRows(FIXTURE, { cacheDir: fresh, workers: 0 });
  const turnFiles = entries(fresh, "/scored-turn-").sort();
  const bodies = turnFiles.map((f) => Deno.readTextFileSync(f));
  turnFiles.forEach((f, i) => Deno.writeTextFileSync(f, bodies[(i + 1) % bodies.length]));
  assert.deepEqual(
    (await scoreRows(FIXTURE, { cacheDir: fresh, workers: 0 })).turns,
    reference.turns,
  );
});

Deno.test("entries are bound to their key and cache: copied or edited entries are misses", async () => {
  const [a, b] = [await tempDir(), await tempDir()];
  const ca = new cache.Cache("t", 1, a), cb = new cache.Cache("t", 1, b);
  const k1 = cache.sha256("1"), k2 = cache.sha256("2");
  assert.ok(await ca.set(k1, { v: 1 }));
  assert.deepEqual(await ca.get(k1), { v: 1 });
  // copied under another key of the same cache
  Deno.mkdirSync(join(ca.entryPath(k2), ".."), { recursive: true });
  Deno.copyFileSync(ca.entryPath(k1), ca.entryPath(k2));
  assert.equal(await ca.get(k2), undefined);
  // copied into another cache directory (its own secret)
  Deno.mkdirSync(join(cb.entryPath(k1), ".."), { recursive: true });
  Deno.copyFileSync(ca.entryPath(k1), cb.entryPath(k1));
  assert.equal(await cb.get(k1), undefined);
  // another namespace or version of the same cache
  const other = new cache.Cache("t", 2, a);
  Deno.mkdirSync(join(other.entryPath(k1), ".."), { recursive: true });
  Deno.copyFileSync(ca.entryPath(k1), other.entryPath(k1));
  assert.equal(await other.get(k1), undefined);
  // the secret is the owner's alone
  const key = Deno.statSync(join(a, cache.CACHE_KEY_FILE));
  assert.equal(key.mode! & 0o777, 0o600);
  // a miss is overwritten by the next set, then served
  assert.ok(await ca.set(k2, { v: 2 }));
  assert.deepEqual(await ca.get(k2), { v: 2 });
});

Deno.test("a cache root others can write is refused: one line naming it and the fix, results intact", async () => {
  const reference = await scoreRows(FIXTURE, { cache: false, workers: 0 });
  const parent = await tempDir();
  const cacheDir = join(parent, "shared");
  // the owner's entries, then the directory opened to everyone and its entries edited meanwhile
  const first = await scoreCli(cacheDir, join(parent, "out1"));
  assert.equal(first.code, 0, first.err);
  Deno.chmodSync(cacheDir, 0o777);
  entries(cacheDir, "/scored-turn-").forEach(plant);
  const before = snapshot(cacheDir);
  const r = await scoreCli(cacheDir, join(parent, "out2"));
  assert.equal(r.code, 0, r.err);
  const warnings = r.err.split("\n").filter((l) => l.includes("warning"));
  assert.equal(warnings.length, 1, r.err);
  assert.match(warnings[0], new RegExp(`cache directory ${cacheDir} is not safe`));
  assert.match(warnings[0], /writable by others \(mode 0777\)/);
  assert.match(warnings[0], /chmod 700/);
  const scored = await readScored(join(parent, "out2"));
  assert.deepEqual(
    scored.turns.select("pass_rate", "reuse_repo").toRecords(),
    (await readScored(join(parent, "out1"))).turns.select("pass_rate", "reuse_repo").toRecords(),
  );
  assert.ok(reference.turns.every((t) => t.pass_rate !== 0.111));
  assert.ok(scored.turns.getColumn("pass_rate").toArray().every((v) => v !== 0.111));
  // nothing was written into it, nor its mode changed
  assert.equal(Deno.statSync(cacheDir).mode! & 0o777, 0o777);
  assert.deepEqual(snapshot(cacheDir), before);
});

Deno.test("a cache root below a directory others can write is refused", () => {
  const open = join(Deno.makeTempDirSync(), "open");
  Deno.mkdirSync(open);
  Deno.chmodSync(open, 0o777); // not sticky: anyone could rename our directory away
  const p = cache.cacheDirProblem(join(open, "cache"));
  assert.equal(p?.kind, "unsafe");
  assert.match(p!.message, new RegExp(`${open} above it is writable by others \\(mode 0777\\)`));
  // a sticky one (like /tmp) is fine
  const sticky = join(Deno.makeTempDirSync(), "sticky");
  Deno.mkdirSync(sticky);
  Deno.chmodSync(sticky, 0o1777);
  assert.equal(cache.cacheDirProblem(join(sticky, "cache")), null);
  assert.equal(Deno.statSync(join(sticky, "cache")).mode! & 0o777, 0o700);
});

Deno.test({
  name:
    "a cache root that belongs to another user is refused (cacheRoot falls back to a private one)",
  ignore: !isRoot, // making a directory another user's needs root
  async fn() {
    const parent = await tempDir();
    const theirs = join(parent, "theirs");
    Deno.mkdirSync(theirs, { mode: 0o755 });
    Deno.chownSync(theirs, 65534, 65534);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { cacheRoot } from "${ROOT}lib/util/cache.ts"; console.log(cacheRoot());`,
      ],
      env: { REPOREUSE_CACHE_DIR: theirs, NO_COLOR: "1" },
      cwd: ROOT,
    }).output();
    const root = dec.decode(out.stdout).trim();
    const err = dec.decode(out.stderr).trim().split("\n");
    assert.notEqual(root, theirs);
    assert.equal(err.length, 1, err.join("\n"));
    assert.match(
      err[0],
      new RegExp(`cache directory ${theirs} is not safe: it belongs to uid 65534`),
    );
    assert.match(err[0], /REPOREUSE_CACHE_DIR/);
    // the private fallback is gone with the process
    assert.throws(() => Deno.statSync(root));
  },
});

Deno.test("with HOME unset the cache root is the account's, never a directory under /tmp", async () => {
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1" };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { cacheRoot } from "${ROOT}lib/util/cache.ts"; console.log(cacheRoot());`,
    ],
    env,
    clearEnv: true,
    cwd: ROOT,
  }).output();
  assert.equal(out.code, 0, dec.decode(out.stderr));
  const root = dec.decode(out.stdout).trim();
  assert.ok(!root.startsWith("/tmp/"), root);
  const info = Deno.statSync(root);
  assert.equal(info.uid, Deno.uid());
  assert.equal(info.mode! & 0o777, 0o700, root);
  // and when the account has no home either: a per-user name, checked like any root
  const tmp = Deno.makeTempDirSync();
  const vars: Record<string, string> = { TMPDIR: tmp };
  const perUser = cache.configuredCacheRoot({ env: (n) => vars[n], home: "", uid: 4242 });
  assert.equal(perUser, `${tmp}/reporeuse-cache-4242`);
  assert.equal(cache.cacheDirProblem(perUser), null);
  assert.equal(Deno.statSync(perUser).mode! & 0o777, 0o700);
});
