/**
 * The audit of one change: which functions it adds or changes (moved and renamed code matched,
 * not reported), and for each changed function F what it reuses, which existing function G it
 * re-implements (the paper's §3.3.2 rule, decided by `isReimplemented` of lib/metrics and by
 * nothing else), which G it is a structural clone of, which G's block the lines it added copy
 * (lib/audit/block.ts), which G it could have called — and which other new function of the same
 * change it duplicates.
 *
 * Every pair the rule holds for is a re-implementation; the evidence (callee weights, shape,
 * context, notes: lib/audit/evidence.ts) gives it a confidence and an order, never a veto. Each F
 * gets one finding — its best target — with the others as alternatives (at most `maxTargets`,
 * the rest counted in `omitted`); a pair of changed functions is reported once.
 *
 * Pure: works on two {@link Side} indexes; lib/audit/run.ts reads them from git. Each side's
 * indexes (callees, shapes) are built once per side object and reused, so an audit costs time in
 * proportion to the functions it changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { auditChange } from "./change.ts";
 * import type { Side, SideDef } from "./side.ts";
 * const def = (id: string, file: string, start: number, callees: string[]): SideDef => ({
 *   id, kind: "function", file, start, end: start + 3, name: id.split(".").pop()!,
 *   signature: `def ${id.split(".").pop()}(x)`, params: ["x"], hash: id, size: 10,
 *   features: [7, 1], callees, uses: callees, context: "code", test: false,
 * });
 * const g = def("p.util.clean", "p/util.py", 10, ["p.util.a", "p.util.b", "p.util.c"]);
 * const base: Side = { rev: "b", files: [{ path: "p/util.py", oid: "1" }], modules: {},
 *   defs: [g], ids: ["p.util.clean", "p.util.a", "p.util.b", "p.util.c"], errors: [] };
 * // head adds p/new.py: f calls a, b and c itself instead of calling clean
 * const f = def("p.new.tidy", "p/new.py", 3, ["p.util.a", "p.util.b", "p.util.c"]);
 * const head: Side = { ...base, rev: "h", files: [...base.files, { path: "p/new.py", oid: "2" }],
 *   defs: [g, f], ids: [...base.ids, "p.new.tidy"] };
 * const r = auditChange(base, head);
 * assert.deepEqual(r.changed.map((c) => [c.id, c.status]), [["p.new.tidy", "added"]]);
 * assert.deepEqual(r.findings.map((x) => [x.kind, x.target.id, x.overlap]), [
 *   ["reimplementation", "p.util.clean", 1],
 * ]);
 * ```
 * @module
 */
import {
  isReimplemented,
  REIMPLEMENTATION_MIN_CALLEES,
  REIMPLEMENTATION_SHARE,
} from "../metrics/mod.ts";
import { adoptTokens, loadTokens, type Side, type SideDef } from "./side.ts";
import { featureTotal, similarity } from "./shape.ts";
import { type Context, globMatcher } from "./context.ts";
import {
  asyncTwin,
  type ClassIds,
  moduleVocabulary,
  ruleSiblings,
  SAME_API_MAX_SIMILARITY,
  SAME_EDIT_FUNCTIONS,
  sameApi,
  sameDelegate,
  sameEdit,
  type Sibling,
  template,
} from "./idiom.ts";
import {
  bestBlock,
  blockBefore,
  type BlockIndex,
  blockIndex,
  type CopiedBlock,
  copiedBlocks,
  keptIn,
  LIKENESS_MIN,
  mayCopyBlock,
  segments,
  tokenLikeness,
  updateBlockIndex,
} from "./block.ts";
import {
  adjust,
  apartNote,
  blockConfidence,
  type CalleeWeights,
  calleeWeights,
  candidateConfidence,
  cloneConfidence,
  type Note,
  ruleConfidence,
} from "./evidence.ts";

/** How a changed function relates to the base side. */
export type ChangeStatus = "added" | "modified" | "moved";

/** A function of the head side that the change added, modified or moved. */
export interface ChangedFunction {
  id: string;
  file: string;
  line: number;
  end: number;
  status: ChangeStatus;
  /** The base def it comes from (same id when modified in place; the old id when moved). */
  from: { id: string; file: string; line: number } | null;
  /** Existing repository definitions it uses (resolved calls and references), sorted. */
  reused: string[];
  /** Where it lives (lib/audit/context.ts). */
  context: Context;
}

/**
 * Kinds of finding, most serious first: the paper's rule, a structural clone of a whole function,
 * a copied block (lib/audit/block.ts), a reuse candidate.
 */
export type FindingKind = "reimplementation" | "clone" | "block" | "candidate";

/** Every {@link FindingKind}, most serious first. */
export const FINDING_KINDS: readonly FindingKind[] = [
  "reimplementation",
  "clone",
  "block",
  "candidate",
];

/** The block a `block` pair copies (lib/audit/block.ts): where it is in F and in G. */
export interface BlockEvidence {
  /** First and last line of the block in F (head side) and in G (its version before the change). */
  lines: [number, number];
  targetLines: [number, number];
  /** Normalised tokens matched, and in how many identical runs (more than 1: small edits between). */
  tokens: number;
  segments: number;
}

/** Where a function is. */
export interface Location {
  id: string;
  file: string;
  line: number;
  end: number;
}

/** One pair: a changed function F and a function G it duplicates or could call, with evidence. */
export interface Pair {
  kind: FindingKind;
  function: Location;
  target: Location;
  /** |G's callees ∩ F's calls| / |G's callees| (the paper's overlap), null when G calls nothing. */
  overlap: number | null;
  /** G's callee keys that F calls too, and those it does not. */
  shared: string[];
  missing: string[];
  /** The weight of each of G's callee keys (IDF in the repository, lib/audit/evidence.ts). */
  weights: Record<string, number>;
  /** Σ weights of `shared` / Σ weights of G's callees; null when G calls nothing. */
  weightedOverlap: number | null;
  /** Normalised-AST similarity of F and G in [0, 1]. */
  similarity: number;
  /** How sure the audit is, in [0, 1] (lib/audit/evidence.ts); the order of every report. */
  confidence: number;
  /** F's context, or G's when F is in the project's own code. */
  context: Context;
  /** G is itself new or changed in this change, and the change made the pair (within the change). */
  within: boolean;
  /** Facts that lowered the confidence (lib/audit/evidence.ts `Note`), each stated in reports. */
  notes: Note[];
  /** The copied block, for a `block` pair only. */
  block?: BlockEvidence;
}

/** The finding of one changed function: its best pair, and the other targets as alternatives. */
export interface Finding extends Pair {
  /** Other targets of F, best first (at most `maxTargets`). */
  alternatives: Pair[];
  /** Alternatives left off by the cap, per kind. */
  omitted: Record<FindingKind, number>;
}

/** A problem with a file of the change (listed, never fatal). */
export interface FileProblem {
  side: "base" | "head";
  file: string;
  line: number | null;
  message: string;
}

