// The V8 heap settings `score` runs with (docs/scale.md "Measured"): declared on the deno.json
// tasks that score — `reporeuse` (the CLI) and `reproduce` — and the same on both, so that the
// paper's corpus and a user's corpus are scored in the same memory; `deno task bench score` runs
// the `reporeuse` task's command (tasks/bench/score.ts), so the benchmark measures what users run.
import assert from "node:assert/strict";

const tasks = JSON.parse(
  await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
).tasks as Record<string, string>;

function v8Flags(task: string): string[] {
  const arg = tasks[task].split(/\s+/).find((a) => a.startsWith("--v8-flags="));
  return arg ? arg.slice("--v8-flags=".length).split(",") : [];
}

Deno.test("the scoring tasks run with one set of V8 heap flags", () => {
  const flags = v8Flags("reporeuse");
  assert.ok(flags.some((f) => f.startsWith("--heap-growing-percent=")), `flags: ${flags}`);
  assert.deepEqual(v8Flags("reproduce"), flags);
  assert.match(tasks.reporeuse, /^deno run -A --v8-flags=\S+ tasks\/cli\.ts$/);
});
