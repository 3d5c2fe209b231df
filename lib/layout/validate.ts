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
import type { Problem } from "./types.ts";

/** Checks a log's format; throws an error naming the file when it is not a supported format. */
export type FormatCheck = (text: string, file: string) => unknown;

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
  for (const run of corpus.runs) {
    const keys = { chain: run.chain, turn: run.turn, config: run.config };
    const check = async (path: string | undefined, f: (text: string, file: string) => unknown) => {
      if (!path) return;
      try {
        f(await Deno.readTextFile(path), rel(path));
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