/** Options of {@link auditChange}. */
export interface ChangeOptions {
  /** G needs at least this many distinct non-builtin callees (default and floor: the paper's 3). */
  minCallees?: number;
  /** Structural similarity at or above which a clone is reported (default 0.9). */
  cloneThreshold?: number;
  /** Functions smaller than this many AST nodes are never reported as clones (default 40). */
  cloneMinSize?: number;
  /** At most this many reuse candidates per changed function (default 3). */
  candidates?: number;
  /** At most this many alternatives per finding (default 5; 0: no cap). */
  maxTargets?: number;
  /** Globs of paths to audit (default all); applies to changed functions and targets alike. */
  include?: readonly string[];
  /** Globs of paths never audited nor offered as targets. */
  exclude?: readonly string[];
}

/** Result of {@link auditChange}. */
export interface ChangeAudit {
  /** `.py` files added, modified or deleted. */
  files: { path: string; status: "added" | "modified" | "deleted" }[];
  /** Changed `.py` files left out by `include`/`exclude`. */
  excluded: string[];
  changed: ChangedFunction[];
  /** One per changed function with any pair, most confident first. */
  findings: Finding[];
  problems: FileProblem[];
}

/** Default structural similarity of a clone. */
export const CLONE_THRESHOLD = 0.9;
/** Default minimum size (AST nodes) of a clone. */
export const CLONE_MIN_SIZE = 40;
/** Default number of alternatives shown per finding. */
export const MAX_TARGETS = 5;
/**
 * Duplicates within a change are searched among at most this many new or changed functions
 * (outside generated files); a larger change is listed as a problem instead.
 */
export const MAX_WITHIN = 20000;

/** Words of an identifier (`getHTTPResponse_code` → get, http, response, code). */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** The distinct callee keys of a def, sorted. */
export function calleeSet(d: { callees: readonly string[] }): string[] {
  return [...new Set(d.callees)].sort(cmp);
}

function jaccard<T>(a: Iterable<T>, b: Iterable<T>): number {
  const A = new Set(a), B = new Set(b);
  if (A.size === 0 && B.size === 0) return 0;
  let n = 0;
  for (const x of A) if (B.has(x)) n++;
  return n / (A.size + B.size - n);
}

function loc(d: SideDef): Location {
  return { id: d.id, file: d.file, line: d.start, end: d.end };
}

/** The class or module an id is defined in (`pkg.mod.C.m` → `pkg.mod.C`). */
function container(id: string): string {
  return id.slice(0, Math.max(0, id.lastIndexOf(".")));
}

/**
 * A name as spelt apart from its underscores and case (`_unique_constraint`, `uniqueConstraint` →
 * `unique constraint`); a dunder (`__init__`) is its own spelling (`init` is another name).
 */
export function spelling(name: string): string {
  return /^__.+__$/.test(name) ? name : nameWords(name).join(" ");
}

/**
 * A new function this alike in shape (lib/audit/shape.ts) to one the change removed from the same
 * class or module is that function renamed: its old version is the removed one's.
 */
export const RENAME_SIMILARITY = 0.8;

/**
 * A changed F whose old version was at least this alike in shape to G's (twins: the same code for
 * another case) already duplicated G before the change: the pair is pre-existing, whatever the
 * change did to either (an edit made to both twins, lines of both moved into a shared helper).
 */
export const PREEXISTING_SIMILARITY = 0.75;

/** Whether `inner` is defined inside `outer` (ids: `outer.inner…`). */
function nested(inner: string, outer: string): boolean {
  return inner.startsWith(outer + ".");
}

const KIND_ORDER: Record<FindingKind, number> = {
  reimplementation: 0,
  clone: 1,
  block: 2,
  candidate: 3,
};

// ---- per-side indexes, built once per side object ----------------------------------------------

interface SideIndex {
  byId: Map<string, SideDef>;
  /** Def ids sorted, for the defs nested in a def (a contiguous range). */
  sorted: SideDef[];
  weights: CalleeWeights;
  keys: Map<SideDef, string[]>;
  /** The side's classes (ids that are no function or method), for `same-api`. */
  classes: ClassIds;
  /** For `module-vocabulary`: the functions of each container (built when first asked). */
  members?: Map<string, SideDef[]>;
  /** For `module-vocabulary`: each G's siblings the rule holds against G for. */
  siblingHits: Map<SideDef, string[]>;
}

const sideIndexes = new WeakMap<Side, SideIndex>();

function sideIndex(side: Side): SideIndex {
  let ix = sideIndexes.get(side);
  if (ix) return ix;
  const byId = new Map(side.defs.map((d) => [d.id, d]));
  const sorted = [...side.defs].sort((a, b) => cmp(a.id, b.id));
  const keys = new Map<SideDef, string[]>();
  for (const d of side.defs) keys.set(d, calleeSet(d));
  const ids = new Set(side.ids);
  const isClass = (id: string) => ids.has(id) && !byId.has(id);
  let definers: Map<string, string[]> | null = null;
  const classes: ClassIds = {
    isClass,
    has: (id) => ids.has(id),
    definers(method) {
      if (!definers) {
        definers = new Map();
        for (const id of ids) {
          const dot = id.lastIndexOf(".");
          if (dot > 0 && isClass(id.slice(0, dot))) {
            post(definers, id.slice(dot + 1), id.slice(0, dot));
          }
        }
      }
      return definers.get(method) ?? [];
    },
  };
  ix = {
    byId,
    sorted,
    weights: calleeWeights(keys.values()),
    keys,
    classes,
    siblingHits: new Map(),
  };
  sideIndexes.set(side, ix);
  return ix;
}

/** The callee keys and resolved uses of a def's scope: its own and those of the defs nested in it. */
function scopeOf(ix: SideIndex, f: SideDef): { uses: Set<string>; calls: Set<string> } {
  const uses = new Set(f.uses), calls = new Set(ix.keys.get(f) ?? calleeSet(f));
  for (const d of descendants(ix, f)) {
    for (const u of d.uses) uses.add(u);
    for (const c of ix.keys.get(d) ?? d.callees) calls.add(c);
  }
  return { uses, calls };
}

/**
 * The functions of G's container (its module, or its class for a method) for which the rule holds
 * against G, G's callees taken on this side (idiom.ts `ruleSiblings`); memoised per side and G.
 */
function siblingHits(ix: SideIndex, g: SideDef): string[] {
  let hits = ix.siblingHits.get(g);
  if (hits) return hits;
  if (!ix.members) {
    ix.members = new Map();
    for (const d of ix.byId.values()) if (!local(d, ix)) post(ix.members, container(d.id), d);
  }
  const gCallees = ix.keys.get(g) ?? calleeSet(g);
  const siblings = function* (): Generator<Sibling> {
    for (const d of ix.members!.get(container(g.id)) ?? []) {
      if (d !== g) yield { id: d.id, ...scopeOf(ix, d) };
    }
  };
  hits = gCallees.length ? ruleSiblings(g, gCallees, siblings()) : [];
  ix.siblingHits.set(g, hits);
  return hits;
}

/** Defs nested in `f` (ids `f.id.…`), in id order. */
function* descendants(ix: SideIndex, f: SideDef): Generator<SideDef> {
  const prefix = f.id + ".";
  let lo = 0, hi = ix.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ix.sorted[mid].id < prefix) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < ix.sorted.length && ix.sorted[i].id.startsWith(prefix); i++) {
    const d = ix.sorted[i];
    if (ix.byId.get(d.id) === d) yield d;
  }
}

