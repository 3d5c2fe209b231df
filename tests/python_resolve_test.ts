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
