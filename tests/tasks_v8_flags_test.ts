// The memory settings `score` runs with (docs/scale.md "Measured"): V8 heap flags and glibc
// malloc settings, declared on the deno.json tasks that score — `reporeuse` (the CLI) and
// `reproduce` — and the same on both, so that the paper's corpus and a user's corpus are scored in
// the same memory; `deno task bench score` runs the `reporeuse` task's command, environment
// included (tasks/bench/score.ts), so the benchmark measures what users run.
import assert from "node:assert/strict";

const tasks = JSON.parse(
  await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
).tasks as Record<string, string>;

function v8Flags(task: string): string[] {
  const arg = tasks[task].split(/\s+/).find((a) => a.startsWith("--v8-flags="));
  return arg ? arg.slice("--v8-flags=".length).split(",") : [];
}

/** The leading `NAME=value` settings of a task's command. */
function envOf(task: string): string[] {
  const words = tasks[task].split(/\s+/);
  return words.slice(0, words.indexOf("deno"));
}

Deno.test("the scoring tasks run with one set of V8 heap flags and malloc settings", () => {
  const flags = v8Flags("reporeuse");
  assert.ok(flags.some((f) => f.startsWith("--heap-growing-percent=")), `flags: ${flags}`);
  assert.deepEqual(v8Flags("reproduce"), flags);
  // glibc's own variables (other C libraries ignore them): no tunable of the user's is replaced
  const env = envOf("reporeuse");
  assert.ok(env.includes("MALLOC_ARENA_MAX=2"), `settings: ${env}`);
  assert.ok(env.some((e) => e.startsWith("MALLOC_MMAP_THRESHOLD_=")), `settings: ${env}`);
  assert.ok(!env.some((e) => e.startsWith("GLIBC_TUNABLES=")), `settings: ${env}`);
  assert.deepEqual(envOf("reproduce"), env);
  assert.match(tasks.reporeuse, /^(?:MALLOC_\w+=\d+ )+deno run -A --v8-flags=\S+ tasks\/cli\.ts$/);
});
