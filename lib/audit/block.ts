/**
 * Copied blocks: the lines a change added to a function F that repeat, token for token up to
 * names and literals, a block of another function G — a "type-2" clone as token clone detectors
 * (jscpd, PMD's CPD) find them, but diff-aware: only what the change added is searched, and only
 * against functions (whole-function similarity says nothing about a block pasted into a larger,
 * different function, nor about a copy too small for the structural clone's 40 syntax nodes).
 *
 * The tokens are lib/audit/shape.ts's normalised sequence (identifiers → one code, string and
 * number literals → another; keywords, operators, `True`/`False`/`None`, attribute and
 * keyword-argument names kept; block start and end as tokens). Every {@link BLOCK_SEED}-token
 * window is hashed (a polynomial rolling hash, Rabin–Karp); a side's index posts every
 * {@link BLOCK_STRIDE}-th window of each function, so any identical run of at least
 * `BLOCK_SEED + BLOCK_STRIDE − 1` tokens shares an indexed window with the function it is in.
 * Each window of F's new tokens is looked up once (a hash map: no pair of functions is compared
 * unless they share a window), verified token by token and extended to a maximal run (a
 * **segment**); segments of one pair in the same order on both sides, at most {@link BLOCK_MAX_GAP}
 * tokens apart on each, are one block (a copy with one call swapped, `print` → `self.log.info`,
 * stays one block), and so are the identical runs too short to seed a window beside a segment,
 * past a swapped name ({@link BLOCK_MIN_RUN}). Only the tokens of the two bodies count: a segment
 * is cut where it enters either function's def line ({@link bodyStart}: the parameter list, its
 * annotations and defaults, the return annotation — a declared interface, which two functions
 * with the same typed parameters share without copying anything). A block is reported when it
 * has at least {@link BLOCK_MIN_TOKENS} tokens matched, spans at least {@link BLOCK_MIN_LINES}
 * lines of F and has at least {@link BLOCK_MIN_DISTINCT} distinct tokens (a table of literals is
 * not code copied) — or, when it is G's whole body (a small function copied whole; its ends
 * reached by seeded runs), {@link BLOCK_MIN_WHOLE_TOKENS} tokens over
 * {@link BLOCK_MIN_WHOLE_LINES} lines. Under those limits, a **small block** (asked for by the
 * audit, `copiedBlocks(…, small)`) is one identical run a window seeded of at least
 * {@link BLOCK_MIN_SMALL_TOKENS} tokens over {@link BLOCK_MIN_LINES} lines of F, with
 * {@link BLOCK_MIN_DISTINCT} distinct codes, at least half of its tokens added by the change, and
 * no function but F and G (in any version) holding 20 tokens of it (a few lines pasted, not an
 * idiom of the project).
 *
 * A window is **new** in F when F's old version (before the change) had no window of the same
 * hash: only segments holding a new window are sought, so a block F already contained is not
 * reported (and when F's old version already shared a block with G covering at least half of the
 * new one, the pair is pre-existing: lib/audit/change.ts notes it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { blockIndex, BLOCK_SEED, copiedBlocks, windowHashes } from "./block.ts";
 * import type { SideDef } from "./side.ts";
 * const body = Array.from({ length: 80 }, (_, i) => 100 + (i % 17) * 3 + (i % 5));
 * const def = (id: string, tokens: number[]): SideDef => ({
 *   id, kind: "function", file: "p/m.py", start: 1, end: tokens.length, name: id,
 *   signature: `def ${id}()`, params: [], hash: id, size: 10, features: [],
 *   tokens, tokenLines: tokens.map((_, i) => 1 + Math.floor(i / 8)),
 *   callees: [], uses: [], context: "code", test: false,
 * });
 * const g = def("g", body);
 * const f = def("f", [7, 8, 9, ...body.slice(10, 70), 9, 8]);
 * const found = copiedBlocks(f, null, blockIndex([g]), () => true);
 * assert.equal(found.size, 1);
 * assert.equal(found.get(g)!.tokens, 60);
 * assert.equal(windowHashes(body).length, body.length - BLOCK_SEED + 1);
 * ```
 * @module
 */
import type { SideDef } from "./side.ts";
import { BLOCK_START_TOKEN } from "./shape.ts";

