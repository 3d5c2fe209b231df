/**
 * The audit's side cache (lib/audit/side.ts) never costs a result, and its binary parts are bound
 * to the signed entry: a tokens part removed, replaced by another side's, cut short or edited
 * between reading a side and reading its tokens gives the findings of an audit with no cache (the
 * side rebuilt); a features or tokens part edited in place, or a link planted at a part's path,
 * is a miss when the side is read; a FIFO planted at the tokens path, before the audit or between
 * reading a side and its tokens, neither blocks it nor changes its findings.
 *
 * The planted change is a copied block (lib/audit/block.ts), so an audit reads the tokens of the
 * changed function, of its old version, and all of the base's (its block index).
 */
import assert from "node:assert/strict";
import {
  auditHistory,
  type AuditReport,
  auditReport,
  auditSides,
  loadSide,
  loadTokens,
  type Side,
  TokensLost,
} from "../lib/audit/mod.ts";
import { SIDE_VERSION } from "../lib/audit/side.ts";
import { commit, CONFIG_LOOP, sh, write } from "./audit_helpers.ts";
import { ROOT, runCli } from "./cli_helpers.ts";

/** A config parser's loop, in `load_config` on the base and pasted into `serve` by the head. */
const BLOCK = CONFIG_LOOP.map((l) => "    " + l);

const SERVER = ["def load_config(path):", "    text = open(path).read()", "    seen = {}"];
const APP = ["def serve(sock, text):", "    seen = dict()"];
const TAIL = ["    sock.sendall(repr(seen).encode())", "    return seen", ""];
/** Other files, so that a side's tokens part holds pieces of several files on either side of app.py. */
const OTHER = (n: number) =>
  `def helper_${n}(items, key):\n    out = []\n    for item in items:\n        if item.get(key) is not None:\n            out.append(item[key] * ${n})\n    return out\n`;

const repo = await Deno.makeTempDir({ prefix: "reporeuse-side-cache-repo-" });
await sh(repo, ["git", "init", "-q", "-b", "main"]);
await write(repo, "pkg/__init__.py", "");
await write(repo, "pkg/server.py", [...SERVER, ...BLOCK, ...TAIL.slice(1)].join("\n"));
await write(repo, "pkg/app.py", [...APP, ...TAIL].join("\n"));
for (const n of [1, 2, 3]) await write(repo, `pkg/a${n}.py`, OTHER(n));
for (const n of [4, 5, 6]) await write(repo, `pkg/z${n}.py`, OTHER(n));
const c0 = await commit(repo, "base");
await write(repo, "pkg/app.py", [...APP, ...BLOCK, ...TAIL].join("\n"));
const c1 = await commit(repo, "block pasted");

/** The audit part of a report (what `auditSides` gives), without the revisions. */
function auditOf(r: AuditReport) {
  const { repo: _repo, base: _base, head: _head, ...audit } = r;
  return audit;
}

/** The audit with no cache at all (no side, summary or shape read from or written to one). */
const uncached = auditOf(await auditReport({ repo, base: c0, head: c1, cache: false }));
assert.deepEqual(
  uncached.findings.map((f) => [f.kind, f.function.id, f.target.id]),
  [["block", "pkg.app.serve", "pkg.server.load_config"]],
);

/** A fresh cache holding both sides of the change (filled by an audit). */
async function filledCache(): Promise<string> {
  const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-side-cache-" });
  assert.deepEqual(auditOf(await auditReport({ repo, base: c0, head: c1, cacheDir })), uncached);
  return cacheDir;
}

/** Each cached side's path stem (`<stem>.json`, `.features.bin`, `.tokens.bin`) by its commit. */
function stemsByRev(cacheDir: string): Map<string, string> {
  const byRev = new Map<string, string>();
  const dir = `${cacheDir}/audit-side-v${SIDE_VERSION}`;
  for (const sub of Deno.readDirSync(dir)) {
    for (const e of Deno.readDirSync(`${dir}/${sub.name}`)) {
      if (!e.name.endsWith(".json")) continue;
      const text = Deno.readTextFileSync(`${dir}/${sub.name}/${e.name}`);
      const { rev } = JSON.parse(text.slice(text.indexOf("\n") + 1));
      byRev.set(rev, `${dir}/${sub.name}/${e.name.slice(0, -".json".length)}`);
    }
  }
  return byRev;
}

/** The stems of the base's and the head's sides. */
function stems(cacheDir: string): { base: string; head: string } {
  const byRev = stemsByRev(cacheDir);
  assert.ok(byRev.has(c0) && byRev.has(c1), [...byRev.keys()].join(" "));
  return { base: byRev.get(c0)!, head: byRev.get(c1)! };
}

/** Whether a side was read from the cache (its tokens left on disk), not built. */
const fromCache = (s: Side) => s.defs.some((d) => d.tokens === undefined);

/** Both sides read from a filled cache (their tokens not read yet). */
async function cachedSides(cacheDir: string): Promise<[Side, Side]> {
  const [b, h] = await Promise.all([c0, c1].map((rev) => loadSide(repo, rev, { cacheDir })));
  assert.ok(fromCache(b) && fromCache(h));
  return [b, h];
}

