/**
 * The sample chain's tasks: requirements never name an evidence symbol, and the independent
 * re-check (fresh W0, reference solutions installed in order, hidden tests re-run with Debian's
 * python3-seaborn) passes every case — the expected values are what the references really return.
 */
import assert from "node:assert/strict";
import { recheckChain } from "../lib/construct/recheck.ts";
import { namedEvidence } from "../lib/construct/synth.ts";

const CHAIN = new URL("../data/sample/tasks/seaborn-001", import.meta.url).pathname;

Deno.test("sample tasks: requirements never name their evidence symbols", async () => {
  const chain = JSON.parse(await Deno.readTextFile(`${CHAIN}/chain.json`));
  assert.equal(chain.turns.length, 5);
  for (const t of chain.turns) {
    const text = await Deno.readTextFile(`${CHAIN}/turn${t.turn}/requirement.md`);
    // the body (before the interface note, which lists earlier rounds by design)
    const body = text.split("\n## Note\n")[0];
    assert.deepEqual(namedEvidence(body, t.evidence), [], `turn ${t.turn}`);
    assert.equal(text.includes("\n## Note\n"), t.turn > 1, `turn ${t.turn} note`);
  }
});

Deno.test("sample tasks: the independent re-check passes every case with python3-seaborn", async () => {
  try {
    await Deno.stat("/usr/lib/python3/dist-packages/seaborn/__init__.py");
  } catch {
    return; // Debian's python3-seaborn is not installed here
  }
  const recheck = await recheckChain(CHAIN, { python: "/usr/bin/python3" });
  assert.deepEqual(recheck, [
    { turn: 1, cases: 13, failed: [] },
    { turn: 2, cases: 9, failed: [] },
    { turn: 3, cases: 8, failed: [] },
    { turn: 4, cases: 8, failed: [] },
    { turn: 5, cases: 8, failed: [] },
  ]);
});
