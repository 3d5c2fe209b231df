/**
 * Scored frames (nodejs-polars) of a corpus — the public API of the scorer:
 *
 * - {@link scoreCorpus}(dir, { cache, workers, progress }) → {@link Scored} frames `turns`,
 *   `targets`, `events`, `tests`, `errors`, `configs` with the columns of `schema.ts`;
 * - {@link writeScored} / {@link readScored} — turns.csv/.parquet, targets.csv/.parquet,
 *   events.parquet, tests.parquet, configs.parquet, errors.csv (+ errors.parquet);
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
  readScored,
  scoreCorpus,
  type Scored,
  SCORED_FILES,
  summarize,
  SUMMARY_SCHEMA,
  targetRows,
  writeScored,
} from "./frames.ts";
export { type ScoredRows, type ScoreOptions, SCORER_VERSION, scoreRows } from "./score.ts";