/** Tokens of a hashed window (the seed of a match). */
export const BLOCK_SEED = 20;
/** Every this many windows of a function is indexed (a run of SEED + STRIDE − 1 is always found). */
export const BLOCK_STRIDE = 5;
/** Tokens matched for a block to be reported (jscpd's default `minTokens`). */
export const BLOCK_MIN_TOKENS = 50;
/** Lines of F a block must span (jscpd's default `minLines`). */
export const BLOCK_MIN_LINES = 5;
/**
 * A block that is G's whole body (from its first statement to its end) needs only this many
 * tokens of that body (its def line not counted): the function's boundary is evidence of its own —
 * a small function copied whole.
 */
export const BLOCK_MIN_WHOLE_TOKENS = 25;
/** Lines of F a whole-body copy must span. */
export const BLOCK_MIN_WHOLE_LINES = 3;
/**
 * A **small block** (under {@link BLOCK_MIN_TOKENS}) needs this many tokens, in one identical run
 * a window seeded (no gap, no swapped name), over {@link BLOCK_MIN_LINES} lines of F, at least
 * half of them tokens the change added to F, and no third function holding 20 tokens of it (in the
 * index searched, and for a pair within a change in the base's too: a run a third function holds
 * is the project's idiom, not a paste): a few lines pasted into a function, under jscpd's floor.
 * Its confidence is lowered (lib/audit/evidence.ts `SMALL_BLOCK_FACTOR`): alone it never fails a
 * check by default.
 */
export const BLOCK_MIN_SMALL_TOKENS = 25;
/** Distinct token codes a block must hold (a run of literals and commas is data, not code). */
export const BLOCK_MIN_DISTINCT = 10;
/** Tokens allowed between two segments of one block, on each side (one call swapped). */
export const BLOCK_MAX_GAP = 12;
/**
 * The shortest identical run that no window seeds and that still counts beside a segment (about
 * one line of Python: `self.a = a` is 6 tokens, `if x is None:` 6): shorter ones are tokens alike
 * by chance (`IDENT` then `(` on both sides).
 */
export const BLOCK_MIN_RUN = 5;
/**
 * A window posted more often than this in an index is an idiom of the project (a run of
 * `self.assertEqual(…)`): it seeds no match (a longer copy has other, rarer windows).
 */
export const BLOCK_MAX_POSTINGS = 64;

const BASE = 0x01000193;
let basePow = 1;
for (let i = 0; i < BLOCK_SEED; i++) basePow = Math.imul(basePow, BASE);
const POW = basePow;

/** The rolling hash of every {@link BLOCK_SEED}-token window of a token sequence, in order. */
export function windowHashes(tokens: ArrayLike<number>): Uint32Array {
  const n = tokens.length - BLOCK_SEED + 1;
  if (n <= 0) return new Uint32Array(0);
  const out = new Uint32Array(n);
  let h = 0;
  for (let i = 0; i < tokens.length; i++) {
    h = (Math.imul(h, BASE) + tokens[i]) | 0;
    if (i >= BLOCK_SEED) h = (h - Math.imul(tokens[i - BLOCK_SEED], POW)) | 0;
    if (i >= BLOCK_SEED - 1) out[i - BLOCK_SEED + 1] = h >>> 0;
  }
  return out;
}

/**
 * Indexed windows of a set of functions: hash → [slot, position, slot, position, …], a slot being
 * an index of `defs` (null: a def removed by {@link updateBlockIndex}, its postings left behind).
 */
export interface BlockIndex {
  defs: (SideDef | null)[];
  postings: Map<number, number[]>;
  /** Slots emptied by {@link updateBlockIndex}. */
  dead: number;
}

function post(ix: BlockIndex, d: SideDef): void {
  if (!d.tokens) return;
  const k = ix.defs.push(d) - 1;
  const hs = windowHashes(d.tokens);
  for (let p = 0; p < hs.length; p += BLOCK_STRIDE) {
    const list = ix.postings.get(hs[p]);
    if (list === undefined) ix.postings.set(hs[p], [k, p]);
    else if (list.length <= 2 * BLOCK_MAX_POSTINGS) list.push(k, p);
  }
}

