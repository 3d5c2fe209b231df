/**
 * The run-log layout (`docs/run-logs.md`): reading a corpus of tasks and runs, listing its
 * problems, and parsing test cases, results and meta files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateCorpus } from "./mod.ts";
 * const problems = await validateCorpus("/nonexistent/corpus");
 * assert(problems[0].message === "corpus directory does not exist");
 * ```
 * @module
 */
export * from "./types.ts";
export {
  type DeferredRuns,
  type FoundTurn,
  LOG_NAMES,
  MEMORIES,
  messageOf,
  readCorpus,
  type ReadResult,
} from "./read.ts";
export {
  LayoutError,
  matchResults,
  parseJson,
  parseMeta,
  parseResults,
  parseTests,
  resultMatches,
} from "./results.ts";
export { loadRunContents, type RunContents } from "./run.ts";
export { validateCorpus } from "./validate.ts";
