/**
 * `deno task bench` — runs every benchmark script in `tasks/bench/` as its own process, in name
 * order, and prints what each reports. Benchmarks time whole processes and print their own
 * baselines side by side (see each script); nothing here is a timed test.
 *
 * `deno task bench [name …]` runs only the named scripts (e.g. `graph`, `logs`, `score`).
 *
 * @module
 */
const dir = new URL("./bench/", import.meta.url);
const only = new Set(Deno.args);
const scripts = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ts"))
  .map((e) => e.name)
  .filter((name) => only.size === 0 || only.has(name.replace(/\.ts$/, "")))
  .sort();
let failed = 0;
for (const name of scripts) {
  console.log(`\n== bench ${name.replace(/\.ts$/, "")} ==`);
  const t0 = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(name, dir).pathname],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`== ${name}: ${code === 0 ? "ok" : `exit ${code}`} (${s} s in all) ==`);
  if (code !== 0) failed++;
}
Deno.exit(failed ? 1 : 0);
