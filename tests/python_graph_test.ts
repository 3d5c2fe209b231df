/**
 * The dependency graph, callee sets, the internal rule, the content-hash cache (warm = cold,
 * invalidated by a change), workers = single thread, and the `graph`/`calls` CLI contract.
 */
import assert from "node:assert/strict";
import { analyzePackage, BUILTINS, moduleName, Project, summarize } from "../lib/python/mod.ts";
import { runCli } from "./cli_helpers.ts";

const FIX = new URL("./fixtures/python/", import.meta.url).pathname;

async function copyDir(from: string, to: string) {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(`${from}/${e.name}`, `${to}/${e.name}`);
    else await Deno.copyFile(`${from}/${e.name}`, `${to}/${e.name}`);
  }
}

Deno.test("graph: module nodes, def nodes, call and reference edges", async () => {
  const dir = `${FIX}resolve/classes/pkg`;
  const graph = (await analyzePackage(dir, { cache: false, workers: 0 })).graph(dir);
  const node = (id: string) => graph.nodes.find((n) => n.id === id);
  assert.equal(node("pkg.child")?.kind, "module");
  assert.equal(node("pkg")?.file, "__init__.py");
  assert.equal(node("pkg.child.Child.__init__")?.kind, "method");
  const edges = graph.edges.filter((e) => e.from === "pkg.child.build");
  assert.ok(edges.some((e) => e.to === "pkg.child.Child" && e.kind === "call" && e.line === 25));
  assert.ok(edges.some((e) => e.to === "pkg.child.Child.__init__" && e.line === 25));
  assert.ok(edges.some((e) => e.to === "pkg.base.Base.create" && e.line === 28));
  // every edge joins two nodes
  const ids = new Set(graph.nodes.map((n) => n.id));
  assert.ok(graph.edges.every((e) => ids.has(e.from) && ids.has(e.to)));
  assert.deepEqual(graph.errors, []);
});

Deno.test("callees: non-builtin calls of the def's own body, sorted", async () => {
  const dir = `${FIX}resolve/references/pkg`;
  const project = await analyzePackage(dir, { cache: false, workers: 0 });
  // list/map/sorted are builtins; helper and key_fn passed as values are references
  assert.deepEqual(project.callees("pkg.refs.run"), ["pkg.refs.key_fn"]);
  const imports = await analyzePackage(`${FIX}resolve/imports/pkg`, { cache: false, workers: 0 });
  const c = imports.callees("pkg.main.use_imports");
  assert.ok(c.includes("np.asarray") && c.includes("pkg.util.Tool.run"));
  assert.ok(!c.some((x) => x.startsWith("builtins.")));
  assert.deepEqual([...c].sort(), c);
  // nested defs are excluded from their parent's callees
  const scopes = await analyzePackage(`${FIX}resolve/scoping/pkg`, { cache: false, workers: 0 });
  assert.deepEqual(scopes.callees("pkg.scopes.outer2"), []);
  assert.deepEqual(scopes.callees("pkg.scopes.outer2.inner"), [
    "pkg.scopes.f",
    "pkg.scopes.outer2.helper",
  ]);
  assert.ok(BUILTINS.has("len") && BUILTINS.has("ValueError") && !BUILTINS.has("np"));
});

Deno.test("internal: _private components and defs inside functions", async () => {
  const project = await analyzePackage(`${FIX}defs/corpus`, { cache: false, workers: 0 });
  const internal = (id: string) => project.definition(id)?.internal;
  assert.equal(internal("corpus.top"), false);
  assert.equal(internal("corpus.WithBody.method"), false);
  assert.equal(internal("corpus.WithBody.method.nested"), true);
  assert.equal(internal("corpus._private._hidden"), true);
  assert.equal(internal("corpus._private._Secret.visible"), true);
  assert.equal(internal("corpus.sub.module.Outer.Inner"), false);
});

Deno.test("moduleName and withModules", async () => {
  assert.equal(moduleName("seaborn/_core/rules.py"), "seaborn._core.rules");
  assert.equal(moduleName("pkg/__init__.py"), "pkg");
  assert.equal(moduleName("./top.py"), "top");
  const a = await summarize("def f():\n    pass\n", "a.py", "pkg.a");
  const b1 = await summarize("from .a import f\nf()\n", "b.py", "pkg.b");
  const b2 = await summarize("def f():\n    pass\nf()\n", "b.py", "pkg.b");
  const p1 = Project.fromSummaries([a, b1]);
  const p2 = p1.withModules([b2]);
  assert.equal(p1.resolveModule("pkg.b").uses[0].target, "pkg.a.f");
  assert.equal(p2.resolveModule("pkg.b").uses[0].target, "pkg.b.f");
  assert.equal(p1.resolveModule("pkg.b").uses[0].target, "pkg.a.f");
  assert.throws(() => p1.resolveModule("pkg.nope"), /not part of the project/);
});

