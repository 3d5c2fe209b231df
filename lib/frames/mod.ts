/**
 * Scored frames (nodejs-polars) of a corpus — the public API of the scorer:
 *
 * - {@link scoreCorpus}(dir, { cache, workers, progress }) → {@link Scored} frames `turns`,
 *   `targets`, `events`, `tests`, `errors`, `configs` with the columns of `schema.ts`;
 * - {@link writeScored} / {@link readScored} — turns.csv/.parquet, targets.csv/.parquet,
 *   events.parquet, tests.parquet, configs.parquet, errors.csv (+ errors.parquet);
 * - {@link scoreTo}(dir, out, { shard, partitioned }) — scoring straight to disk in flat memory
 *   (sink.ts: batches of Parquet parts; flat or hive layout); {@link scanScored} — any scored
 *   directory, or the N shard directories of one run, as lazy frames (scan.ts);
 * - {@link averages}(turns) — per-configuration macro averages (Table 2/4 columns);
 * - {@link byTurn}(turns) — per-configuration, per-turn averages and C_dup(t) (Table 3/5);
 * - {@link firstLast}(turns) — first/last-turn values and Δ per configuration and metric;
 * - {@link erroredTurns}(errors) — turns left unscored (turns found = scored + errored);
 * - {@link scoreRows} / {@link framesOf} — the same as plain rows, and rows → frames;
 * - {@link toFrame} / {@link toKeyedFrame} / {@link conform} — typed frames from rows / cast
 *   frames to a schema;
 *
 * The recovery of planted truth in simulated corpora (`checkTruth`) lives in lib/simulate.
 *
 * Rates are 0..1 (the paper prints %); undefined metrics are null, never 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { averages, toFrame, TURNS_SCHEMA } from "./mod.ts";
 * const turns = toFrame([], TURNS_SCHEMA, ["chain"]);
 * assert.equal(averages(turns).height, 0);
 * ```
 * @module
 */
export * from "./schema.ts";
export { frameCsv, spreadsheetSafeFrame } from "./csv.ts";
export { type LogJob, runJob, type SummaryJob } from "./jobs.ts";
export {
  column,
  conform,
  decodeRows,
  dtypeOf,
  rowsOf,
  sortRows,
  toFrame,
  toKeyedFrame,
} from "./build.ts";
export {
  averages,
  byTurn,
  erroredTurns,
  FIRST_LAST_SCHEMA,
  firstLast,
  FRAME_KEYS,
  framesOf,
  OutputError,
  readScored,
  scoreCorpus,
  type Scored,
  SCORED_FILES,
  scoreTo,
  SUMMARY_SCHEMA,
  targetRows,
  writeScored,
} from "./frames.ts";
export {
  errorInShard,
  fnv1a32,
  type GroupRows,
  inOrder,
  type ScoredRows,
  type ScoreOptions,
  SCORER_VERSION,
  scorerCodeHash,
  scoreRows,
  scoreStream,
  type Shard,
  shardOf,
  type StreamedRun,
} from "./score.ts";
export {
  FrameSink,
  MANIFEST,
  PARTITION_KEYS,
  partitionDir,
  partitionValue,
  type ScoredManifest,
  type SinkOptions,
  STREAMED_FRAMES,
} from "./sink.ts";
export { checkShards, type FrameName, readManifest, scanFrame, scanScored } from "./scan.ts";
