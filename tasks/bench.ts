/**
 * `deno task bench` — runs every benchmark script in `tasks/bench/` as its own process, in name
 * order, and prints what each reports. Benchmarks time whole processes and print their own
 * baselines side by side (see each script); nothing here is a timed test.
 *
 * `deno task bench [name …] [--option …]` runs only the named scripts (e.g. `graph`, `logs`,
 * `score`), passing the options (everything from the first `-…` argument on) to each of them:
 * `deno task bench score --replicate 1,10 --baseline main`. With `--help` (or `-h`) it prints the
 * named scripts' own documentation (each script's module doc: what it measures, its options) and
 * runs nothing.
 *
 * @module
 */
const dir = new URL("./bench/", import.meta.url);
const firstOption = Deno.args.findIndex((a) => a.startsWith("-"));
const names = firstOption < 0 ? Deno.args : Deno.args.slice(0, firstOption);
const options = firstOption < 0 ? [] : Deno.args.slice(firstOption);
const only = new Set(names);
const scripts = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ts"))
  .map((e) => e.name)
  .filter((name) => only.size === 0 || only.has(name.replace(/\.ts$/, "")))
  .sort();
if (options.includes("--help") || options.includes("-h")) {
  for (const name of scripts) {
    console.log(`== bench ${name.replace(/\.ts$/, "")} ==\n${moduleDoc(new URL(name, dir))}\n`);
  }
  Deno.exit(0);
}
let failed = 0;
for (const name of scripts) {
  console.log(`\n== bench ${name.replace(/\.ts$/, "")} ==`);
  const t0 = performance.now();
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(name, dir).pathname, ...options],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`== ${name}: ${code === 0 ? "ok" : `exit ${code}`} (${s} s in all) ==`);
  if (code !== 0) failed++;
}
Deno.exit(failed ? 1 : 0);

/** The module doc of a script (its leading block comment), as plain text. */
function moduleDoc(url: URL): string {
  const text = Deno.readTextFileSync(url);
  const m = /^\/\*\*([\s\S]*?)\*\//.exec(text);
  if (!m) return "(no documentation)";
  return m[1].split("\n").map((l) => l.replace(/^\s*\* ?/, "")).filter((l) => l !== "@module")
    .join("\n").trim();
}