/** The index of a set of functions (each posted at every {@link BLOCK_STRIDE}-th window). */
export function blockIndex(defs: readonly SideDef[]): BlockIndex {
  const ix: BlockIndex = { defs: [], postings: new Map(), dead: 0 };
  for (const d of defs) post(ix, d);
  return ix;
}

/**
 * Updates an index in place: the defs in `slots` replaced (the same code under another side's
 * object: `null` removes it) and `added` posted — the next commit's index from this one's, in time
 * proportional to the change. A window of an emptied slot stays posted (and is skipped), so an
 * index holding too many emptied slots is better built again ({@link BlockIndex} `dead`).
 */
export function updateBlockIndex(
  ix: BlockIndex,
  slots: ReadonlyMap<number, SideDef | null>,
  added: readonly SideDef[],
): void {
  for (const [k, d] of slots) {
    if (ix.defs[k] !== null && d === null) ix.dead++;
    ix.defs[k] = d;
  }
  for (const d of added) post(ix, d);
}

/** A maximal identical run: F's tokens [f, fEnd) are G's [g, gEnd). */
export interface Segment {
  f: number;
  fEnd: number;
  g: number;
  gEnd: number;
}

/** A block F copies from G (segments in order), with its lines on each side. */
export interface CopiedBlock {
  segments: Segment[];
  /** Tokens matched (the segments' total). */
  tokens: number;
  /** Tokens of the longest segment. */
  longest: number;
  /** The share of G's body tokens ({@link bodyStart} on) the block holds. */
  coverage: number;
  /** First and last line of the block in F, and in G. */
  lines: [number, number];
  targetLines: [number, number];
  /**
   * A small block ({@link BLOCK_MIN_SMALL_TOKENS}): one identical run under
   * {@link BLOCK_MIN_TOKENS}, mostly new in F, found in G alone.
   */
  small: boolean;
}

/**
 * The segments F shares with each function of an index, each holding a window that `fresh`
 * accepts (null: every window) — the maximal runs through the windows F's change added.
 */
export function segments(
  f: SideDef,
  fresh: ((position: number) => boolean) | null,
  ix: BlockIndex,
  accept: (g: SideDef) => boolean,
): Map<SideDef, Segment[]> {
  const out = new Map<SideDef, Segment[]>();
  const ft = f.tokens;
  if (!ft || ft.length < BLOCK_SEED) return out;
  const hs = windowHashes(ft);
  const verdict = new Map<number, boolean>();
  for (let p = 0; p < hs.length; p++) {
    const list = ix.postings.get(hs[p]);
    if (!list || list.length > 2 * BLOCK_MAX_POSTINGS) continue;
    if (fresh && !fresh(p)) continue;
    for (let i = 0; i < list.length; i += 2) {
      const k = list[i], q = list[i + 1];
      const g = ix.defs[k];
      if (g === null || g === f) continue;
      let ok = verdict.get(k);
      if (ok === undefined) verdict.set(k, ok = accept(g));
      if (!ok) continue;
      const segs = out.get(g);
      // a run already found through another of its windows
      if (segs?.some((s) => s.f - s.g === p - q && p >= s.f && p < s.fEnd)) continue;
      const gt = g.tokens!;
      let same = true;
      for (let j = 0; j < BLOCK_SEED; j++) {
        if (ft[p + j] !== gt[q + j]) {
          same = false;
          break;
        }
      }
      if (!same) continue; // a hash collision
      let a = p, b = q;
      while (a > 0 && b > 0 && ft[a - 1] === gt[b - 1]) [a, b] = [a - 1, b - 1];
      let e = p + BLOCK_SEED, h = q + BLOCK_SEED;
      while (e < ft.length && h < gt.length && ft[e] === gt[h]) [e, h] = [e + 1, h + 1];
      const s = { f: a, fEnd: e, g: b, gEnd: h };
      if (segs) segs.push(s);
      else out.set(g, [s]);
    }
  }
  return out;
}

/**
 * Where a function's body starts in its tokens: its first block start (the `def`'s own suite).
 * What comes before is the def line — `def`, the parameter list with its annotations and defaults,
 * the return annotation — a declared interface, not code: two functions with the same typed
 * parameters share it without copying anything. 0 when there is no block start (all is body).
 */
