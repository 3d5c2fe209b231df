/**
 * The simulated corpus at the paper's scale: a generated Python
 * package W0, 75 five-turn task chains and the runs of the paper's 10 configurations, in the
 * `docs/run-logs.md` layout, with read / reuse / re-implementation decisions planted per target
 * (calibrated to Tables 2–5 by turn) and written to `truth/targets.csv`.
 *
 * @example
 * ```ts
 * import { CONFIGS, configId } from "./mod.ts";
 * console.assert(CONFIGS.length === 10);
 * console.assert(configId(CONFIGS[0]) === "mini-SWE-agent__GPT-5.6-Terra__interface");
 * ```
 * @module
 */
export {
  buildCorpus,
  corpusBatches,
  type Scale,
  simulateCorpus,
  type SimulateOptions,
} from "./corpus.ts";
export {
  type ConfigCalibration,
  configId,
  CONFIGS,
  interpolate,
  turnRates,
} from "./calibration.ts";
export { Rng } from "./rng.ts";
export type { Action, SimWorkspace } from "./reads.ts";
export { renderClaude } from "./sessions.ts";
export { replicateConfigs } from "./replicate.ts";
export {
  compareTruth,
  type CompareTruthOptions,
  parseTruthCsv,
  readTruth,
  readTruthCsv,
  TARGET_KEYS,
  TRUTH_COLUMNS,
  type TruthComparison,
  type TruthRow,
} from "./truth.ts";
export { checkTruth, checkTurnsTruth, type TruthCheck, TURN_TRUTH_COLUMNS } from "./check.ts";
