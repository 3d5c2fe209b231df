/**
 * Benchmark: scoring the paper-scale simulated corpus (3,750 run turns).
 *
 * Default mode:
 * 1. generates the corpus with `simulateCorpus` (lib/simulate, seed 1, scale "paper") in a temp
 *    directory;
 * 2. scores it cold — `deno task reporeuse score` as its own process with a fresh
 *    `REPOREUSE_CACHE_DIR`, empty but for the machine's native parser (below): W0 analysis,
 *    Python summaries, log reading all from scratch — and warm (same cache, nothing changed);
 * 3. checks recovery of the planted truth (`truth/targets.csv`): every planted target found with
 *    the same read / reused / re-implemented decisions (and kind, implemented, file, lines,
 *    callees, re-implementing function), no extra target.
 *
 * Goals: cold ≤ 60 s and warm ≤ 5 s on a 2-core machine. Wall times depend on the load
 * of the machine, so they are printed with the CPU seconds the scoring process used (all its
 * threads) and the load average; the exit code is non-zero only when recovery fails or scoring
 * fails.
 *
 * `--replicate K[,K…]` (the growth curve, docs/scale.md): the same corpus with its configurations
 * replicated K times (lib/simulate/replicate.ts; K = 10 is 37,500 turns), each K scored cold (a
 * fresh cache) by `score` in its own process, timed from outside by `/usr/bin/time`: turns/s,
 * turns per CPU second and peak RSS per K. `--baseline REV` scores the same corpora with another
 * revision's CLI too (checked out in a temporary worktree), alternating the two for each K so that
 * both see the same load; `--shards N` also runs `score --shard i/N` as N processes at once.
 * Each shard has its own fresh cache, as on separate machines; `--shared-cache` gives the N shards one
 * (as N processes on one machine, or machines sharing `REPOREUSE_CACHE_DIR`). On a replicated corpus
 * the difference is real work: the K replicas of a (configuration, chain) share their submissions,
 * whose Python summaries a single run parses once and then reads from its cache, while shards with
 * caches of their own each parse those the replicas hashed to them. `--distinct` makes the
 * replicas distinct instead (`simulateCorpus`'s `replicas`: each replica's plans, logs and
 * submissions drawn anew, K times the logs on disk): nothing is shared across replicas, as in a
 * real corpus of K times the runs, so a cache or a memo that only pays on repeated work does not
 * flatter either side.
 * `--pin` runs each process on one core (`taskset`): the single run on core 0, shard i on core
 * i mod the cores — per-core scaling, with `--workers 0` so that a process is one core's work.
 * Each fresh cache holds only the machine's native Python parser (copied from the user's cache,
 * as `deno task setup` leaves it; `--wasm`: none, every parse on tree-sitter's wasm build).
 * `--repeat R` scores each K R times per side (the sides alternating) and adds each side's
 * medians: one run's CPU seconds vary by ±10 % on a shared machine.
 *
 * Run: `deno task bench score` (or `deno run -A tasks/bench/score.ts [--scale small]`),
 * `deno task bench score --replicate 1,10 --baseline main`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { median } from "simple-statistics";
import { readScored } from "../../lib/frames/mod.ts";
import {
  checkTruth,
  checkTurnsTruth,
  replicateConfigs,
  simulateCorpus,
} from "../../lib/simulate/mod.ts";
import { checkoutWorktree, runToEnd } from "../../lib/verify/mod.ts";
import { cacheRoot, withScratch } from "../../lib/util/mod.ts";
import { cpuSeconds, loadAverage } from "./proc.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    scale: { type: "string", default: "paper" },
    keep: { type: "boolean", default: false },
    replicate: { type: "string" },
    baseline: { type: "string" },
    shards: { type: "string" },
    workers: { type: "string" },
    pin: { type: "boolean", default: false },
    repeat: { type: "string", default: "1" },
    wasm: { type: "boolean", default: false },
    "shared-cache": { type: "boolean", default: false },
    distinct: { type: "boolean", default: false },
  },
});
const scale = values.scale === "small" ? "small" : "paper";
const secs = (ms: number) => (ms / 1000).toFixed(1);
/** The tree this benchmark belongs to ("this tree"). */
const here = new URL("../../", import.meta.url).pathname;
if (values.replicate !== undefined) Deno.exit(await replicated());
const root = await Deno.makeTempDir({ prefix: "reporeuse-bench-score-" });
const corpus = `${root}/corpus`;
const cache = `${root}/cache`;

