/**
 * Writing a verified chain in the run-log layout's tasks format (docs/run-logs.md):
 * `tasks/<chain>/chain.json`, and per turn `requirement.md` (interface-memory rendering),
 * `solution.py` and `tests.json`.
 *
 * @module
 */
import type { ChainFile, VerifiedTurn } from "./types.ts";
import { renderRequirement, type TurnSpec } from "../protocol/mod.ts";

/** Repository description of a chain. */
export interface ChainRepo {
  name: string;
  version?: string;
  /** W0 relative to the chain directory, or absolute. */
  workspace: string;
  package: string;
}

/** The chain.json object of verified turns (evidence and goals kept as extra fields). */
export function chainFile(chain: string, repo: ChainRepo, turns: VerifiedTurn[]): ChainFile {
  return {
    chain,
    repo: { ...repo },
    turns: turns.map((t) => ({
      turn: t.turn,
      module: t.module,
      path: t.path,
      functions: t.functions,
      goal: t.goal,
      evidence: t.evidence.symbols,
      ...(t.evidence.injected ? { injected: t.evidence.injected } : {}),
      ...(t.evidence.sketch ? { sketch: t.evidence.sketch } : {}),
      read_targets: t.readTargets,
    })),
  };
}

/** Writes `<tasksDir>/<chain>/…` and returns the chain directory. */
export async function writeChain(
  tasksDir: string,
  chain: string,
  repo: ChainRepo,
  turns: VerifiedTurn[],
): Promise<string> {
  const dir = `${tasksDir}/${chain}`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/chain.json`,
    JSON.stringify(chainFile(chain, repo, turns), null, 2) + "\n",
  );
  const specs: TurnSpec[] = turns.map((t) => ({
    turn: t.turn,
    module: t.module,
    path: t.path,
    functions: t.functions,
    goal: t.goal,
  }));
  for (const [i, t] of turns.entries()) {
    const td = `${dir}/turn${t.turn}`;
    await Deno.mkdir(td, { recursive: true });
    await Deno.writeTextFile(
      `${td}/requirement.md`,
      renderRequirement(specs[i], "interface", specs.slice(0, i)),
    );
    await Deno.writeTextFile(`${td}/solution.py`, t.solution);
    await Deno.writeTextFile(
      `${td}/tests.json`,
      JSON.stringify({ cases: t.cases, dropped: t.dropped }, null, 2) + "\n",
    );
  }
  return dir;
}
