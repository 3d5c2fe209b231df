/**
 * Regression (issue 12): a generated submission must never import a name and then define a
 * function under the same name at module level. Python rebinds the name to the def, so the calls
 * reach the local function, while the planted truth counted them as calls of the import — at
 * paper scale, seed 7, `OpenCode × Qwen3.7-plus × source`, chain unitflow-020, turn 5 imported
 * `_group_tokens_local` from `scaled_labels` and defined its own `_group_tokens_local`, so the
 * planted re-implementation of `scaled_labels.match_bins` (4 of its 5 callees, 0.8) scored 0.6.
 * The code model (CPython's scoping rules) was right; the simulator now plans imports after
 * every local def name is taken.
 */
import assert from "node:assert/strict";
import { corpusBatches } from "../lib/simulate/corpus.ts";
import { summarize } from "../lib/python/summary.ts";

/** Module-level names of a submission bound both by an import and by a def. */
async function shadowedImports(source: string): Promise<string[]> {
  const s = await summarize(source, "m.py", "m");
  return Object.entries(s.scopes[0].bindings)
    .filter(([, bs]) =>
      bs.some((b) => b.k === "from" || b.k === "module") && bs.some((b) => b.k === "def")
    )
    .map(([name]) => name);
}

Deno.test("shadowedImports finds an import rebound by a def", async () => {
  assert.deepEqual(await shadowedImports("from a import f, g\n\ndef f():\n    pass\n"), ["f"]);
  assert.deepEqual(await shadowedImports("from a import f as f_impl\n\ndef f():\n    pass\n"), []);
});

Deno.test("simulated submissions (paper scale, seed 7) never rebind an imported name", async () => {
  const bad: string[] = [];
  let submissions = 0;
  for (const batch of corpusBatches({ seed: 7, scale: "paper" })) {
    for (const [path, text] of batch) {
      if (!/^runs\/.*\/submission\.py$/.test(path)) continue;
      submissions++;
      for (const name of await shadowedImports(text)) bad.push(`${path}: ${name}`);
    }
  }
  assert.ok(submissions > 3000, `${submissions} submissions`);
  assert.deepEqual(bad, []);
});
