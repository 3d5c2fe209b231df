/**
 * The evidence behind a finding and the **confidence** it earns. The paper's rule (§3.3.2,
 * `isReimplemented` of lib/metrics) decides whether a pair is a re-implementation; the signals
 * here only order the findings and say how sure the audit is:
 *
 * - **callee weights**: each callee key weighs by how rare it is among the repository's functions
 *   (IDF: `ln(1 + N / df) / ln(1 + N)`, N functions, df of them calling it) — a project helper
 *   called from three places weighs near 1, an idiom called from half the functions near 0;
 * - **weighted overlap**: the weight of G's callees that F calls over the weight of all of G's;
 * - **strength**: how much rare evidence is shared at all, `1 − exp(−Σ shared weights / 1.5)`;
 * - **focus**: the share of F's own callees that are G's (a long function that happens to call
 *   G's helpers among many others is weaker evidence);
 * - **shape**: the normalised-AST similarity of F and G (lib/audit/shape.ts);
 * - **context** and **notes** (test, vendored or generated code; a pair already duplicated before
 *   the change; G calling F, the change having extracted F from G; idiomatic twins such as a
 *   sync/async pair, lib/audit/idiom.ts) scale the confidence down.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calleeWeights, ruleConfidence } from "./evidence.ts";
 * const w = calleeWeights([["p.a", ".get"], ["p.b", ".get"], [".get"], [".get", "p.c"]]);
 * assert.ok(w.weight("p.a") > w.weight(".get"));
 * const strong = ruleConfidence({ weightedOverlap: 1, sharedWeight: 2.6, focus: 1, similarity: 0.8 });
 * const weak = ruleConfidence({ weightedOverlap: 1, sharedWeight: 0.6, focus: 0.3, similarity: 0.3 });
 * assert.ok(strong > 0.8 && weak < 0.6);
 * ```
 * @module
 */
import type { Context } from "./context.ts";

/** How often each callee key is called across a side's functions, as weights in (0, 1]. */
export interface CalleeWeights {
  /** Number of functions counted. */
  functions: number;
  /** The weight of a key (a key no function calls weighs as one called once). */
  weight(key: string): number;
  /** How many functions call a key. */
  df(key: string): number;
}

/** The IDF weights of the callee keys of a side's functions (each function's keys as a list). */
export function calleeWeights(callees: Iterable<readonly string[]>): CalleeWeights {
  const df = new Map<string, number>();
  let n = 0;
  for (const list of callees) {
    n++;
    for (const c of new Set(list)) df.set(c, (df.get(c) ?? 0) + 1);
  }
  const norm = Math.log(1 + Math.max(n, 1));
  const memo = new Map<string, number>();
  return {
    functions: n,
    df: (key) => df.get(key) ?? 0,
    weight(key) {
      let w = memo.get(key);
      if (w === undefined) {
        const d = Math.max(1, df.get(key) ?? 0);
        w = Math.min(1, Math.log(1 + Math.max(n, 1) / d) / norm);
        memo.set(key, w);
      }
      return w;
    },
  };
}

/** The signals of a rule hit (see module doc). */
export interface RuleSignals {
  weightedOverlap: number;
  /** Σ weights of the shared callees. */
  sharedWeight: number;
  focus: number;
  similarity: number;
}

/** `1 − exp(−Σ shared weights / 1.5)`: three rare shared helpers ≈ 0.8, three idioms ≈ 0.3. */
export function strength(sharedWeight: number): number {
  return 1 - Math.exp(-sharedWeight / 1.5);
}

/** The confidence of a rule hit in [0, 1], before context and notes. */
export function ruleConfidence(s: RuleSignals): number {
  return clamp(
    0.3 * s.weightedOverlap + 0.3 * strength(s.sharedWeight) + 0.15 * s.focus +
      0.25 * s.similarity,
  );
}

/** The signals of a structural clone. */
export interface CloneSignals {
  similarity: number;
  /** Named syntax nodes of the smaller of the two functions. */
  size: number;
  /** Weighted overlap of G's callees in F's (0 when G calls nothing). */
  weightedOverlap: number;
}

/**
 * The confidence of a structural clone: mostly its similarity, then its size (a large identical
 * tree is less likely a coincidence of idiom) and shared helpers.
 */
export function cloneConfidence(s: CloneSignals): number {
  return clamp(
    0.55 * s.similarity + 0.3 * Math.min(1, s.size / 200) + 0.15 * s.weightedOverlap,
  );
}

/** The signals of a copied block (lib/audit/block.ts). */
export interface BlockSignals {
  /** Normalised tokens matched. */
  tokens: number;
  /** The share of G's tokens the block covers (1: all of G copied). */
  coverage: number;
  /** Tokens of its longest identical run (equal to `tokens` when nothing was edited between). */
  longest: number;
  /** A small block (lib/audit/block.ts `BLOCK_MIN_SMALL_TOKENS`): × {@link SMALL_BLOCK_FACTOR}. */
  small?: boolean;
}