Deno.test("withModules: definitions are those of the same modules indexed from scratch", async () => {
  // pkg.a defines B.m (id pkg.a.B.m) and module pkg.a.B defines m (the same id): the module later
  // in module order wins, whichever project the module came from; a replaced module's defs leave
  const a1 = await summarize(
    "class B:\n    def m(self):\n        pass\ndef gone():\n    pass\n",
    "a.py",
    "pkg.a",
  );
  const a2 = await summarize(
    "def kept():\n    pass\ndef kept():\n    return 1\n",
    "a.py",
    "pkg.a",
  );
  const aB = await summarize("def m():\n    pass\n", "a/B.py", "pkg.a.B");
  const aBnone = await summarize("def other():\n    pass\n", "a/B.py", "pkg.a.B");
  const c = await summarize("class B:\n    def m(self):\n        pass\n", "c.py", "pkg.c");
  const pairs: [Project, Project][] = [
    [Project.fromSummaries([a1, c]).withModules([aB]), Project.fromSummaries([a1, c, aB])],
    [Project.fromSummaries([aB, c]).withModules([a1]), Project.fromSummaries([aB, c, a1])],
    [Project.fromSummaries([a1, aB]).withModules([a2, c]), Project.fromSummaries([a2, aB, c])],
    [
      Project.fromSummaries([a1]).withModules([c]).withModules([aB, a2]),
      Project.fromSummaries([a2, c, aB]),
    ],
    // pkg.a.B's m won in the project extended; the module replaced without it, pkg.a's B.m wins
    [Project.fromSummaries([a1, aB]).withModules([aBnone]), Project.fromSummaries([a1, aBnone])],
  ];
  const ids = ["pkg.a.B", "pkg.a.B.m", "pkg.a.gone", "pkg.a.kept", "pkg.c.B", "pkg.c.B.m", "x"];
  for (const [made, fresh] of pairs) {
    for (const id of ids) {
      assert.deepEqual(made.definition(id), fresh.definition(id), id);
      assert.deepEqual(made.callees(id), fresh.callees(id), id);
    }
  }
  const [made] = pairs[0];
  assert.equal(made.definition("pkg.a.B.m")?.file, "a/B.py"); // pkg.a.B sorts after pkg.a
  assert.equal(pairs[2][0].definition("pkg.a.gone"), undefined);
  assert.equal(pairs[2][0].definition("pkg.a.kept")?.start, 3); // the last of two
  assert.equal(pairs[4][0].definition("pkg.a.B.m")?.file, "a.py"); // the other module's, now
});

