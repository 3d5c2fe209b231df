/**
 * One fingerprint of the toolkit's code (lib/util/source_hash.ts) for every cache keyed by it: the
 * scorer's per-turn cache and the simulated corpus with its scores.
 */
import assert from "node:assert/strict";
import { isSourceFile, sourceHash } from "../lib/util/source_hash.ts";
import { sha256 } from "../lib/util/cache.ts";
import { scorerCodeHash } from "../lib/frames/score.ts";

const LIB = new URL("../lib/", import.meta.url).pathname;

Deno.test("sourceHash: every file but docs and hidden files, the native parser's sources included", () => {
  for (const f of ["a.ts", "flat.c", "flat.h", "train.py", "queries.scm", "data.json"]) {
    assert.ok(isSourceFile(f), f);
  }
  for (const f of ["README.md", ".DS_Store", ".a.ts.swp"]) assert.ok(!isSourceFile(f), f);
});

Deno.test("sourceHash: the hash of the sorted paths and contents, recomputed independently", async () => {
  const parts: string[] = [];
  for (const area of ["simulate", "python"]) {
    const files: string[] = [];
    const walk = (rel: string) => {
      for (const e of Deno.readDirSync(`${LIB}${rel}`)) {
        if (e.isDirectory) walk(`${rel}${e.name}/`);
        else if (!e.name.endsWith(".md") && !e.name.startsWith(".")) files.push(`${rel}${e.name}`);
      }
    };
    walk(`${area}/`);
    assert.ok(files.length > 5);
    for (const f of files.sort()) parts.push(f, sha256(Deno.readFileSync(`${LIB}${f}`)));
  }
  // the native parser's C sources are part of the python area's code
  assert.ok(parts.includes("python/native/flat.c"));
  assert.ok(!parts.includes("simulate/README.md"));
  assert.equal(await sourceHash(["simulate", "python"]), sha256(parts.join("\n")));
  assert.notEqual(
    await sourceHash(["python", "simulate"]),
    await sourceHash(["simulate", "python"]),
  );
  assert.equal(await sourceHash(["no-such-area"]), sha256(""));
});

Deno.test("sourceHash: the scorer's code hash is the one of its areas", async () => {
  assert.equal(
    await scorerCodeHash(),
    await sourceHash(["python", "logs", "metrics", "layout", "frames", "util"]),
  );
});
