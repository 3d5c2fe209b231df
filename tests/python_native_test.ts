/**
 * The native parser (`lib/python/native.ts`) gives the wasm parser's trees and summaries: node for
 * node on every fixture (the fields the summariser reads), summary for summary on the fixtures
 * (syntax errors included: those files go to the wasm parser) and whole graphs of real packages
 * (seaborn, sympy's core) through the workers; its build happens once across processes,
 * profile-guided with GCC and plain with another compiler; it can be turned off, and a library
 * that is not one is refused.
 */
import assert from "node:assert/strict";
import { analyzePackage } from "../lib/python/analyze.ts";
import { pythonParser, rootOf, treeDifference } from "../lib/python/direct.ts";
import { buildNativeParser, loadNativeParser } from "../lib/python/native.ts";
import { assertSameTree, fixtureTexts } from "./python_fixtures.ts";
import { summarizeWith, SUMMARY_FIELDS, useNativeSummaries } from "../lib/python/summary.ts";

const root = new URL("../", import.meta.url).pathname;
const texts = await fixtureTexts("python", "pycg");
// syntax errors: the native tree is not used for these, the wasm parser's is
texts.set("broken1.py", "def f(:\n    return g(1\n\nclass C\n    pass\n");
texts.set("broken2.py", "print 'python 2'\nx = `x`\nexec 'y = 1'\n");
texts.set("broken3.py", "import os\nif x\n    os.path.join(a, b\nelse:\n  y = [1, 2\n");
texts.set(
  "utf16.py",
  "caf\u00e9 = '\u{1F600}\u{1F600}'; na\u00efve = caf\u00e9  # \u4e2d\u6587 \u{1F680}\n" +
    "def \u00fcber(x='\u{1F600}', *, y=\u00e9t\u00e9):\n    return [\u00fcber(z) for z in '\u{1F4A9}']\n",
);

const built = await buildNativeParser();
const fp = await pythonParser();

Deno.test("native: builds on this machine and passes its self-check", () => {
  assert.ok("path" in built, `no native parser: ${"error" in built ? built.error : ""}`);
  assert.equal(useNativeSummaries(fp, built.path), null);
  assert.ok(fp.native);
});

Deno.test("native: the self-check's comparison sees a difference", () => {
  const flat = fp.native!.parse("a = (1)\nb = 2\n")!;
  const tree = fp.parser.parse("a = 1\nb = 2\n")!;
  try {
    const same = treeDifference(flat, flat, SUMMARY_FIELDS);
    assert.equal(same, null);
    assert.match(treeDifference(flat, rootOf(tree, "a = 1\nb = 2\n", fp), SUMMARY_FIELDS)!, /≠/);
  } finally {
    tree.delete();
  }
});

Deno.test("native: every fixture's tree equals the wasm parser's, node for node", () => {
  const native = fp.native!;
  let compared = 0, withErrors = 0, nodes = 0;
  for (const [file, text] of texts) {
    const flat = native.parse(text);
    assert.ok(flat, file);
    const tree = fp.parser.parse(text)!;
    try {
      const ref = rootOf(tree, text, fp);
      // error trees are never used (the wasm parser does those files), but the flag must agree
      assert.equal(flat.hasError, ref.hasError, `${file}: has an error`);
      if (flat.hasError) {
        withErrors++;
        continue;
      }
      // an independent comparison (tests/python_fixtures.ts), not the self-check's own
      nodes += assertSameTree(ref, flat, SUMMARY_FIELDS, file);
      compared++;
    } finally {
      tree.delete();
    }
  }
  assert.ok(compared >= 200, `${compared} trees compared`); // python/ and PyCG's suite
  assert.ok(nodes > 10_000, `${nodes} nodes compared`); // 12,186 on 2026-12-01
  assert.ok(withErrors >= 3, `${withErrors} fixtures with syntax errors`);
});

Deno.test("native: summaries equal the wasm parser's on every fixture, errors included", () => {
  const native = fp.native!;
  try {
    for (const [file, text] of texts) {
      fp.native = native;
      const a = JSON.stringify(summarizeWith(fp, text, "m.py", "pkg.m"));
      fp.native = null;
      const b = JSON.stringify(summarizeWith(fp, text, "m.py", "pkg.m"));
      assert.equal(a, b, file);
    }
  } finally {
    fp.native = native;
  }
});

Deno.test("native: hostile input gives the wasm parser's summaries, and no crash", () => {
  const native = fp.native!;
  const cases: Record<string, string> = {
    parens: "x = " + "(".repeat(100_000) + "1" + ")".repeat(100_000) + "\n",
    unclosed: "x = " + "[".repeat(100_000) + "\n",
    calls: "y = " + "g(".repeat(30_000) + ")".repeat(30_000) + "\n",
    attrs: "z = a" + ".b".repeat(100_000) + "\n",
    indent: Array.from({ length: 2000 }, (_, i) => " ".repeat(i) + `if x${i}:`).join("\n") +
      "\n" + " ".repeat(2000) + "pass\n",
    line: "x = [" + "f(a), ".repeat(50_000) + "]\n",
    mixed: "def f():\n\tif x:\n        \treturn 1\n\x0c\nclass C: pass\r\nu = '\u{1F600}'\r",
  };
  try {
    for (const [name, src] of Object.entries(cases)) {
      fp.native = native;
      const a = JSON.stringify(summarizeWith(fp, src, "m.py", "m"));
      fp.native = null;
      assert.equal(a, JSON.stringify(summarizeWith(fp, src, "m.py", "m")), name);
    }
  } finally {
    fp.native = native;
  }
});

