import assert from "node:assert/strict";
import {
  averageByConfig,
  averageByTurn,
  C_dup,
  isRead,
  isReimplemented,
  macroAverage,
  passRate,
  recall_s,
  resolved,
  reuse_s,
} from "../lib/metrics/mod.ts";
import { rowOf, TURN_COLUMNS, type TurnRow } from "../lib/metrics/rows.ts";

Deno.test("reuse_s (eq. 1): share of distinct targets called; null without targets", () => {
  const called = new Set(["p.a.f", "p.b.g", "x.y"]);
  assert.equal(reuse_s(["p.a.f", "p.b.g", "p.c.h"], called), 2 / 3);
  assert.equal(reuse_s(["p.c.h"], called), 0);
  assert.equal(reuse_s(["p.a.f", "p.a.f"], called), 1); // a target counts once
  assert.equal(reuse_s([], called), null);
});

Deno.test("isRead / recall_s (eq. 2): overlap of at least one body line", () => {
  const reads = {
    "p/a.py": [[1, 10], [40, 41]] as [number, number][],
    "p/b.py": [[5, 5]] as [number, number][],
  };
  assert.equal(isRead({ file: "p/a.py", start: 10, end: 20 }, reads), true); // touches first line
  assert.equal(isRead({ file: "p/a.py", start: 11, end: 39 }, reads), false); // gap between ranges
  assert.equal(isRead({ file: "p/a.py", start: 41, end: 60 }, reads), true);
  assert.equal(isRead({ file: "p/b.py", start: 1, end: 4 }, reads), false);
  assert.equal(isRead({ file: "p/c.py", start: 1, end: 100 }, reads), false);
  assert.equal(isRead(null, reads), false); // never implemented: no body
  const bodies = [
    { file: "p/a.py", start: 2, end: 3 },
    { file: "p/b.py", start: 5, end: 9 },
    { file: "p/b.py", start: 6, end: 9 },
    null,
  ];
  assert.equal(recall_s(bodies, reads), 0.5);
  assert.equal(recall_s([], reads), null);
});

Deno.test("passRate and resolved", () => {
  const cases = (...p: boolean[]) => p.map((passed) => ({ passed }));
  assert.equal(passRate(cases(true, true, false, false, true)), 0.6);
  assert.equal(resolved(cases(true, true, false)), false);
  assert.equal(resolved(cases(true, true)), true);
  assert.equal(passRate(cases()), null);
  assert.equal(resolved(cases()), false);
  assert.equal(passRate(cases(false, false)), 0); // e.g. a turn without submission
});

Deno.test("isReimplemented: ≥ 80% of ≥ 3 non-builtin callees, and not called", () => {
  const five = ["m.a", "m.b", "m.c", "m.d", "m.e"];
  const r80 = isReimplemented(false, five, new Set(["m.a", "m.b", "m.c", "m.d", "other"]));
  assert.deepEqual(r80, { reimplemented: true, overlap: 0.8 });
  const r60 = isReimplemented(false, five, new Set(["m.a", "m.b", "m.c"]));
  assert.deepEqual(r60, { reimplemented: false, overlap: 0.6 });
  // called → reuse, not re-implementation
  assert.equal(isReimplemented(true, five, new Set(five)).reimplemented, false);
  // only two callees: never, even at 100%
  assert.deepEqual(isReimplemented(false, ["m.a", "m.b"], new Set(["m.a", "m.b"])), {
    reimplemented: false,
    overlap: 1,
  });
  // exactly three, all called: yes; 2 of 3 (66.7%): no
  assert.equal(
    isReimplemented(false, ["a", "b", "c"], new Set(["a", "b", "c"])).reimplemented,
    true,
  );
  assert.equal(isReimplemented(false, ["a", "b", "c"], new Set(["a", "b"])).reimplemented, false);
  // 12 of 15 = 80% exactly (0.8 * 15 is 12.000000000000002 in floating point)
  const fifteen = Array.from({ length: 15 }, (_, i) => `f${i}`);
  assert.equal(isReimplemented(false, fifteen, new Set(fifteen.slice(0, 12))).reimplemented, true);
  assert.equal(isReimplemented(false, fifteen, new Set(fifteen.slice(0, 11))).reimplemented, false);
  // no callees: overlap undefined
  assert.deepEqual(isReimplemented(false, [], new Set(["a"])), {
    reimplemented: false,
    overlap: null,
  });
});

