/**
 * `deno task verify truth|identical …` — the project's own acceptance checks (lib/verify):
 * planted-truth recovery over many seeds, and byte-identical outputs against another revision.
 *
 * @module
 */
import { parseOptions } from "./commands/_args.ts";
import {
  formatComparison,
  formatRecovery,
  parseSeeds,
  percentText,
  recoveryPercent,
  verifyIdentical,
  verifyTruth,
} from "../lib/verify/mod.ts";

export const help = `Usage: deno task verify <check> [options]

Checks:
  truth [--seeds 1-10] [--scale paper|small] [--jobs N] [--workers N]
      For each seed: simulate the corpus (lib/simulate) into a temporary directory, score it, and
      compare with its planted truth. One line per seed: planted targets, recovered (every decision
      equal), recovery %, extra targets, turns matched, turns with errors, then each difference
      (configuration, chain, turn, target; truth's and the scorer's value). Exit 1 when any seed is
      below 100%, has an extra target, a differing turn or an unscored turn.
      Defaults: --seeds 1-10, --scale paper, --jobs 1 (seeds at once).

  identical --against <rev> [--seed N] [--scale paper|small] [--corpus <dir>] [--B N]
            [--max-rows N]
      Checks out <rev> in a temporary git worktree (deno install there), simulates ONE corpus
      with this tree (or uses --corpus), and in both trees scores it and reproduces the tables and
      figures from it (this tree through the library, <rev> through its own CLI, each with an
      empty cache). Compares every file — frames by content (Parquet/CSV rows matched on their
      keys), text line by line — and prints identical/DIFFERENT per file with the first difference
      (for frames up to --max-rows differing rows, default 20). Exit 1 on any difference.
      Defaults: --seed 1, --scale paper, --B 1000 (bootstrap replicates of reproduce).

Temporary files (corpora, caches, the worktree) are removed at the end and on Ctrl-C.
Exit codes: 0 all good, 1 check failed or could not run, 2 usage error.`;

function count(name: string, v: string | undefined, dflt: number, min = 0): number {
  if (v === undefined) return dflt;
  const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min) {
    throw new Error(`--${name} must be a whole number ≥ ${min}, got '${v}'`);
  }
  return n;
}

function scaleOf(v: string | undefined): "paper" | "small" {
  if (v === undefined || v === "paper" || v === "small") return v ?? "paper";
  throw new Error(`--scale must be 'paper' or 'small', got '${v}'`);
}

const log = (m: string) => console.error(`verify: ${m}`);

async function truth(args: string[]): Promise<number> {
  const parsed = parseOptions("verify truth", {
    args,
    options: {
      seeds: { type: "string", default: "1-10" },
      scale: { type: "string" },
      jobs: { type: "string" },
      workers: { type: "string" },
    },
    strict: true,
  }, " (see --help)");
  if (!parsed) return 2;
  const v = parsed.values;
  let seeds: number[], scale: "paper" | "small", jobs: number, workers: number | undefined;
  try {
    seeds = parseSeeds(v.seeds!);
    scale = scaleOf(v.scale);
    jobs = count("jobs", v.jobs, 1, 1);
    workers = v.workers === undefined ? undefined : count("workers", v.workers, 0);
  } catch (e) {
    console.error(`verify truth: ${(e as Error).message} (see --help)`);
    return 2;
  }
  const t0 = performance.now();
  const results = await verifyTruth({
    seeds,
    scale,
    jobs,
    workers,
    log,
    onSeed: (seed, r, seconds) =>
      console.log(formatRecovery(`seed ${String(seed).padStart(2)}`, r, { seconds }).join("\n")),
  });
  const failed = results.filter((r) => !r.recovery.ok);
  const checked = results.filter((r) => !r.recovery.error);
  const worst = checked.map((r) => r.recovery)
    .sort((a, b) => recoveryPercent(a) - recoveryPercent(b))[0];
  const broken = results.length - checked.length;
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    failed.length
      ? `FAIL: ${failed.length} of ${results.length} seeds (${
        failed.map((r) => r.seed).join(", ")
      }) not fully recovered` +
        (worst ? ` (lowest ${percentText(worst)}%)` : "") +
        (broken ? `, ${broken} could not be simulated or scored` : "") +
        `; ${secs} s, scale ${scale}`
      : `OK: ${results.length} seeds, 100% of planted decisions recovered on each; ${secs} s, ` +
        `scale ${scale}`,
  );
  return failed.length ? 1 : 0;
}

async function identical(args: string[]): Promise<number> {
  const parsed = parseOptions("verify identical", {
    args,
    options: {
      against: { type: "string" },
      seed: { type: "string" },
      scale: { type: "string" },
      corpus: { type: "string" },
      B: { type: "string" },
      "max-rows": { type: "string" },
    },
    strict: true,
  }, " (see --help)");
  if (!parsed) return 2;
  const v = parsed.values;
  let seed: number, scale: "paper" | "small", B: number, maxRows: number;
  try {
    if (!v.against) throw new Error("--against <rev> is required");
    seed = count("seed", v.seed, 1);
    scale = scaleOf(v.scale);
    B = count("B", v.B, 1000, 1);
    maxRows = count("max-rows", v["max-rows"], 20);
  } catch (e) {
    console.error(`verify identical: ${(e as Error).message} (see --help)`);
    return 2;
  }
  const t0 = performance.now();
  const result = await verifyIdentical({
    against: v.against!,
    seed,
    scale,
    corpus: v.corpus,
    B,
    log,
  });
  for (const line of formatComparison(result, { maxRows })) console.log(line);
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return result.identical ? 0 : 1;
}

/** Runs the task; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [check, ...rest] = args;
  if (check === undefined || check === "-h" || check === "--help" || rest.includes("--help")) {
    console.log(help);
    return check === undefined ? 2 : 0;
  }
  try {
    if (check === "truth") return await truth(rest);
    if (check === "identical") return await identical(rest);
  } catch (e) {
    console.error(`verify ${check}: ${(e as Error).message}`);
    return 1;
  }
  console.error(`verify: unknown check '${check}'; expected truth or identical (see --help)`);
  return 2;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
