/**
 * The Python code model (paper §3.1): definitions with CPython-exact lines, imports,
 * resolution of calls and function-value references, the dependency graph and callee sets.
 *
 * Two phases: {@link summarize} turns one file into a serialisable {@link ModuleSummary} (cacheable,
 * computed in workers by {@link analyzePackage}); a {@link Project} resolves summaries against each
 * other on demand. Parsing is tree-sitter's, by its wasm build or, once {@link buildNativeParser}
 * has compiled it on this machine, its native build (same results; lib/python/native.ts, chosen
 * in lib/python/parser_choice.ts).
 *
 * @example
 * ```ts
 * import { moduleName, Project, summarize } from "./mod.ts";
 * const a = await summarize("def helper():\n    pass\n", "a.py", moduleName("pkg/a.py"));
 * const b = await summarize(
 *   "from pkg.a import helper\n\ndef helper():\n    pass\n\ndef run():\n    helper()\n",
 *   "b.py",
 *   moduleName("pkg/b.py"),
 * );
 * const project = Project.fromSummaries([a, b]);
 * // the local def shadows the import
 * console.assert(project.callees("pkg.b.run")[0] === "pkg.b.helper");
 * ```
 * @module
 */
export * from "./types.ts";
export { BUILTINS, isInternal, isPrivateName, moduleName } from "./names.ts";
export { summarize } from "./summary.ts";
export {
  type Binding,
  MAX_SOURCE_BYTES,
  type ModuleSummary,
  type RawUse,
  type Scope,
  SUMMARY_VERSION,
  tooLargeMessage,
} from "./summary_format.ts";
export { Project, RESOLVER_VERSION } from "./project.ts";
export { type AnalyzeOptions, analyzePackage, summarizeFiles } from "./analyze.ts";
export { decodeSource, listPackageFiles, type PackageFile, readSource } from "./files.ts";
export {
  buildNativeParser,
  type NativeBuild,
  type NativeFiles,
  nativeParserFiles,
} from "./native_build.ts";
export { describeParser, type ParserDescription, useNativeSummaries } from "./parser_choice.ts";
export { cachedSummary, storeSummary } from "./summary_cache.ts";
export { workspaceProject } from "./workspace.ts";
export { pythonParser } from "./direct.ts";
export { compareSuite, precisionRecall, type SnippetResult, sumCounts } from "./oracle.ts";
