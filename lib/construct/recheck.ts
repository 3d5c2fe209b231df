/**
 * The independent re-check of a written chain (paper §3.1 "Verification", last step): trusting
 * none of the generator's state, W0 is prepared afresh, each turn's reference solution is
 * installed at its path in order, and every turn's hidden tests are re-run from `tests.json`.
 *
 * @module
 */
import { prepareWorkspace, runHiddenTests, type TestCase } from "../protocol/mod.ts";

/** Per-turn outcome of {@link recheckChain}. */
export interface RecheckedTurn {
  turn: number;
  cases: number;
  failed: string[];
}

/** Re-runs every turn of `tasks/<chain>/` against its reference solution; returns failures. */
export async function recheckChain(
  chainDir: string,
  opts: { python?: string; timeoutMs?: number } = {},
): Promise<RecheckedTurn[]> {
  const file = `${chainDir}/chain.json`;
  const chain = JSON.parse(await Deno.readTextFile(file));
  const w0 = String(chain.repo.workspace).startsWith("/")
    ? chain.repo.workspace
    : `${chainDir}/${chain.repo.workspace}`;
  const ws = await Deno.makeTempDir({ prefix: "reporeuse-recheck-" });
  try {
    await prepareWorkspace(w0, ws, { package: chain.repo.package, python: opts.python });
    const out: RecheckedTurn[] = [];
    for (
      const [i, t] of (chain.turns as {
        turn?: number;
        module: string;
        path: string;
        functions: { name: string }[];
      }[]).entries()
    ) {
      const n = t.turn ?? i + 1;
      const dir = `${chainDir}/turn${n}`;
      const target = `${ws}/${t.path}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.copyFile(`${dir}/solution.py`, target);
      const cases: TestCase[] = JSON.parse(await Deno.readTextFile(`${dir}/tests.json`)).cases;
      const r = await runHiddenTests(ws, t.module, t.functions.map((f) => f.name), cases, opts);
      out.push({
        turn: n,
        cases: cases.length,
        failed: r.results.filter((x) => !x.passed).map((x) => x.id),
      });
    }
    return out;
  } finally {
    // best effort in finally: a scratch left behind must not hide the re-check's result
    await Deno.remove(ws, { recursive: true }).catch(() => {});
  }
}
