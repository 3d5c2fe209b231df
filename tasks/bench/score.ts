/**
 * Benchmark: scoring the paper-scale simulated corpus (3,750 run turns).
 *
 * 1. generates the corpus with `simulateCorpus` (lib/simulate, seed 1, scale "paper") in a temp
 *    directory;
 * 2. scores it cold — `deno task reporeuse score` as its own process with a fresh, empty
 *    `REPOREUSE_CACHE_DIR` (W0 analysis, Python summaries, log reading all from scratch) — and
 *    warm (same cache, nothing changed);
 * 3. checks recovery of the planted truth (`truth/targets.csv`): every planted target found with
 *    the same read / reused / re-implemented decisions (and kind, implemented, file, lines,
 *    callees, re-implementing function), no extra target.
 *
 * Goals: cold ≤ 60 s and warm ≤ 5 s on a 2-core machine. Wall times depend on the load
 * of the machine, so they are printed with the CPU seconds the scoring process used (all its
 * threads) and the load average; the exit code is non-zero only when recovery fails or scoring
 * fails.
 *
 * Run: `deno task bench score` (or `deno run -A tasks/bench/score.ts [--scale small]`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { readScored } from "../../lib/frames/mod.ts";
import { checkTruth, checkTurnsTruth } from "../../lib/simulate/check.ts";
import { simulateCorpus } from "../../lib/simulate/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    scale: { type: "string", default: "paper" },
    keep: { type: "boolean", default: false },
  },
});
const scale = values.scale === "small" ? "small" : "paper";
const root = await Deno.makeTempDir({ prefix: "reporeuse-bench-score-" });
const corpus = `${root}/corpus`;
const cache = `${root}/cache`;
const cli = new URL("../cli.ts", import.meta.url).pathname;

/** CPU seconds used by finished child processes (Linux /proc; null elsewhere). */
function childCpu(): number | null {
  try {
    const stat = Deno.readTextFileSync("/proc/self/stat");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields 16 and 17 of /proc/<pid>/stat (cutime, cstime), in clock ticks (100 per second)
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return null;
  }
}

const load = () => Deno.loadavg().map((x) => x.toFixed(1)).join(" ");
const secs = (ms: number) => (ms / 1000).toFixed(1);

async function score(label: string, out: string): Promise<number> {
  const t0 = performance.now();
  const c0 = childCpu();
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, "score", corpus, "--out", out],
    env: { REPOREUSE_CACHE_DIR: cache },
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  const text = new TextDecoder().decode(stderr).trim();
  if (code !== 0) {
    console.error(text);
    throw new Error(`${label} scoring failed (exit ${code})`);
  }
  const c1 = childCpu();
  const cpu = c0 !== null && c1 !== null ? `, ${(c1 - c0).toFixed(1)} s CPU` : "";
  console.log(
    `${label.padEnd(5)} ${secs(ms).padStart(6)} s wall${cpu}   load ${load()}   (${
      text.split("\n").pop()
    })`,
  );
  return ms;
}

let failed = false;
try {
  const t0 = performance.now();
  const { turns } = await simulateCorpus(corpus, { seed: 1, scale });
  console.log(
    `corpus: ${turns} run turns (seed 1, ${scale}) simulated in ${secs(performance.now() - t0)} s`,
  );
  console.log(`cores: ${navigator.hardwareConcurrency}   load before: ${load()}`);
  const cold = await score("cold", `${root}/cold`);
  const warm = await score("warm", `${root}/warm`);
  const scored = await readScored(`${root}/cold`);
  const check = await checkTruth(scored.targets, `${corpus}/truth/targets.csv`);
  const warmCheck = await checkTruth(
    (await readScored(`${root}/warm`)).targets,
    `${corpus}/truth/targets.csv`,
  );
  const errors = scored.errors.height;
  console.log(
    `recovery: ${check.truth} planted targets, ${check.scored} scored, ${check.missing.length} missing, ` +
      `${check.extra.length} extra, ${Object.keys(check.mismatches).length} columns differing; ` +
      `${scored.turns.height} turns scored, ${errors} error rows`,
  );
  for (const [c, m] of Object.entries(check.mismatches)) {
    console.log(`  ${c}: ${m.count} differ, e.g. ${m.examples.slice(0, 2).join("; ")}`);
  }
  const turnCheck = await checkTurnsTruth(scored.turns, `${corpus}/truth/turns.csv`);
  console.log(
    `turn truth (submitted, n_repo, n_self, tests, passed, resolved, reimplemented, Files, Lines): ` +
      (turnCheck.ok ? "all equal" : JSON.stringify(turnCheck.mismatches).slice(0, 400)),
  );
  const goal = (
    ms: number,
    s: number,
  ) => (ms <= s * 1000 ? `ok (≤ ${s} s)` : `OVER the ${s} s goal`);
  console.log(`cold ${secs(cold)} s: ${goal(cold, 60)}; warm ${secs(warm)} s: ${goal(warm, 5)}`);
  if (!check.ok || !warmCheck.ok || !turnCheck.ok || errors || scored.turns.height !== turns) {
    failed = true;
  }
  console.log(failed ? "RECOVERY FAILED" : "recovery: 100% of planted decisions, no extra target");
} finally {
  if (!values.keep) await Deno.remove(root, { recursive: true });
  else console.log(`kept ${root}`);
}
Deno.exit(failed ? 1 : 0);
