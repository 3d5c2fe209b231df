import assert from "node:assert/strict";
import { HashMemo } from "../lib/frames/hashes.ts";
import { sha256 } from "../lib/util/cache.ts";

const TRUST_ALL = -Infinity; // no racy window: tests the identity checks alone

Deno.test("HashMemo: remembered hashes are used only for unchanged files", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/log.json`;
  const memoPath = `${dir}/memo/hashes.json`;
  await Deno.writeTextFile(file, "aaaa");
  const first = new HashMemo(memoPath, TRUST_ALL);
  const r1 = first.read(file);
  assert.equal(r1.digest, sha256("aaaa"));
  assert.ok(r1.bytes, "unknown file: read");
  assert.deepEqual(first.read(file), { digest: sha256("aaaa") }, "known: nothing read");
  await first.save();
  assert.deepEqual(new HashMemo(memoPath, TRUST_ALL).read(file), { digest: sha256("aaaa") });

  // another size: re-hashed
  await Deno.writeTextFile(file, "aaaaa");
  assert.equal(new HashMemo(memoPath, TRUST_ALL).hash(file), sha256("aaaaa"));
  // same size, another modification time: re-hashed
  const m = new HashMemo(memoPath, TRUST_ALL);
  m.hash(file);
  await Deno.writeTextFile(file, "bbbbb");
  const t = new Date(Date.now() - 3_600_000);
  await Deno.utime(file, t, t);
  assert.equal(m.hash(file), sha256("bbbbb"));

  // a corrupt memo file is ignored
  await Deno.writeTextFile(memoPath, "{ nope");
  assert.equal(new HashMemo(memoPath, TRUST_ALL).hash(file), sha256("bbbbb"));
});

Deno.test("HashMemo: same size and mtime put back — the change time gives it away", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/log.json`;
  await Deno.writeTextFile(file, "aaaa");
  const m = new HashMemo(undefined, TRUST_ALL);
  m.hash(file);
  const mtime = (await Deno.stat(file)).mtime!;
  // change times have one-second resolution here: let one pass
  await new Promise((r) => setTimeout(r, 1100));
  await Deno.writeTextFile(file, "bbbb");
  await Deno.utime(file, mtime, mtime);
  assert.equal(m.hash(file), sha256("bbbb"));
});

Deno.test("HashMemo: an entry recorded right after the file changed is re-hashed (racy)", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/log.json`;
  await Deno.writeTextFile(file, "cccc");
  const memo = new HashMemo(`${dir}/memo.json`); // default two-second window
  memo.hash(file);
  await memo.save();
  assert.ok(new HashMemo(`${dir}/memo.json`).read(file).bytes, "racy entry not trusted");
});
