/**
 * Stratified (quota) assignment of planted outcomes: exactly round(rate × n) items of a stratum
 * are selected, drawn by weight without replacement, then rebalanced by swaps so that the mean of
 * per-row shares is as close to the rate as the pooled share — both ways of macro-averaging a
 * turn then land on the calibration target.
 *
 * @example
 * ```ts
 * import { Rng } from "./rng.ts";
 * import { allocate } from "./quota.ts";
 * const rows = [0, 0, 1, 1, 1, 2, 3, 3];
 * const sel = allocate(new Rng(1), { rows, rate: 0.5 });
 * console.assert(sel.filter(Boolean).length === 4);
 * ```
 * @module
 */
import type { Rng } from "./rng.ts";

export interface AllocateOptions {
  /** Row (e.g. chain) of each item; per-row shares are averaged. */
  rows: number[];
  rate: number;
  /** Items that may be selected (default: all). */
  allowed?: boolean[];
  /** Items that must be selected when allowed (counted in the quota). */
  forced?: boolean[];
  /** Selection weights (default 1). */
  weights?: number[];
  /** Swaps may only exchange items of the same group (e.g. read / unread). */
  groups?: number[];
}

/** Selects items; returns one boolean per item. */
export function allocate(rng: Rng, o: AllocateOptions): boolean[] {
  const n = o.rows.length;
  const sel = new Array<boolean>(n).fill(false);
  if (n === 0) return sel;
  const allowed = o.allowed ?? new Array(n).fill(true);
  const k = Math.round(o.rate * n);
  let chosen = 0;
  if (o.forced) {
    for (let i = 0; i < n; i++) {
      if (o.forced[i] && allowed[i]) {
        sel[i] = true;
        chosen++;
      }
    }
  }
  const pool = rng.shuffle([...Array(n).keys()].filter((i) => allowed[i] && !sel[i]));
  const w = pool.map((i) => o.weights?.[i] ?? 1);
  while (chosen < k && pool.length) {
    const j = rng.weighted(w);
    sel[pool[j]] = true;
    pool.splice(j, 1);
    w.splice(j, 1);
    chosen++;
  }
  rebalance(rng, sel, o, allowed);
  return sel;
}

function rebalance(rng: Rng, sel: boolean[], o: AllocateOptions, allowed: boolean[]) {
  const size = new Map<number, number>();
  for (const r of o.rows) size.set(r, (size.get(r) ?? 0) + 1);
  const R = size.size;
  const meanShare = () => {
    const hit = new Map<number, number>();
    sel.forEach((s, i) => s && hit.set(o.rows[i], (hit.get(o.rows[i]) ?? 0) + 1));
    let s = 0;
    for (const [r, n] of size) s += (hit.get(r) ?? 0) / n;
    return s / R;
  };
  let m = meanShare();
  const idx = [...sel.keys()];
  for (let iter = 0; iter < 400 && Math.abs(m - o.rate) > 0.5 / R; iter++) {
    const on = idx.filter((i) => sel[i] && !(o.forced?.[i]));
    const off = idx.filter((i) => !sel[i] && allowed[i]);
    if (!on.length || !off.length) return;
    const i = rng.pick(on);
    const j = rng.pick(off);
    if (o.groups && o.groups[i] !== o.groups[j]) continue;
    const d = (1 / size.get(o.rows[j])! - 1 / size.get(o.rows[i])!) / R;
    if (Math.abs(m + d - o.rate) < Math.abs(m - o.rate)) {
      sel[i] = false;
      sel[j] = true;
      m += d;
    }
  }
}
