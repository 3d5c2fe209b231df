/**
 * Definitions against CPython's `ast` (the oracle): `(file, id, start, end)` of every def/class of
 * a fixture corpus and of Debian's python3-seaborn must agree 100%.
 */
import assert from "node:assert/strict";
import { analyzePackage } from "../lib/python/mod.ts";

const ORACLE = new URL("./fixtures/python/ast_defs.py", import.meta.url).pathname;
const CORPUS = new URL("./fixtures/python/defs/corpus", import.meta.url).pathname;
const SEABORN = "/usr/lib/python3/dist-packages/seaborn";

/** `/usr/bin/python3` (Debian, has seaborn), else `python3` on PATH. */
export async function python(): Promise<string> {
  return await Deno.stat("/usr/bin/python3").then(() => "/usr/bin/python3", () => "python3");
}

async function cpythonDefs(dir: string): Promise<{ defs: string[]; skipped: string[][] }> {
  const out = await new Deno.Command(await python(), { args: [ORACLE, dir] }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const json = JSON.parse(new TextDecoder().decode(out.stdout));
  return { defs: json.defs.map((d: unknown[]) => d.join("|")).sort(), skipped: json.skipped };
}

async function ourDefs(dir: string, workers?: number): Promise<string[]> {
  const project = await analyzePackage(dir, { cache: false, workers });
  return project.definitions().map((d) => [d.file, d.id, d.start, d.end].join("|")).sort();
}

function diff(ours: string[], theirs: string[]): string {
  const a = new Set(ours), b = new Set(theirs);
  const missing = theirs.filter((x) => !a.has(x)).slice(0, 10);
  const extra = ours.filter((x) => !b.has(x)).slice(0, 10);
  return `missing (CPython only): ${missing.join(", ")}\nextra (ours only): ${extra.join(", ")}`;
}

Deno.test("defs: fixture corpus agrees with CPython ast", async () => {
  const [ours, theirs] = await Promise.all([ourDefs(CORPUS, 0), cpythonDefs(CORPUS)]);
  assert.deepEqual(theirs.skipped, []);
  assert.ok(theirs.defs.length >= 40, `corpus too small: ${theirs.defs.length}`);
  assert.deepEqual(ours, theirs.defs, diff(ours, theirs.defs));
});

Deno.test("defs: seaborn 0.12.2 agrees with CPython ast (100%)", async () => {
  const present = await Deno.stat(SEABORN).then(() => true, () => false);
  assert.ok(present, `${SEABORN} missing: install Debian's python3-seaborn (see .ci/run)`);
  const [ours, theirs] = await Promise.all([ourDefs(SEABORN, 0), cpythonDefs(SEABORN)]);
  assert.ok(theirs.defs.length > 900, `only ${theirs.defs.length} defs from CPython`);
  assert.deepEqual(ours, theirs.defs, diff(ours, theirs.defs));
});

Deno.test("defs: metadata of a decorated method", async () => {
  const project = await analyzePackage(CORPUS, { cache: false, workers: 0 });
  const d = project.definition("corpus.decorated")!;
  assert.equal(d.kind, "function");
  assert.deepEqual(d.decorators, ["decorator", "decorator.with_args(1,\n                     2)"]);
  assert.equal(d.start, 15);
  assert.equal(d.bodyStart, 16);
  const top = project.definition("corpus.top")!;
  assert.equal(top.signature, "def top(a, b=1, *args, c: int = 2, **kw) -> int");
  assert.equal(top.docstring, "Doc.");
  assert.equal(top.end, 6);
  const cls = project.definition("corpus.WithBody")!;
  assert.equal(cls.kind, "class");
  assert.equal(cls.signature, "class WithBody(Base, metaclass=Meta)");
  assert.equal(cls.docstring, "Class doc\non two lines.");
  assert.equal(project.definition("corpus.WithBody.method")!.kind, "method");
  assert.equal(project.definition("corpus.WithBody.method.nested")!.kind, "function");
  assert.equal(project.definition("corpus.coro")!.async, true);
  assert.equal(project.definition("corpus.docstring_only")!.docstring, "Only a docstring.");
});