/** A part's 32-bit words, changed by `edit`, written back in place (the same file, same size). */
function editWords(path: string, edit: (words: Uint32Array) => void): void {
  const bytes = Deno.readFileSync(path);
  edit(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2));
  using file = Deno.openSync(path, { write: true });
  file.writeSync(bytes);
}

Deno.test("a tokens part that changes between reading a side and its tokens: the side is rebuilt, the findings those of no cache", async (t) => {
  const cases: [string, (s: { base: string; head: string }) => void][] = [
    ["removed", (s) => {
      for (const stem of [s.base, s.head]) Deno.removeSync(`${stem}.tokens.bin`);
    }],
    ["replaced by a part of another side (renamed over: the base's and head's swapped)", (s) => {
      Deno.renameSync(`${s.base}.tokens.bin`, `${s.base}.tokens.bin.x`);
      Deno.renameSync(`${s.head}.tokens.bin`, `${s.base}.tokens.bin`);
      Deno.renameSync(`${s.base}.tokens.bin.x`, `${s.head}.tokens.bin`);
    }],
    ["truncated to its header", (s) => {
      for (const stem of [s.base, s.head]) {
        const path = `${stem}.tokens.bin`;
        const defs = new Uint32Array(Deno.readFileSync(path).slice(0, 4).buffer)[0];
        Deno.truncateSync(path, 4 * (defs + 2));
      }
    }],
    ["edited in place (every word of its tokens changed, its size and header kept)", (s) => {
      for (const stem of [s.base, s.head]) {
        editWords(`${stem}.tokens.bin`, (w) => {
          for (let i = w[0] + 2; i < w.length; i++) w[i] ^= 1;
        });
      }
    }],
  ];
  for (const [name, damage] of cases) {
    await t.step(name, async () => {
      const cacheDir = await filledCache();
      const [b, h] = await cachedSides(cacheDir);
      damage(stems(cacheDir));
      const r = await auditSides(repo, b, h, { cacheDir });
      assert.deepEqual(r.audit, uncached);
      // both sides' tokens were needed (the base's block index, the head's changed function),
      // so both were rebuilt: the new sides hold their tokens
      assert.ok(r.base !== b && r.head !== h && !fromCache(r.base) && !fromCache(r.head));
      // and written back: the next audit reads both from the cache, and rebuilds nothing
      const [b2, h2] = await cachedSides(cacheDir);
      const again = await auditSides(repo, b2, h2, { cacheDir });
      assert.deepEqual(again.audit, uncached);
      assert.ok(again.base === b2 && again.head === h2);
    });
  }
  await t.step("loadTokens says so, naming the part (TokensLost)", async () => {
    const cacheDir = await filledCache();
    const [, h] = await cachedSides(cacheDir);
    const { head } = stems(cacheDir);
    Deno.removeSync(`${head}.tokens.bin`);
    assert.throws(
      () => loadTokens(h),
      (e) => e instanceof TokensLost && e.side === h && e.message.startsWith(`${head}.tokens.bin:`),
    );
  });
});

Deno.test("binary parts bound to the signed entry: one edited in place, or a link planted at its path, is a miss (the side rebuilt)", async (t) => {
  const built = await loadSide(repo, c1, { cache: false });
  const featuresOf = (s: Side) => s.defs.map((d) => [d.id, Array.from(d.features)]);
  const cases: [string, (stem: string) => void][] = [
    [
      "features part: a feature changed (its shape kept)",
      (stem) =>
        editWords(`${stem}.features.bin`, (w) => {
          // [defs, then per def n, f…]: the first def with features gets its first one changed
          let at = 1;
          while (w[at] === 0) at++;
          w[at + 1] ^= 1;
        }),
    ],
    [
      "tokens part: one offset of its header changed (its shape kept)",
      (stem) =>
        editWords(`${stem}.tokens.bin`, (w) => {
          // [defs, offset₀ … offset_defs]: a def with tokens and one after it trade two words
          const k = [...w.subarray(1, w[0] + 1)].findIndex((o, i) => w[i + 2] - o >= 4);
          w[k + 2] -= 2;
        }),
    ],
    ["features part: a link to a copy of itself", (stem) => {
      const copy = `${Deno.makeTempDirSync()}/features.bin`;
      Deno.copyFileSync(`${stem}.features.bin`, copy);
      Deno.removeSync(`${stem}.features.bin`);
      Deno.symlinkSync(copy, `${stem}.features.bin`);
    }],
    ["tokens part: a link to a copy of itself", (stem) => {
      const copy = `${Deno.makeTempDirSync()}/tokens.bin`;
      Deno.copyFileSync(`${stem}.tokens.bin`, copy);
      Deno.removeSync(`${stem}.tokens.bin`);
      Deno.symlinkSync(copy, `${stem}.tokens.bin`);
    }],
  ];
  for (const [name, damage] of cases) {
    await t.step(name, async () => {
      const cacheDir = await filledCache();
      damage(stems(cacheDir).head);
      const h = await loadSide(repo, c1, { cacheDir });
      assert.ok(!fromCache(h), "rebuilt, not read from the cache");
      assert.deepEqual(featuresOf(h), featuresOf(built));
      assert.deepEqual(
        auditOf(await auditReport({ repo, base: c0, head: c1, cacheDir })),
        uncached,
      );
      // the rebuilt side's parts replaced what stood at their paths (regular files again)
      const { head } = stems(cacheDir);
      for (const part of ["features", "tokens"]) {
        assert.ok(Deno.lstatSync(`${head}.${part}.bin`).isFile, part);
      }
      assert.ok(fromCache(await loadSide(repo, c1, { cacheDir })));
    });
  }
});

