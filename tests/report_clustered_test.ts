// Clustered paired tests checked on published worked examples and on null simulations.
import assert from "node:assert/strict";
import { PSYCHIATRY, THYROIDS } from "../lib/report/clustered_examples.ts";
import {
  type Cells,
  durkalski,
  nullRejectionRates,
  obuchowski,
  pooledMcNemar,
  signFlip,
  yangObuchowski,
} from "../lib/report/clustered.ts";

const near = (a: number, b: number, eps: number, what: string) =>
  assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} ≉ ${b} (±${eps})`);

const totals = (cs: Cells[]) => {
  const sum = (f: (c: Cells) => number) => cs.reduce((s, c) => s + f(c), 0);
  return [cs.length, sum((c) => c.a + c.b + c.c + c.d), sum((c) => c.b), sum((c) => c.c)];
};

Deno.test("worked examples: the data sets are the published ones (K, N, b, c)", () => {
  assert.deepEqual(totals(THYROIDS), [21, 51, 1, 7]);
  assert.deepEqual(totals(PSYCHIATRY), [29, 135, 21, 50]);
});

Deno.test("worked examples: statistics match the published values", () => {
  // McNemar, pairs pooled: psychiatry 11.85 (Eliasziw & Donner 1991; clust.bin.pair's test), thyroids 8²/8·… = 4.5
  near(pooledMcNemar(PSYCHIATRY).statistic, 11.85, 0.005, "McNemar psychiatry");
  near(pooledMcNemar(THYROIDS).statistic, 4.5, 1e-12, "McNemar thyroids");
  // Obuchowski: thyroids 2.86 as reported by Durkalski et al. (2003) and reproduced by
  // clust.bin.pair (Obuchowski's own paper printed 2.88, a rounding the package notes)
  near(obuchowski(THYROIDS).statistic, 2.86, 0.005, "Obuchowski thyroids");
  // Yang, Sun & Hardin (2010), modified Obuchowski: thyroids 3.13, psychiatry 8.43
  near(yangObuchowski(THYROIDS).statistic, 3.13, 0.005, "Yang thyroids");
  near(yangObuchowski(PSYCHIATRY).statistic, 8.43, 0.005, "Yang psychiatry");
  // Durkalski: clust.bin.pair's .durkalski.impl, sum((b−c)/n)² / sum(((b−c)/n)²), to 4 decimals
  near(durkalski(THYROIDS).statistic, 2.3151, 5e-5, "Durkalski thyroids");
  near(durkalski(PSYCHIATRY).statistic, 7.5423, 5e-5, "Durkalski psychiatry");
  near(obuchowski(PSYCHIATRY).statistic, 7.1858, 5e-5, "Obuchowski psychiatry");
  // p-values: χ²(1) upper tail (R pchisq(x, 1, lower.tail = FALSE))
  near(obuchowski(THYROIDS).p, 0.0910, 5e-5, "Obuchowski thyroids p");
  near(pooledMcNemar(THYROIDS).p, 0.0339, 5e-5, "McNemar thyroids p");
  near(durkalski(PSYCHIATRY).p, 0.0060, 5e-5, "Durkalski psychiatry p");
});

Deno.test("signFlip: exact over every sign pattern, checked by brute force", () => {
  for (const data of [THYROIDS, PSYCHIATRY]) {
    const D = data.map((c) => c.b - c.c);
    const nz = D.filter((d) => d !== 0);
    const observed = Math.abs(D.reduce((s, d) => s + d, 0));
    let hit = 0;
    if (nz.length <= 20) {
      for (let m = 0; m < 2 ** nz.length; m++) {
        let s = 0;
        nz.forEach((d, i) => s += (m >> i) & 1 ? -d : d);
        if (Math.abs(s) >= observed) hit++;
      }
      near(signFlip(D).p, hit / 2 ** nz.length, 1e-12, "sign-flip brute force");
    }
    assert.equal(signFlip(D).discordantChains, nz.length);
  }
  // psychiatry (25 discordant psychiatrists): 0.006436, computed independently in R
  near(signFlip(PSYCHIATRY.map((c) => c.b - c.c)).p, 0.006436, 5e-7, "sign-flip psychiatry");
  // thyroids: 6 discordant patients, 10 of 64 patterns as extreme as observed
  assert.equal(signFlip(THYROIDS.map((c) => c.b - c.c)).p, 10 / 64);
  assert.equal(signFlip([]).p, 1);
  assert.equal(signFlip([3, -3]).p, 1);
  assert.equal(signFlip([2]).minP, 1); // one discordant chain: nothing can be significant
  assert.throws(() => signFlip([0.5]), /integers/);
});

Deno.test("edge cases: no discordance, one chain, singleton chains", () => {
  const none = [{ a: 3, b: 0, c: 0, d: 2 }, { a: 1, b: 0, c: 0, d: 0 }];
  for (const t of [obuchowski, durkalski, yangObuchowski, pooledMcNemar]) {
    assert.deepEqual(t(none), { statistic: 0, p: 1 });
  }
  assert.equal(obuchowski([{ a: 0, b: 3, c: 0, d: 0 }]).p, 1); // K = 1: undefined → no evidence
  // every n_k = 1: Durkalski equals McNemar, Obuchowski is McNemar × (K − 1)/K
  const singles = [...Array(6).fill({ a: 0, b: 1, c: 0, d: 0 }), { a: 0, b: 0, c: 1, d: 0 }];
  near(durkalski(singles).statistic, pooledMcNemar(singles).statistic, 1e-12, "n_k = 1");
  near(obuchowski(singles).statistic, pooledMcNemar(singles).statistic * 6 / 7, 1e-12, "n_k = 1");
  assert.throws(() => obuchowski([{ a: -1, b: 0, c: 0, d: 0 }]), /non-negative integers/);
});

Deno.test("null simulation: the chain-level tests hold the level; pooled McNemar does not", () => {
  // 2,000 replicates: Monte Carlo SE at 0.05 ≈ 0.0049; accept within ±3 SE (plus the sign-flip
  // test's known conservativeness, integer sums tie)
  const R = 2000;
  const tilted = nullRejectionRates({ K: 30, meanPairs: 10, tau: 1 }, { replicates: R, seed: 11 });
  assert.ok(tilted["sign-flip"] >= 0.02 && tilted["sign-flip"] <= 0.065, JSON.stringify(tilted));
  assert.ok(tilted["Durkalski"] >= 0.035 && tilted["Durkalski"] <= 0.065, JSON.stringify(tilted));
  // the positive control: pairs of a chain share the direction of discordance
  assert.ok(tilted["pooled McNemar"] > 0.2, JSON.stringify(tilted));
  const flat = nullRejectionRates({ K: 30, meanPairs: 10, tau: 0 }, { replicates: R, seed: 12 });
  assert.ok(flat["pooled McNemar"] <= 0.065, JSON.stringify(flat)); // fine when pairs are independent
  assert.ok(flat["sign-flip"] >= 0.02 && flat["sign-flip"] <= 0.065, JSON.stringify(flat));
  // seeded: the same rates again
  assert.deepEqual(
    nullRejectionRates({ K: 10, meanPairs: 3, tau: 1 }, { replicates: 300, seed: 5 }),
    nullRejectionRates({ K: 10, meanPairs: 3, tau: 1 }, { replicates: 300, seed: 5 }),
  );
});
