/**
 * Loading the contents of one run turn: submission text, per-case outcomes and meta.json.
 *
 * @module
 */
import { LayoutError, matchResults, parseMeta, parseResults } from "./results.ts";
import type { CaseResult, RunTurn, TurnMeta, TurnSpec } from "./types.ts";

/** The contents of a run turn that scoring needs besides its log. */
export interface RunContents {
  /** Text of submission.py, undefined when the agent left no file. */
  submission?: string;
  /** Outcome of every case of tests.json, in its order (all failed without a submission). */
  cases: CaseResult[];
  meta: TurnMeta;
  /** Raw results text (for cache keys), "" when absent. */
  resultsText: string;
  /** Raw meta.json text, "" when absent. */
  metaText: string;
}

function readText(path: string, rel: (p: string) => string): string {
  try {
    return Deno.readTextFileSync(path); // small files: sync avoids the async op overhead
  } catch (e) {
    throw new LayoutError(rel(path), `unreadable (${(e as Error).message})`);
  }
}

/**
 * Reads submission, results and meta of a run turn. Throws a {@link LayoutError} naming the file
 * when one is unreadable or malformed. A turn without a submission fails all its cases (the
 * protocol of Appendix A.1, not an error); a case missing from the results counts as failed.
 */
export function loadRunContents(
  run: RunTurn,
  turn: TurnSpec,
  rel: (p: string) => string = (p) => p,
): Promise<RunContents> {
  try {
    return Promise.resolve(loadRunContentsSync(run, turn, rel));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** {@link loadRunContents} without the promise (the files are small; reads are synchronous). */
export function loadRunContentsSync(
  run: RunTurn,
  turn: TurnSpec,
  rel: (p: string) => string = (p) => p,
): RunContents {
  const submission = run.submission ? readText(run.submission, rel) : undefined;
  const resultsText = run.results ? readText(run.results, rel) : "";
  const metaText = run.meta ? readText(run.meta, rel) : "";
  const meta = run.meta ? parseMeta(metaText, rel(run.meta)) : {};
  let cases: CaseResult[];
  if (submission === undefined) {
    // results of a turn without a submission are still checked, but never count
    if (run.results) parseResults(resultsText, rel(run.results));
    cases = turn.cases.map((id) => ({ id, passed: false, message: "no submission" }));
  } else {
    if (!run.results) throw new LayoutError(rel(run.dir), "missing test results");
    cases = matchResults(turn.cases, parseResults(resultsText, rel(run.results)));
  }
  return { submission, cases, meta, resultsText, metaText };
}