export function bodyStart(tokens: ArrayLike<number>): number {
  const at = Array.prototype.indexOf.call(tokens, BLOCK_START_TOKEN);
  return at < 0 ? 0 : at;
}

/**
 * Pairs whose bodies are at least this alike token for token ({@link tokenLikeness}) are the same
 * code up to names and literals; under it, a re-implementation shares G's callees, not its code
 * (lib/audit/change.ts notes it `different-code`).
 */
export const LIKENESS_MIN = 0.6;
/** Bodies whose token counts multiply to more than this are not compared (null: no likeness). */
export const LIKENESS_MAX_CELLS = 4_000_000;

/**
 * How alike two functions' bodies are token for token: twice the longest common subsequence of
 * their normalised tokens ({@link bodyStart} on: names and literals each one code, as for blocks)
 * over the two lengths, in [0, 1] — 1 for the same code whatever its local names, near 0 for two
 * bodies that only call the same helpers in another order and structure. Null when the product of
 * the lengths exceeds {@link LIKENESS_MAX_CELLS} (the comparison is quadratic).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BLOCK_START_TOKEN } from "./shape.ts";
 * import { tokenLikeness } from "./block.ts";
 * const body = (...t: number[]) => [9, 9, BLOCK_START_TOKEN, ...t];
 * assert.equal(tokenLikeness(body(5, 6, 7, 8), [7, BLOCK_START_TOKEN, 5, 6, 7, 8]), 1);
 * assert.equal(tokenLikeness(body(5, 6, 7, 8), body(8, 7, 6, 5)), 0.4);
 * ```
 */
export function tokenLikeness(f: ArrayLike<number>, g: ArrayLike<number>): number | null {
  const a0 = bodyStart(f), b0 = bodyStart(g);
  const n = f.length - a0, m = g.length - b0;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  if (n * m > LIKENESS_MAX_CELLS) return null;
  let prev = new Uint32Array(m + 1), cur = new Uint32Array(m + 1);
  for (let i = 0; i < n; i++) {
    const x = f[a0 + i];
    for (let j = 0; j < m; j++) {
      cur[j + 1] = x === g[b0 + j] ? prev[j] + 1 : Math.max(prev[j + 1], cur[j]);
    }
    [prev, cur] = [cur, prev];
  }
  return (2 * prev[m]) / (n + m);
}

/**
 * The part of a segment inside both bodies (F's tokens from `fBody`, G's from `gBody`), or null
 * when none is: the def lines' tokens match nothing.
 */
function inBodies(s: Segment, fBody: number, gBody: number): Segment | null {
  const cut = Math.max(0, fBody - s.f, gBody - s.g);
  return s.f + cut < s.fEnd ? { f: s.f + cut, fEnd: s.fEnd, g: s.g + cut, gEnd: s.gEnd } : null;
}

/**
 * The identical runs beside a segment that no window seeds (shorter than {@link BLOCK_SEED}), on
 * its diagonal past a substitution of at most {@link BLOCK_MAX_GAP} tokens on each side — a copy
 * with a name or an operator changed (`.__add__(other)` → `.__sub__(other)`) — each at least as
 * long as the substitution before it and {@link BLOCK_MIN_RUN} tokens (a copy edited in places,
 * not tokens alike by chance), inside both bodies (from `fBody`, `gBody`) and not past either end.
 */
function besideRuns(
  s: Segment,
  ft: ArrayLike<number>,
  gt: ArrayLike<number>,
  fBody: number,
  gBody: number,
): Segment[] {
  return [...runsPast(s, ft, gt, 1, fBody, gBody), ...runsPast(s, ft, gt, -1, fBody, gBody)];
}

