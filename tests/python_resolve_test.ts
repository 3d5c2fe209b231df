/**
 * Resolver tests in an inline-assertion format. Each directory of `tests/fixtures/python/resolve/`
 * is a workspace with one or more packages; a comment next to the code states every use expected on
 * that line, separated by `;`:
 *
 *   helper(x)  # -> pkg.util.helper                 a call resolved to pkg.util.helper
 *   np.asarray(x)  # -> unresolved: np.asarray       a call left unresolved with its dotted text
 *   key=f  # ref -> pkg.a.f                          a function-value reference
 *   for x in bag:  # implicit -> pkg.a.Bag.__iter__   a dunder run by syntax on a known class
 *   C()  # -> pkg.a.C; dunder -> pkg.a.C.__init__      a dunder run by call syntax
 *   @deco  # decorator -> pkg.a.deco                   a decorator applied
 *
 * On an annotated line the uses found must be exactly the expected ones (calls of builtins are
 * ignored unless the line names one).
 */
import assert from "node:assert/strict";
import { analyzePackage, Project, type UseKind } from "../lib/python/mod.ts";
import { workspacePackages } from "../lib/python/workspace.ts";
import { summarize } from "../lib/python/summary.ts";
import { sliceOf } from "../lib/python/flow.ts";

const ROOT = new URL("./fixtures/python/resolve/", import.meta.url).pathname;

interface Expect {
  kind: UseKind;
  resolved: boolean;
  target: string;
}

const PREFIX = {
  call: "",
  reference: "ref ",
  implicit: "implicit ",
  dunder: "dunder ",
  decorator: "decorator ",
} as const;
const key = (e: Expect) => `${PREFIX[e.kind]}-> ${e.resolved ? "" : "unresolved: "}${e.target}`;

