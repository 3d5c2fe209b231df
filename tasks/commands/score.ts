/**
 * `deno task reporeuse score <corpus-dir> --out <dir> [--no-cache] [--workers N] [--shard i/N]
 * [--partitioned]` — scores a corpus (docs/run-logs.md) in flat memory (lib/frames `scoreTo`) and
 * writes turns.csv, turns.parquet, targets.csv, targets.parquet, events.parquet, tests.parquet,
 * configs.parquet and errors.csv (+ errors.parquet) to the output directory, or the hive layout
 * (docs/scale.md). Exits non-zero only when the input is unusable (no corpus there) or on a usage
 * error; problems with single files or turns are rows of errors.csv.
 *
 * @module
 */
import { parseOptions, workerCount } from "./_args.ts";
import { LayoutError } from "../../lib/layout/mod.ts";
import {
  averages,
  erroredTurns,
  OutputError,
  scanScored,
  SCORED_FILES,
  scoreTo,
  type Shard,
} from "../../lib/frames/mod.ts";
import { outputProblem } from "../../lib/util/mod.ts";

export const summary =
  "score a corpus: per-turn reuse/recall/tests/redundancy frames (CSV + Parquet)";

export const help =
  `Usage: deno task reporeuse score <corpus-dir> --out <dir> [--no-cache] [--workers N]
                                 [--shard i/N] [--partitioned]

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
  --shard <i/N>   score only shard i of N (0-based): the chains whose stable hash of
                  (configuration directory, chain) is i; the N outputs together are one run
                  (query, reproduce --runs and readScored take the N directories)
  --partitioned   write <frame>/harness=…/model=…/memory=…/part-….parquet (hive layout, read by
                  Polars, DuckDB, Spark, Dask) instead of one file per frame; no turns.csv or
                  targets.csv

Rows are written in batches as they are scored: memory does not grow with the corpus.
_scored.json (written last) records the layout, shard, corpus and scorer.

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
      shard: { type: "string" },
      partitioned: { type: "boolean", default: false },
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
  let shard: Shard | undefined;
  if (parsed.values.shard !== undefined) {
    shard = parseShard(parsed.values.shard);
    if (!shard) {
      return usage(`--shard wants i/N with 0 ≤ i < N, got '${parsed.values.shard}'`);
    }
  }
  const blocked = await outputProblem(out, SCORED_FILES);
  if (blocked) {
    console.error(`score: cannot write ${blocked}`);
    return 1;
  }
  const started = performance.now();
  let manifest;
  try {
    manifest = await scoreTo(dir, out, {
      cache: !parsed.values["no-cache"],
      workers,
      progress: true,
      shard,
      partitioned: parsed.values.partitioned,
    });
  } catch (e) {
    if (e instanceof LayoutError) {
      console.error(`score: ${e.message}`);
      return 1;
    }
    if (e instanceof OutputError) {
      console.error(`score: ${e.message}`);
      return 1;
    }
    throw e;
  }
  const errors = scanScored(out, "errors")!.lf.collectSync();
  const errored = erroredTurns(errors);
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  const part = shard ? ` (shard ${shard.index}/${shard.count})` : "";
  console.error(
    `score: ${manifest.turns} turns scored${part}, ${errored} turns with errors ` +
      `(${manifest.turns + errored} found), ${errors.height} problems in errors.csv; ` +
      `${secs} s → ${out}`,
  );
  if (Deno.stderr.isTerminal() && manifest.turns) {
    console.error(String(averages(scanScored(out, "turns")!.lf.collectSync())));
  }
  return 0;
}

/** `i/N` with 0 ≤ i < N as a shard; undefined when it is not one. */
export function parseShard(text: string): Shard | undefined {
  const m = text.trim().match(/^(\d+)\/(\d+)$/);
  if (!m) return undefined;
  const index = Number(m[1]), count = Number(m[2]);
  return Number.isSafeInteger(count) && count >= 1 && index < count ? { index, count } : undefined;
}