/** {@link besideRuns} in one direction: after the segment (`dir` 1) or before it (−1). */
function runsPast(
  s: Segment,
  ft: ArrayLike<number>,
  gt: ArrayLike<number>,
  dir: 1 | -1,
  fBody: number,
  gBody: number,
): Segment[] {
  const out: Segment[] = [];
  // the tokens at k steps past the boundary (p, q: the mismatch that ends the segment or a run)
  const inside = (p: number, q: number) =>
    p >= fBody && p < ft.length && q >= gBody && q < gt.length;
  let p = dir > 0 ? s.fEnd : s.f - 1, q = dir > 0 ? s.gEnd : s.g - 1;
  for (;;) {
    let d = 1;
    while (
      d <= BLOCK_MAX_GAP && inside(p + dir * d, q + dir * d) && ft[p + dir * d] !== gt[q + dir * d]
    ) d++;
    if (d > BLOCK_MAX_GAP || !inside(p + dir * d, q + dir * d)) break;
    let r = 0;
    const same = (k: number) =>
      inside(p + dir * k, q + dir * k) && ft[p + dir * k] === gt[q + dir * k];
    while (same(d + r)) r++;
    if (r < Math.max(d, BLOCK_MIN_RUN)) break;
    out.push(
      dir > 0
        ? { f: p + d, fEnd: p + d + r, g: q + d, gEnd: q + d + r }
        : { f: p - d - r + 1, fEnd: p - d + 1, g: q - d - r + 1, gEnd: q - d + 1 },
    );
    p += dir * (d + r);
    q += dir * (d + r);
  }
  return out;
}

/**
 * The best block of a pair's segments: the chain in the same order on both sides, gaps of at most
 * {@link BLOCK_MAX_GAP} tokens, of the most tokens; null when it is under the reporting limits.
 * Only tokens of the two bodies count ({@link bodyStart}): a segment is cut where it leaves F's
 * or G's def line, so a shared signature is no block, nor part of one. With `added` (whether F's
 * token at a position is one the change added), a chain under the limits gives way to a **small
 * block** ({@link BLOCK_MIN_SMALL_TOKENS}): the pair's longest seeded run, when it has the tokens,
 * lines and distinct codes and at least half of its tokens are added (whether another function
 * holds it too is {@link copiedBlocks}'s question).
 */
export function bestBlock(
  f: SideDef,
  g: SideDef,
  segs: readonly Segment[],
  added: ((position: number) => boolean) | null = null,
): CopiedBlock | null {
  const ft = f.tokens!, gt = g.tokens!;
  const fBody = bodyStart(ft), gBody = bodyStart(gt);
  const cut = segs.flatMap((x) => inBodies(x, fBody, gBody) ?? []);
  const s = [...cut, ...cut.flatMap((x) => besideRuns(x, ft, gt, fBody, gBody))]
    .sort((a, b) => a.f - b.f || a.g - b.g);
  const total = s.map((x) => x.fEnd - x.f);
  const prev = s.map(() => -1);
  for (let j = 0; j < s.length; j++) {
    const own = s[j].fEnd - s[j].f;
    for (let i = 0; i < j; i++) {
      const gf = s[j].f - s[i].fEnd, gg = s[j].g - s[i].gEnd;
      if (gf < 0 || gg < 0 || gf > BLOCK_MAX_GAP || gg > BLOCK_MAX_GAP) continue;
      if (total[i] + own > total[j]) [total[j], prev[j]] = [total[i] + own, i];
    }
  }
  let best = -1;
  for (let j = 0; j < s.length; j++) if (best < 0 || total[j] > total[best]) best = j;
  if (best < 0 || total[best] < Math.min(BLOCK_MIN_WHOLE_TOKENS, BLOCK_MIN_SMALL_TOKENS)) {
    return null;
  }
  const chain: Segment[] = [];
  for (let j = best; j >= 0; j = prev[j]) chain.unshift(s[j]);
  const fl = f.tokenLines!, gl = g.tokenLines!;
  const span = (c: readonly Segment[]): [number, number] => [
    fl[c[0].f],
    fl[c[c.length - 1].fEnd - 1],
  ];
  const distinct = (c: readonly Segment[]) => {
    const codes = new Set<number>();
    for (const x of c) for (let i = x.f; i < x.fEnd; i++) codes.add(ft[i]);
    return codes.size;
  };
  const block = (c: Segment[], tokens: number, small: boolean): CopiedBlock => ({
    segments: c,
    tokens,
    longest: Math.max(...c.map((x) => x.fEnd - x.f)),
    coverage: tokens / Math.max(1, gt.length - gBody),
    lines: span(c),
    targetLines: [gl[c[0].g], gl[c[c.length - 1].gEnd - 1]],
    small,
  });
  const lines = span(chain);
  const first = chain[0], last = chain[chain.length - 1];
  // G's whole body: from its first block token (the def's suite) to its end, reached by runs a
  // window seeded — an unseeded run beside one (past a name swapped) lengthens a block, but does
  // not make it a small function copied whole (operator twins `super().__add__(other)` /
  // `super().__sub__(other)` are not)
  const seeded = new Set(cut);
  const whole = first.g === gBody && last.gEnd === gt.length && seeded.has(first) &&
    seeded.has(last);
  const [minTokens, minLines] = whole
    ? [BLOCK_MIN_WHOLE_TOKENS, BLOCK_MIN_WHOLE_LINES]
    : [BLOCK_MIN_TOKENS, BLOCK_MIN_LINES];
  if (
    total[best] >= minTokens && lines[1] - lines[0] + 1 >= minLines &&
    distinct(chain) >= BLOCK_MIN_DISTINCT
  ) return block(chain, total[best], false);
  if (!added) return null;
  // a small block: the longest run a window seeded, exact (no gap, no name swapped)
  let run: Segment | null = null;
  for (const x of cut) if (!run || x.fEnd - x.f > run.fEnd - run.f) run = x;
  const n = run ? run.fEnd - run.f : 0;
  if (!run || n < BLOCK_MIN_SMALL_TOKENS) return null;
  const [lo, hi] = span([run]);
  if (hi - lo + 1 < BLOCK_MIN_LINES || distinct([run]) < BLOCK_MIN_DISTINCT) return null;
  let fresh = 0;
  for (let i = run.f; i < run.fEnd; i++) if (added(i)) fresh++;
  return fresh * 2 >= n ? block([run], n, true) : null;
}

