/**
 * tasks/audit_jscpd.ts, the evaluation's jscpd baseline: which lines a commit added (from a real
 * `git diff -U0`, hand-checked) and the span of a jscpd fragment, including jscpd 4's second
 * fragments whose `end` precedes their `start` (seen on attrs at 4b5b295b: a 24-line clone reported
 * as lines 262–186, which made every such clone count as "introduced" whatever the commit added).
 */
import assert from "node:assert/strict";
import { addedLines, fragmentSpan } from "../tasks/audit_jscpd.ts";

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