async function score(label: string, out: string): Promise<number> {
  await seedParser(cache);
  const t0 = performance.now();
  const c0 = cpuSeconds("self", "children");
  const { cmd: [cmd, ...args], env } = await scoreCommand(here, corpus, out);
  const { code, stderr } = await new Deno.Command(cmd, {
    args,
    cwd: here,
    env: { ...env, REPOREUSE_CACHE_DIR: cache },
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  const text = new TextDecoder().decode(stderr).trim();
  if (code !== 0) {
    console.error(text);
    throw new Error(`${label} scoring failed (exit ${code})`);
  }
  const c1 = cpuSeconds("self", "children");
  const cpu = c0 !== null && c1 !== null ? `, ${(c1 - c0).toFixed(1)} s CPU` : "";
  console.log(
    `${label.padEnd(5)} ${secs(ms).padStart(6)} s wall${cpu}   load ${loadAverage()}   (${
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
  console.log(`cores: ${navigator.hardwareConcurrency}   load before: ${loadAverage()}`);
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

/**
 * A fresh cache as a user's is after `deno task setup`: empty but for the machine's native
 * Python parser (`<cache root>/native-v*`, built once per machine, lib/python/native_build.ts),
 * copied in, so that each run measures scoring and not the parser's one-time build nor the wasm
 * fallback; with `--wasm`, or when this machine has none, nothing is copied and every parse is
 * wasm. The copy is verified like any cache entry before it is loaded.
 */
async function seedParser(cache: string): Promise<void> {
  await Deno.mkdir(cache, { recursive: true, mode: 0o700 });
  if (values.wasm) return;
  const from = cacheRoot();
  let entries: Deno.DirEntry[] = [];
  try {
    entries = [...Deno.readDirSync(from)];
  } catch {
    return; // no cache on this machine: no native parser
  }
  for (const e of entries) {
    if (!e.isDirectory || !/^native-v\d+$/.test(e.name)) continue;
    await runToEnd("cp", "cp", ["-a", `${from}/${e.name}`, `${cache}/${e.name}`], {});
  }
}

/** One scoring process measured from outside: wall and CPU seconds, peak RSS. */
interface Measured {
  wall: number;
  cpu: number;
  rssMb: number;
}

/**
 * `score <corpus> --out <out> …` as `deno task reporeuse` runs it in `tree` (its deno.json's
 * `reporeuse` task — its leading `NAME=value` environment settings and V8 flags included — with
 * this Deno), to run with `tree` as the working directory: each revision is measured as its users
 * run it.
 */
async function scoreCommand(
  tree: string,
  corpus: string,
  out: string,
  ...more: string[]
): Promise<{ cmd: string[]; env: Record<string, string> }> {
  const task = JSON.parse(await Deno.readTextFile(`${tree}/deno.json`)).tasks?.reporeuse;
  const words: string[] = typeof task === "string" ? task.trim().split(/\s+/) : [];
  const env: Record<string, string> = {};
  for (let m; (m = words[0]?.match(/^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/)); words.shift()) {
    env[m[1]] = m[2];
  }
  const [deno, ...args] = words;
  if (deno !== "deno") throw new Error(`${tree}/deno.json: no "deno run …" reporeuse task`);
  return { cmd: [Deno.execPath(), ...args, "score", corpus, "--out", out, ...more], env };
}

/** With `--pin`, the command on core `i` mod the machine's cores (`taskset -c`); else as is. */
function pinned(i: number, cmd: string[]): string[] {
  if (!values.pin) return cmd;
  return ["taskset", "-c", String(i % (navigator.hardwareConcurrency ?? 1)), ...cmd];
}

/** Runs a command under /usr/bin/time; throws with its stderr's tail when it fails. */
async function measured(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Measured> {
  const timing = await Deno.makeTempFile({ prefix: "reporeuse-bench-time-" });
  try {
    await runToEnd(cmd.join(" ").slice(0, 80), "/usr/bin/time", [
      "-f",
      "%e %U %S %M",
      "-o",
      timing,
      ...cmd,
    ], { cwd, env });
    const [wall, user, sys, kb] = (await Deno.readTextFile(timing)).trim().split("\n").pop()!
      .split(" ").map(Number);
    return { wall, cpu: user + sys, rssMb: kb / 1024 };
  } finally {
    // best effort: the timing file
    await Deno.remove(timing).catch(() => {});
  }
}

/** `--replicate K[,K…]`: turns/s and peak RSS per K, beside a baseline revision's. */
async function replicated(): Promise<number> {
  const ks = values.replicate!.split(",").map(Number);
  if (ks.some((k) => !Number.isInteger(k) || k < 1)) {
    console.error(`--replicate: whole numbers ≥ 1, comma-separated (got '${values.replicate}')`);
    return 2;
  }
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) {
    console.error(`--repeat: a whole number ≥ 1 (got '${values.repeat}')`);
    return 2;
  }
  const shards = values.shards === undefined ? 0 : Number(values.shards);
  const workers = values.workers === undefined ? [] : ["--workers", values.workers];
  return await withScratch("reporeuse-bench-replicate-", async (root, atCleanup) => {
    const corpus = `${root}/corpus`;
    const t0 = performance.now();
    const distinct = values.distinct ? Math.max(...ks) : 1;
    const all = await simulateCorpus(corpus, { seed: 1, scale, replicas: distinct });
    const turns = all.turns / distinct;
    console.log(
      `corpus: ${all.turns} run turns (seed 1, ${scale}${
        distinct > 1 ? `, ${distinct} distinct replicas` : ""
      }) simulated in ${
        secs(performance.now() - t0)
      } s; cores: ${navigator.hardwareConcurrency}; load ${loadAverage()}`,
    );
    const sides: { label: string; tree: string }[] = [];
    if (values.baseline) {
      const tree = `${root}/baseline`;
      const commit = await checkoutWorktree(undefined, values.baseline, tree, atCleanup);
      await runToEnd("deno install", Deno.execPath(), ["install"], { cwd: tree });
      sides.push({ label: `${values.baseline} (${commit.slice(0, 8)})`, tree });
    }
    sides.push({ label: "this tree", tree: here });
    console.log(
      "K".padStart(3) + "  " + "side".padEnd(30) + "turns".padStart(7) + "wall s".padStart(9) +
        "CPU s".padStart(8) + "turns/s".padStart(9) + "turns/CPU-s".padStart(12) +
        "peak RSS MB".padStart(13),
    );
    let n = 0;
    for (const k of [...ks].sort((a, b) => a - b)) {
      if (distinct === 1) await replicateConfigs(corpus, k);
      const kTurns = turns * k;
      // only the configurations of replicas ≤ k: a corpus per K would copy the logs; instead the
      // replicas above k are moved aside while k is measured
      const hidden = await hideReplicasAbove(corpus, k);
      try {
        // alternate the order of the sides from one run to the next (load drifts)
        const runs = new Map<number, Measured[]>();
        for (let r = 0; r < repeat; r++) {
          const order = n++ % 2 ? [...sides].reverse() : sides;
          for (const side of order) {
            const i = sides.indexOf(side);
            const out = `${root}/out-${k}-${i}`;
            const cache = `${root}/cache-${k}-${i}`;
            await seedParser(cache);
            const { cmd, env } = await scoreCommand(side.tree, corpus, out, ...workers);
            const m = await measured(pinned(0, cmd), side.tree, {
              ...env,
              REPOREUSE_CACHE_DIR: cache,
            });
            row(k, values.pin ? `${side.label}, 1 core` : side.label, kTurns, m);
            runs.set(i, [...(runs.get(i) ?? []), m]);
            await Deno.remove(cache, { recursive: true });
            await Deno.remove(out, { recursive: true });
          }
        }
        if (repeat > 1) {
          for (const [i, ms] of runs) row(k, `${sides[i].label}, median`, kTurns, medians(ms));
        }
        if (shards > 1) await shardRun(k, kTurns, shards, corpus, root, workers);
      } finally {
        for (const [from, to] of hidden) await Deno.rename(to, from);
      }
    }
    console.log(`load after: ${loadAverage()}`);
    return 0;
  });
}

/** The median of each measure over runs (each measure on its own). */
function medians(ms: Measured[]): Measured {
  return {
    wall: median(ms.map((m) => m.wall)),
    cpu: median(ms.map((m) => m.cpu)),
    rssMb: median(ms.map((m) => m.rssMb)),
  };
}

function row(k: number, label: string, turns: number, m: Measured) {
  console.log(
    String(k).padStart(3) + "  " + label.slice(0, 30).padEnd(30) + String(turns).padStart(7) +
      m.wall.toFixed(1).padStart(9) + m.cpu.toFixed(1).padStart(8) +
      (turns / m.wall).toFixed(1).padStart(9) + (turns / m.cpu).toFixed(1).padStart(12) +
      m.rssMb.toFixed(0).padStart(13),
  );
}

/** Moves the replicas numbered above k out of `runs/`; returns [original, moved] paths. */
async function hideReplicasAbove(corpus: string, k: number): Promise<[string, string][]> {
  const moved: [string, string][] = [];
  const aside = `${corpus}.aside`;
  await Deno.mkdir(aside, { recursive: true });
  for await (const e of Deno.readDir(`${corpus}/runs`)) {
    const m = e.name.match(/~r(\d+)$/);
    if (m && Number(m[1]) > k) {
      const from = `${corpus}/runs/${e.name}`, to = `${aside}/${e.name}`;
      await Deno.rename(from, to);
      moved.push([from, to]);
    }
  }
  return moved;
}

/** `score --shard i/N` as N processes at once (this tree), timed as a whole. */
async function shardRun(
  k: number,
  turns: number,
  n: number,
  corpus: string,
  root: string,
  workers: string[],
) {
  // one cache per shard (separate machines), or one for all (`--shared-cache`)
  const cacheOf = (i: number) => `${root}/cache-shard-${values["shared-cache"] ? 0 : i}`;
  for (const dir of new Set(Array.from({ length: n }, (_, i) => cacheOf(i)))) {
    await seedParser(dir);
  }
  const t0 = performance.now();
  const each = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const { cmd, env } = await scoreCommand(
        here,
        corpus,
        `${root}/shard-${i}`,
        "--shard",
        `${i}/${n}`,
        ...workers,
      );
      return measured(pinned(i, cmd), here, {
        ...env,
        REPOREUSE_CACHE_DIR: cacheOf(i),
      });
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = each.reduce((s, m) => s + m.cpu, 0);
  const rss = Math.max(...each.map((m) => m.rssMb));
  const how = `${values.pin ? `${n} shards, 1 core each` : `${n} shards at once`}${
    values["shared-cache"] ? ", 1 cache" : ""
  }`;
  row(k, how, turns, {
    wall,
    cpu,
    rssMb: rss,
  });
  for (let i = 0; i < n; i++) {
    await Deno.remove(`${root}/shard-${i}`, { recursive: true });
    await Deno.remove(cacheOf(i), { recursive: true }).catch(() => {}); // one dir, maybe gone
  }
}
