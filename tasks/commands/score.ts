/**
 * `deno task reporeuse score <corpus-dir> --out <dir> [--no-cache] [--workers N]` — scores a corpus
 * (docs/run-logs.md) and writes turns.csv, turns.parquet, targets.csv, targets.parquet,
 * events.parquet, tests.parquet, configs.parquet and errors.csv (+ errors.parquet) to the output
 * directory. Exits non-zero only when the input is unusable (no corpus there) or on a usage error;
 * problems with single files or turns are rows of errors.csv.
 *
 * @module
 */
import { parseOptions, workerCount } from "./_args.ts";
import { LayoutError } from "../../lib/layout/mod.ts";
import {
  averages,
  erroredTurns,
  scoreCorpus,
  SCORED_FILES,
  writeScored,
} from "../../lib/frames/mod.ts";
import { outputProblem } from "../../lib/util/fs.ts";

export const summary =
  "score a corpus: per-turn reuse/recall/tests/redundancy frames (CSV + Parquet)";

export const help =
  `Usage: deno task reporeuse score <corpus-dir> --out <dir> [--no-cache] [--workers N]

Scores every run turn of a corpus in the run-log layout (docs/run-logs.md) with the paper's
metrics (§3.3): reuse and recall of repo and self targets, Files, Lines, pass rate, resolved,
re-implementations and duplicated chains. Writes to --out:

  turns.csv  turns.parquet      one row per (harness, model, memory, chain, turn)
  targets.csv targets.parquet   one row per target of a turn
  events.parquet                one row per agent action
  tests.parquet                 one row per test case
  configs.parquet               one row per configuration
  errors.csv (errors.parquet)   one row per problem; every unscored turn is named here

Options:
  --out <dir>     output directory (required)
  --no-cache      re-score everything (ignore and do not write the content-hash cache)
  --workers <n>   worker threads (default: number of cores; 0 = none; at most twice the
                  number of cores, as more only costs memory)

Progress is shown on stderr when it is a terminal. Exit code: 0 scored (even with errors.csv
rows), 1 unusable input or unwritable output, 2 usage error.`;

export { maxWorkers } from "./_args.ts";

export async function run(args: string[]): Promise<number> {
  const parsed = parseOptions("score", {
    args,
    options: {
      out: { type: "string" },
      "no-cache": { type: "boolean", default: false },
      workers: { type: "string" },
    },
    allowPositionals: true,
  }, " (see --help)");
  if (!parsed) return 2;
  const [dir, ...rest] = parsed.positionals;
  const out = parsed.values.out;
  const usage = (message: string) => (console.error(`score: ${message} (see --help)`), 2);
  if (!dir) return usage("expected a corpus directory");
  if (rest.length) return usage(`expected one corpus directory, got ${parsed.positionals.length}`);
  if (!out) return usage("--out <dir> is required");
  let workers: number | undefined;
  if (parsed.values.workers !== undefined) {
    workers = workerCount("score", parsed.values.workers);
    if (workers === undefined) {
      return usage(`--workers wants a whole number ≥ 0, got '${parsed.values.workers}'`);
    }
  }
  const blocked = await outputProblem(out, SCORED_FILES);
  if (blocked) {
    console.error(`score: cannot write ${blocked}`);
    return 1;
  }
  const started = performance.now();
  let scored;
  try {
    scored = await scoreCorpus(dir, {
      cache: !parsed.values["no-cache"],
      workers,
      progress: true,
    });
  } catch (e) {
    if (e instanceof LayoutError) {
      console.error(`score: ${e.message}`);
      return 1;
    }
    throw e;
  }
  try {
    await writeScored(scored, out);
  } catch (e) {
    console.error(`score: cannot write ${out}: ${(e as Error).message}`);
    return 1;
  }
  const errored = erroredTurns(scored.errors);
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.error(
    `score: ${scored.turns.height} turns scored, ${errored} turns with errors ` +
      `(${scored.turns.height + errored} found), ${scored.errors.height} problems in errors.csv; ` +
      `${secs} s → ${out}`,
  );
  if (Deno.stderr.isTerminal() && scored.turns.height) {
    console.error(String(averages(scored.turns)));
  }
  return 0;
}
