/**
 * The scored frames (lib/frames/schema.ts) as nodejs-polars DataFrames: building them from a
 * corpus, writing them (CSV + Parquet) and reading them back, and the macro-averaged summaries
 * the report, query and notebook code starts from.
 *
 * @module
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import { existsSync, recoverDir, writeDirAtomic } from "../util/mod.ts";
import { checkShards, scanScored } from "./scan.ts";
import {
  FrameSink,
  MANIFEST,
  type ScoredManifest,
  type SinkOptions,
  STREAMED_FRAMES,
} from "./sink.ts";
import { averageByConfig, averageByTurn, firstLastTurns } from "../metrics/mod.ts";
import { conform, rowsOf, toFrame, toKeyedFrame } from "./build.ts";
import { frameCsv } from "./csv.ts";
import {
  CONFIG_KEYS,
  type ConfigRow,
  CONFIGS_SCHEMA,
  ERRORS_SCHEMA,
  EVENTS_SCHEMA,
  FRAME_SCHEMAS,
  type TargetRow,
  TARGETS_SCHEMA,
  TESTS_SCHEMA,
  TURN_KEYS,
  type TurnRow,
  TURNS_SCHEMA,
} from "./schema.ts";
import {
  type ScoredRows,
  type ScoreOptions,
  scorerCodeHash,
  scoreRows,
  scoreStream,
} from "./score.ts";

/** The scored frames; columns exactly per lib/frames/schema.ts, sorted by their join keys. */
export interface Scored {
  turns: pl.DataFrame;
  targets: pl.DataFrame;
  events: pl.DataFrame;
  tests: pl.DataFrame;
  errors: pl.DataFrame;
  configs: pl.DataFrame;
}

/** Join keys (sort order) of each frame. */
export const FRAME_KEYS = {
  turns: [...TURN_KEYS],
  targets: [...TURN_KEYS, "target"],
  events: [...TURN_KEYS, "idx"],
  tests: [...TURN_KEYS, "case"],
  errors: ["config", "chain", "turn", "path", "message"],
  configs: [...CONFIG_KEYS],
} as const;

const SCHEMAS = FRAME_SCHEMAS;

/** Builds the frames from plain scored rows. */
export function framesOf(rows: ScoredRows): Scored {
  const perConfig = new Map<string, ConfigRow>();
  const k = (r: { harness: string; model: string; memory: string }) =>
    `${r.harness}\u0000${r.model}\u0000${r.memory}`;
  for (const c of rows.configs) {
    perConfig.set(k(c), {
      harness: c.harness,
      model: c.model,
      memory: c.memory,
      chains: 0,
      turns: 0,
    });
  }
  const chainsOf = new Map<string, Set<string>>();
  for (const t of rows.turns) {
    const c = perConfig.get(k(t)) ??
      { harness: t.harness, model: t.model, memory: t.memory, chains: 0, turns: 0 };
    perConfig.set(k(t), c);
    c.turns++;
    const s = chainsOf.get(k(t)) ?? new Set();
    s.add(t.chain);
    chainsOf.set(k(t), s);
    c.chains = s.size;
  }
  return {
    turns: toFrame(rows.turns, TURNS_SCHEMA, FRAME_KEYS.turns),
    targets: toKeyedFrame(rows.targets, TARGETS_SCHEMA, TURN_KEYS, ["target"]),
    events: toKeyedFrame(rows.events, EVENTS_SCHEMA, TURN_KEYS, ["idx"]),
    tests: toKeyedFrame(rows.tests, TESTS_SCHEMA, TURN_KEYS, ["case"]),
    errors: toFrame(rows.errors, ERRORS_SCHEMA, FRAME_KEYS.errors),
    configs: toFrame([...perConfig.values()], CONFIGS_SCHEMA, FRAME_KEYS.configs),
  };
}

/**
 * Scores a corpus directory into frames. Throws a `LayoutError` only when the directory is
 * unusable as a whole; every other problem becomes an `errors` row, and every run turn found is
 * either a `turns` row or named in `errors` (turns found = turns scored + turns in errors).
 */
export async function scoreCorpus(dir: string, opts: ScoreOptions = {}): Promise<Scored> {
  return framesOf(await scoreRows(dir, opts));
}

