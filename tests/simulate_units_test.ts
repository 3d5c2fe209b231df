/**
 * Unit tests of the simulated corpus's building blocks: the seeded generator, quota assignment,
 * import rendering and the read planner's line accounting (elided observations, greps).
 */
import assert from "node:assert/strict";
import { hash32, Rng } from "../lib/simulate/rng.ts";
import { allocate } from "../lib/simulate/quota.ts";
import { ImportPlan, relativeModule } from "../lib/simulate/imports.ts";
import { grepHits, shownBy, type SimWorkspace } from "../lib/simulate/reads.ts";
import { bashFor } from "../lib/simulate/shell.ts";
import { PY_BUILTINS } from "../lib/simulate/pygen.ts";
import { BUILTINS } from "../lib/python/mod.ts";

Deno.test("generated bodies only call builtins the code model treats as builtins", () => {
  // otherwise a target's callee count would differ between the planted truth and the scorer
  for (const b of PY_BUILTINS) assert.ok(BUILTINS.has(b), b);
});

Deno.test("Rng: same seed and label → same stream; forks are independent of draw order", () => {
  const a = new Rng(42), b = new Rng(42);
  const xs = Array.from({ length: 5 }, () => a.next());
  assert.deepEqual(Array.from({ length: 5 }, () => b.next()), xs);
  const c = new Rng(42);
  c.next(); // drawing from the parent does not change a fork
  assert.equal(new Rng(42).fork("x").next(), c.fork("x").next());
  assert.notEqual(new Rng(42).fork("x").next(), new Rng(42).fork("y").next());
  assert.equal(hash32("abc"), hash32("abc"));
  const r = new Rng(1);
  for (let i = 0; i < 1000; i++) {
    const v = r.int(3, 7);
    assert.ok(v >= 3 && v <= 7 && Number.isInteger(v));
  }
});

Deno.test("allocate: exactly round(rate × n) among allowed items, forced ones kept", () => {
  const rows = Array.from({ length: 200 }, (_, i) => i % 75);
  const allowed = rows.map((_, i) => i % 10 !== 0);
  const forced = rows.map((_, i) => i === 1 || i === 2);
  const sel = allocate(new Rng(3), { rows, rate: 0.62, allowed, forced });
  assert.equal(sel.filter(Boolean).length, Math.round(0.62 * 200));
  assert.ok(sel[1] && sel[2]);
  assert.ok(sel.every((s, i) => !s || allowed[i]));
  // the mean of per-row shares is brought near the rate as well
  const by = new Map<number, [number, number]>();
  rows.forEach((r, i) => {
    const [h, n] = by.get(r) ?? [0, 0];
    by.set(r, [h + (sel[i] ? 1 : 0), n + 1]);
  });
  const mean = [...by.values()].reduce((s, [h, n]) => s + h / n, 0) / by.size;
  assert.ok(Math.abs(mean - 0.62) < 0.02, `mean of shares ${mean}`);
  // more than allowed: everything allowed is selected
  const all = allocate(new Rng(3), { rows: [0, 1, 2], rate: 1, allowed: [true, false, true] });
  assert.deepEqual(all, [true, false, true]);
});

Deno.test("ImportPlan: relative imports and module aliases resolve to the right modules", () => {
  assert.equal(relativeModule("pkg._core.new", "pkg._util.text"), ".._util.text");
  assert.equal(relativeModule("pkg._core.new", "pkg._core.levels"), ".levels");
  assert.equal(relativeModule("pkg.new", "pkg._core.levels"), "._core.levels");
  // every style yields a call expression whose import binds it
  for (let seed = 0; seed < 30; seed++) {
    const plan = new ImportPlan(new Rng(seed), "pkg._core.new", "pkg", new Set(["f"]));
    const e1 = plan.expr("pkg._util.text._pad");
    const e2 = plan.expr("pkg._core.levels.f");
    const e3 = plan.expr("pkg._core.new.helper");
    assert.equal(e3, "helper");
    const text = plan.lines().join("\n");
    for (const e of [e1, e2]) {
      const bound = e.split(".")[0];
      assert.ok(new RegExp(`\\b${bound}\\b`).test(text), `${e} bound in:\n${text}`);
    }
    assert.notEqual(e2, "f", "a name taken by the module is aliased");
  }
});

function ws(files: Record<string, string[]>): SimWorkspace {
  return { pkg: "pkg", files: new Map(Object.entries(files)), extras: [], header: new Map() };
}

Deno.test("shownBy: views clip to the file; greps show hits with context; elided cats show head and tail", () => {
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i + 1} ${"x".repeat(40)}`);
  lines[99] = "def target(x):";
  const w = ws({ "pkg/a.py": lines, "pkg/b.py": ["def target(y):", "    pass"] });
  assert.deepEqual(
    shownBy(w, { kind: "view", path: "pkg/a.py", a: 395, b: 500, how: "sed" }).get("pkg/a.py"),
    [
      395,
      396,
      397,
      398,
      399,
      400,
    ],
  );
  const g = {
    kind: "grep" as const,
    pattern: "def target(",
    path: "pkg",
    recursive: true,
    after: 0,
    before: 0,
  };
  assert.deepEqual([...grepHits(w, g).keys()], ["pkg/a.py", "pkg/b.py"]);
  const ctx = { ...g, path: "pkg/a.py", recursive: false, after: 2, before: 1 };
  assert.deepEqual(shownBy(w, ctx).get("pkg/a.py"), [99, 100, 101, 102]);
  // bash rendering of the grep matches grep -n -A/-B output
  const r = bashFor(new Rng(1), w, ctx, "/testbed");
  assert.match(r.command, /grep -n -A 2 -B 1 "def target\(" /);
  assert.deepEqual(r.output.trimEnd().split("\n").map((l) => l.split(/[:-]/)[0]), [
    "99",
    "100",
    "101",
    "102",
  ]);
  // a 400-line file of ~49 chars per line is elided: the first and last 5,000 characters remain
  const text = lines.join("\n") + "\n";
  assert.ok(text.length >= 10000);
  const shown = shownBy(w, {
    kind: "view",
    path: "pkg/a.py",
    a: 1,
    b: 400,
    how: "cat",
    elide: true,
  }).get("pkg/a.py")!;
  const headLines = text.slice(0, 5000).split("\n").length; // last one partial
  assert.equal(shown[0], 1);
  assert.ok(shown.includes(headLines) && !shown.includes(headLines + 1));
  assert.ok(shown.includes(400) && !shown.includes(200));
  // a missing file shows nothing
  assert.equal(shownBy(w, { kind: "view", path: "pkg/none.py", a: 1, b: 9, how: "cat" }).size, 0);
  assert.match(
    bashFor(
      new Rng(2),
      w,
      { kind: "view", path: "pkg/none.py", a: 1, b: 9, how: "cat" },
      "/testbed",
    ).output,
    /No such file/,
  );
});
