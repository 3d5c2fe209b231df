/**
 * The audit of one change: which functions it adds or changes (moved and renamed code matched,
 * not reported), and for each changed function F what it reuses, which existing function G it
 * re-implements (the paper's §3.3.2 rule, `isReimplemented` of lib/metrics), which G it is a
 * structural clone of, and which G it could have called.
 *
 * Pure: works on two {@link Side} indexes; lib/audit/run.ts reads them from git.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { auditChange } from "./change.ts";
 * import type { Side, SideDef } from "./side.ts";
 * const def = (id: string, file: string, start: number, callees: string[]): SideDef => ({
 *   id, kind: "function", file, start, end: start + 3, name: id.split(".").pop()!,
 *   signature: `def ${id.split(".").pop()}(x)`, params: ["x"], hash: id, size: 10,
 *   features: [7, 1], callees, uses: callees,
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
import type { Side, SideDef } from "./side.ts";
import { featureTotal, similarity } from "./shape.ts";

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
}

/** Kinds of finding, most serious first. */
export type FindingKind = "reimplementation" | "clone" | "candidate";

/** Where a function is. */
export interface Location {
  id: string;
  file: string;
  line: number;
  end: number;
}

/** One finding about a changed function F and an existing function G. */
export interface Finding {
  kind: FindingKind;
  function: Location;
  target: Location;
  /** |G's callees ∩ F's calls| / |G's callees| (the paper's overlap), null when G calls nothing. */
  overlap: number | null;
  /** G's non-builtin callees that F calls too, and those it does not. */
  shared: string[];
  missing: string[];
  /** Normalised-AST similarity of F and G in [0, 1]. */
  similarity: number;
  /** Ranking score in [0, 1] (see {@link auditChange}). */
  score: number;
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
  /**
   * A rule hit is reported as a re-implementation when F and G are also this alike in shape
   * (default {@link REIMPLEMENTATION_MIN_SIMILARITY}); below, it is listed as a candidate.
   */
  minSimilarity?: number;
  /** At most this many candidates per changed function (default 3). */
  candidates?: number;
}

/** Result of {@link auditChange}. */
export interface ChangeAudit {
  /** `.py` files added, modified or deleted. */
  files: { path: string; status: "added" | "modified" | "deleted" }[];
  changed: ChangedFunction[];
  findings: Finding[];
  problems: FileProblem[];
}

/**
 * Structural similarity that corroborates the paper's rule (see docs/audit.md, "Precision"): rule
 * hits between functions less alike than this were mostly functions sharing generic helpers.
 */
export const REIMPLEMENTATION_MIN_SIMILARITY = 0.6;
/** Default structural similarity of a clone. */
export const CLONE_THRESHOLD = 0.9;
/** Default minimum size (AST nodes) of a clone. */
export const CLONE_MIN_SIZE = 40;

/** Whether a def is a test function (never a target: tests are run, not called). */
export function isTestFunction(d: { name: string; file: string }): boolean {
  return /^test/i.test(d.name) &&
    /(^|\/)(tests?|testing)\/|(^|\/)test_[^/]*\.py$|_tests?\.py$/.test(d.file);
}

/** Words of an identifier (`getHTTPResponse_code` → get, http, response, code). */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
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

/** Whether `inner` is defined inside `outer` (ids: `outer.inner…`). */
function nested(inner: string, outer: string): boolean {
  return inner.startsWith(outer + ".");
}

/**
 * Audits the change from `base` to `head` (see module doc). Supporting rules beside the paper's:
 * a target G must exist on both sides, not be F itself, F's old self, a def nested in F or
 * containing it, a test function, nor call F (then the change extracted F out of G). For a
 * function modified in place, a re-implementation already true of its base version is not
 * reported again. Findings are ranked by `score`: overlap and similarity for re-implementations;
 * similarity for clones; callee overlap, similarity, name and parameter likeness for candidates.
 */