/** Inverted index of callee keys → defs (rule prefixes, or rare keys for candidates). */
interface KeyIndex {
  postings: Map<string, SideDef[]>;
}

function post<T>(index: Map<string, T[]>, key: string | number, d: T): void {
  const k = String(key);
  const list = index.get(k);
  if (list) list.push(d);
  else index.set(k, [d]);
}

/**
 * The rule's prefix index of a set of defs: each def G with n ≥ `minCallees` keys is posted under
 * its `n − ⌊s·n⌋ + 1` rarest keys (s = the rule's share). A function calling ≥ s of G's keys misses
 * at most `n − ⌈s·n⌉` of them, so it calls one of these: looking F's calls up finds every G the rule
 * can hold for (the decision stays `isReimplemented`'s).
 */
function ruleIndex(
  defs: Iterable<SideDef>,
  ix: SideIndex,
  minCallees: number,
): KeyIndex {
  const postings = new Map<string, SideDef[]>();
  for (const g of defs) {
    const keys = ix.keys.get(g) ?? calleeSet(g);
    const n = keys.length;
    if (n < minCallees) continue;
    const prefix = n - Math.floor(REIMPLEMENTATION_SHARE * n) + 1;
    const order = [...keys].sort((a, b) => ix.weights.df(a) - ix.weights.df(b) || cmp(a, b));
    for (const k of order.slice(0, prefix)) post(postings, k, g);
  }
  return { postings };
}

const ruleMemo = new WeakMap<Side, Map<number, KeyIndex>>();

function baseRuleIndex(base: Side, minCallees: number): KeyIndex {
  let m = ruleMemo.get(base);
  if (!m) ruleMemo.set(base, m = new Map());
  let ix = m.get(minCallees);
  if (!ix) {
    const six = sideIndex(base);
    m.set(
      minCallees,
      ix = ruleIndex(base.defs.filter((d) => six.byId.get(d.id) === d), six, minCallees),
    );
  }
  return ix;
}

/** Rare keys (called by few functions) of every def of a side: where candidates are found. */
const candidateMemo = new WeakMap<Side, KeyIndex>();

function rareCap(w: CalleeWeights): number {
  return Math.max(20, Math.floor(w.functions / 50));
}

function candidateIndex(base: Side): KeyIndex {
  let ix = candidateMemo.get(base);
  if (ix) return ix;
  const six = sideIndex(base);
  const cap = rareCap(six.weights);
  const postings = new Map<string, SideDef[]>();
  for (const g of base.defs) {
    if (six.byId.get(g.id) !== g) continue;
    for (const k of six.keys.get(g)!) if (six.weights.df(k) <= cap) post(postings, k, g);
  }
  candidateMemo.set(base, ix = { postings });
  return ix;
}

/**
 * Prefix index of shapes for clones (weighted Jaccard ≥ t, SourcererCC's prefix filter): each
 * def of at least `minSize` nodes is posted under the features of its first `T − ⌈t·T⌉ + 1`
 * feature units (T its total count), in a global order of rarest feature first. Two functions
 * with similarity ≥ t share a unit of these prefixes, so every clone is found.
 */
interface ShapeIndex {
  postings: Map<number, SideDef[]>;
  rank: Map<number, number>;
  threshold: number;
}

function shapePrefix(
  features: ArrayLike<number>,
  rank: Map<number, number>,
  threshold: number,
): number[] {
  const total = featureTotal(features);
  const need = total - Math.ceil(threshold * total - 1e-9) + 1;
  // by rank, then by feature, each rank looked up once: rank · n + the pair's place in feature
  // order sorts as one typed array of doubles (ranks < 2^32, n < 2^20: exact); stored features
  // are in feature order already
  const n = features.length >> 1;
  let byFeature: number[] | null = null;
  for (let i = 1; i < n && !byFeature; i++) {
    if (features[2 * i - 2] > features[2 * i]) {
      byFeature = Array.from({ length: n }, (_, k) => k)
        .sort((a, b) => features[2 * a] - features[2 * b]);
    }
  }
  const keys = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const i = byFeature ? byFeature[p] : p;
    keys[p] = (rank.get(features[2 * i]) ?? 0) * n + p;
  }
  keys.sort();
  const out: number[] = [];
  let units = 0;
  for (let k = 0; k < n; k++) {
    if (units >= need) break;
    const p = keys[k] % n, i = byFeature ? byFeature[p] : p;
    out.push(features[2 * i]);
    units += features[2 * i + 1];
  }
  return out;
}

function shapeIndex(defs: readonly SideDef[], threshold: number, minSize: number): ShapeIndex {
  const df = new Map<number, number>();
  const big = defs.filter((d) => d.size >= minSize && d.features.length > 0);
  for (const d of big) {
    for (let i = 0; i < d.features.length; i += 2) {
      df.set(d.features[i], (df.get(d.features[i]) ?? 0) + 1);
    }
  }
  const rank = new Map<number, number>();
  [...df].sort((a, b) => a[1] - b[1] || a[0] - b[0]).forEach(([f], i) => rank.set(f, i));
  const postings = new Map<number, SideDef[]>();
  for (const d of big) {
    for (const f of shapePrefix(d.features, rank, threshold)) {
      const list = postings.get(f);
      if (list) list.push(d);
      else postings.set(f, [d]);
    }
  }
  return { postings, rank, threshold };
}

const shapeMemo = new WeakMap<Side, Map<string, ShapeIndex>>();

/** The shape index of every def of a side (built once per side: a base was a head before). */
function sideShapeIndex(side: Side, threshold: number, minSize: number): ShapeIndex {
  let m = shapeMemo.get(side);
  if (!m) shapeMemo.set(side, m = new Map());
  const key = `${threshold}/${minSize}`;
  let ix = m.get(key);
  if (!ix) {
    const six = sideIndex(side);
    m.set(
      key,
      ix = shapeIndex(side.defs.filter((d) => six.byId.get(d.id) === d), threshold, minSize),
    );
  }
  return ix;
}

/** Whether a def is local to another function of its side (an id prefix that is a def). */
function local(d: SideDef, ix: SideIndex): boolean {
  for (let i = d.id.lastIndexOf("."); i > 0; i = d.id.lastIndexOf(".", i - 1)) {
    if (ix.byId.has(d.id.slice(0, i))) return true;
  }
  return false;
}

/** A side's block index, and the slot of each def in it (by file, id and line). */
interface SideBlocks {
  ix: BlockIndex;
  slotOf: Map<string, number>;
}

const blockMemo = new WeakMap<Side, SideBlocks>();

/** Whether a def of a side is indexed for blocks: a function that could be a target. */
function blockTarget(d: SideDef, six: SideIndex): boolean {
  return six.byId.get(d.id) === d && !d.test && d.context !== "generated" && !local(d, six);
}

function slotKey(d: SideDef): string {
  return `${d.file}\0${d.id}\0${d.start}`;
}

/**
 * The block index of a side's functions that could be targets (not local to a function, not
 * tests, not generated), built once per side — or derived from the previous commit's
 * ({@link deriveBlockIndex}).
 */
