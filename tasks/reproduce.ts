/**
 * `deno task reproduce [--runs <corpus-dir>] [--out <dir>]` — regenerates the paper's Tables 1–5,
 * bootstrap intervals and figures. Without `--runs` it generates the project's simulated corpus
 * (cached) and scores it; every output then says "SIMULATED corpus — not measured agent runs".
 *
 * @module
 */
import { parseOptions } from "./commands/_args.ts";
import { reproduce } from "../lib/report/mod.ts";

/** Usage text. */
export const help = `Usage: deno task reproduce [--runs <corpus-dir>] [--out <dir>] [options]

Regenerates the paper's Tables 1-5 (Markdown, CSV, LaTeX), 95% cluster-bootstrap intervals of every
Table 2 cell (tables/ci.md), paired comparisons, and figures (vega-lite .vl.json + SVG), each beside
the paper's published values.

Options:
  --runs <dir>      a corpus of run logs (docs/run-logs.md), or a directory written by score, or
                    (repeated) the N directories of score --shard i/N, together one run;
                    default: the simulated corpus
  --out <dir>       output directory (default: out)
  --seed <n>        seed of the simulated corpus (default: 1)
  --scale <s>       simulated corpus scale: paper (75 chains) | small (default: paper)
  --B <n>           bootstrap replicates (default: 1000)
  --boot-seed <n>   bootstrap seed (default: 20260)
  --no-cache        regenerate and rescore the simulated corpus
  -q, --quiet       no progress messages
  -h, --help        this text`;

function int(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    throw new Error(`--${name} must be a non-negative integer (got '${v}')`);
  }
  return n;
}

/** Runs the task; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseOptions("reproduce", {
    args,
    options: {
      runs: { type: "string", multiple: true },
      out: { type: "string", default: "out" },
      seed: { type: "string" },
      scale: { type: "string" },
      B: { type: "string" },
      "boot-seed": { type: "string" },
      "no-cache": { type: "boolean", default: false },
      quiet: { type: "boolean", short: "q", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  }, `\n\n${help}`);
  if (!parsed) return 2;
  const values = parsed.values;
  if (values.help) {
    console.log(help);
    return 0;
  }
  try {
    if (values.scale !== undefined && values.scale !== "paper" && values.scale !== "small") {
      throw new Error(`--scale must be 'paper' or 'small' (got '${values.scale}')`);
    }
    for (const dir of values.runs ?? []) {
      // what cannot be stat'ed is no directory: the error below names it
      const st = await Deno.stat(dir).catch(() => undefined);
      if (!st?.isDirectory) throw new Error(`--runs ${dir}: not a directory`);
    }
    const started = performance.now();
    const log = values.quiet
      ? undefined
      : (m: string) =>
        console.error(`reproduce [${((performance.now() - started) / 1000).toFixed(1)} s]: ${m}`);
    const res = await reproduce({
      runs: values.runs?.length === 1 ? values.runs[0] : values.runs,
      out: values.out!,
      seed: int("seed", values.seed, 1),
      scale: values.scale as "paper" | "small" | undefined,
      B: int("B", values.B, 1000),
      bootstrapSeed: int("boot-seed", values["boot-seed"], 20260),
      cache: !values["no-cache"],
      log,
      progress: !values.quiet,
    });
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `${res.simulated ? "SIMULATED corpus — not measured agent runs. " : ""}` +
        `Wrote ${res.files.length} files to ${res.out}/ in ${secs} s (data: ${res.provenance}).`,
    );
    if (res.agreement) console.log(res.agreement);
    if (res.scoringErrors) {
      console.log(`Scoring problems: ${res.scoringErrors} (see the scorer's errors).`);
    }
    return 0;
  } catch (e) {
    console.error(`reproduce: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
