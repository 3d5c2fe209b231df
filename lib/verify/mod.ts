/**
 * The project's own acceptance checks, run by `deno task verify`:
 *
 * - {@link verifyTruth}: planted-truth recovery of simulated corpora over many seeds
 *   ({@link recovery} compares scored frames with a corpus's `truth/`);
 * - {@link verifyIdentical}: this tree's frames, tables and figures against another revision's,
 *   file by file ({@link compareDirs}, {@link compareFile}).
 *
 * @example
 * ```ts
 * import { compareText, parseSeeds } from "./mod.ts";
 * console.assert(parseSeeds("1-10").length === 10);
 * console.assert(compareText("x\n", "x\n") === null);
 * ```
 * @module
 */
export {
  formatProblem,
  formatRecovery,
  parseSeeds,
  percentText,
  type Recovery,
  recovery,
  recoveryPercent,
  type RecoveryProblem,
  verifyTruth,
  type VerifyTruthOptions,
} from "./recovery.ts";
export {
  type AtCleanup,
  checkoutWorktree,
  formatComparison,
  type IdenticalResult,
  runToEnd,
  verifyIdentical,
  type VerifyIdenticalOptions,
} from "./identical.ts";
export {
  compareDirs,
  compareFile,
  compareRows,
  compareText,
  type FileComparison,
  formatFile,
  type RowDifferences,
  sameFile,
  type TextDifference,
} from "./compare.ts";
