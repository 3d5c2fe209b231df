/**
 * A small seeded pseudo-random generator (sfc32 seeded through splitmix32) with named
 * sub-streams, so that the simulated corpus is byte-identical for the same seed and one part's
 * draws never shift another's.
 *
 * @example
 * ```ts
 * import { Rng } from "./rng.ts";
 * const a = new Rng(7).fork("chain-1");
 * const b = new Rng(7).fork("chain-1");
 * console.assert(a.int(0, 1000) === b.int(0, 1000));
 * ```
 * @module
 */

/** 32-bit FNV-1a hash of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Seeded generator: sfc32. */
export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;
  readonly seed: number;

  constructor(seed: number) {
    this.seed = seed >>> 0;
    const sm = splitmix32(this.seed);
    this.#a = sm();
    this.#b = sm();
    this.#c = sm();
    this.#d = sm();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** An independent stream named by `label` (depends only on this stream's seed and the label). */
  fork(label: string | number): Rng {
    return new Rng(hash32(`${this.seed}:${label}`) ^ Math.imul(this.seed, 0x9e3779b1));
  }

  /** Next 32-bit unsigned integer. */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick: empty array");
    return items[Math.floor(this.float() * items.length)];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** `k` distinct elements in random order (all of them when k ≥ length). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, Math.max(0, k));
  }

  /** Index drawn with probability proportional to the weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((s, w) => s + Math.max(0, w), 0);
    if (total <= 0) return Math.floor(this.float() * weights.length);
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= Math.max(0, weights[i]);
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Approximately normal draw (sum of uniforms), mean m, standard deviation sd. */
  normal(m: number, sd: number): number {
    let s = 0;
    for (let i = 0; i < 6; i++) s += this.float();
    return m + (s - 3) * sd * Math.SQRT2;
  }
}
