/**
 * `validateCorpus`: every problem of a corpus, each with its path — the layout problems of
 * {@link readCorpus} plus the contents of each run turn (results, meta.json, log format).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateCorpus } from "./validate.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/runs/k1`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/runs/k1/config.json`, `{"harness":"h","model":"m","memory":"all"}`);
 * const problems = await validateCorpus(dir);
 * assert(problems.some((p) => p.path === "runs/k1/config.json" && p.message.includes("memory")));
 * ```
 * @module
 */
import { relative } from "node:path";
import { messageOf, readCorpus } from "./read.ts";
import { LayoutError, parseMeta, parseResults } from "./results.ts";
import type { ChainSpec, ConfigSpec, Problem, RunTurn } from "./types.ts";

/** What a log check knows of the turn: its configuration and chain, when they are usable. */
export interface LogContext {
  run: RunTurn;
  config?: ConfigSpec;
  chain?: ChainSpec;
  /** W_{t-1} beyond W0: workspace-relative path → the agent's submission.py of an earlier turn. */
  earlier: Record<string, string>;
}

/**
 * Checks a log (its format, and what else the checker can tell: e.g. lib/logs `checkLogText`
 * also reads it against W0 for a wrong cwd or harness); throws an error naming the file.
 */
export type FormatCheck = (text: string, file: string, ctx: LogContext) => unknown;

/**
 * Lists every problem of a corpus (an unusable directory is one problem). `checkLog`, when given
 * (e.g. `detectFormat` of lib/logs), is applied to each log.
 */
export async function validateCorpus(
  dir: string,
  opts: { checkLog?: FormatCheck } = {},
): Promise<Problem[]> {
  let read;
  try {
    read = await readCorpus(dir);
  } catch (e) {
    if (e instanceof LayoutError) return [{ path: e.path, message: messageOf(e) }];
    throw e;
  }
  const { corpus, problems } = read;
  const rel = (p: string) => {
    const r = relative(corpus.dir, p);
    return r.startsWith("..") ? p : r;
  };
  const configs = new Map(corpus.configs.map((c) => [c.id, c]));
  const chains = new Map(corpus.chains.map((c) => [c.chain, c]));
  for (const run of corpus.runs) {
    const keys = { chain: run.chain, turn: run.turn, config: run.config };
    const chain = chains.get(run.chain);
    const earlier: Record<string, string> = {};
    for (const r of corpus.runs) {
      const spec = chain?.turns[r.turn - 1];
      if (
        spec && r.submission && r.config === run.config && r.chain === run.chain &&
        r.turn < run.turn
      ) earlier[spec.path] = r.submission;
    }
    const ctx = { run, config: configs.get(run.config), chain, earlier };
    const check = async (
      path: string | undefined,
      f: (text: string, file: string, ctx: LogContext) => unknown,
    ) => {
      if (!path) return;
      try {
        await f(await Deno.readTextFile(path), rel(path), ctx);
      } catch (e) {
        const msg = messageOf(e);
        const prefix = `${rel(path)}: `;
        problems.push({
          path: rel(path),
          message: msg.startsWith(prefix) ? msg.slice(prefix.length) : msg,
          ...keys,
        });
      }
    };
    await check(run.results, parseResults);
    await check(run.meta, parseMeta);
    if (opts.checkLog) await check(run.log, opts.checkLog);
  }
  return problems;
}