/** Distinct (config, chain, turn) triples named in an errors frame: the turns left unscored. */
export function erroredTurns(errors: pl.DataFrame): number {
  const seen = new Set<string>();
  for (
    const r of rowsOf<{ config: string | null; chain: string | null; turn: number | null }>(errors)
  ) {
    if (r.config !== null && r.chain !== null && r.turn !== null) {
      seen.add(`${r.config}\u0000${r.chain}\u0000${r.turn}`);
    }
  }
  return seen.size;
}

/** Files written by {@link writeScored}. */
export const SCORED_FILES = [
  "turns.csv",
  "turns.parquet",
  "targets.csv",
  "targets.parquet",
  "events.parquet",
  "tests.parquet",
  "configs.parquet",
  "errors.csv",
  "errors.parquet",
] as const;

/**
 * Writes the frames to `outDir` (created): turns.csv/.parquet, targets.csv/.parquet,
 * events.parquet, tests.parquet, configs.parquet, errors.csv (and errors.parquet, which
 * {@link readScored} reads back with exact types). All or nothing (lib/util/fs.ts
 * `writeDirAtomic`): the files are written to a new directory beside `outDir` that then replaces
 * it, so a failure (disk full, interrupt) leaves the old frames whole; other files already in
 * `outDir` are kept.
 */
export async function writeScored(s: Scored, outDir: string): Promise<void> {
  await writeDirAtomic(outDir, async (dir) => {
    const parquet = (df: pl.DataFrame, name: string) => df.writeParquet(join(dir, name));
    // for spreadsheets: formula-like text cells neutralised (lib/frames/csv.ts)
    const csv = (df: pl.DataFrame, name: string) =>
      Deno.writeTextFileSync(join(dir, name), frameCsv(df));
    csv(s.turns, "turns.csv");
    parquet(s.turns, "turns.parquet");
    csv(s.targets, "targets.csv");
    parquet(s.targets, "targets.parquet");
    parquet(s.events, "events.parquet");
    parquet(s.tests, "tests.parquet");
    parquet(s.configs, "configs.parquet");
    csv(s.errors, "errors.csv");
    parquet(s.errors, "errors.parquet");
    // the bytes must be on disk before the directory replaces the old one
    for (const name of SCORED_FILES) {
      const f = await Deno.open(join(dir, name), { read: true });
      try {
        await f.syncData();
      } finally {
        f.close();
      }
    }
  });
}

/**
 * Reads scored frames, cast to the schemas' dtypes: a directory written by {@link writeScored} or
 * {@link scoreTo} (flat or hive layout), or the directories of the N shards of one run (checked
 * by lib/frames/scan.ts `checkShards`), whose rows together are that run's, sorted by join keys.
 */
export async function readScored(outDir: string | readonly string[]): Promise<Scored> {
  const dirs = typeof outDir === "string" ? [outDir] : [...outDir];
  if (!dirs.length) throw new Error("readScored: no directory given");
  for (const d of dirs) await recoverDir(d); // an interrupted write left the old copy beside
  checkShards(dirs);
  const read = async (name: keyof typeof SCHEMAS) => {
    const path = join(dirs[0], `${name}.parquet`);
    if (dirs.length === 1 && existsSync(path)) {
      // read whole into memory first: the file may be replaced while a lazy frame points at it
      return conform(pl.readParquet(Buffer.from(await Deno.readFile(path))), SCHEMAS[name]);
    }
    const scanned = scanScored(dirs, name);
    if (!scanned) throw new Error(`${path}: missing (run \`deno task reporeuse score\` first)`);
    const df = scanned.lf.collectSync();
    return conform(df.height ? df.sort([...FRAME_KEYS[name]]) : df, SCHEMAS[name]);
  };
  return {
    turns: await read("turns"),
    targets: await read("targets"),
    events: await read("events"),
    tests: await read("tests"),
    errors: await read("errors"),
    configs: await read("configs"),
  };
}

/** Names in a scored directory that {@link scoreTo} writes (never carried over from an old one). */
function isScoredOutput(rel: string): boolean {
  const top = rel.split("/")[0];
  return (SCORED_FILES as readonly string[]).includes(top) || top === MANIFEST ||
    top === ".parts" || top in STREAMED_FRAMES;
}

/**
 * Scores a corpus (or one shard: `opts.shard`) straight into `outDir`, in flat memory: rows are
 * written in batches as they are produced (lib/frames/sink.ts), never held whole. Flat layout (the
 * files of {@link writeScored}) or, with `partitioned`, the hive layout; `_scored.json` last.
 * All or nothing, like {@link writeScored}: the directory replaces `outDir` once complete (old
 * outputs of `score` are not carried over, other files are). Returns the manifest.
 */
