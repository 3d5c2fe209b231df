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

Deno.test("simulated corpus (small, mixed logs): Claude Code sessions and Codex rollouts recover 100% too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reporeuse-recovery-mixed-" });
  try {
    const { turns } = await simulateCorpus(`${dir}/corpus`, {
      seed: 7,
      scale: "small",
      logs: "mixed",
    });
    // the non-mini runs hold all three formats, and Claude sub-agent files
    const formats = new Map<string, number>();
    let subagents = 0;
    for (const run of Deno.readDirSync(`${dir}/corpus/runs`)) {
      if (!run.name.startsWith("OpenCode")) continue;
      for (const chain of Deno.readDirSync(`${dir}/corpus/runs/${run.name}`)) {
        if (!chain.isDirectory) continue;
        for (const t of Deno.readDirSync(`${dir}/corpus/runs/${run.name}/${chain.name}`)) {
          const turnDir = `${dir}/corpus/runs/${run.name}/${chain.name}/${t.name}`;
          const names = [...Deno.readDirSync(turnDir)].map((e) => e.name);
          if (names.includes("subagents")) subagents++;
          const log = names.find((n) => n.startsWith("log."))!;
          const head = Deno.readTextFileSync(`${turnDir}/${log}`).slice(0, 200);
          const f = log === "log.json"
            ? "opencode"
            : head.includes('"session_meta"') || head.includes('"instructions"')
            ? "codex"
            : "claude";
          formats.set(f, (formats.get(f) ?? 0) + 1);
        }
      }
    }
    for (const f of ["opencode", "claude", "codex"]) {
      assert.ok((formats.get(f) ?? 0) >= 20, `${f}: ${formats.get(f)} turns`);
    }
    assert.ok(subagents >= 5, `${subagents} turns with sub-agent files`);
    const scored = await scoreCorpus(`${dir}/corpus`, { cacheDir: `${dir}/cache` });
    assert.equal(scored.turns.height, turns);
    assert.equal(erroredTurns(scored.errors), 0);
    const targets = await checkTruth(scored.targets, `${dir}/corpus/truth/targets.csv`);
    assert.deepEqual([targets.missing, targets.extra, targets.mismatches], [[], [], {}]);
    const t = await checkTurnsTruth(scored.turns, `${dir}/corpus/truth/turns.csv`);
    assert.deepEqual([t.missing, t.extra, t.mismatches], [[], [], {}]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
