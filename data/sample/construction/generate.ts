/**
 * Regenerates the sample chain's tasks (chain.json, requirement.md, tests.json) from draft.json
 * and the hand-written reference solutions, with the construction pipeline's execution
 * verification: expected values come from real runs of the references (Debian python3-seaborn
 * 0.12.2 under /usr/bin/python3), erroring/unstable calls are dropped, each reference must pass,
 * an empty implementation must fail, and the resolver must confirm the evidence calls.
 *
 *   deno run -A data/sample/construction/generate.ts
 */
import { verifyTurn } from "../../../lib/construct/execution.ts";
import { calledSymbols } from "../../../lib/construct/reuse.ts";
import { writeChain } from "../../../lib/construct/write.ts";
import { prepareWorkspace } from "../../../lib/protocol/prepare.ts";
import type { VerifiedTurn } from "../../../lib/construct/types.ts";

const here = new URL(".", import.meta.url).pathname;
const sample = `${here}..`;
const draft = JSON.parse(await Deno.readTextFile(`${here}draft.json`));
const python = Deno.env.get("REPOREUSE_PYTHON") ?? "/usr/bin/python3";
const chainDir = `${sample}/tasks/${draft.chain}`;
const w0 = `${chainDir}/${draft.repo.workspace}`;
const ws = await Deno.makeTempDir({ prefix: "reporeuse-sample-" });
await prepareWorkspace(w0, ws, { package: draft.repo.package, python });
const verified: VerifiedTurn[] = [];
for (const t of draft.turns) {
  const solution = await Deno.readTextFile(`${chainDir}/turn${t.turn}/solution.py`);
  const turn = { module: t.module, path: t.path, functions: t.functions, solution, calls: t.calls };
  const outcome = await verifyTurn(turn, {
    workspace: ws,
    evidence: t.evidence,
    calledSymbols: (w, u) => calledSymbols(w, u, { package: draft.repo.package }),
    python,
  });
  console.log(`turn ${t.turn}: ${outcome.ok ? "ok" : "REJECTED"} ${outcome.cases.length} cases, dropped ${JSON.stringify(outcome.dropped)} ${outcome.problems.join("; ")}`);
  if (!outcome.ok) Deno.exit(1);
  verified.push({
    turn: t.turn, module: t.module, path: t.path, functions: t.functions, goal: t.goal, solution,
    cases: outcome.cases, evidence: { symbols: t.evidence, sketch: "", hops: [] }, readTargets: [],
    dropped: outcome.dropped,
  });
}
await writeChain(`${sample}/tasks`, draft.chain, draft.repo, verified);
await Deno.remove(ws, { recursive: true });
