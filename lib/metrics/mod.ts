/**
 * The paper's metrics (§3.3.2), one function per symbol, and their macro-averaging (§4.1):
 *
 * - {@link reuse_s} — eq. (1), reuse rate of repo or self targets;
 * - {@link recall_s} / {@link isRead} — eq. (2), recall rate;
 * - {@link passRate}, {@link resolved} — functional correctness;
 * - {@link isReimplemented} — re-implementation of a target;
 * - {@link C_dup} — eq. (3), duplicated-chain rate ({@link duplicatedBy} its per-chain indicator,
 *   {@link meanC_dup} its mean over turns 1..T, the C_dup of Tables 2 and 4);
 * - {@link extractTargets} / {@link scoreTargets} — a turn's targets and the decisions on each;
 * - {@link scoreTurn} — every row of one turn from its decided inputs; {@link dupChain} — the
 *   cumulative duplicated-chain indicator of eq. (3); the row types (`TurnRow`, `TargetRow`, …);
 * - {@link targetOutcome} — what became of a target (reused, or which gap missed it), the one
 *   classification of the `missed_targets` view, the figures and the notebooks;
 * - {@link macroAverage}, {@link averageByConfig}, {@link averageByTurn}, {@link firstLastTurns} —
 *   averaging over turns (Tables 2–5), with {@link TURN_VALUES} the per-turn value of each
 *   averaged metric and {@link meanSums} / {@link addMeanSums} / {@link meansOf} its sufficient
 *   statistics (the report's bootstrap adds them up over resampled chains).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reuse_s } from "./mod.ts";
 * assert(reuse_s(["a.f"], new Set(["a.f"])) === 1);
 * ```
 * @module
 */
export { reuse_s } from "./reuse.ts";
export { type Body, isRead, recall_s } from "./recall.ts";
export { type CaseOutcome, passRate, resolved } from "./correctness.ts";
export {
  C_dup,
  C_dupCurve,
  duplicatedBy,
  firstDuplicatedTurn,
  isReimplemented,
  meanC_dup,
  type Reimplementation,
  REIMPLEMENTATION_MIN_CALLEES,
  REIMPLEMENTATION_PERCENT,
  REIMPLEMENTATION_SHARE,
  reimplementationHits,
} from "./redundancy.ts";
export {
  addMeanSums,
  averageByConfig,
  averageByTurn,
  type ConfigAverages,
  type ConfigKey,
  FIRST_LAST_METRICS,
  type FirstLast,
  firstLastTurns,
  macroAverage,
  MEAN_METRICS,
  type MeanMetric,
  meansOf,
  type MeanSums,
  meanSums,
  reimplementationCounts,
  TURN_VALUES,
} from "./macro.ts";
export {
  bodyOf,
  type CodeModel,
  extractTargets,
  REUSE_KINDS,
  scoreTargets,
  type SubmissionUses,
  submissionUses,
  type Target,
  type TargetScore,
  type TurnModels,
} from "./targets.ts";
export { dupChain, scoreTurn, type TurnInput } from "./turn.ts";
export {
  MISSED_OUTCOMES,
  type MissedOutcome,
  type OutcomeInput,
  TARGET_OUTCOMES,
  type TargetOutcome,
  targetOutcome,
  targetOutcomeSql,
} from "./outcomes.ts";
export * from "./rows.ts";
