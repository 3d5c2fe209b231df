/**
 * Acceptance (issue 4): scoring a simulated corpus recovers 100% of the planted decisions with no
 * extra target — at small scale here (300 run turns of the 10 configurations, every log format the
 * simulator writes); the paper scale is checked by `deno task bench score`.
 */
import assert from "node:assert/strict";
import { erroredTurns, scoreCorpus } from "../lib/frames/mod.ts";
import { checkTruth, checkTurnsTruth } from "../lib/simulate/check.ts";
import { simulateCorpus } from "../lib/simulate/mod.ts";

Deno.test("simulated corpus (small): 100% of planted read / reuse / re-implementation decisions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-recovery-" });
  try {
    const { turns } = await simulateCorpus(`${dir}/corpus`, { seed: 7, scale: "small" });
    const scored = await scoreCorpus(`${dir}/corpus`, { cacheDir: `${dir}/cache` });
    assert.equal(scored.turns.height, turns);
    assert.equal(erroredTurns(scored.errors), 0);
    const targets = await checkTruth(scored.targets, `${dir}/corpus/truth/targets.csv`);
    assert.deepEqual(targets.missing, []);
    assert.deepEqual(targets.extra, []);
    assert.deepEqual(targets.mismatches, {});
    assert.ok(targets.truth > 500, `${targets.truth} planted targets`);
    // turn level: submissions, target counts, test outcomes, re-implementation counts, and the
    // planner's own Files / Lines counts
    const t = await checkTurnsTruth(scored.turns, `${dir}/corpus/truth/turns.csv`);
    assert.deepEqual([t.missing, t.extra, t.mismatches], [[], [], {}]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