Deno.test("native: SUMMARY_FIELDS names every field the summariser reads", async () => {
  const src = await Deno.readTextFile(`${root}lib/python/summary.ts`);
  const read = new Set<string>();
  for (const m of src.matchAll(/childForFieldName\("([a-z_]+)"\)/g)) read.add(m[1]);
  for (const m of src.matchAll(/fields\([a-zA-Z.]+, "([a-z_]+)", "([a-z_]+)"\)/g)) {
    read.add(m[1]);
    read.add(m[2]);
  }
  assert.ok(read.size >= 10, [...read].join(" "));
  const listed = new Set<string>(SUMMARY_FIELDS);
  for (const f of read) assert.ok(listed.has(f), `field "${f}" is read but not in SUMMARY_FIELDS`);
});

for (const pkg of ["seaborn", "sympy/core"]) {
  Deno.test(`native: the graph of ${pkg} (workers) equals the wasm parser's`, async () => {
    const dir = `/usr/lib/python3/dist-packages/${pkg}`;
    const on = await analyzePackage(dir, { cache: false, native: "auto" });
    const off = await analyzePackage(dir, { cache: false, native: "off" });
    const a = on.graph(dir), b = off.graph(dir);
    assert.ok(a.edges.length > 1000, `${a.edges.length} edges`);
    assert.equal(JSON.stringify(a), JSON.stringify(b));
  });
}

Deno.test("native: a file that is not the library is refused", () => {
  assert.equal(loadNativeParser(`${root}README.md`, fp.language), null);
  assert.equal(loadNativeParser(`${root}no-such-library.so`, fp.language), null);
});

const script = (code: string, env: Record<string, string>) =>
  new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    cwd: root,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();

Deno.test("native: REPOREUSE_PARSER=wasm turns it off", async () => {
  const out = await script(
    `import { buildNativeParser } from "./lib/python/native.ts";
     console.log(JSON.stringify(await buildNativeParser()));`,
    { REPOREUSE_PARSER: "wasm" },
  );
  const r = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.match(r.error, /REPOREUSE_PARSER=wasm/);
});

Deno.test("native: without --allow-ffi and --allow-run, the wasm parser does the work", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-native-perm-" });
  try {
    const script = `${dir}/run.ts`;
    await Deno.writeTextFile(
      script,
      `import { analyzePackage } from "${root}lib/python/analyze.ts";
       const p = await analyzePackage(Deno.args[0], { cache: false, workers: 2 });
       console.log(JSON.stringify(p.graph(Deno.args[0]).edges.length));`,
    );
    const pkg = "/usr/lib/python3/dist-packages/seaborn";
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        `--config=${root}deno.json`,
        "--allow-read",
        "--allow-write",
        "--allow-env",
        script,
        pkg,
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const expected = (await analyzePackage(pkg, { cache: false, native: "off" })).graph(pkg);
    assert.equal(Number(new TextDecoder().decode(out.stdout)), expected.edges.length);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("native: two processes building at once build it once, atomically, profile-guided", async () => {
  const cache = await Deno.makeTempDir({ prefix: "reporeuse-native-test-" });
  try {
    const code = `import { buildNativeParser } from "./lib/python/native.ts";
      console.log(JSON.stringify(await buildNativeParser()));`;
    const outs = await Promise.all([1, 2].map(() => script(code, { REPOREUSE_CACHE_DIR: cache })));
    const rs = outs.map((o) => JSON.parse(new TextDecoder().decode(o.stdout)));
    assert.ok(rs.every((r) => typeof r.path === "string"), JSON.stringify(rs));
    assert.equal(rs[0].path, rs[1].path);
    assert.deepEqual(rs.map((r) => r.built).sort(), [false, true]);
    // this machine's compiler is GCC (tasks/setup.sh installs it): the build is profile-guided
    assert.equal(rs.find((r) => r.built).profiled, true);
    const left: string[] = [];
    for await (const e of Deno.readDir(rs[0].path.slice(0, rs[0].path.lastIndexOf("/")))) {
      left.push(e.name);
    }
    assert.deepEqual(left, ["libreporeuse-python.so"]); // no temporary file, no lock
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("native: a compiler that is not GCC gets the plain build, which passes its self-check", async () => {
  const cache = await Deno.makeTempDir({ prefix: "reporeuse-native-test-" });
  try {
    // a `cc` that answers --version as clang does, and compiles with GCC
    const bin = `${cache}/bin`;
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      `${bin}/cc`,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "Debian clang version 14.0.6"; exit 0; fi\n` +
        `exec gcc "$@"\n`,
    );
    await Deno.chmod(`${bin}/cc`, 0o755);
    const code = `import { buildNativeParser } from "./lib/python/native.ts";
      import { pythonParser } from "./lib/python/direct.ts";
      import { useNativeSummaries } from "./lib/python/summary.ts";
      const b = await buildNativeParser();
      const used = "path" in b ? useNativeSummaries(await pythonParser(), b.path) : "none";
      console.log(JSON.stringify({ ...b, used }));`;
    const out = await script(code, {
      REPOREUSE_CACHE_DIR: cache,
      PATH: `${bin}:${Deno.env.get("PATH")}`,
    });
    const r = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(r.built, true, JSON.stringify(r));
    assert.equal(r.profiled, "the compiler is not GCC");
    assert.equal(r.used, null); // loaded, and its self-check passed
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