/** Parses the expectations of one line, or null when it has none. */
export function parseExpectations(line: string): Expect[] | null {
  const m = line.match(/#\s*((?:(?:ref|implicit|dunder|decorator)\s+)?->.*)$/);
  if (!m) return null;
  return m[1].split(";").map((item) => {
    const x = item.trim().match(
      /^(?:(ref|implicit|dunder|decorator)\s+)?->\s*(unresolved:\s*)?(\S+)$/,
    );
    if (!x) throw new Error(`bad expectation '${item.trim()}' in: ${line}`);
    const kind: UseKind = x[1] === "ref" ? "reference" : (x[1] as UseKind | undefined) ?? "call";
    return { kind, resolved: !x[2], target: x[3] };
  });
}

const groups: string[] = [];
for await (const e of Deno.readDir(ROOT)) if (e.isDirectory) groups.push(e.name);
groups.sort();

Deno.test("resolve fixtures: every group has annotations", () => {
  assert.deepEqual(groups, [
    "classes",
    "implicit",
    "imports",
    "reexport",
    "references",
    "scoping",
    "shadowing",
    "star",
  ]);
});

for (const group of groups) {
  Deno.test(`resolve: ${group}`, async () => {
    const ws = `${ROOT}${group}`;
    let project = Project.fromSummaries([]);
    for (const pkg of await workspacePackages(ws)) {
      const p = await analyzePackage(pkg, { cache: false, workers: 0 });
      project = project.withModules(p.summaries());
    }
    const failures: string[] = [];
    let checked = 0;
    for (const s of project.summaries()) {
      const pkgName = s.module.split(".")[0];
      const text = await Deno.readTextFile(`${ws}/${pkgName}/${s.file}`);
      const uses = project.resolveModule(s.module).uses;
      text.split("\n").forEach((line, i) => {
        const expected = parseExpectations(line);
        if (!expected) return;
        checked += expected.length;
        const wantBuiltins = expected.some((e) => e.target.startsWith("builtins."));
        const got = new Set(
          uses.filter((u) => u.line === i + 1)
            .filter((u) => wantBuiltins || !(u.resolved && u.target.startsWith("builtins.")))
            .map(key),
        );
        const want = new Set(expected.map(key));
        const missing = [...want].filter((k) => !got.has(k));
        const extra = [...got].filter((k) => !want.has(k));
        if (missing.length || extra.length) {
          failures.push(
            `${s.file}:${i + 1}: ${line.trim()}\n    missing: ${
              missing.join(" | ") || "-"
            }\n    unexpected: ${extra.join(" | ") || "-"}`,
          );
        }
      });
    }
    assert.ok(checked > 0, `no annotations in ${group}`);
    assert.equal(failures.length, 0, `\n${failures.join("\n")}`);
  });
}

Deno.test("resolve: expectation parser", () => {
  assert.deepEqual(parseExpectations("f(x)  # -> pkg.a.f; ref -> unresolved: np.pi"), [
    { kind: "call", resolved: true, target: "pkg.a.f" },
    { kind: "reference", resolved: false, target: "np.pi" },
  ]);
  assert.deepEqual(parseExpectations("for x in b:  # implicit -> p.B.__iter__"), [
    { kind: "implicit", resolved: true, target: "p.B.__iter__" },
  ]);
  assert.deepEqual(parseExpectations("C()  # -> p.C; dunder -> p.C.__init__"), [
    { kind: "call", resolved: true, target: "p.C" },
    { kind: "dunder", resolved: true, target: "p.C.__init__" },
  ]);
  assert.deepEqual(parseExpectations("@deco  # decorator -> p.deco"), [
    { kind: "decorator", resolved: true, target: "p.deco" },
  ]);
  assert.equal(parseExpectations("x = 1  # a comment"), null);
  assert.throws(() => parseExpectations("f()  # -> "));
});

/** Every resolved use of `main.py` (beside `util.py`), as `line kind target`, builtins left out. */
async function usesOf(main: string, util = "def f():\n    pass\n\n\ndef g():\n    pass\n") {
  const project = Project.fromSummaries([
    await summarize(util, "util.py", "util"),
    await summarize(main, "main.py", "main"),
  ]);
  return project.resolveModule("main").uses
    .filter((u) => !u.target.startsWith("builtins."))
    .map((u) => `${u.line} ${u.kind} ${u.resolved ? "" : "?"}${u.target}`);
}

Deno.test("flow: a name assigned again in the same block before any use is a dead store", async () => {
  // `a = f` is dead: `a` is rebound on line 3 with nothing between that could read it
  assert.deepEqual(
    await usesOf("from util import f, g\na = f\na = g\n\n@a\ndef h():\n    pass\n"),
    [
      "3 reference util.g",
      "5 decorator util.g",
    ],
  );
  // a use of the name, or any call, in between keeps it; so does a rebinding in another block
  assert.deepEqual(await usesOf("from util import f, g\na = f\nb = [a]\na = g\n"), [
    "2 reference util.f",
    "3 reference util.f",
    "4 reference util.g",
  ]);
  assert.deepEqual(await usesOf("from util import f, g\na = f\nprint(1)\na = g\n"), [
    "2 reference util.f",
    "4 reference util.g",
  ]);
  assert.deepEqual(await usesOf("from util import f, g\na = f\nif True:\n    a = g\n"), [
    "2 reference util.f",
    "4 reference util.g",
  ]);
  // the rebinding reads the old value: `a = wrap(a)`
  assert.deepEqual(await usesOf("from util import f, g\na = f\na = g(a)\n"), [
    "2 reference util.f",
    "3 call util.g",
    "3 reference util.f",
  ]);
});

Deno.test("flow: d.update with constant keys overwrites the elements later reads call", async () => {
  const src = 'from util import f, g\nd = {"a": f, "b": f}\nd.update({"a": g})\nd["a"]()\n' +
    'd.update(b=g)\nd["b"]()\n';
  assert.deepEqual(await usesOf(src), [
    "3 call ?d.update",
    "4 call util.g",
    "5 call ?d.update",
    "6 call util.g",
  ]);
  // a nested literal replaces the whole entry
  assert.deepEqual(
    await usesOf(
      'from util import f, g\nd = {"a": {"x": f}}\nd.update({"a": {"y": g}})\nd["a"]["x"]()\nd["a"]["y"]()\n',
    ),
    ["3 call ?d.update", "5 call util.g"],
  );
  // updated from another mapping: the container escapes and every element stays a reference
  assert.deepEqual(
    await usesOf('from util import f, g\nd = {"a": f}\nd.update(other)\nd["a"]()\n'),
    [
      "2 reference util.f",
      "3 call ?d.update",
      "3 reference ?other",
    ],
  );
});

Deno.test("flow: a slice with constant bounds is a container of the elements it takes", async () => {
  const src =
    "from util import f, g\nls = [f, g, f]\nmid = ls[1:2]\nmid[0]()\nrev = ls[::-1]\nrev[1]()\n";
  assert.deepEqual(await usesOf(src), ["4 call util.g", "6 call util.g"]);
  // a slice that escapes (returned) keeps every element of its source a reference
  assert.deepEqual(await usesOf("from util import f, g\nls = [f, g]\nt = ls[1:]\nprint(t)\n"), [
    "2 reference util.f",
    "2 reference util.g",
  ]);
});

Deno.test("flow: slices follow Python's slice.indices", () => {
  const elements = [0, 1, 2, 3, 4].map((i) => ({ path: `i:${i}`, text: `f${i}` }));
  // expected index lists printed by CPython: list(range(5))[a:b:c]
  const cases: [(number | null)[], number[]][] = [
    [[1, 3, null], [1, 2]],
    [[null, null, -1], [4, 3, 2, 1, 0]],
    [[-2, null, null], [3, 4]],
    [[null, -1, 2], [0, 2]],
    [[10, null, null], []],
    [[3, 0, -2], [3, 1]],
    [[-10, 2, null], [0, 1]],
  ];
  for (const [bounds, want] of cases) {
    const got = sliceOf(elements, 5, bounds);
    assert.deepEqual(got?.[0].map((e) => e.text), want.map((i) => `f${i}`), String(bounds));
    assert.equal(got?.[1], want.length);
  }
  assert.equal(sliceOf(elements, 5, [null, null, 0]), null);
});

Deno.test("flow: an element read by a name holding a constant, also imported, is called", async () => {
  const util = 'KEY = 1\nNAME = "b"\n\n\ndef f():\n    pass\n\n\ndef g():\n    pass\n';
  assert.deepEqual(await usesOf("from util import f, g, KEY\nls = [f, g]\nls[KEY]()\n", util), [
    "3 call util.g",
  ]);
  assert.deepEqual(
    await usesOf('import util\nd = {"a": util.f, "b": util.g}\nd[util.NAME]()\n', util),
    ["3 call util.g"],
  );
  assert.deepEqual(await usesOf("from util import f, g\nK = 0\nls = [f, g]\nls[K]()\n", util), [
    "4 call util.f",
  ]);
  // a name that holds no constant (here a function) reads any element: each a reference, at
  // the read (after the key's own reference)
  assert.deepEqual(await usesOf("from util import f, g\nls = [f, g]\nls[g]()\n", util), [
    "3 reference util.g",
    "3 reference util.f",
  ]);
  // a parameter certainly holds no constant: the list escapes, as for any computed key
  assert.deepEqual(
    await usesOf("from util import f, g\ndef h(i):\n    ls = [f, g]\n    ls[i]()\n", util),
    [
      "3 reference util.f",
      "3 reference util.g",
    ],
  );
});

Deno.test("flow: a function inside an element's expression stays a reference", async () => {
  // `partial(g)` is no element value: `g` is passed, a use of its own; `f` is read back and called
  const src =
    'from util import f, g\nfrom functools import partial\nd = {"a": f, "b": partial(g)}\nd["a"]()\n';
  assert.deepEqual(await usesOf(src), ["3 call ?partial", "3 reference util.g", "4 call util.f"]);
  const upd =
    'from util import f, g\nd = {"a": f}\nd.update({"a": [g]})\nd["a"][0]()\nd["a"] = list(f)\n';
  assert.deepEqual(await usesOf(upd), [
    "3 call ?d.update",
    "4 call util.g",
    "5 reference util.f",
  ]);
});
