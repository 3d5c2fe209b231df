// C_dup (eq. 3) and its mean over turns against a direct transcription of the formula, on random
// chains of uneven length (shorter chains count with the turns they have), and the bootstrap's
// sufficient statistics against the scorer's macro-averaging on the same rows.
import assert from "node:assert/strict";
import { rowOf, TURN_COLUMNS } from "../lib/metrics/rows.ts";
import {
  averageByConfig,
  C_dup,
  C_dupCurve,
  dupChain,
  meanC_dup,
  reimplementationCounts,
} from "../lib/metrics/mod.ts";

/** Σ_c 1[∃ i ≤ t : R_{c,i} ≠ ∅]: the chains duplicated by turn t. */
function duplicated(chains: number[][], t: number): number {
  let dup = 0;
  for (const r of chains) if (r.slice(0, t).some((n) => n > 0)) dup++;
  return dup;
}

/** (1/|C|) Σ_c 1[∃ i ≤ t : R_{c,i} ≠ ∅], written as the paper states it. */
function direct(chains: number[][], t: number): number {
  return duplicated(chains, t) / chains.length;
}

function randomChains(seed: number): number[][] {
  let x = seed;
  const r = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const n = 1 + Math.floor(r() * 12);
  return Array.from(
    { length: n },
    () =>
      Array.from({ length: Math.floor(r() * 7) }, () => (r() < 0.15 ? 1 + Math.floor(r() * 3) : 0)),
  );
}

Deno.test("C_dup and C_dupCurve equal the formula at every turn; meanC_dup is their mean", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const chains = randomChains(seed);
    const T = Math.max(0, ...chains.map((c) => c.length));
    const curve = C_dupCurve(chains, T + 2);
    for (let t = 1; t <= T + 2; t++) {
      assert.equal(C_dup(chains, t), direct(chains, t), `seed ${seed} t ${t}`);
      assert.equal(curve[t - 1], direct(chains, t));
      assert.equal(
        C_dup(chains, t, 100),
        (100 * direct(chains, t) * chains.length) / chains.length,
      );
    }
    if (T === 0) assert.equal(meanC_dup(chains), null);
    else {
      let sum = 0;
      for (let t = 1; t <= T; t++) sum += direct(chains, t);
      assert.equal(meanC_dup(chains), sum / T, `seed ${seed}`);
      assert.equal(meanC_dup(chains, 100), (100 * sum) / T);
    }
    for (const c of chains) {
      assert.deepEqual(dupChain(c), c.map((_, i) => c.slice(0, i + 1).some((n) => n > 0)));
    }
  }
  assert.equal(C_dup([], 3), null);
  assert.equal(meanC_dup([]), null);
  assert.equal(C_dup([[1]], 0), 0);
});

Deno.test("averageByConfig's C_dup is meanC_dup of the chains' re-implementation counts", () => {
  const base = {
    harness: "h",
    model: "m",
    memory: "none",
    n_repo: 1,
    n_self: 0,
    reuse_repo: 1,
    reuse_self: null,
    recall_repo: 1,
    recall_self: null,
    files: 1,
    lines: 1,
    tests: 0,
    passed: 0,
    pass_rate: null,
    resolved: false,
    submitted: true,
    dup_chain: false,
    coverage: 1,
  };
  // chain a: re-implementation at turn 2; chain b: none; chain c (turns 1 and 3 only): at turn 3
  const rows = [
    { chain: "a", turn: 1, reimplemented: 0 },
    { chain: "a", turn: 2, reimplemented: 2 },
    { chain: "a", turn: 3, reimplemented: 0 },
    { chain: "b", turn: 1, reimplemented: 0 },
    { chain: "b", turn: 2, reimplemented: 0 },
    { chain: "c", turn: 1, reimplemented: 0 },
    { chain: "c", turn: 3, reimplemented: 1 },
  ].map((r) => rowOf(TURN_COLUMNS, { ...base, ...r }));
  assert.deepEqual(reimplementationCounts(rows.filter((r) => r.chain === "c")), [0, 0, 1]);
  // C_dup(1) = 0, C_dup(2) = 1/3, C_dup(3) = 2/3 → mean 1/3
  const [s] = averageByConfig(rows);
  assert.equal(s.c_dup, (0 + 1 / 3 + 2 / 3) / 3);
});