export async function scoreTo(
  dir: string,
  outDir: string,
  opts: ScoreOptions & SinkOptions = {},
): Promise<ScoredManifest> {
  let manifest: ScoredManifest | undefined;
  const writing = <T>(f: () => T): T => {
    try {
      return f();
    } catch (e) {
      throw new OutputError(outDir, e);
    }
  };
  let scoring = false;
  try {
    await writeDirAtomic(outDir, async (tmp) => {
      const sink = new FrameSink(tmp, opts);
      scoring = true;
      const run = await scoreStream(dir, opts, (g) => writing(() => sink.add(g)));
      scoring = false;
      const scorer = await scorerCodeHash();
      manifest = await sink.finish(run, { corpus: dir, scorer, shard: opts.shard ?? null });
      await syncTree(tmp); // the bytes must be on disk before the directory replaces the old one
    }, { keep: (rel) => !isScoredOutput(rel) });
  } catch (e) {
    // a failure of scoring itself (an unusable corpus) is not one of the output
    if (scoring || e instanceof OutputError) throw e;
    throw new OutputError(outDir, e);
  }
  return manifest!;
}

/** Writing a scored directory failed (disk full, no permission, …): names the directory. */
export class OutputError extends Error {
  constructor(readonly dir: string, cause: unknown) {
    super(`cannot write ${dir}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = "OutputError";
  }
}

/** fsyncs every file under a directory. */
async function syncTree(dir: string): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) await syncTree(p);
    else if (e.isFile) {
      const f = await Deno.open(p, { read: true });
      try {
        await f.syncData();
      } finally {
        f.close();
      }
    }
  }
}

/** Columns of {@link averages}: per-configuration macro averages (rates 0..1). */
export const SUMMARY_SCHEMA = {
  harness: "str",
  model: "str",
  memory: "str",
  turns: "i32",
  chains: "i32",
  reuse_repo: "f64",
  reuse_self: "f64",
  recall_repo: "f64",
  recall_self: "f64",
  files: "f64",
  lines: "f64",
  resolve: "f64",
  pass: "f64",
  c_dup: "f64",
} as const;

/**
 * Per-configuration macro averages of a `turns` frame — the paper's Table 2 (and Table 4)
 * columns: reuse repo/self, recall repo/self, Files, Lines, Resolve, Pass, C_dup, as rates 0..1
 * averaged over the turns where each is defined (self metrics from turn 2; C_dup the mean of the
 * cumulative C_dup(1..T)). Sorted by harness, model, memory.
 */
export function averages(turns: pl.DataFrame): pl.DataFrame {
  return toFrame(averageByConfig(rowsOf<TurnRow>(turns)), SUMMARY_SCHEMA, CONFIG_KEYS);
}

/**
 * Per-configuration, per-turn macro averages of a `turns` frame (Tables 3 and 5 read T1/T2/T5
 * from it): the columns of {@link averages} plus `turn`; `c_dup` is C_dup(t).
 */
export function byTurn(turns: pl.DataFrame): pl.DataFrame {
  return toFrame(
    averageByTurn(rowsOf<TurnRow>(turns)),
    { ...SUMMARY_SCHEMA, turn: "i32" },
    [...CONFIG_KEYS, "turn"],
  );
}

/** Plain rows of a `targets` frame (typed). */
export function targetRows(targets: pl.DataFrame): TargetRow[] {
  return rowsOf<TargetRow>(targets);
}

/** Columns of {@link firstLast}. */
export const FIRST_LAST_SCHEMA = {
  harness: "str",
  model: "str",
  memory: "str",
  metric: "str",
  first_turn: "i32",
  first: "f64",
  last_turn: "i32",
  last: "f64",
  delta: "f64",
} as const;

/**
 * First- and last-turn values per configuration and metric (Tables 3 and 5: T1, T5, Δ; self
 * metrics from T2), long format: one row per (configuration, metric) with `first_turn`, `first`,
 * `last_turn`, `last`, `delta`. Metrics: reuse_repo, reuse_self, recall_repo, recall_self, files,
 * lines, resolve, pass, c_dup (C_dup(t) at those turns).
 */
export function firstLast(turns: pl.DataFrame): pl.DataFrame {
  const rows = firstLastTurns(averageByTurn(rowsOf<TurnRow>(turns)));
  return toFrame(rows, FIRST_LAST_SCHEMA, []);
}
