/**
 * The re-implementation rule (paper §3.3.2) has one home, lib/metrics/redundancy.ts: the scorer
 * decides with `isReimplemented`, the simulator plants its truth with the same function, and every
 * sentence that states the rule's numbers (reports, notebooks, the simulator's README, docs) either
 * fills them in from the constants or is checked here against them. Changing the rule is then one
 * change in lib (the constants), and these tests name every document left to update.
 */
import assert from "node:assert/strict";
import {
  isReimplemented,
  REIMPLEMENTATION_MIN_CALLEES,
  REIMPLEMENTATION_SHARE,
} from "../lib/metrics/redundancy.ts";
import { Rng } from "../lib/simulate/rng.ts";
import { generatePackage } from "../lib/simulate/package.ts";
import { generateChains } from "../lib/simulate/tasks.ts";
import { simulateConfig } from "../lib/simulate/runs.ts";
import { CONFIGS } from "../lib/simulate/calibration.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const HOME = "lib/metrics/redundancy.ts";

/** Repository-relative paths of the files under `dir` whose names end with one of `exts`. */
function filesUnder(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(`${ROOT}${rel}`)) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory) walk(p);
      else if (exts.some((x) => e.name.endsWith(x))) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

const line = (text: string, at: number) => text.slice(0, at).split("\n").length;

Deno.test("rule: no copy of the rule's constants outside lib/metrics/redundancy.ts", () => {
  const own: string[] = [];
  for (const f of [...filesUnder("lib", [".ts"]), ...filesUnder("tasks", [".ts"])]) {
    if (f === HOME) continue;
    const text = Deno.readTextFileSync(`${ROOT}${f}`);
    const patterns = [
      // a share of its own (`const REIMPL_SHARE = 0.8`)
      /\b\w*(?:REIMPL|SHARE)\w*\s*=\s*0?\.\d+/g,
      // a count of callees compared with a literal (`callees.length >= 3`, `n >= 3 && hit`)
      /callees\w*(?:\.length|\.size)?\s*(?:>=|>)\s*\d/g,
      // the share's rounding written out again (`Math.ceil(0.8 * n - 1e-9)`)
      /Math\.ceil\(\s*0?\.\d+\s*\*/g,
    ];
    for (const re of patterns) {
      for (const m of text.matchAll(re)) own.push(`${f}:${line(text, m.index)}: ${m[0]}`);
    }
  }
  assert.deepEqual(own, [], "use isReimplemented / reimplementationHits of lib/metrics instead");
  const runs = Deno.readTextFileSync(`${ROOT}lib/simulate/runs.ts`);
  assert.match(
    runs,
    /import \{[^}]*\bisReimplemented\b[^}]*\} from "\.\.\/metrics\/mod\.ts"/, // through the front door
  );
});

Deno.test("rule: the simulator plants exactly the scorer's re-implementations", () => {
  const root = new Rng(5);
  const repos = ["a", "b"].map((n) =>
    generatePackage(root.fork(n), { repo: `pk${n}`, pkg: `pk${n}`, coreModules: 8, utilModules: 4 })
  );
  const chains = generateChains(root.fork("chains"), repos, 30);
  let planted = 0, atShare = 0, checked = 0;
  for (const calib of CONFIGS.slice(0, 3)) {
    const sim = simulateConfig(
      root.fork(calib.model + calib.memory + calib.harness),
      calib,
      chains,
    );
    for (const turn of sim.turns.flat()) {
      if (!turn.submitted) continue;
      const calls = new Set(turn.fns.flatMap((f) => f.callees));
      for (const tg of turn.targets) {
        const r = isReimplemented(tg.reused, tg.callees, calls);
        assert.equal(tg.reimplemented, r.reimplemented, `${tg.id} at turn ${turn.t}`);
        checked++;
        if (tg.reimplemented) planted++;
        // the boundary itself: exactly the share of the callees, and just below it
        if (r.overlap !== null && Math.abs(r.overlap - REIMPLEMENTATION_SHARE) < 0.1) atShare++;
      }
    }
  }
  assert.ok(checked > 500 && planted > 10 && atShare > 0, `${checked} ${planted} ${atShare}`);
});

/**
 * Every number a sentence about the rule states: percentages and minimum callee counts written
 * near "callee(s)" and a re-implementation ("re-implement", "does not call", "not called").
 */
function ruleNumbers(text: string): { at: number; kind: "share" | "min"; value: number }[] {
  const out: { at: number; kind: "share" | "min"; value: number }[] = [];
  const about = (at: number) => {
    const near = text.slice(Math.max(0, at - 160), at + 160);
    const item = text.slice(Math.max(0, at - 400), at + 160);
    return /callee/.test(near) && /re-?implement|not call|does not call|reuse/i.test(item);
  };
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s?%/g)) {
    if (about(m.index)) out.push({ at: m.index, kind: "share", value: Number(m[1]) / 100 });
  }
  const words: Record<string, number> = { two: 2, three: 3, four: 4, five: 5 };
  for (
    const m of text.matchAll(/(?:≥|\\u2265|\bat least)\s?(\d+|two|three|four|five)\b(?!\s?%)/g)
  ) {
    if (!about(m.index)) continue;
    out.push({ at: m.index, kind: "min", value: words[m[1]] ?? Number(m[1]) });
  }
  return out;
}

Deno.test("rule: prose and docs state the rule with the constants' numbers", () => {
  const files = [
    "README.md",
    ...filesUnder("docs", [".md"]),
    ...filesUnder("notebooks", [".ipynb"]),
    ...filesUnder("lib", [".ts", ".md"]),
    ...filesUnder("tasks", [".ts"]),
  ].filter((f) => f !== HOME);
  const wrong: string[] = [];
  let seen = 0;
  for (const f of files) {
    const text = Deno.readTextFileSync(`${ROOT}${f}`);
    for (const n of ruleNumbers(text)) {
      seen++;
      const want = n.kind === "share" ? REIMPLEMENTATION_SHARE : REIMPLEMENTATION_MIN_CALLEES;
      if (Math.abs(n.value - want) > 1e-9) {
        wrong.push(`${f}:${line(text, n.at)}: ${n.kind} ${n.value}, the rule says ${want}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
  // docs/run-logs.md, docs/queries.md, docs/audit.md, lib/simulate/README.md, notebook 08 …
  assert.ok(seen >= 8, `only ${seen} statements of the rule found: is the scan still working?`);
});

Deno.test("rule: the scan finds a rule stated with other numbers", () => {
  const found = ruleNumbers(
    "f is re-implemented when s does not call it but calls ≥ 75% of its ≥ 4 non-builtin callees",
  );
  assert.deepEqual(found.map((n) => [n.kind, n.value]), [["share", 0.75], ["min", 4]]);
});
