/**
 * The reuse audit of a git change: the paper's re-implementation rule (§3.3.2) applied
 * to the functions a commit, a pull request or the working tree adds or changes.
 *
 * - {@link auditReport} / {@link audit}: one change (`base` → `head`, default `HEAD` → the working
 *   tree) as plain objects or Polars frames; {@link auditHistory}: the last N commits;
 * - {@link formatReport}: terminal text, JSON, Markdown (PR comment), SARIF 2.1.0; {@link exitStatus}
 *   for `--fail-on`;
 * - {@link auditChange}: the pure part, on two {@link Side} indexes ({@link loadSide});
 *   {@link auditSides} runs it so that a cached side whose tokens part fails as it is read
 *   ({@link TokensLost}) is rebuilt and the change audited again.
 *
 * Findings per changed function F: what it **reuses** (resolved calls and references to existing
 * functions), which existing G it **re-implements** (`isReimplemented` of lib/metrics: F does not
 * call G but calls most of G's non-builtin callees), which G it is a **structural clone** of
 * (normalised-AST similarity), and **candidates** it could have called.
 *
 * @example
 * ```ts
 * import { nameWords, similarity } from "./mod.ts";
 * console.assert(nameWords("plotHTTP_data").join(" ") === "plot http data");
 * console.assert(similarity([1, 2, 5, 1], [1, 2, 5, 1]) === 1);
 * ```
 * @module
 */
export {
  AuditError,
  gitBlobId,
  listTree,
  listWorktree,
  parents,
  pathProblem,
  readBlobs,
  type RejectedFile,
  repoRoot,
  resolveRevision,
  type SideListing,
  type TreeFile,
} from "./git.ts";
export { type DefShape, fileShapes, SHAPE_VERSION, similarity } from "./shape.ts";
export {
  BLOCK_MAX_GAP,
  BLOCK_MAX_POSTINGS,
  BLOCK_MIN_DISTINCT,
  BLOCK_MIN_LINES,
  BLOCK_MIN_RUN,
  BLOCK_MIN_SMALL_TOKENS,
  BLOCK_MIN_TOKENS,
  BLOCK_MIN_WHOLE_LINES,
  BLOCK_MIN_WHOLE_TOKENS,
  BLOCK_SEED,
  BLOCK_STRIDE,
  type BlockIndex,
  blockIndex,
  type CopiedBlock,
  copiedBlocks,
  LIKENESS_MAX_CELLS,
  LIKENESS_MIN,
  mayCopyBlock,
  type Segment,
  tokenLikeness,
  windowHashes,
} from "./block.ts";
export { writePythonTree } from "./tree_dir.ts";
export {
  fileContexts,
  isDefShapes,
  loadSide,
  loadTokens,
  moduleIds,
  packageModules,
  paramNames,
  type Side,
  type SideDef,
  type SideOptions,
  TokensLost,
} from "./side.ts";
export {
  auditChange,
  type BlockEvidence,
  calleeSet,
  type ChangeAudit,
  type ChangedFunction,
  type ChangeOptions,
  type ChangeStatus,
  CLONE_MIN_SIZE,
  CLONE_THRESHOLD,
  type FileProblem,
  type Finding,
  FINDING_KINDS,
  type FindingKind,
  type Location,
  MAX_TARGETS,
  nameWords,
  type Pair,
  preexisting,
  PREEXISTING_SIMILARITY,
  RENAME_SIMILARITY,
  spelling,
} from "./change.ts";
export {
  asyncTwin,
  type ClassIds,
  helperOf,
  isAsync,
  moduleVocabulary,
  receiverClasses,
  ruleSiblings,
  SAME_API_MAX_SIMILARITY,
  SAME_EDIT_FUNCTIONS,
  sameApi,
  sameDelegate,
  sameEdit,
  type Sibling,
  template,
  twinNames,
  VOCABULARY_SIBLINGS,
  withoutAsync,
} from "./idiom.ts";
export {
  type Context,
  CONTEXTS,
  fileContext,
  GENERATED_MIN_BYTES,
  generatedFile,
  globMatcher,
  globToRegExp,
  isTestPath,
  type ModuleImports,
  testInfrastructure,
} from "./context.ts";
export {
  adjust,
  APART_NOTES,
  apartNote,
  blockConfidence,
  type CalleeWeights,
  calleeWeights,
  CONTEXT_FACTOR,
  type Note,
  NOTE_FACTOR,
  ruleConfidence,
  SMALL_BLOCK_FACTOR,
} from "./evidence.ts";
export {
  audit,
  type AuditFrames,
  auditHistory,
  type AuditOptions,
  type AuditReport,
  auditReport,
  auditRows,
  auditSides,
  CHANGED_SCHEMA,
  COMMITS_SCHEMA,
  emptySide,
  FINDINGS_SCHEMA,
  HISTORY_FORMATS,
  historyCommits,
  type HistoryFormat,
  type HistoryFrames,
  historyFromJson,
  type HistoryJson,
  type HistoryOptions,
  historyToJson,
  PROBLEMS_SCHEMA,
  writeHistory,
} from "./run.ts";
export {
  CONFIDENCE_LEVELS,
  DEFAULT_FAIL_CONTEXTS,
  DEFAULT_FAIL_ON,
  exitStatus,
  failing,
  type FailOn,
  findingAnchor,
  type Format,
  formatJson,
  formatMarkdown,
  formatReport,
  FORMATS,
  formatSarif,
  formatText,
  GITHUB_COMMENT_LIMIT,
  isLinkableUrl,
  type MarkdownOptions,
  parseFailOn,
  REPORT_VERSION,
  SARIF_RULES,
  sections,
} from "./format.ts";
