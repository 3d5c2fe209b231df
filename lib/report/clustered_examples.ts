/**
 * Published worked examples of clustered matched-pair binary data, used to check
 * lib/report/clustered.ts against published statistics (tests/report_clustered_test.ts) and by
 * `deno task calibrate` (docs/statistics.md).
 *
 * @module
 */
import type { Cells } from "./clustered.ts";

function cells(a: number[], b: number[], c: number[], d: number[]): Cells[] {
  return a.map((_, k) => ({ a: a[k], b: b[k], c: c[k], d: d[k] }));
}
const at = (K: number, set: Record<number, number>) =>
  Array.from({ length: K }, (_, k) => set[k + 1] ?? 0);

/**
 * Obuchowski (1998), PET vs SPECT on the parathyroid glands of 21 patients (cluster = patient):
 * per-patient 2×2 counts as in R's clust.bin.pair (dgopstein/clust.bin.pair, MIT; its
 * `nested.to.contingency(thyroids$x.pet, thyroids$x.spect)`; the package test checks the first six
 * rows, a = 0,2,3,1,2,4, c = 2,1,0,0,1,0, d = 1,0,…).
 */
export const THYROIDS: Cells[] = cells(
  [0, 2, 3, 1, 2, 4, 3, 2, 1, 1, 2, 2, 3, 2, 0, 2, 2, 2, 2, 1, 2],
  at(21, { 9: 1 }),
  [2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0],
  at(21, { 1: 1, 11: 1, 16: 1, 17: 1 }),
);

/**
 * Donner & Petryshen (1989) as analysed by Eliasziw & Donner (1991): 29 psychiatrists (clusters)
 * and 135 of their patients, does the patient (A) or the psychiatrist (B) name an item as relevant
 * (clust.bin.pair's `psychiatry` data: ah, bh, ch, dh).
 */
export const PSYCHIATRY: Cells[] = cells(
  [1, 1, 3, 2, 2, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 1, 2, 1, 0, 2, 1, 0, 1, 0, 0, 0, 0, 1, 0],
  [0, 1, 1, 1, 0, 3, 3, 3, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0],
  [4, 2, 3, 2, 1, 3, 0, 2, 2, 4, 2, 4, 3, 2, 1, 3, 1, 2, 0, 0, 0, 2, 1, 2, 2, 0, 0, 1, 1],
  [2, 2, 0, 1, 1, 0, 2, 3, 1, 3, 0, 0, 3, 2, 2, 0, 3, 2, 1, 0, 3, 0, 2, 0, 1, 2, 2, 1, 0],
);

/** The published values of the examples (χ²(1) statistics), with where they were published. */
export const PUBLISHED: readonly {
  data: "thyroids" | "psychiatry";
  test: "pooled McNemar" | "Obuchowski" | "Yang";
  value: number;
  source: string;
}[] = [
  { data: "psychiatry", test: "pooled McNemar", value: 11.85, source: "Eliasziw & Donner 1991" },
  { data: "thyroids", test: "Obuchowski", value: 2.86, source: "Durkalski et al. 2003" },
  { data: "thyroids", test: "Yang", value: 3.13, source: "Yang, Sun & Hardin 2010" },
  { data: "psychiatry", test: "Yang", value: 8.43, source: "Yang, Sun & Hardin 2010" },
];