/**
 * Which windows of F are new (see module doc): those whose hash F's old version (`old`) did not
 * have; null when there is no old version (every window is new).
 */
function freshWindows(f: SideDef, old: SideDef | null): ((position: number) => boolean) | null {
  const before = old?.tokens ? new Set(windowHashes(old.tokens)) : null;
  const hs = before ? windowHashes(f.tokens ?? []) : null;
  return before && hs ? (p: number) => !before.has(hs[p]) : null;
}

/** The fewest tokens, and lines of F, a reported block has (a whole body's limits or a block's). */
const LEAST_TOKENS = Math.max(BLOCK_SEED, Math.min(BLOCK_MIN_TOKENS, BLOCK_MIN_WHOLE_TOKENS));
const LEAST_LINES = Math.min(BLOCK_MIN_LINES, BLOCK_MIN_WHOLE_LINES);

/**
 * Whether {@link copiedBlocks} can find anything for F, against any index: F has a new window
 * (a segment holds one), and its tokens are enough for a reported block — at least the fewest
 * tokens over the fewest lines of F, with {@link BLOCK_MIN_DISTINCT} distinct codes (a block's
 * tokens are F's). When it is false no block index is needed for F: an audit of a change no
 * function of which passes builds none.
 */
export function mayCopyBlock(f: SideDef, old: SideDef | null): boolean {
  const t = f.tokens, l = f.tokenLines;
  if (!t || !l || t.length < LEAST_TOKENS || l.length !== t.length) return false;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < l.length; i++) [lo, hi] = [Math.min(lo, l[i]), Math.max(hi, l[i])];
  if (hi - lo + 1 < LEAST_LINES) return false;
  const distinct = new Set<number>();
  for (let i = 0; i < t.length && distinct.size < BLOCK_MIN_DISTINCT; i++) distinct.add(t[i]);
  if (distinct.size < BLOCK_MIN_DISTINCT) return false;
  const fresh = freshWindows(f, old);
  if (fresh === null) return true;
  for (let p = 0; p + BLOCK_SEED <= t.length; p++) if (fresh(p)) return true;
  return false;
}

/**
 * Whether each token of F is one the change added: in no window F's old version had (a token of
 * an unchanged stretch lies in an old window; one the change inserted only in new ones — up to the
 * first {@link BLOCK_SEED} tokens of F, whose windows all reach the insertion). Every token when
 * `fresh` is null (F is new).
 */
function addedTokens(
  f: SideDef,
  fresh: ((position: number) => boolean) | null,
): (position: number) => boolean {
  if (!fresh) return () => true;
  const t = f.tokens ?? [];
  const old = new Uint8Array(t.length);
  for (let p = 0; p + BLOCK_SEED <= t.length; p++) if (!fresh(p)) old.fill(1, p, p + BLOCK_SEED);
  return (i) => old[i] === 0;
}

