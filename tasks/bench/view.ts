/**
 * Benchmark: the viewer's site of the paper-scale simulated corpus (3,750 run turns).
 *
 * 1. generates the corpus with `simulateCorpus` (lib/simulate, seed 1, scale "paper") in a temp
 *    directory;
 * 2. the baseline: `deno task reporeuse score` cold, as its own process with a fresh, empty
 *    `REPOREUSE_CACHE_DIR` — the viewer re-reads every log the way scoring does, so this is the
 *    cost it is paired against;
 * 3. `deno task reporeuse view <corpus> --out <site>` with that cache (the scores are then warm;
 *    every log is read again, every file highlighted), and again (highlighting cached too);
 * 4. the site's size: pages, stored files, bytes of turn pages, of the content store and in all,
 *    the largest and the mean turn page.
 *
 * Wall times depend on the load of the machine: each is printed with the CPU seconds the
 * process used (all its threads) and the load average. The exit code is non-zero only when a
 * process fails or a turn has no page.
 *
 * Run: `deno task bench view` (or `deno run -A tasks/bench/view.ts [--scale small]`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { simulateCorpus } from "../../lib/simulate/mod.ts";
import { cpuSeconds, loadAverage } from "./proc.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    scale: { type: "string", default: "paper" },
    keep: { type: "boolean", default: false },
  },
});
const scale = values.scale === "small" ? "small" : "paper";
const root = await Deno.makeTempDir({ prefix: "reporeuse-bench-view-" });
const corpus = `${root}/corpus`;
const cache = `${root}/cache`;
const cli = new URL("../cli.ts", import.meta.url).pathname;

const secs = (ms: number) => (ms / 1000).toFixed(1);
const mb = (b: number) => (b / 2 ** 20).toFixed(1);

/** Runs the CLI as its own process; returns wall and CPU seconds. */
async function timed(label: string, args: string[]): Promise<{ wall: number; cpu: number | null }> {
  const t0 = performance.now(), c0 = cpuSeconds("self", "children");
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, ...args],
    env: { REPOREUSE_CACHE_DIR: cache },
    stdout: "null",
    stderr: "piped",
  }).output();
  const wall = performance.now() - t0, c1 = cpuSeconds("self", "children");
  const cpu = c0 === null || c1 === null ? null : c1 - c0;
  if (code !== 0) {
    console.error(new TextDecoder().decode(stderr));
    throw new Error(`${label}: exit ${code}`);
  }
  console.log(
    `${label.padEnd(34)} ${secs(wall).padStart(7)} s wall  ${
      cpu === null ? "?" : cpu.toFixed(1)
    } s CPU  (load ${loadAverage()})`,
  );
  return { wall, cpu };
}

/** Sizes of the files under a directory, by top-level entry. */
function sizes(dir: string): { total: number; by: Map<string, number>; pages: number[] } {
  const by = new Map<string, number>();
  const pages: number[] = [];
  let total = 0;
  const walk = (d: string, top: string) => {
    for (const e of Deno.readDirSync(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) walk(p, top || e.name);
      else {
        const n = Deno.statSync(p).size;
        total += n;
        by.set(top || e.name, (by.get(top || e.name) ?? 0) + n);
        if ((top || e.name) === "turns") pages.push(n);
      }
    }
  };
  walk(dir, "");
  return { total, by, pages };
}

try {
  console.log(`simulating the ${scale} corpus …`);
  const { turns } = await simulateCorpus(corpus, { seed: 1, scale });
  console.log(`${turns} run turns in ${corpus}\n`);
  await timed("score (cold cache): baseline", ["score", corpus, "--out", `${root}/scored`]);
  await timed("view (scores cached, cold tokens)", ["view", corpus, "--out", `${root}/site`]);
  await timed("view again (everything cached)", ["view", corpus, "--out", `${root}/site`]);
  const s = sizes(`${root}/site`);
  const pages = s.pages.length;
  console.log(`\nsite: ${mb(s.total)} MB in all`);
  for (const [k, v] of [...s.by].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${k.padEnd(12)} ${mb(v).padStart(8)} MB`);
  }
  const mean = s.pages.reduce((a, b) => a + b, 0) / Math.max(1, pages);
  console.log(
    `turn pages: ${pages} (mean ${(mean / 1024).toFixed(1)} KB, largest ${
      (Math.max(...s.pages) / 1024).toFixed(1)
    } KB)`,
  );
  if (pages !== turns) {
    console.error(`bench view: ${pages} turn pages for ${turns} run turns`);
    Deno.exitCode = 1;
  }
} finally {
  // best effort: the bench's scratch directory
  if (!values.keep) await Deno.remove(root, { recursive: true }).catch(() => {});
  else console.log(`kept ${root}`);
}