Deno.test("C_dup (eq. 3): cumulative share of chains with a re-implementation by turn t", () => {
  const chains = [
    [0, 0, 1, 0, 0],
    [1, 0, 0, 0, 0],
    [0, 0, 0, 0, 0],
    [0, 0, 0, 0, 2],
  ];
  assert.deepEqual([1, 2, 3, 4, 5].map((t) => C_dup(chains, t)), [0.25, 0.25, 0.5, 0.5, 0.75]);
  assert.equal(C_dup([], 3), null);
});

Deno.test("macroAverage skips undefined values and never returns 0 for nothing", () => {
  assert.equal(macroAverage([1, null, 0, undefined, NaN, 0.5]), 0.5);
  assert.equal(macroAverage([]), null);
});

function row(p: Partial<TurnRow> & { chain: string; turn: number }): TurnRow {
  return rowOf(TURN_COLUMNS, {
    harness: "h",
    model: "m",
    memory: "interface",
    n_repo: 1,
    n_self: 0,
    reuse_repo: null,
    reuse_self: null,
    recall_repo: null,
    recall_self: null,
    files: 0,
    lines: 0,
    tests: 2,
    passed: 0,
    pass_rate: 0,
    resolved: false,
    submitted: true,
    reimplemented: 0,
    dup_chain: false,
    coverage: 1,
    ...p,
  });
}

Deno.test("averageByConfig: per-turn rates averaged where defined; C_dup over cumulative rates", () => {
  const rows = [
    row({
      chain: "a",
      turn: 1,
      reuse_repo: 1,
      recall_repo: 1,
      files: 4,
      lines: 100,
      pass_rate: 1,
      resolved: true,
    }),
    row({
      chain: "a",
      turn: 2,
      reuse_repo: 0,
      reuse_self: 1,
      recall_self: 1,
      files: 2,
      lines: 10,
      pass_rate: 0.5,
      reimplemented: 2,
    }),
    row({ chain: "b", turn: 1, reuse_repo: 0.5, recall_repo: 0, files: 0, lines: 0, pass_rate: 0 }),
    row({
      chain: "b",
      turn: 2,
      reuse_self: 0,
      recall_self: 0.5,
      files: 6,
      lines: 50,
      pass_rate: 1,
      resolved: true,
    }),
    row({ chain: "b", turn: 3, files: 8, lines: 40, pass_rate: 0.25, reimplemented: 1 }),
    row({ chain: "c", turn: 1, memory: "none", reuse_repo: 0.25 }),
  ];
  const [interface_, none] = [averageByConfig(rows)[0], averageByConfig(rows)[1]];
  assert.equal(interface_.memory, "interface");
  assert.equal(interface_.turns, 5);
  assert.equal(interface_.chains, 2);
  assert.equal(interface_.reuse_repo, 0.5); // (1 + 0 + 0.5) / 3
  assert.equal(interface_.reuse_self, 0.5); // (1 + 0) / 2
  assert.equal(interface_.recall_repo, 0.5);
  assert.equal(interface_.recall_self, 0.75);
  assert.equal(interface_.files, 4); // 20 / 5
  assert.equal(interface_.lines, 40); // 200 / 5
  assert.equal(interface_.resolve, 0.4);
  assert.equal(interface_.pass, 0.55); // 2.75 / 5
  // C_dup(1) = 0, C_dup(2) = 1/2 (a), C_dup(3) = 2/2 → mean 0.5
  assert.equal(interface_.c_dup, 0.5);
  assert.equal(none.memory, "none");
  assert.equal(none.reuse_repo, 0.25);
  assert.equal(none.reuse_self, null);
  const by = averageByTurn(rows).filter((r) => r.memory === "interface");
  assert.deepEqual(by.map((r) => [r.turn, r.turns, r.c_dup]), [[1, 2, 0], [2, 2, 0.5], [3, 1, 1]]);
  assert.equal(by[0].reuse_self, null); // self metrics undefined at turn 1
  assert.equal(by[0].reuse_repo, 0.75);
});
