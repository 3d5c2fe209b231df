/**
 * `deno task simulate --out <dir> [--seed N] [--scale paper|small] [--logs opencode|mixed] [--replicas K]` — writes a simulated corpus
 * (docs/run-logs.md layout) with planted truth in `<dir>/truth/targets.csv`.
 *
 * @module
 */
import { parseOptions } from "./commands/_args.ts";
import { simulateCorpus } from "../lib/simulate/mod.ts";

const HELP =
  `deno task simulate --out <dir> [--seed N] [--scale paper|small] [--logs opencode|mixed] [--replicas K]

Writes a simulated RepoReuse corpus in the run-log layout (docs/run-logs.md): a generated Python
package W0, task chains (paper: 75 × 5 turns; small: 6 × 5) and runs of the paper's 10
configurations (8 harness × model with interface memory, OpenCode × Qwen3.7-plus with no and
source memory) as mini-SWE-agent trajectories and OpenCode exports. Read, reuse and
re-implementation decisions are planted per target from rates calibrated to the paper's
Tables 2–5 and written to <dir>/truth/targets.csv (test outcomes and Files/Lines plans in
<dir>/truth/turns.csv). The same seed gives byte-identical files.

Options:
  --out <dir>       output directory (created)
  --seed <N>        random seed (default 1)
  --scale <s>       paper (3,750 run turns, default) or small (300)
  --logs <l>        opencode (default): the OpenCode configurations' logs are OpenCode exports;
                    mixed: each of their turns is an OpenCode export, a Claude Code session
                    (1.0.x–2.1.x, with subagents/ files) or a Codex CLI rollout (both eras)
  --replicas <K>    run every configuration K times (default 1): replica r ≥ 2 in
                    runs/<config>~r<r>/, model "<model> r<r>", its runs drawn anew (K times the
                    turns, none shared); the planted truth describes the first replica
  -h, --help        this text`;

/** Runs the command; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const parsed = parseOptions("simulate", {
    args,
    options: {
      out: { type: "string" },
      seed: { type: "string" },
      scale: { type: "string" },
      logs: { type: "string" },
      replicas: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  }, `\n\n${HELP}`);
  if (!parsed) return 2;
  const { values } = parsed;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.out) {
    console.error(`simulate: --out <dir> is required\n\n${HELP}`);
    return 2;
  }
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) {
    console.error(`simulate: --seed must be a non-negative integer, got '${values.seed}'`);
    return 2;
  }
  const scale = values.scale ?? "paper";
  if (scale !== "paper" && scale !== "small") {
    console.error(`simulate: --scale must be 'paper' or 'small', got '${scale}'`);
    return 2;
  }
  const logs = values.logs ?? "opencode";
  if (logs !== "opencode" && logs !== "mixed") {
    console.error(`simulate: --logs must be 'opencode' or 'mixed', got '${logs}'`);
    return 2;
  }
  const replicas = values.replicas === undefined ? 1 : Number(values.replicas);
  if (!Number.isInteger(replicas) || replicas < 1) {
    console.error(`simulate: --replicas must be a whole number ≥ 1, got '${values.replicas}'`);
    return 2;
  }
  const t0 = performance.now();
  let result;
  try {
    result = await simulateCorpus(values.out, { seed, scale, logs, replicas });
  } catch (e) {
    console.error(`simulate: ${(e as Error).message}`);
    return 1;
  }
  const { dir, turns } = result;
  console.log(
    `simulate: wrote ${turns} run turns to ${dir} in ${
      ((performance.now() - t0) / 1000).toFixed(1)
    } s (seed ${seed}, scale ${scale})`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
