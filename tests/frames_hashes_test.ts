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

  // same size, modification time put back: the change time moved, so the file is re-hashed
  const mtime = (await Deno.stat(file)).mtime!;
  await Deno.writeTextFile(file, "bbbb");
  await Deno.utime(file, mtime, mtime);
  const second = new HashMemo(memoPath, TRUST_ALL);
  const r2 = second.read(file);
  assert.equal(r2.digest, sha256("bbbb"));
  assert.ok(r2.bytes);
  await second.save();

  // a corrupt memo file is ignored
  await Deno.writeTextFile(memoPath, "{ nope");
  assert.equal(new HashMemo(memoPath, TRUST_ALL).hash(file), sha256("bbbb"));
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