/**
 * Whether a function other than F and G (nor their other versions: the same ids) holds a window of
 * F's run, in any of the indexes — or a window of it is posted too often to seed anything
 * ({@link BLOCK_MAX_POSTINGS}): 20 tokens of it are already the project's, not a paste.
 */
function heldElsewhere(
  f: SideDef,
  g: SideDef,
  run: Segment,
  indexes: readonly BlockIndex[],
): boolean {
  const ft = f.tokens!;
  const hs = windowHashes(ft);
  for (let p = run.f; p + BLOCK_SEED <= run.fEnd; p++) {
    for (const ix of indexes) {
      const list = ix.postings.get(hs[p]);
      if (!list) continue;
      if (list.length > 2 * BLOCK_MAX_POSTINGS) return true;
      for (let i = 0; i < list.length; i += 2) {
        const d = ix.defs[list[i]];
        if (d === null || d === f || d === g || d.id === f.id || d.id === g.id) continue;
        const dt = d.tokens!, q = list[i + 1];
        let same = true;
        for (let k = 0; k < BLOCK_SEED && same; k++) same = dt[q + k] === ft[p + k];
        if (same) return true;
      }
    }
  }
  return false;
}

/**
 * The blocks F's new windows copy from the functions of an index (see module doc), per G. With
 * `small`, also the small blocks ({@link BLOCK_MIN_SMALL_TOKENS}) — each kept only when no
 * function but F and G holds 20 tokens of it, in this index or those `small.also` gives (asked
 * only when there is a small block): a run a third function holds is the project's idiom, not a
 * paste.
 */
export function copiedBlocks(
  f: SideDef,
  old: SideDef | null,
  ix: BlockIndex,
  accept: (g: SideDef) => boolean,
  small: false | { also: () => readonly BlockIndex[] } = false,
): Map<SideDef, CopiedBlock> {
  const fresh = freshWindows(f, old);
  const added = small ? addedTokens(f, fresh) : null;
  const found = segments(f, fresh, ix, accept);
  const out = new Map<SideDef, CopiedBlock>();
  for (const [g, segs] of found) {
    const b = bestBlock(f, g, segs, added);
    if (!b) continue;
    if (small && b.small && heldElsewhere(f, g, b.segments[0], [ix, ...small.also()])) continue;
    out.set(g, b);
  }
  return out;
}

/**
 * Whether F's old version already shared with G (its old version) at least half of `block`'s
 * tokens in G, in identical runs of any length the index finds (not only reportable blocks: a copy
 * just under the minimum that an edit made longer was there before): the change did not make it.
 */
export function blockBefore(fOld: SideDef, gOld: SideDef, block: CopiedBlock): boolean {
  const runs = segments(fOld, null, blockIndex([gOld]), () => true).get(gOld) ?? [];
  // with the unseeded runs beside them, as a block is made of
  const [ft, gt] = [fOld.tokens!, gOld.tokens!];
  const found = [...runs, ...runs.flatMap((x) => besideRuns(x, ft, gt, 0, 0))];
  let covered = 0;
  for (const n of block.segments) {
    // G-side tokens of this segment matched before (old runs may overlap: count each token once)
    const seen = new Uint8Array(n.gEnd - n.g);
    for (const o of found) {
      for (let i = Math.max(n.g, o.g); i < Math.min(n.gEnd, o.gEnd); i++) seen[i - n.g] = 1;
    }
    for (const x of seen) covered += x;
  }
  return covered * 2 >= block.tokens;
}

/**
 * The share of a block's G-side windows still found in G's version after the change (1: G still
 * holds the block; near 0: the change took it out of G — moved into F, not copied).
 */
export function keptIn(gNew: SideDef, block: CopiedBlock, gOld: SideDef): number {
  const now = new Set(windowHashes(gNew.tokens ?? []));
  const then = windowHashes(gOld.tokens ?? []);
  let n = 0, kept = 0;
  for (const s of block.segments) {
    for (let q = s.g; q + BLOCK_SEED <= s.gEnd; q++) {
      n++;
      if (now.has(then[q])) kept++;
    }
  }
  return n ? kept / n : 1;
}
