/**
 * reporeuse — do coding agents reuse existing code or reinvent the wheel?
 *
 * The public API, following the paper's pipeline: the Python code model (`python`), run logs →
 * events (`logs`), the corpus layout (`layout`), one function per metric equation (`metrics`),
 * Polars frames (`frames`), tables/figures/statistics (`report`), SQL over scored runs
 * (`query`), the simulated corpus (`simulate`), and the construction pipeline and protocol
 * runner (`construct`, `protocol`), the reuse audit of a git change (`audits`), and the static
 * viewer of turns, logs and audits (`view`).
 *
 * Every area is exported as a namespace; the entry points most users need are also exported
 * at the top level.
 *
 * @example
 * ```ts
 * import { metrics } from "./mod.ts";
 * // eq. 1: the submission calls 2 of its 3 targets
 * const rate = metrics.reuse_s(["pkg.a.f", "pkg.a.g", "pkg.b.h"], new Set(["pkg.a.f", "pkg.b.h"]));
 * console.assert(rate === 2 / 3);
 * ```
 * @module
 */
export * as python from "./lib/python/mod.ts";
export * as logs from "./lib/logs/mod.ts";
export * as layout from "./lib/layout/mod.ts";
export * as metrics from "./lib/metrics/mod.ts";
export * as frames from "./lib/frames/mod.ts";
export * as report from "./lib/report/mod.ts";
export * as query from "./lib/query/mod.ts";
export * as simulate from "./lib/simulate/mod.ts";
export * as construct from "./lib/construct/mod.ts";
export * as protocol from "./lib/protocol/mod.ts";
export * as audits from "./lib/audit/mod.ts";
export * as view from "./lib/report/view/mod.ts";

export { analyzePackage, moduleName, Project } from "./lib/python/mod.ts";
export type { Definition, Edge, Graph, ModuleInfo, Use, UseKind } from "./lib/python/mod.ts";
export { detectFormat, parseLog, readLog } from "./lib/logs/mod.ts";
export type { Event, ReadsResult } from "./lib/logs/mod.ts";
export { readCorpus, validateCorpus } from "./lib/layout/mod.ts";
export { C_dup, isReimplemented, recall_s, reuse_s } from "./lib/metrics/mod.ts";
export { readScored, scoreCorpus, type Scored, writeScored } from "./lib/frames/mod.ts";
export { reproduce } from "./lib/report/mod.ts";
export { openScored } from "./lib/query/mod.ts";
export { simulateCorpus } from "./lib/simulate/mod.ts";
export { audit, auditHistory, auditReport } from "./lib/audit/mod.ts";
export { turnView, viewAudit, viewCorpus, viewLog } from "./lib/report/view/mod.ts";
