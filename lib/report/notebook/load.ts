/**
 * Loading the scored frames a notebook works on (simulated corpus, a scored directory or a
 * user's corpus) and SQL over them.
 *
 * @module
 */

import { isAbsolute, join, resolve } from "node:path";
import { readScored, scoreCorpus, type ScoreOptions } from "../../frames/mod.ts";
import { isDirectory, type Progress, progress } from "../../util/mod.ts";
import { fromFrames, type ScoredQuery } from "../../query/mod.ts";
import { type ScoredFrames, SIMULATED, simulatedScored } from "../reproduce.ts";

/** The scored frames a notebook works on, and where they come from. */
export interface Runs {
  /** Scored frames (columns in lib/frames/schema.ts). */
  scored: ScoredFrames;
  /** The corpus directory (docs/run-logs.md), or null when only scored frames were given. */
  corpus: string | null;
  /** Whether this is the project's simulated corpus. */
  simulated: boolean;
  /** Provenance line to print under every table and figure. */
  provenance: string;
}

/** Options of {@link loadRuns}. */
export interface LoadOptions {
  /** Seed of the simulated corpus (default 1). */
  seed?: number;
  /**
   * Scale of the simulated corpus: "paper" (75 chains × 5 turns per configuration) or "small".
   * Default: `$REPOREUSE_NOTEBOOK_SCALE`, else "paper".
   */
  scale?: "paper" | "small";
  /** Progress messages, scoring progress included (default: none). */
  log?: (message: string) => void;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    // what cannot be stat'ed is no file
    return false;
  }
}

/**
 * Scoring progress as lines through `log` (a line every few seconds or every 10%, then a summary;
 * lib/util/progress.ts), or none without `log`.
 */
function progressTo(log?: (message: string) => void): ScoreOptions["progress"] {
  if (!log) return undefined;
  let p: Progress | undefined;
  return (done, total) => {
    p ??= progress(total, "scoring", {
      unit: "turns",
      write: (s) => log(s.trimEnd()),
      terminal: false,
    });
    p.tick();
    if (done >= total) p.done();
  };
}

/**
 * The one call every notebook starts with. `runs` null → the project's simulated corpus, simulated
 * and scored once into the cache (shared by all notebooks and by `deno task reproduce`); a path →
 * either a scored directory (`deno task reporeuse score <corpus> --out <dir>`, holding
 * `turns.parquet`) or a corpus in the docs/run-logs.md layout (scored here, with the scorer's
 * content-hash cache). Relative paths resolve against the current directory (the notebook's).
 */
export async function loadRuns(runs: string | null, opts: LoadOptions = {}): Promise<Runs> {
  if (runs === null || runs === undefined) {
    const env = Deno.env.get("REPOREUSE_NOTEBOOK_SCALE");
    const scale = opts.scale ?? (env === "small" || env === "paper" ? env : "paper");
    const sim = await simulatedScored({
      seed: opts.seed ?? 1,
      scale,
      log: opts.log,
      progress: progressTo(opts.log),
    });
    return { scored: sim.scored, corpus: sim.corpus, simulated: true, provenance: SIMULATED };
  }
  const dir = isAbsolute(runs) ? runs : resolve(Deno.cwd(), runs);
  if (!(await isDirectory(dir))) {
    throw new Error(`loadRuns: '${runs}' is not a directory (resolved to ${dir})`);
  }
  if (await isFile(join(dir, "turns.parquet"))) {
    opts.log?.(`reading scored frames from ${dir}`);
    const scored: ScoredFrames = { ...(await readScored(dir)) };
    const corpus = (await isDirectory(join(dir, "tasks"))) ? dir : null;
    return { scored, corpus, simulated: false, provenance: `scored runs in ${dir}` };
  }
  if (!(await isDirectory(join(dir, "runs"))) && !(await isDirectory(join(dir, "tasks")))) {
    throw new Error(
      `loadRuns: ${dir} is neither a scored directory (no turns.parquet) nor a corpus (no runs/ or tasks/; see docs/run-logs.md)`,
    );
  }
  opts.log?.(`scoring ${dir}`);
  const scored: ScoredFrames = {
    ...(await scoreCorpus(dir, { cache: true, progress: progressTo(opts.log) })),
  };
  return { scored, corpus: dir, simulated: false, provenance: `run logs in ${dir}` };
}

/**
 * SQL over in-memory scored frames: the same tables and views (`missed_targets`, `flips`, …) as
 * `openScored(dir)` / `deno task reporeuse query`, without writing the frames to disk.
 */
export function sqlContext(scored: ScoredFrames): ScoredQuery {
  return fromFrames(scored);
}