function sideBlockIndex(side: Side): BlockIndex {
  let b = blockMemo.get(side);
  if (!b) {
    const six = sideIndex(side);
    loadTokens(side);
    const defs = side.defs.filter((d) => d.tokens && blockTarget(d, six));
    const ix = blockIndex(defs);
    b = { ix, slotOf: new Map(defs.map((d, k) => [slotKey(d), k])) };
    blockMemo.set(side, b);
  }
  return b.ix;
}

/**
 * The head's block index from the base's, when the base's was built and is not too sparse: the
 * defs of files the change did not touch keep their postings (their code is the same; the head's
 * objects take their slots), those of touched files are removed and the head's posted — time in
 * proportion to the change, not to the repository. The base's index is handed over (a history's
 * base is not audited again; if it were, its index would be built anew).
 */
function deriveBlockIndex(base: Side, head: Side, touched: ReadonlySet<string>): void {
  const from = blockMemo.get(base);
  if (!from || blockMemo.has(head) || from.ix.dead * 2 > from.ix.defs.length) return;
  const hix = sideIndex(head);
  // a cached head's tokens: a def of an untouched file has those of the def in its slot (the same
  // code); the others are read
  const read: SideDef[] = [];
  for (const d of head.defs) {
    if (d.tokens !== undefined || !blockTarget(d, hix)) continue;
    const k = touched.has(d.file) ? undefined : from.slotOf.get(slotKey(d));
    const twin = k === undefined ? null : from.ix.defs[k];
    if (twin) adoptTokens(head, d, twin);
    if (d.tokens === undefined) read.push(d);
  }
  loadTokens(head, read);
  const slots = new Map<number, SideDef | null>();
  const slotOf = new Map<string, number>();
  const added: SideDef[] = [];
  for (const d of head.defs) {
    if (!d.tokens || !blockTarget(d, hix)) continue;
    const key = slotKey(d);
    const k = touched.has(d.file) ? undefined : from.slotOf.get(key);
    if (k === undefined || slots.has(k)) added.push(d);
    else {
      slots.set(k, d);
      slotOf.set(key, k);
    }
  }
  for (const k of from.slotOf.values()) if (!slots.has(k)) slots.set(k, null);
  const next = from.ix.defs.length;
  updateBlockIndex(from.ix, slots, added);
  added.forEach((d, i) => slotOf.set(slotKey(d), next + i));
  blockMemo.delete(base);
  blockMemo.set(head, { ix: from.ix, slotOf });
}

/** The evidence of a block, its target lines as found in `g` (G's version after the change). */
function blockEvidence(f: SideDef, g: SideDef, b: CopiedBlock, g0: SideDef): BlockEvidence {
  const now = g === g0
    ? b
    : bestBlock(f, g, segments(f, null, blockIndex([g]), () => true).get(g) ?? []);
  const shift = g.start - g0.start;
  return {
    lines: b.lines,
    targetLines: now ? now.targetLines : [b.targetLines[0] + shift, b.targetLines[1] + shift],
    tokens: b.tokens,
    segments: b.segments.length,
  };
}

/** Defs whose shape may be ≥ t alike to `f` (a superset; similarity decides). */
function shapeCandidates(ix: ShapeIndex, f: SideDef): Set<SideDef> {
  const out = new Set<SideDef>();
  for (const feat of shapePrefix(f.features, ix.rank, ix.threshold)) {
    for (const d of ix.postings.get(feat) ?? []) out.add(d);
  }
  return out;
}

// ---- the audit ---------------------------------------------------------------------------------

/**
 * Audits the change from `base` to `head` (see module doc).
 *
 * Targets: a G is a function F could call — it exists on both sides, is not local to another
 * function, not a test (`test…` in test code), not F itself, F's old self, nor nested in F or
 * around it, and its path is audited (`include`/`exclude`). Its callees are those of its version
 * before the change (as the benchmark takes W0's). For every such pair the rule holds for, a
 * re-implementation is reported; notes lower its confidence when F's old version already
 * re-implemented G (`preexisting`), when G now calls F (`extracted`: the change moved code out of
 * G into F), when the change rewrote G so that the rule no longer holds for it
 * (`target-rewritten`), and when F holds G's old code while G was rewritten into something else
 * (`relocated`: the code exists once).
 */