export function auditChange(base: Side, head: Side, opts: ChangeOptions = {}): ChangeAudit {
  const minCallees = Math.max(opts.minCallees ?? REIMPLEMENTATION_MIN_CALLEES, 1);
  const cloneThreshold = opts.cloneThreshold ?? CLONE_THRESHOLD;
  const cloneMinSize = opts.cloneMinSize ?? CLONE_MIN_SIZE;
  const maxCandidates = opts.candidates ?? 3;
  const minSimilarity = opts.minSimilarity ?? REIMPLEMENTATION_MIN_SIMILARITY;

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
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const touched = new Set(files.map((f) => f.path));

  const problems: FileProblem[] = [];
  for (const [side, s] of [["base", base], ["head", head]] as const) {
    for (const e of s.errors) {
      if (touched.has(e.file)) {
        problems.push({ side, file: e.file, line: e.line, message: e.message });
      }
    }
  }

  const baseById = new Map(base.defs.map((d) => [d.id, d]));
  const headById = new Map(head.defs.map((d) => [d.id, d]));
  const baseIds = new Set(base.ids);
  const headIds = new Set(head.ids);

  // ---- changed functions, moves matched ------------------------------------------------------
  const changedDefs = head.defs.filter((d) => touched.has(d.file));
  const removed = base.defs.filter((d) => touched.has(d.file) && !headIds.has(d.id));
  const removedByHash = new Map<string, SideDef[]>();
  for (const d of removed) {
    if (!d.hash) continue;
    const list = removedByHash.get(d.hash);
    if (list) list.push(d);
    else removedByHash.set(d.hash, [d]);
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
  for (const h of changedDefs) {
    if (status.has(h.id) || baseById.has(h.id)) continue;
    let best: SideDef | null = null, bestSim = 0.6;
    for (const d of removed) {
      if (used.has(d.id) || d.name !== h.name) continue;
      const s = similarity(h.features, d.features);
      if (s >= bestSim) [best, bestSim] = [d, s];
    }
    if (best) {
      used.add(best.id);
      status.set(h.id, { status: "modified", from: best });
    } else status.set(h.id, { status: "added", from: null });
  }

  // ---- what each changed function calls ------------------------------------------------------
  const headList = head.defs;
  const scopeOf = (side: Side, byId: Map<string, SideDef>, f: SideDef) => {
    const uses = new Set(f.uses), calls = new Set([...f.callees, ...f.uses]);
    // nested defs belong to F's body
    for (const d of side.defs) {
      if (nested(d.id, f.id) && byId.get(d.id) === d) {
        for (const u of d.uses) (uses.add(u), calls.add(u));
        for (const c of d.callees) calls.add(c);
      }
    }
    return { uses, calls };
  };

  // targets: defs of both sides, callable from elsewhere (not local to a function), not tests
  const local = (g: SideDef) => {
    for (let i = g.id.lastIndexOf("."); i > 0; i = g.id.lastIndexOf(".", i - 1)) {
      if (headById.has(g.id.slice(0, i))) return true;
    }
    return false;
  };
  const existing = (g: SideDef) => baseIds.has(g.id) && !isTestFunction(g) && !local(g);
  const byCallee = new Map<string, SideDef[]>();
  // per-def values computed once per audit (a large package has tens of thousands of defs)
  const calleeMemo = new Map<SideDef, string[]>();
  const calleesOf = (g: SideDef) => {
    let c = calleeMemo.get(g);
    if (!c) calleeMemo.set(g, c = calleeSet(g));
    return c;
  };
  const totals = new Map<SideDef, number>();
  const totalOf = (g: SideDef) => {
    let t = totals.get(g);
    if (t === undefined) totals.set(g, t = featureTotal(g.features));
    return t;
  };
  for (const g of headList) {
    if (g.callees.length < minCallees || calleesOf(g).length < minCallees || !existing(g)) continue;
    for (const c of calleesOf(g)) {
      const list = byCallee.get(c);
      if (list) list.push(g);
      else byCallee.set(c, [g]);
    }
  }

  const words = new Map<SideDef, string[]>();
  const wordsOf = (g: SideDef) => {
    let w = words.get(g);
    if (!w) words.set(g, w = nameWords(g.name));
    return w;
  };
  const changed: ChangedFunction[] = [];
  const findings: Finding[] = [];
  for (const h of changedDefs) {
    const st = status.get(h.id);
    if (!st) continue;
    const { uses, calls } = scopeOf(head, headById, h);
    const reused = [...uses].filter((t) =>
      t !== h.id && !nested(t, h.id) && baseIds.has(t) && headIds.has(t)
    ).sort();
    changed.push({
      id: h.id,
      file: h.file,
      line: h.start,
      end: h.end,
      status: st.status,
      from: st.from ? { id: st.from.id, file: st.from.file, line: st.from.start } : null,
      reused,
    });
    if (st.status === "moved") continue;
    const excluded = (g: SideDef) =>
      g.id === h.id || g.id === st.from?.id || nested(g.id, h.id) || nested(h.id, g.id) ||
      g.uses.includes(h.id) || !existing(g);
    const before = st.from && st.status === "modified" ? scopeOf(base, baseById, st.from) : null;

    // re-implementations: the paper's rule over G's sharing a callee with F
    const hits = new Map<SideDef, number>();
    for (const c of calls) {
      for (const g of byCallee.get(c) ?? []) hits.set(g, (hits.get(g) ?? 0) + 1);
    }
    const flagged = new Set<string>();
    const hTotal = totalOf(h);
    for (const [g, n] of hits) {
      const callees = calleesOf(g);
      // cheap pre-filter only; the decision is isReimplemented's
      if (n < REIMPLEMENTATION_SHARE * callees.length - 1e-9 || excluded(g)) continue;
      const called = uses.has(g.id);
      const r = isReimplemented(called, callees, calls);
      if (!r.reimplemented || callees.length < minCallees) continue;
      // G as it existed before the change must be re-implemented too (a stub filled in by the same
      // change is not an existing implementation)
      const g0 = baseById.get(g.id) ?? g;
      if (g0 !== g) {
        const old = calleeSet(g0);
        if (old.length < minCallees || !isReimplemented(called, old, calls).reimplemented) continue;
      }
      // not introduced by this change: F's old version already re-implemented G's old version
      if (
        before && isReimplemented(before.uses.has(g.id), calleeSet(g0), before.calls).reimplemented
      ) continue;
      const sim = similarity(h.features, g.features);
      flagged.add(g.id);
      // the rule corroborated by the shape: built alike, not just calling common helpers
      const kind = sim >= minSimilarity ? "reimplementation" : "candidate";
      findings.push(finding(kind, h, g, callees, calls, sim, 0.6 * (r.overlap ?? 0) + 0.4 * sim));
    }

    // structural clones and candidates over every existing function
    const clones: Finding[] = [];
    const cands: Finding[] = [];
    const hWords = nameWords(h.name);
    for (const g of headList) {
      // cheapest tests first: a candidate shares a callee, a clone has a comparable size
      let any = false;
      for (const c of g.callees) {
        if (calls.has(c)) {
          any = true;
          break;
        }
      }
      const sizeOk = h.size >= cloneMinSize && g.size >= cloneMinSize &&
        Math.min(hTotal, totalOf(g)) >= cloneThreshold * Math.max(hTotal, totalOf(g));
      if (!any && !sizeOk) continue;
      if (flagged.has(g.id) || uses.has(g.id) || excluded(g)) continue;
      const callees = calleesOf(g);
      let shared = 0;
      for (const c of callees) if (calls.has(c)) shared++;
      const nameSim = jaccard(hWords, wordsOf(g));
      const sim = similarity(h.features, g.features);
      const g0 = baseById.get(g.id) ?? g;
      if (sizeOk && sim >= cloneThreshold) {
        // a clone already before the change (both edited alike) is not new
        if (st.from && similarity(st.from.features, g0.features) >= cloneThreshold) continue;
        clones.push(finding("clone", h, g, callees, calls, sim, sim));
        continue;
      }
      if (shared === 0) continue;
      if (before) {
        let sharedBefore = 0;
        for (const c of calleeSet(g0)) if (before.calls.has(c)) sharedBefore++;
        if (sharedBefore >= shared) continue; // the change added no shared callee
      }
      const calleeSim = jaccard(callees, calls);
      const paramSim = jaccard(h.params, g.params);
      const score = 0.45 * calleeSim + 0.25 * sim + 0.2 * nameSim + 0.1 * paramSim;
      if (score < 0.35) continue;
      cands.push(finding("candidate", h, g, callees, calls, sim, score));
    }
    const top = (xs: Finding[], n: number) =>
      xs.sort((a, b) => b.score - a.score || cmp(a.target.id, b.target.id)).slice(0, n);
    findings.push(...top(clones, 3), ...top(cands, maxCandidates));
  }
  const order: Record<FindingKind, number> = { reimplementation: 0, clone: 1, candidate: 2 };
  findings.sort((a, b) =>
    order[a.kind] - order[b.kind] || b.score - a.score || cmp(a.function.id, b.function.id) ||
    cmp(a.target.id, b.target.id)
  );
  changed.sort((a, b) => cmp(a.file, b.file) || a.line - b.line);
  return { files, changed, findings, problems };
}

/**
 * The distinct non-builtin callees of a def as the rule counts them: `C()` is one call, so a
 * class's `C.__init__` (which the code model adds beside `C`) is dropped when `C` is there.
 */
export function calleeSet(d: { callees: readonly string[] }): string[] {
  const set = new Set(d.callees);
  return [...set].filter((c) => !(c.endsWith(".__init__") && set.has(c.slice(0, -9))));
}

/** A finding of F about G, with the evidence: G's callees F calls and does not call. */
function finding(
  kind: FindingKind,
  h: SideDef,
  g: SideDef,
  callees: string[],
  calls: ReadonlySet<string>,
  sim: number,
  score: number,
): Finding {
  const shared = callees.filter((c) => calls.has(c)).sort();
  return {
    kind,
    function: loc(h),
    target: loc(g),
    overlap: callees.length ? shared.length / callees.length : null,
    shared,
    missing: callees.filter((c) => !calls.has(c)).sort(),
    similarity: round(sim),
    score: round(score),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