Deno.test("a FIFO planted at the tokens path neither blocks the audit nor changes its findings", async (t) => {
  const limit = { timeoutMs: 120_000 };
  const mkfifo = (path: string) => sh("/", ["mkfifo", path]);
  await t.step("before the audit (the CLI)", async () => {
    const cacheDir = await filledCache();
    const args = ["audit", repo, "--base", c0, "--head", c1, "--format", "json"];
    const env = { REPOREUSE_CACHE_DIR: cacheDir };
    const clean = await runCli(args, { env, ...limit });
    assert.deepEqual(
      JSON.parse(clean.out).findings.map((f: { kind: string }) => f.kind),
      ["block"],
      clean.err,
    );
    const { head } = stems(cacheDir);
    Deno.removeSync(`${head}.tokens.bin`);
    await mkfifo(`${head}.tokens.bin`);
    const r = await runCli(args, { env, ...limit });
    assert.ok(!r.killed, "the audit finished");
    assert.equal(r.code, clean.code, r.err);
    assert.equal(r.out, clean.out);
    assert.ok(Deno.lstatSync(`${head}.tokens.bin`).isFile, "the rebuilt side's part replaced it");
  });
  await t.step(
    "at a side's signed entry, and a FIFO at the other's features path (the CLI)",
    async () => {
      const cacheDir = await filledCache();
      const args = ["audit", repo, "--base", c0, "--head", c1, "--format", "json"];
      const env = { REPOREUSE_CACHE_DIR: cacheDir };
      const clean = await runCli(args, { env, ...limit });
      const { base, head } = stems(cacheDir);
      for (const p of [`${head}.json`, `${base}.features.bin`]) {
        Deno.removeSync(p);
        await mkfifo(p);
      }
      const r = await runCli(args, { env, ...limit });
      assert.ok(!r.killed, "the audit finished");
      assert.equal(r.code, clean.code, r.err);
      assert.equal(r.out, clean.out);
    },
  );
  await t.step("between reading the sides and their tokens (auditSides in a process)", async () => {
    const cacheDir = await filledCache();
    const { base, head } = stems(cacheDir);
    const r = await runCli(
      [repo, c0, c1, cacheDir, `${base}.tokens.bin`, `${head}.tokens.bin`],
      { script: `${ROOT}tests/audit_side_fifo_child.ts`, ...limit },
    );
    assert.ok(!r.killed, "the audit finished");
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.deepEqual(out.rebuilt, [true, true]);
    assert.deepEqual(out.audit, JSON.parse(JSON.stringify(uncached)));
  });
});

Deno.test("a history whose side cache is cleared between two commits: the findings of a history with no cache", async () => {
  // after c0, a small unrelated change (its side's tokens read only for z4.py: no block index,
  // none derived), then the block pasted: the last commit's base is the middle commit's side, whose
  // block index needs all its tokens — from a part cleared after the middle commit was audited
  await sh(repo, ["git", "checkout", "-q", "-b", "history", c0]);
  await write(repo, "pkg/z4.py", OTHER(4) + "\n\ndef tiny(x):\n    return x\n");
  const middle = await commit(repo, "tiny");
  await write(repo, "pkg/app.py", [...APP, ...BLOCK, ...TAIL].join("\n"));
  const last = await commit(repo, "block pasted");
  const rows = async (cacheDir: string | null, onCommit?: (done: number) => void) => {
    const h = await auditHistory(repo, {
      range: `${c0}..${last}`,
      ...(cacheDir === null ? { cache: false } : { cacheDir }),
      onCommit,
    });
    return { changed: h.changed.toRecords(), findings: h.findings.toRecords() };
  };
  const none = await rows(null);
  assert.deepEqual(
    none.findings.filter((f) => f.commit === last).map((f) => [f.kind, f.function, f.target]),
    [["block", "pkg.app.serve", "pkg.server.load_config"]],
  );
  const cacheDir = await Deno.makeTempDir({ prefix: "reporeuse-side-cache-" });
  assert.deepEqual(await rows(cacheDir), none); // fills the cache
  const sides = `${cacheDir}/audit-side-v${SIDE_VERSION}`;
  const cleared = await rows(cacheDir, (done) => {
    if (done === 1) Deno.removeSync(sides, { recursive: true });
  });
  assert.deepEqual(cleared, none);
  // the middle commit's side was rebuilt (and written again) after the cache was cleared: only
  // the fallback writes it, as the last commit's base comes from the previous step, not the cache
  assert.ok(stemsByRev(cacheDir).has(middle));
});
