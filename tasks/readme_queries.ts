/**
 * `deno task readme` — regenerates README.md's "ask your own questions" section (between
 * `<!-- queries:start -->` and `<!-- queries:end -->`) with the README example queries of
 * lib/query/examples.ts and their real output.
 *
 * Data: by default the simulated corpus `deno task reproduce` uses (seed 1, scale "paper"; cached
 * and scored once, shared with reproduce); `--scored <dir>` uses a scored directory instead.
 *
 * Options: `--scored <dir>`, `--seed N`, `--scale paper|small`, `--readme <path>` (default
 * README.md), `--check` (exit 1 when the README is out of date; writes nothing), `--print`.
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  fromFrames,
  openScored,
  QueryError,
  renderSection,
  replaceSection,
  type ScoredQuery,
} from "../lib/query/mod.ts";
import { simulatedScored } from "../lib/report/mod.ts";

async function data(
  opts: { scored?: string; seed: number; scale: "paper" | "small" },
): Promise<{ q: ScoredQuery; source: string }> {
  if (opts.scored) {
    return { q: await openScored(opts.scored), source: `the scored frames in \`${opts.scored}\`` };
  }
  const { scored } = await simulatedScored({
    seed: opts.seed,
    scale: opts.scale,
    log: (m) => console.error(m),
  });
  return {
    q: fromFrames(scored, "simulated"),
    source: `the **SIMULATED** corpus (\`simulateCorpus\`, seed ${opts.seed}, scale ` +
      `"${opts.scale}": synthetic logs that test the pipeline, not measured agent runs)`,
  };
}

/** Runs the task; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      scored: { type: "string" },
      seed: { type: "string", default: "1" },
      scale: { type: "string", default: "paper" },
      readme: { type: "string", default: "README.md" },
      check: { type: "boolean", default: false },
      print: { type: "boolean", default: false },
    },
  });
  const scale = values.scale as "paper" | "small";
  if (scale !== "paper" && scale !== "small") {
    console.error(`readme: --scale is paper or small, got '${values.scale}'`);
    return 2;
  }
  try {
    const { q, source } = await data({ scored: values.scored, seed: Number(values.seed), scale });
    const section = renderSection(q, source);
    if (values.print) {
      console.log(section);
      return 0;
    }
    const before = await Deno.readTextFile(values.readme!);
    const after = replaceSection(before, section);
    if (values.check) {
      if (after !== before) {
        console.error(`readme: ${values.readme} is out of date; run deno task readme`);
        return 1;
      }
      return 0;
    }
    if (after !== before) await Deno.writeTextFile(values.readme!, after);
    console.error(`readme: ${after === before ? "unchanged" : "updated"} ${values.readme}`);
    return 0;
  } catch (e) {
    const msg = e instanceof QueryError
      ? e.message
      : String((e as Error)?.message ?? e).split("\n")[0];
    console.error(`readme: ${msg}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