Deno.test("cache: warm equals cold, workers equal one thread, a change is seen", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-cache-" });
  const dir = `${tmp}/pkg`;
  await copyDir(`${FIX}resolve/classes/pkg`, dir);
  const cacheDir = `${tmp}/cache`;
  const cold = await analyzePackage(dir, { cacheDir, workers: 2 });
  const single = await analyzePackage(dir, { cache: false, workers: 0 });
  const warm = await analyzePackage(dir, { cacheDir, workers: 2 });
  assert.deepEqual(warm.graph(dir), cold.graph(dir));
  assert.deepEqual(single.graph(dir), cold.graph(dir));
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
  assert.deepEqual(plain(warm.summaries()), plain(single.summaries()));
  assert.deepEqual(warm.callees("pkg.child.build"), single.callees("pkg.child.build"));
  await Deno.writeTextFile(`${dir}/mixins.py`, "\n\ndef added():\n    pass\n", { append: true });
  const changed = await analyzePackage(dir, { cacheDir, workers: 2 });
  assert.ok(changed.definition("pkg.mixins.added"));
  assert.equal(cold.definition("pkg.mixins.added"), undefined);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("cache: a package entry stores each summary once and checks the entries it reads", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "reporeuse-cache-" });
  const dir = `${tmp}/pkg`;
  await copyDir(`${FIX}resolve/classes/pkg`, dir);
  const cacheDir = `${tmp}/cache`;
  const cold = (await analyzePackage(dir, { cacheDir, workers: 2 })).graph(dir);
  const under = (prefix: string) =>
    [...Deno.readDirSync(cacheDir)].filter((e) => e.name.startsWith(prefix)).flatMap((e) =>
      [...Deno.readDirSync(`${cacheDir}/${e.name}`)].map((f) => `${cacheDir}/${e.name}/${f.name}`)
    );
  const [pkgFile, ...others] = under("python-package-");
  assert.equal(others.length, 0);
  const entry = JSON.parse(Deno.readTextFileSync(pkgFile));
  // the resolution data stays in the per-file entries: the package entry names them and sizes
  assert.ok(!Deno.readTextFileSync(pkgFile).includes('"scopes"'));
  assert.equal(entry.keys.length, entry.metas.length);
  const fileEntry = (key: string) =>
    under("python-summary-").flatMap((d) => [...Deno.readDirSync(d)].map((f) => `${d}/${f.name}`))
      .find((f) => f.endsWith(`/${key}.txt`))!;
  entry.keys.forEach((k: string, i: number) =>
    assert.equal(Deno.statSync(fileEntry(k)).size, entry.sizes[i])
  );
  const warm = async () => {
    for (const g of under("python-graph-")) Deno.removeSync(g);
    return (await analyzePackage(dir, { cacheDir, workers: 2 })).graph(dir);
  };
  assert.deepEqual(await warm(), cold);
  // a per-file entry of another size: the package entry is not taken, the result is the same
  const one = fileEntry(entry.keys[0]);
  Deno.writeTextFileSync(one, " ", { append: true });
  assert.deepEqual(await warm(), cold);
  // one changed under the same size after the package entry was taken: a clear error, no result
  const text = Deno.readTextFileSync(one);
  const nl = text.indexOf("\n");
  Deno.writeTextFileSync(one, text.slice(0, nl + 1) + "x".repeat(text.length - nl - 1));
  for (const g of under("python-graph-")) Deno.removeSync(g);
  const p = await analyzePackage(dir, { cacheDir, workers: 2 });
  assert.throws(
    () => p.graph(dir),
    (e: Error) => e.message.includes(`${one}: a summary cache entry changed`),
  );
  await Deno.remove(tmp, { recursive: true });
});

const cli = (...args: string[]) => runCli(args);

Deno.test("CLI: graph and calls JSON contracts, help", async () => {
  const tmp = await Deno.makeTempDir();
  const ws = `${FIX}resolve/imports`;
  const g = await cli("graph", `${ws}/pkg`, "--out", `${tmp}/g.json`, "--no-cache");
  assert.equal(g.code, 0, g.err);
  const graph = JSON.parse(await Deno.readTextFile(`${tmp}/g.json`));
  assert.deepEqual(Object.keys(graph).sort(), ["edges", "errors", "nodes", "root"]);
  assert.deepEqual(Object.keys(graph.nodes[0]).sort(), [
    "bodyStart",
    "docstring",
    "end",
    "file",
    "id",
    "internal",
    "kind",
    "signature",
    "start",
  ]);
  assert.deepEqual(Object.keys(graph.edges[0]).sort(), ["from", "kind", "line", "to"]);
  assert.ok(graph.nodes.some((n: { id: string }) => n.id === "pkg.sub.deep.dig"));

  const c = await cli("calls", `${ws}/pkg/main.py`, "--root", ws);
  assert.equal(c.code, 0, c.err);
  const calls = JSON.parse(c.out);
  assert.equal(calls.module, "pkg.main");
  assert.ok(
    calls.uses.some((u: Record<string, unknown>) =>
      u.scope === "pkg.main.use_imports" && u.target === "pkg.sub.deep.dig" && u.line === 29 &&
      u.kind === "call" && u.resolved === true
    ),
  );
  assert.ok(
    calls.uses.some((u: Record<string, unknown>) =>
      u.target === "np.asarray" && u.resolved === false
    ),
  );
  // alone, the file cannot see pkg.util's contents: nothing is guessed
  const alone = JSON.parse((await cli("calls", `${ws}/pkg/util.py`)).out);
  assert.equal(alone.module, "pkg.util");

  for (const cmd of ["graph", "calls"]) {
    const h = await cli(cmd, "--help");
    assert.equal(h.code, 0);
    assert.match(h.out, new RegExp(`Usage: deno task reporeuse ${cmd}`));
  }
  const missing = await cli("calls", "/nonexistent.py");
  assert.equal(missing.code, 2);
  assert.match(missing.err, /no such file/);
  await Deno.remove(tmp, { recursive: true });
});
