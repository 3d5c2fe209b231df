/**
 * tasks/audit_jscpd.ts, the evaluation's jscpd baseline: which lines a commit added (from a real
 * `git diff -U0`, hand-checked) and the span of a jscpd fragment, including jscpd 4's second
 * fragments whose `end` precedes their `start` (seen on attrs at 4b5b295b: a 24-line clone reported
 * as lines 262–186, which made every such clone count as "introduced" whatever the commit added).
 */
import assert from "node:assert/strict";
import { addedLines, fragmentFunction, fragmentSpan } from "../tasks/audit_jscpd.ts";
import { summarize } from "../lib/python/mod.ts";

Deno.test("addedLines reads the new-side ranges of -U0 hunks, deletions and removed files none", () => {
  const diff = [
    "diff --git a/src/a.py b/src/a.py",
    "index 1111111..2222222 100644",
    "--- a/src/a.py",
    "+++ b/src/a.py",
    "@@ -3,0 +4,2 @@ def f():",
    "+    x = 1",
    "+    return x",
    "@@ -10 +12 @@ def g():",
    "-    pass",
    "+    return None",
    "@@ -20,3 +21,0 @@ def h():",
    "diff --git a/old.py b/old.py",
    "deleted file mode 100644",
    "--- a/old.py",
    "+++ /dev/null",
    "@@ -1,2 +0,0 @@",
    "diff --git a/new.py b/new.py",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/new.py",
    "@@ -0,0 +1,3 @@",
  ].join("\n");
  assert.deepEqual(
    [...addedLines(diff)],
    [["src/a.py", [[4, 5], [12, 12]]], ["new.py", [[1, 3]]]],
  );
});

Deno.test("fragmentSpan keeps a well-formed span and repairs an inverted one from its length", () => {
  assert.deepEqual(fragmentSpan({ start: 1124, end: 1137 }, 14), { start: 1124, end: 1137 });
  assert.deepEqual(fragmentSpan({ start: 262, end: 186 }, 24), { start: 262, end: 285 });
  assert.deepEqual(fragmentSpan({ start: 5, end: 1 }, 0), { start: 5, end: 5 });
});

Deno.test("fragmentFunction: the def a fragment overlaps most, the innermost on a tie", async () => {
  // defs from the code model of a real source, not hand-written line numbers
  const src = [
    "def a():", //        1
    "    return 1", //    2
    "", //                3
    "", //                4
    "@decorate", //       5
    "def b(x):", //       6
    "    y = x + 1", //   7
    "    def inner():", // 8
    "        return y", // 9
    "    return inner", // 10
    "",
  ].join("\n");
  const s = await summarize(src, "m.py", "m");
  const defs = s.definitions.filter((d) => d.kind === "function");
  assert.deepEqual(defs.map((d) => [d.id, d.start, d.end]), [
    ["m.a", 1, 2],
    ["m.b", 6, 10],
    ["m.b.inner", 8, 9],
  ]);
  // a clone jscpd starts on a's last line and runs through b: b's, not a's
  assert.equal(fragmentFunction(defs, 2, 10)?.id, "m.b");
  // from the decorator, which the def's lines do not hold
  assert.equal(fragmentFunction(defs, 5, 9)?.id, "m.b");
  // inside inner: inner, though b overlaps it as much
  assert.equal(fragmentFunction(defs, 8, 9)?.id, "m.b.inner");
  // module level only
  assert.equal(fragmentFunction(defs, 3, 4), null);
});