/**
 * What a small block's confidence is multiplied by: a run of 25–49 tokens is weaker evidence than
 * a block, and × 0.6 keeps it under the default `--fail-on` (0.5) whatever it covers (at most
 * 0.6 × 0.76) — reported, ranked under the blocks, never failing a check alone.
 */
export const SMALL_BLOCK_FACTOR = 0.6;

/**
 * The confidence of a copied block: 0.35 + 0.35 × size (tokens / 150, at most 1) + 0.2 × the
 * share of G copied + 0.1 × the share in one identical run — a 50-token run out of a larger G
 * ≈ 0.57, a small function copied whole ≈ 0.75, a block of 150 tokens or more ≥ 0.8; a small
 * block × {@link SMALL_BLOCK_FACTOR} (a 30-token run out of a larger G ≈ 0.33).
 */
export function blockConfidence(s: BlockSignals): number {
  return clamp(
    (0.35 + 0.35 * Math.min(1, s.tokens / 150) + 0.2 * Math.min(1, s.coverage) +
      0.1 * (s.tokens > 0 ? s.longest / s.tokens : 0)) * (s.small ? SMALL_BLOCK_FACTOR : 1),
  );
}

/** The confidence of a reuse candidate (a ranking score, capped below any rule hit's). */
export function candidateConfidence(score: number): number {
  return clamp(0.5 * score);
}

/**
 * Notes that lower a finding's confidence (each stated in the report): `preexisting` (F's old
 * version already did the same: not introduced by the change), `extracted` (G now calls F: the
 * change moved code out of G into F — the code exists once, G reuses it), `target-rewritten`
 * (the change rewrote G so that the rule no longer holds for it), `relocated` (F holds G's old
 * code, and the change rewrote G into something else: the code exists once), and the idioms of
 * lib/audit/idiom.ts: `async-twin`, `same-delegate`, `same-api` (the rule holds only when one
 * class and its methods count as separate helpers), `module-vocabulary` (G's callees are what the
 * functions of its module or class call: the rule holds against G for other functions of that
 * container too), `same-edit` (the rule holds only through calls the change gave F and other
 * existing functions alike: an edit made across functions) and `template` (a clone in shape only,
 * sharing none of G's helpers); `different-code` (a re-implementation whose body is less than
 * `LIKENESS_MIN` alike to G's token for token, lib/audit/block.ts `tokenLikeness`, and holds
 * no block of it, small blocks included: the pair shares G's callees, not its code); and
 * `written-together` (a pair within the change that only the rule joins: F and G both written by
 * the change, less alike in shape than a structural clone and neither holding a block of the
 * other's code — two functions designed together against one API, not one copied from the other).
 */
export type Note =
  | "preexisting"
  | "extracted"
  | "target-rewritten"
  | "relocated"
  | "async-twin"
  | "same-delegate"
  | "same-api"
  | "module-vocabulary"
  | "same-edit"
  | "template"
  | "different-code"
  | "written-together";

/**
 * What each note multiplies the confidence by. An idiom's factor keeps it below the default
 * `--fail-on` threshold (0.5) on its own: reported, never failing a check by default.
 */
export const NOTE_FACTOR: Record<Note, number> = {
  preexisting: 0.4,
  extracted: 0.3,
  "target-rewritten": 0.7,
  relocated: 0.3,
  "async-twin": 0.45,
  "same-delegate": 0.45,
  "same-api": 0.45,
  "module-vocabulary": 0.45,
  "same-edit": 0.45,
  template: 0.45,
  "different-code": 0.45,
  "written-together": 0.45,
};

/**
 * Notes that put a pair apart from what the change introduced: listed in a section of its own
 * (the first such note names it), never leading a function's finding over an introduced pair and
 * never failing `--fail-on`, whatever the confidence. `written-together` is there because it
 * shares no code: of 29 such pairs labelled by hand on ten windows of nine projects, 1 was a real
 * duplicate (docs/audit.md).
 */
export const APART_NOTES = [
  "preexisting",
  "extracted",
  "relocated",
  "written-together",
] as const satisfies readonly Note[];

/** The note that puts a pair apart ({@link APART_NOTES}), or null when the change introduced it. */
export function apartNote(p: { notes: readonly Note[] }): (typeof APART_NOTES)[number] | null {
  return APART_NOTES.find((n) => p.notes.includes(n)) ?? null;
}

/** What each context multiplies the confidence by. */
export const CONTEXT_FACTOR: Record<Context, number> = {
  code: 1,
  test: 0.6,
  example: 0.6,
  script: 0.6,
  vendored: 0.6,
  generated: 0.4,
};

/** A confidence scaled by a finding's context and notes, rounded to 3 decimals. */
export function adjust(confidence: number, context: Context, notes: readonly Note[]): number {
  let c = confidence * CONTEXT_FACTOR[context];
  for (const n of notes) c *= NOTE_FACTOR[n];
  return Math.round(clamp(c) * 1000) / 1000;
}

function clamp(x: number): number {
  return Math.max(0, Math.min(1, x));
}