export function auditChange(base: Side, head: Side, opts: ChangeOptions = {}): ChangeAudit {
  const minCallees = Math.max(opts.minCallees ?? REIMPLEMENTATION_MIN_CALLEES, 1);
  const cloneThreshold = opts.cloneThreshold ?? CLONE_THRESHOLD;
  const cloneMinSize = opts.cloneMinSize ?? CLONE_MIN_SIZE;
  const maxCandidates = opts.candidates ?? 3;
  const maxTargets = opts.maxTargets ?? MAX_TARGETS;
  const keep = globMatcher(opts.include, opts.exclude);

  // entries rejected unread (lib/audit/git.ts) count as files: their problems are listed when
  // they change (an unknown blob id, "", always differs)
  const listed = (s: Side) => s.rejected?.length ? [...s.files, ...s.rejected] : s.files;
  const baseOid = new Map(listed(base).map((f) => [f.path, f.oid]));
  const headOid = new Map(listed(head).map((f) => [f.path, f.oid]));
  const files: ChangeAudit["files"] = [];
  for (const f of listed(head)) {
    const b = baseOid.get(f.path);
    if (b === undefined) files.push({ path: f.path, status: "added" });
    else if (b !== f.oid || !f.oid) files.push({ path: f.path, status: "modified" });
  }
  for (const f of listed(base)) {
    if (!headOid.has(f.path)) files.push({ path: f.path, status: "deleted" });
  }
  files.sort((a, b) => cmp(a.path, b.path));
  const excluded = files.filter((f) => !keep(f.path)).map((f) => f.path);
  const touched = new Set(files.filter((f) => keep(f.path)).map((f) => f.path));

  const problems: FileProblem[] = [];
  for (const [side, s] of [["base", base], ["head", head]] as const) {
    for (const e of s.errors) {
      if (touched.has(e.file)) {
        problems.push({ side, file: e.file, line: e.line, message: e.message });
      }
    }
  }

  const bix = sideIndex(base), hix = sideIndex(head);
  const baseById = bix.byId, headById = hix.byId;
  const headIds = new Set(head.ids);

  // ---- changed functions, moves matched ------------------------------------------------------
  const changedDefs = head.defs.filter((d) => touched.has(d.file));
  const removed = base.defs.filter((d) => touched.has(d.file) && !headIds.has(d.id));
  const removedByHash = new Map<string, SideDef[]>();
  const removedByName = new Map<string, SideDef[]>();
  for (const d of removed) {
    if (d.hash) post(removedByHash, d.hash, d);
    post(removedByName, d.name, d);
  }
  const used = new Set<string>();
  const status = new Map<string, { status: ChangeStatus; from: SideDef | null }>();
  for (const h of changedDefs) {
    const b = baseById.get(h.id);
    if (b) {
      if (b.hash === null || b.hash !== h.hash) status.set(h.id, { status: "modified", from: b });
      continue;
    }
    const same = h.hash ? removedByHash.get(h.hash)?.find((d) => !used.has(d.id)) : undefined;
    if (same) {
      used.add(same.id);
      status.set(h.id, { status: "moved", from: same });
    }
  }
  // moved and edited: a removed def of the same name and a similar body
  const edited = (h: SideDef, from: readonly SideDef[], min: number) => {
    let best: SideDef | null = null, bestSim = min;
    for (const d of from) {
      if (used.has(d.id)) continue;
      const s = similarity(h.features, d.features);
      if (s >= bestSim) [best, bestSim] = [d, s];
    }
    if (best) {
      used.add(best.id);
      status.set(h.id, { status: "modified", from: best });
    }
  };
  for (const h of changedDefs) {
    if (!status.has(h.id) && !baseById.has(h.id)) edited(h, removedByName.get(h.name) ?? [], 0.6);
  }
  // moved, edited and renamed only in its underscores or case (`Operations._unique_constraint` →
  // `SchemaObjects.unique_constraint`, made public in a new class): the same name
  const removedBySpelling = new Map<string, SideDef[]>();
  for (const d of removed) post(removedBySpelling, spelling(d.name), d);
  for (const h of changedDefs) {
    if (status.has(h.id) || baseById.has(h.id)) continue;
    edited(h, removedBySpelling.get(spelling(h.name)) ?? [], 0.6);
  }
  // renamed in place: a removed def of the same class or module, alike in shape
  const removedByContainer = new Map<string, SideDef[]>();
  for (const d of removed) post(removedByContainer, container(d.id), d);
  for (const h of changedDefs) {
    if (status.has(h.id) || baseById.has(h.id)) continue;
    edited(h, removedByContainer.get(container(h.id)) ?? [], RENAME_SIMILARITY);
    if (!status.has(h.id)) status.set(h.id, { status: "added", from: null });
  }

  // the calls the change gave existing functions (modified ones, not local to another): a call
  // given to SAME_EDIT_FUNCTIONS or more of them is an edit made across functions (`same-edit`)
  const given = new Map<SideDef, Set<string>>();
  const givenCount = new Map<string, number>();
  for (const h of changedDefs) {
    const st = status.get(h.id);
    if (st?.status !== "modified" || !st.from || local(h, hix)) continue;
    const before = scopeOf(bix, st.from).calls;
    const added = new Set([...scopeOf(hix, h).calls].filter((c) => !before.has(c)));
    given.set(h, added);
    for (const c of added) givenCount.set(c, (givenCount.get(c) ?? 0) + 1);
  }
  // the old versions of modified functions, by the new functions they now call (splits)
  const splitCallers = new Map<string, SideDef[]>();
  for (const h of changedDefs) {
    const st = status.get(h.id);
    if (st?.status !== "modified" || !st.from) continue;
    for (const u of new Set(h.uses)) {
      if (!baseById.has(u) && headById.has(u)) post(splitCallers, u, st.from);
    }
  }
  const swept = (d: SideDef): Set<string> =>
    new Set([...given.get(d) ?? []].filter((c) => givenCount.get(c)! >= SAME_EDIT_FUNCTIONS));

  /** G is a function something could call: not local to a function, not a test, audited. */
  const callable = (g: SideDef, ix: SideIndex) => !g.test && keep(g.file) && !local(g, ix);
  const targetMemo = new Map<SideDef, boolean>();
  /** A base def that exists on the head side too and is callable there. */
  const existingTarget = (g0: SideDef) => {
    let ok = targetMemo.get(g0);
    if (ok === undefined) {
      const gh = headById.get(g0.id);
      ok = baseById.get(g0.id) === g0 && gh !== undefined && callable(gh, hix) && callable(g0, bix);
      targetMemo.set(g0, ok);
    }
    return ok;
  };

  const rules = baseRuleIndex(base, minCallees);
  const cands = candidateIndex(base);
  const shapes = sideShapeIndex(base, cloneThreshold, cloneMinSize);
  const weights = bix.weights.functions > 0 ? bix.weights : hix.weights;
  const contextOf = (f: SideDef, g: SideDef): Context =>
    f.context !== "code" ? f.context : g.context;
  /**
   * The idiom notes of a pair (lib/audit/idiom.ts): lowered, never dropped. `same-api` and
   * `module-vocabulary` are asked of rule hits, `template` of clones (`shared`: G's callees F
   * calls). `gSide` is the side G's callees were taken on (its siblings are that side's), `g0`
   * G's def there, `old` F's old version (its lines are not F's new ones, for the copied-block
   * exception of `module-vocabulary`).
   */
  const idioms = (
    kind: "reimplementation" | "clone",
    f: SideDef,
    g: SideDef,
    calls: ReadonlySet<string>,
    gCallees: string[],
    shared: readonly string[],
    gSide: SideIndex,
    g0: SideDef = g,
    old: SideDef | null = null,
  ) => {
    const out: Note[] = [];
    if (asyncTwin(f, g)) out.push("async-twin");
    if (sameDelegate(calls, gCallees)) {
      // only delegates that do not branch (G's tokens read only now: the pair is rare)
      loadTokens(gSide === hix ? head : base, [g0]);
      if (sameDelegate(calls, gCallees, [f.tokens, g0.tokens])) out.push("same-delegate");
    }
    if (
      kind === "reimplementation" && similarity(f.features, g.features) < SAME_API_MAX_SIMILARITY
    ) {
      // one cause, one factor: a pair whose shared helpers are one class's API is not also noted
      // for its container's vocabulary
      if (sameApi(calls, gCallees, gSide.classes)) out.push("same-api");
      else if (
        moduleVocabulary(f, g, siblingHits(gSide, g0), new Set(old ? [old.id] : [])) &&
        copiedBlocks(f, old, blockIndex([g0]), () => true).size === 0
      ) out.push("module-vocabulary");
      // G's callees are its new version's when G is itself changed (within the change)
      else if (sameEdit(false, gCallees, calls, swept(f), gSide === hix ? swept(g) : new Set())) {
        out.push("same-edit");
      }
    }
    if (kind === "clone" && template(shared, f, g)) out.push("template");
    if (kind === "reimplementation") {
      // F's new body against G's on the side its callees come from: the rule's callees shared,
      // the code not (a block of G pasted into a larger F is a copy whatever the whole bodies say,
      // and so is a small one: an identical run of G's in F's new lines, however many other
      // functions hold it — a third copy makes it no less G's code)
      loadTokens(gSide === hix ? head : base, [g0]);
      const like = tokenLikeness(f.tokens ?? [], g0.tokens ?? []);
      if (
        like !== null && like < LIKENESS_MIN &&
        copiedBlocks(f, old, blockIndex([g0]), () => true, { also: () => [] }).size === 0
      ) out.push("different-code");
    }
    return out;
  };

  /**
   * F's old version was already a near-copy of G's (twins, {@link PREEXISTING_SIMILARITY} alike in
   * shape): a change that edits F, or both, did not make the duplication.
   */
  const alikeBefore = (from: SideDef | null | undefined, g0: SideDef) =>
    !!from &&
    similarity(from.features, g0.features) >= Math.min(PREEXISTING_SIMILARITY, cloneThreshold);

  /**
   * G's old code now lives in F: F is a clone of G's version before the change, and the change
   * rewrote G so that neither the shape nor the rule joins F to its new version (a class renamed
   * and another given its old name: `bar.Bar` → `progress_bar.ProgressBar`, `block_bar.BlockBar` →
   * `bar.Bar`). The code exists once.
   */
  const relocated = (f: SideDef, g0: SideDef, gh: SideDef, calls: ReadonlySet<string>) =>
    gh.hash !== g0.hash && similarity(f.features, g0.features) >= cloneThreshold &&
    similarity(f.features, gh.features) < cloneThreshold &&
    !isReimplemented(false, hix.keys.get(gh)!, calls).reimplemented;

  const evidence = (callees: readonly string[], calls: ReadonlySet<string>) => {
    const shared: string[] = [], missing: string[] = [];
    const w: Record<string, number> = {};
    let sw = 0, tw = 0;
    for (const c of callees) {
      const x = weights.weight(c);
      w[c] = Math.round(x * 1000) / 1000;
      tw += x;
      if (calls.has(c)) {
        shared.push(c);
        sw += x;
      } else missing.push(c);
    }
    return {
      shared,
      missing,
      weights: w,
      sharedWeight: sw,
      overlap: callees.length ? shared.length / callees.length : null,
      weightedOverlap: tw > 0 ? sw / tw : null,
    };
  };

  const pair = (
    kind: FindingKind,
    f: SideDef,
    g: SideDef,
    ev: ReturnType<typeof evidence>,
    sim: number,
    raw: number,
    within: boolean,
    notes: Note[],
  ): Pair & { sharedWeight: number } => {
    const context = contextOf(f, g);
    return {
      kind,
      function: loc(f),
      target: loc(g),
      overlap: ev.overlap === null ? null : round(ev.overlap),
      shared: ev.shared,
      missing: ev.missing,
      weights: ev.weights,
      weightedOverlap: ev.weightedOverlap === null ? null : round(ev.weightedOverlap),
      similarity: round(sim),
      confidence: adjust(raw, context, notes),
      context,
      within,
      notes,
      sharedWeight: ev.sharedWeight,
    };
  };

  // the tokens of the changed functions (blocks) and of their old versions, from a cached side's
  // tokens part: of no other function unless an index of blocks is needed
  loadTokens(head, changedDefs.filter((h) => h.context !== "generated"));
  loadTokens(base, [...status.values()].flatMap((s) => s.from ? [s.from] : []));

  /** A changed function's old version (null when the change added it, or only moved it). */
  const oldOf = (d: SideDef) => {
    const st = status.get(d.id);
    return st?.status === "modified" ? st.from ?? null : null;
  };

  const changed: ChangedFunction[] = [];
  const pairs: (Pair & { sharedWeight: number })[] = [];
  const audited: { h: SideDef; uses: Set<string>; calls: Set<string> }[] = [];
  for (const h of changedDefs) {
    const st = status.get(h.id);
    if (!st) continue;
    const { uses, calls } = scopeOf(hix, h);
    const reused = [...uses].filter((t) =>
      t !== h.id && !nested(t, h.id) && baseById.has(t) && headIds.has(t)
    ).sort();
    changed.push({
      id: h.id,
      file: h.file,
      line: h.start,
      end: h.end,
      status: st.status,
      from: st.from ? { id: st.from.id, file: st.from.file, line: st.from.start } : null,
      reused,
      context: h.context,
    });
    if (st.status === "moved") continue;
    audited.push({ h, uses, calls });
    const self = (g: SideDef) =>
      g.id === h.id || g.id === st.from?.id || nested(g.id, h.id) || nested(h.id, g.id);
    const before = st.from && st.status === "modified" ? scopeOf(bix, st.from) : null;
    const hCalls = calls.size;

    // re-implementations: every G the rule holds for (the prefix index finds them all)
    const seen = new Set<SideDef>();
    const flagged = new Set<string>();
    for (const c of calls) {
      for (const g0 of rules.postings.get(c) ?? []) {
        if (seen.has(g0)) continue;
        seen.add(g0);
        if (self(g0) || !existingTarget(g0)) continue;
        const callees = bix.keys.get(g0)!;
        const called = uses.has(g0.id);
        const r = isReimplemented(called, callees, calls);
        if (!r.reimplemented) continue;
        const gh = headById.get(g0.id)!;
        const notes: Note[] = [];
        if (
          before && (isReimplemented(before.uses.has(g0.id), callees, before.calls).reimplemented ||
            alikeBefore(st.from, g0))
        ) {
          notes.push("preexisting");
        }
        if (gh.uses.includes(h.id)) notes.push("extracted");
        if (
          gh.hash !== g0.hash && !isReimplemented(called, hix.keys.get(gh)!, calls).reimplemented
        ) notes.push("target-rewritten");
        if (relocated(h, g0, gh, calls)) notes.push("relocated");
        const ev = evidence(callees, calls);
        notes.push(
          ...idioms("reimplementation", h, gh, calls, callees, ev.shared, bix, g0, st.from),
        );
        const sim = similarity(h.features, gh.features);
        const raw = ruleConfidence({
          weightedOverlap: ev.weightedOverlap ?? 0,
          sharedWeight: ev.sharedWeight,
          focus: hCalls ? ev.shared.length / hCalls : 0,
          similarity: sim,
        });
        flagged.add(g0.id);
        pairs.push(pair("reimplementation", h, gh, ev, sim, raw, false, notes));
      }
    }

    // structural clones (the shape prefix index finds every G at least cloneThreshold alike)
    const hTotal = featureTotal(h.features);
    if (h.size >= cloneMinSize) {
      // G as it was before the change (the existing function), as for the rule
      for (const g0 of shapeCandidates(shapes, h)) {
        if (flagged.has(g0.id) || self(g0) || uses.has(g0.id) || !existingTarget(g0)) continue;
        const g = headById.get(g0.id)!;
        if (g.uses.includes(h.id)) continue;
        const gTotal = featureTotal(g0.features);
        if (Math.min(hTotal, gTotal) < cloneThreshold * Math.max(hTotal, gTotal)) continue;
        const sim = similarity(h.features, g0.features);
        if (sim < cloneThreshold) continue;
        const notes: Note[] = [];
        // a clone already before the change (both edited alike)
        if (alikeBefore(st.from, g0)) notes.push("preexisting");
        if (relocated(h, g0, g, calls)) notes.push("relocated");
        const ev = evidence(bix.keys.get(g0)!, calls);
        notes.push(...idioms("clone", h, g, calls, bix.keys.get(g0)!, ev.shared, bix, g0));
        const raw = cloneConfidence({
          similarity: sim,
          size: Math.min(h.size, g0.size),
          weightedOverlap: ev.weightedOverlap ?? 0,
        });
        flagged.add(g0.id);
        pairs.push(pair("clone", h, g, ev, sim, raw, false, notes));
      }
    }

    // copied blocks: runs of F's new tokens found in an existing function (lib/audit/block.ts);
    // generated files are neither searched nor indexed, and the base's index is built only for an
    // F whose tokens could hold a block
    const old = oldOf(h);
    if (!local(h, hix) && h.context !== "generated" && mayCopyBlock(h, old)) {
      const blocks = copiedBlocks(
        h,
        old,
        sideBlockIndex(base),
        // F calling G does not excuse a copy of G's block (the rule's "F does not call G" is
        // about helpers; a block repeated is there twice, called or not)
        (g0) => !flagged.has(g0.id) && !self(g0) && existingTarget(g0),
        { also: () => [] },
      );
      loadTokens(head, [...blocks.keys()].map((g0) => headById.get(g0.id)!));
      for (const [g0, b] of blocks) {
        const gh = headById.get(g0.id)!;
        const notes: Note[] = [];
        // F's old version already held the block, or was already G's twin in shape
        if (old && (blockBefore(old, g0, b) || alikeBefore(old, g0))) notes.push("preexisting");
        if (gh.uses.includes(h.id)) notes.push("extracted");
        if (keptIn(gh, b, g0) < 0.5) notes.push("relocated");
        if (asyncTwin(h, gh)) notes.push("async-twin");
        const ev = evidence(bix.keys.get(g0)!, calls);
        const raw = blockConfidence({
          tokens: b.tokens,
          coverage: b.coverage,
          longest: b.longest,
          small: b.small,
        });
        const sim = similarity(h.features, gh.features);
        flagged.add(g0.id);
        pairs.push({
          ...pair("block", h, gh, ev, sim, raw, false, notes),
          block: blockEvidence(h, gh, b, g0),
        });
      }
    }

    // candidates: existing functions sharing F's rare callees
    const shared = new Map<SideDef, number>();
    for (const c of calls) {
      for (const g0 of cands.postings.get(c) ?? []) shared.set(g0, (shared.get(g0) ?? 0) + 1);
    }
    const found: (Pair & { sharedWeight: number })[] = [];
    const hWords = nameWords(h.name);
    for (const [g0] of shared) {
      if (flagged.has(g0.id) || uses.has(g0.id) || self(g0) || !existingTarget(g0)) continue;
      const gh = headById.get(g0.id)!;
      if (gh.uses.includes(h.id)) continue;
      const callees = bix.keys.get(g0)!;
      const ev = evidence(callees, calls);
      if (before) {
        let sharedBefore = 0;
        for (const c of callees) if (before.calls.has(c)) sharedBefore++;
        if (sharedBefore >= ev.shared.length) continue; // the change added no shared callee
      }
      let union = 0;
      for (const c of calls) union += weights.weight(c);
      for (const c of ev.missing) union += weights.weight(c);
      const calleeSim = union > 0 ? ev.sharedWeight / union : 0;
      const sim = similarity(h.features, gh.features);
      // F's name is a signal, its parameter and local names are not (renaming them changes nothing)
      const score = 0.55 * calleeSim + 0.25 * sim + 0.2 * jaccard(hWords, nameWords(gh.name));
      if (score < 0.35) continue;
      found.push(pair("candidate", h, gh, ev, sim, candidateConfidence(score), false, []));
    }
    found.sort(byEvidence);
    pairs.push(...found.slice(0, maxCandidates));
  }

  // ---- duplicates made within the change: two functions it added or modified, joined by the
  // rule or the clone threshold after the change and not before it (a pair of modified functions
  // already so before is pre-existing, not made by the change) ---------------------------------
  const fresh = audited.filter(({ h }) => {
    const s = status.get(h.id)?.status;
    return (s === "added" || s === "modified") && headById.get(h.id) === h && callable(h, hix) &&
      h.context !== "generated";
  });
  /** Pairs the search against the base side made (any kind, either way): not repeated within. */
  const againstBase = new Set(pairs.map((p) => `${p.function.id}\0${p.target.id}`));
  /** The rule (or, for a clone, the shape) joined two defs of the base side, F's first. */
  const joinedOld = (kind: "reimplementation" | "clone", f0: SideDef, g0: SideDef) => {
    if (alikeBefore(f0, g0)) return true;
    if (kind === "clone") return false;
    const old = scopeOf(bix, f0);
    return isReimplemented(old.uses.has(g0.id), bix.keys.get(g0) ?? [], old.calls).reimplemented;
  };
  /**
   * The old versions of the functions a new def was split out of: modified functions that now
   * call it and whose old version already held its code (the rule holds for the old version
   * against the new def: `StatReload.run` → `startup`).
   */
  const splitFrom = (d: SideDef): SideDef[] => {
    const out: SideDef[] = [];
    const keys = hix.keys.get(d) ?? [];
    for (const p of splitCallers.get(d.id) ?? []) {
      const old = scopeOf(bix, p).calls;
      // a def too small for the rule came from P when P already made every call it makes
      const held = isReimplemented(false, keys, old).reimplemented ||
        (keys.length > 0 && keys.every((k) => old.has(k)));
      if (held) out.push(p);
    }
    return out;
  };
  /**
   * Not made by the change: both modified, and the rule (or, for a clone, the shape) already
   * joined their old versions; or both new, each split out of one of two functions that were
   * already so joined (twins split alike into the same new methods: the old pair, moved).
   */
  const joinedBefore = (kind: "reimplementation" | "clone", h: SideDef, g: SideDef) => {
    const hs = status.get(h.id), gs = status.get(g.id);
    if (hs?.status === "modified" && gs?.status === "modified" && hs.from && gs.from) {
      return joinedOld(kind, hs.from, gs.from);
    }
    return splitAlike(h, g);
  };
  /** Both new, each split out of one of two functions the rule or the shape already joined. */
  const splitAlike = (h: SideDef, g: SideDef) => {
    if (status.get(h.id)?.status !== "added" || status.get(g.id)?.status !== "added") return false;
    // two pieces of one function (split out of the same one) are not its twin's pieces
    const fromG = splitFrom(g), fromH = splitFrom(h);
    if (fromH.some((p0) => fromG.includes(p0))) return false;
    return fromH.some((p0) =>
      fromG.some((q0) =>
        joinedOld("reimplementation", p0, q0) || joinedOld("reimplementation", q0, p0)
      )
    );
  };
  if (fresh.length > MAX_WITHIN) {
    problems.push({
      side: "head",
      file: fresh[0].h.file,
      line: null,
      message:
        `${fresh.length} new or changed functions: duplicates within the change not searched (more than ${MAX_WITHIN})`,
    });
  } else if (fresh.length > 1) {
    const within = ruleIndex(fresh.map((x) => x.h), hix, minCallees);
    const withinShapes = shapeIndex(fresh.map((x) => x.h), cloneThreshold, cloneMinSize);
    const withinBlocks = blockIndex(fresh.map((x) => x.h).filter((h) => !local(h, hix)));
    const freshSet = new Set(fresh.map((x) => x.h));
    /**
     * Lines one of the two added or changed holds a block of the other's code, small blocks
     * included (lib/audit/block.ts): code the change repeated, not only callees it shares.
     */
    const blockBetween = (h: SideDef, g: SideDef) =>
      [[h, g], [g, h]].some(([f, t]) =>
        !local(f, hix) &&
        copiedBlocks(f, oldOf(f), blockIndex([t]), () => true, {
            also: () => [sideBlockIndex(base)],
          }).size > 0
      );
    for (const { h, uses, calls } of fresh) {
      const other = (g: SideDef) =>
        g !== h && freshSet.has(g) && !nested(g.id, h.id) && !nested(h.id, g.id) &&
        !uses.has(g.id) && !g.uses.includes(h.id) && !againstBase.has(`${h.id}\0${g.id}`) &&
        !againstBase.has(`${g.id}\0${h.id}`);
      const flagged = new Set<SideDef>();
      const seen = new Set<SideDef>();
      for (const c of calls) {
        for (const g of within.postings.get(c) ?? []) {
          if (seen.has(g) || !other(g)) continue;
          seen.add(g);
          const callees = hix.keys.get(g)!;
          if (!isReimplemented(uses.has(g.id), callees, calls).reimplemented) continue;
          if (joinedBefore("reimplementation", h, g)) continue;
          const ev = evidence(callees, calls);
          const sim = similarity(h.features, g.features);
          const raw = ruleConfidence({
            weightedOverlap: ev.weightedOverlap ?? 0,
            sharedWeight: ev.sharedWeight,
            focus: calls.size ? ev.shared.length / calls.size : 0,
            similarity: sim,
          });
          flagged.add(g);
          const notes = idioms(
            "reimplementation",
            h,
            g,
            calls,
            callees,
            ev.shared,
            hix,
            g,
            oldOf(h),
          );
          if (sim < cloneThreshold && !blockBetween(h, g)) notes.push("written-together");
          pairs.push(pair("reimplementation", h, g, ev, sim, raw, true, notes));
        }
      }
      if (h.size >= cloneMinSize) {
        for (const g of shapeCandidates(withinShapes, h)) {
          if (flagged.has(g) || !other(g)) continue;
          const sim = similarity(h.features, g.features);
          if (sim < cloneThreshold || joinedBefore("clone", h, g)) continue;
          const ev = evidence(hix.keys.get(g)!, calls);
          const raw = cloneConfidence({
            similarity: sim,
            size: Math.min(h.size, g.size),
            weightedOverlap: ev.weightedOverlap ?? 0,
          });
          const notes = idioms("clone", h, g, calls, hix.keys.get(g)!, ev.shared, hix);
          flagged.add(g);
          pairs.push(pair("clone", h, g, ev, sim, raw, true, notes));
        }
      }
      // copied blocks between two functions the change added to (not joined so before it)
      if (local(h, hix)) continue;
      const old = oldOf(h);
      const blocks = copiedBlocks(
        h,
        old,
        withinBlocks,
        (g) =>
          !flagged.has(g) && g !== h && freshSet.has(g) && !nested(g.id, h.id) &&
          !nested(h.id, g.id) && !againstBase.has(`${h.id}\0${g.id}`) &&
          !againstBase.has(`${g.id}\0${h.id}`),
        // a small block's run held by an unchanged function is an idiom too
        { also: () => [sideBlockIndex(base)] },
      );
      for (const [g, b] of blocks) {
        if (splitAlike(h, g)) continue;
        // both modified, and their old versions already shared a block or were twins in shape
        const gs = status.get(g.id);
        if (
          old && gs?.status === "modified" && gs.from &&
          (joinedBefore("clone", h, g) ||
            copiedBlocks(old, null, blockIndex([gs.from]), () => true).size)
        ) continue;
        const ev = evidence(hix.keys.get(g)!, calls);
        const raw = blockConfidence({
          tokens: b.tokens,
          coverage: b.coverage,
          longest: b.longest,
          small: b.small,
        });
        const notes: Note[] = asyncTwin(h, g) ? ["async-twin"] : [];
        pairs.push({
          ...pair("block", h, g, ev, similarity(h.features, g.features), raw, true, notes),
          block: blockEvidence(h, g, b, g),
        });
      }
    }
  }

  // ---- one report per pair of changed functions, one finding per function --------------------
  const changedIds = new Set(audited.map((x) => x.h.id));
  const byPair = new Map<string, Pair & { sharedWeight: number }>();
  for (const p of pairs) byPair.set(`${p.kind}\0${p.function.id}\0${p.target.id}`, p);
  const kept = pairs.filter((p) => {
    if (!changedIds.has(p.target.id)) return true;
    const back = byPair.get(`${p.kind}\0${p.target.id}\0${p.function.id}`);
    if (!back) return true;
    // both directions hold: keep the better evidence; on a tie the later function (by file and
    // line) is the copy, F
    const c = back.confidence - p.confidence || back.sharedWeight - p.sharedWeight ||
      back.similarity - p.similarity;
    if (c !== 0) return c < 0;
    return (cmp(p.function.file, back.function.file) ||
      p.function.line - back.function.line || cmp(p.function.id, back.function.id)) > 0;
  });
  const groups = new Map<string, (Pair & { sharedWeight: number })[]>();
  for (const p of kept) {
    const k = `${p.function.id}\0${p.function.line}`;
    const list = groups.get(k);
    if (list) list.push(p);
    else groups.set(k, [p]);
  }
  const findings: Finding[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => pairRank(a) - pairRank(b) || byEvidence(a, b));
    const [best, ...rest] = list.map(strip);
    const shown = maxTargets > 0 ? rest.slice(0, maxTargets) : rest;
    const omitted = { reimplementation: 0, clone: 0, block: 0, candidate: 0 };
    for (const p of rest.slice(shown.length)) omitted[p.kind]++;
    findings.push({ ...best, alternatives: shown, omitted });
  }
  findings.sort((a, b) =>
    b.confidence - a.confidence || pairRank(a) - pairRank(b) ||
    cmp(a.function.id, b.function.id) || cmp(a.target.id, b.target.id)
  );
  changed.sort((a, b) => cmp(a.file, b.file) || a.line - b.line);
  // the next commit of a history audits against this head: its block index from this base's
  deriveBlockIndex(base, head, new Set(files.map((f) => f.path)));
  return { files, excluded, changed, findings, problems };
}

/**
 * Which of a function's pairs leads its finding: what the change made (re-implementations, then
 * clones) before what it did not (`preexisting`, `extracted`: lib/audit/evidence.ts
 * `APART_NOTES`), candidates last.
 */
function pairRank(p: Pair): number {
  if (p.kind === "candidate") return 6;
  return KIND_ORDER[p.kind] + (apartNote(p) ? 3 : 0);
}

/** Whether a pair was already so before the change (its F's old version did the same). */
export function preexisting(p: Pair): boolean {
  return p.notes.includes("preexisting");
}

/** Order of pairs: confidence, then the evidence (rare callees shared, shape), then ids. */
function byEvidence(
  a: Pair & { sharedWeight: number },
  b: Pair & { sharedWeight: number },
): number {
  return b.confidence - a.confidence || b.sharedWeight - a.sharedWeight ||
    b.similarity - a.similarity || cmp(a.target.id, b.target.id) ||
    cmp(a.function.id, b.function.id);
}

function strip(p: Pair & { sharedWeight: number }): Pair {
  const { sharedWeight: _w, ...rest } = p;
  return rest;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
