/**
 * `deno task calibrate` — checks the clustered paired tests of lib/report/clustered.ts, as
 * docs/statistics.md reports them: their statistics on the published worked examples beside the
 * published values, and their false-positive rates on simulated data with no true difference
 * (seeded; `--replicates N`, default 4000), including chains the size of the simulated corpus's
 * memory comparison. Prints Markdown.
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  CALIBRATED_TESTS,
  durkalski,
  memoryConfig,
  nullRejectionRates,
  type NullSetting,
  obuchowski,
  pooledMcNemar,
  PSYCHIATRY,
  PUBLISHED,
  signFlip,
  simulatedScored,
  targetPairs,
  THYROIDS,
  turnRows,
  yangObuchowski,
} from "../lib/report/mod.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { replicates: { type: "string", default: "4000" } },
});
const R = Number(values.replicates);
if (!(R > 0)) throw new Error(`--replicates must be a positive number, got ${values.replicates}`);

const f = (x: number, d = 4) => x.toFixed(d);
console.log("## Worked examples\n");
console.log("| Data | K | N | pooled McNemar | Obuchowski | Durkalski | Yang | sign-flip p |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
for (const [name, data] of [["thyroids", THYROIDS], ["psychiatry", PSYCHIATRY]] as const) {
  const N = data.reduce((s, c) => s + c.a + c.b + c.c + c.d, 0);
  const cell = (t: { statistic: number; p: number }) => `${f(t.statistic)} (p ${f(t.p)})`;
  console.log(
    `| ${name} | ${data.length} | ${N} | ${cell(pooledMcNemar(data))} | ${
      cell(obuchowski(data))
    } | ` +
      `${cell(durkalski(data))} | ${cell(yangObuchowski(data))} | ` +
      `${signFlip(data.map((c) => c.b - c.c)).p.toPrecision(4)} |`,
  );
}
console.log(
  "\nPublished: " + PUBLISHED.map((p) => `${p.data} ${p.test} ${p.value} (${p.source})`).join("; "),
);

// chain sizes of the simulated corpus's memory comparison (interface vs none, all targets)
const sim = await simulatedScored({});
const which = memoryConfig(turnRows(sim.scored.turns))!;
const [all] = targetPairs(
  sim.scored.targets,
  { ...which, memory: "interface" },
  { ...which, memory: "none" },
);
const sizes = all.chains.map((c) => c.a + c.b + c.c + c.d);

const settings: [string, NullSetting][] = [
  ["K = 6 (the small corpus), n̄ = 10, τ = 1", { K: 6, meanPairs: 10, tau: 1 }],
  ["K = 10, n̄ = 10, τ = 1", { K: 10, meanPairs: 10, tau: 1 }],
  ["K = 30, n̄ = 10, τ = 1", { K: 30, meanPairs: 10, tau: 1 }],
  ["K = 75, n̄ = 10, τ = 1", { K: 75, meanPairs: 10, tau: 1 }],
  ["K = 75, n̄ = 10, τ = 0 (no chain tilt)", { K: 75, meanPairs: 10, tau: 0 }],
  ["K = 30, n̄ = 3, τ = 1", { K: 30, meanPairs: 3, tau: 1 }],
  [
    `K = ${sizes.length}, chain sizes of the corpus's memory comparison (${Math.min(...sizes)}–${
      Math.max(...sizes)
    } targets), τ = 1`,
    { K: sizes.length, meanPairs: 0, tau: 1, sizes },
  ],
];
console.log(`\n## False-positive rate at α = 0.05 on null data (${R} replicates per row)\n`);
console.log(`| Setting | ${CALIBRATED_TESTS.join(" | ")} |`);
console.log(`|---|${CALIBRATED_TESTS.map(() => "---:").join("|")}|`);
for (const [i, [label, s]] of settings.entries()) {
  const r = nullRejectionRates(s, { replicates: R, seed: 1000 + i });
  console.log(`| ${label} | ${CALIBRATED_TESTS.map((t) => f(r[t], 3)).join(" | ")} |`);
}
console.log(`\nMonte Carlo SE at 0.05: ${f(Math.sqrt(0.05 * 0.95 / R), 4)}.`);
