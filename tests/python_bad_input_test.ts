/**
 * Bad input never crashes the code model: Python 2 files and syntax errors are analysed as far as
 * tree-sitter recovers and listed in `errors` with file and line; binary and non-UTF-8 files are
 * reported and skipped; symbolic links leading outside the package are not followed.
 */
import assert from "node:assert/strict";
import { analyzePackage } from "../lib/python/mod.ts";
import { runCli } from "./cli_helpers.ts";

const BAD = new URL("./fixtures/python/bad/pkg/", import.meta.url).pathname;

async function badPackage(): Promise<{ dir: string; outside: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-bad-" });
  const dir = `${tmp}/pkg`;
  await Deno.mkdir(dir);
  for (const name of ["__init__.py", "py2.py", "broken.py"]) {
    await Deno.copyFile(`${BAD}${name}`, `${dir}/${name}`);
  }
  // binary (NUL bytes) and latin-1 files with a .py name
  await Deno.writeFile(`${dir}/binary.py`, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
  await Deno.writeFile(
    `${dir}/latin1.py`,
    new Uint8Array([
      ...new TextEncoder().encode("x = '"),
      0xe9,
      ...new TextEncoder().encode("'\n"),
    ]),
  );
  // links leading outside the package: to a file and to a directory of Python files
  const outside = `${tmp}/outside`;
  await Deno.mkdir(outside);
  await Deno.writeTextFile(`${outside}/secret.py`, "def leaked():\n    pass\n");
  await Deno.symlink(`${outside}/secret.py`, `${dir}/link_file.py`);
  await Deno.symlink(outside, `${dir}/link_dir`);
  return { dir, outside };
}

Deno.test("bad input: analysed as far as possible, every problem reported", async () => {
  const { dir } = await badPackage();
  const project = await analyzePackage(dir, { cache: false, workers: 0 });
  const graph = project.graph(dir);
  const errs = (file: string) => graph.errors.filter((e) => e.file === file);

  // Python 2: both statements reported with their lines, all three defs still found
  assert.deepEqual(errs("py2.py").map((e) => e.line), [6, 11, 16]);
  assert.match(errs("py2.py")[2].message, /backquote/);
  assert.match(errs("py2.py")[0].message, /Python 2 syntax: print statement/);
  assert.deepEqual(
    project.definitions().filter((d) => d.file === "py2.py").map((d) => d.id),
    ["pkg.py2.before", "pkg.py2.speak", "pkg.py2.after", "pkg.py2.backquotes"],
  );
  // syntax error: reported at line 5; the defs after it are recovered, calls still resolved
  assert.equal(errs("broken.py")[0]?.line, 5);
  assert.match(errs("broken.py")[0].message, /syntax error/);
  assert.ok(project.definition("pkg.broken.StillFound.method"));
  assert.deepEqual(project.callees("pkg.broken.StillFound.method"), ["pkg.broken.fine"]);
  assert.deepEqual(project.callees("pkg.py2.after"), ["pkg.py2.before"]);

  // skipped files
  assert.match(errs("binary.py")[0]?.message ?? "", /binary/);
  assert.match(errs("latin1.py")[0]?.message ?? "", /UTF-8/);
  assert.equal(project.hasModule("pkg.binary"), false);
  assert.equal(project.hasModule("pkg.latin1"), false);

  // links out of the package: reported, not followed
  assert.match(errs("link_file.py")[0]?.message ?? "", /outside the package/);
  assert.match(errs("link_dir")[0]?.message ?? "", /outside the package/);
  assert.ok(!graph.nodes.some((n) => n.id.includes("leaked")));
  assert.ok(!graph.nodes.some((n) => n.file.includes("secret")));
});

Deno.test("bad input: the CLI exits 2 with one line for a missing directory", async () => {
  const out = await runCli(["graph", "/nonexistent/pkg"]);
  assert.equal(out.code, 2);
  const err = out.err.trim();
  assert.equal(err.split("\n").length, 1);
  assert.match(err, /\/nonexistent\/pkg: no such directory/);
});
