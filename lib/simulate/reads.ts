/**
 * Planning the exploration of one turn as harness-neutral actions: list, view (line ranges),
 * grep, write, run, submit. Planted reads are realised so that every target planted as read
 * shows at least one line of its body and no target planted as unread shows any line of its
 * body (grep hits and context lines included); extra views, listings and searches bring Files and
 * Lines near the configuration's calibration.
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import type { SimTurn } from "./runs.ts";

/** The workspace of a turn: W_{t-1} as workspace-relative paths → lines. */
export interface SimWorkspace {
  pkg: string;
  files: Map<string, string[]>;
  /** Non-Python files at the root (listed only). */
  extras: string[];
  /** Last header line per file (lines 1..header are module docstring/imports). */
  header: Map<string, number>;
}

export type Action =
  | { kind: "list"; path: string; how: "ls" | "find" | "glob" }
  | {
    kind: "view";
    path: string;
    a: number;
    b: number;
    how: "sed" | "nl" | "cat" | "head";
    /** A `cat` whose output (≥ 10 000 chars) mini-SWE-agent elides to its first and last 5 000. */
    elide?: boolean;
  }
  | {
    kind: "grep";
    /** Literal text searched for. */
    pattern: string;
    path: string;
    recursive: boolean;
    after: number;
    before: number;
  }
  | { kind: "write"; path: string; text: string }
  | { kind: "run"; command: string; output: string }
  | { kind: "submit" };

/** Lines a grep shows: per file, matched lines with context (1-based, sorted). */
export function grepHits(
  ws: SimWorkspace,
  g: Extract<Action, { kind: "grep" }>,
): Map<string, { hits: number[]; shown: number[] }> {
  const key = [g.pattern, g.path, g.recursive, g.after, g.before].join("\u0000");
  let memo = GREP_MEMO.get(ws.files);
  if (!memo) GREP_MEMO.set(ws.files, memo = new Map());
  const known = memo.get(key);
  if (known) return known;
  const out = computeGrep(ws, g);
  memo.set(key, out);
  return out;
}

type Hits = Map<string, { hits: number[]; shown: number[] }>;
/** Grep results per workspace file map (a workspace map must not change once grepped). */
const GREP_MEMO = new WeakMap<Map<string, string[]>, Map<string, Hits>>();

function computeGrep(ws: SimWorkspace, g: Extract<Action, { kind: "grep" }>): Hits {
  const out = new Map<string, { hits: number[]; shown: number[] }>();
  const paths = g.recursive
    ? [...ws.files.keys()].filter((p) =>
      p.startsWith(g.path === "" ? "" : g.path + "/") && p.endsWith(".py")
    ).sort()
    : [g.path];
  for (const p of paths) {
    const lines = ws.files.get(p);
    if (!lines) continue;
    const hits = hitLines(lines, g.pattern);
    if (!hits.length) continue;
    const shown = new Set<number>();
    for (const h of hits) {
      for (let k = Math.max(1, h - g.before); k <= Math.min(lines.length, h + g.after); k++) {
        shown.add(k);
      }
    }
    out.set(p, { hits, shown: [...shown].sort((a, b) => a - b) });
  }
  return out;
}

interface FileIndex {
  text: string;
  /** Offset of the first character of each line. */
  starts: number[];
  hits: Map<string, number[]>;
}
/** Per file (by its lines array, shared across turns and configurations): text and line starts. */
const FILE_INDEX = new WeakMap<string[], FileIndex>();

/** 1-based lines containing `pattern` (memoised per file and pattern). */
function hitLines(lines: string[], pattern: string): number[] {
  let ix = FILE_INDEX.get(lines);
  if (!ix) {
    const starts: number[] = [];
    let off = 0;
    for (const l of lines) {
      starts.push(off);
      off += l.length + 1;
    }
    ix = { text: lines.join("\n"), starts, hits: new Map() };
    FILE_INDEX.set(lines, ix);
  }
  const known = ix.hits.get(pattern);
  if (known) return known;
  const out: number[] = [];
  for (let at = ix.text.indexOf(pattern); at >= 0; at = ix.text.indexOf(pattern, at + 1)) {
    let lo = 0, hi = ix.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ix.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    if (out[out.length - 1] !== lo + 1) out.push(lo + 1);
    // a match must lie within one line
    if (ix.text.slice(at, at + pattern.length).includes("\n")) out.pop();
  }
  ix.hits.set(pattern, out);
  return out;
}

/** Characters mini-SWE-agent keeps at each end of an observation of ≥ 10 000 characters. */
export const ELIDE_KEEP = 5000;
/** Observations at least this long are elided (mini-SWE-agent's observation template). */
export const ELIDE_LIMIT = 10000;

/**
 * Lines of a file (`lines`, each ending in a newline) that an elided view shows: those with a
 * character among the first `keep` characters, and those with a character other than their
 * newline among the last `keep` (a tail starting on a newline does not show that line).
 */
function elidedLines(lines: readonly string[], keep: number): number[] {
  let length = 0;
  for (const line of lines) length += line.length + 1;
  const shown: number[] = [];
  let start = 0;
  lines.forEach((line, i) => {
    const newline = start + line.length;
    if (start < keep || newline > length - keep) shown.push(i + 1);
    start = newline + 1;
  });
  return shown;
}

/** (path, lines) an action shows. */
export function shownBy(ws: SimWorkspace, a: Action): Map<string, number[]> {
  const out = new Map<string, number[]>();
  if (a.kind === "view" && a.elide) {
    const shown = elidedLines(ws.files.get(a.path) ?? [], ELIDE_KEEP);
    if (shown.length) out.set(a.path, shown);
  } else if (a.kind === "view") {
    const n = ws.files.get(a.path)?.length ?? 0;
    const lines: number[] = [];
    for (let k = Math.max(1, a.a); k <= Math.min(n, a.b); k++) lines.push(k);
    if (lines.length) out.set(a.path, lines);
  } else if (a.kind === "grep") {
    for (const [p, h] of grepHits(ws, a)) out.set(p, h.shown);
  }
  return out;
}

interface Plan {
  ws: SimWorkspace;
  forbidden: Map<string, [number, number][]>;
  shown: Map<string, Set<number>>;
  paths: Set<string>;
  actions: Action[];
}

function safe(p: Plan, a: Action): boolean {
  for (const [path, lines] of shownBy(p.ws, a)) {
    const f = p.forbidden.get(path);
    if (!f) continue;
    for (const l of lines) for (const [s, e] of f) if (l >= s && l <= e) return false;
  }
  return true;
}

function add(p: Plan, a: Action) {
  if (!safe(p, a)) {
    throw new Error(
      `simulate: planned action shows an unread target: ${JSON.stringify(a).slice(0, 200)}`,
    );
  }
  p.actions.push(a);
  for (const [path, lines] of shownBy(p.ws, a)) {
    const s = p.shown.get(path) ?? new Set<number>();
    for (const l of lines) s.add(l);
    p.shown.set(path, s);
  }
  if (a.kind === "view" && !p.ws.files.has(a.path)) return; // a failed read shows nothing
  if (a.kind === "view" || a.kind === "grep" || a.kind === "list") p.paths.add(a.path);
}

const countShown = (p: Plan) => [...p.shown.values()].reduce((s, v) => s + v.size, 0);

/** Characters of lines a..b of a file (to keep mini-SWE-agent observations under 10 000). */
function chars(lines: string[], a: number, b: number): number {
  let n = 0;
  for (let k = a; k <= b && k <= lines.length; k++) n += lines[k - 1].length + 1;
  return n;
}

/** Adds views of [a, b] in chunks whose output stays below `maxChars`. */
function addRange(
  rng: Rng,
  p: Plan,
  path: string,
  a: number,
  b: number,
  maxChars: number,
  how?: "sed" | "nl",
) {
  const lines = p.ws.files.get(path)!;
  b = Math.min(b, lines.length);
  let s = a;
  while (s <= b) {
    let e = s;
    let c = 0;
    while (e <= b && c + lines[e - 1].length + 10 < maxChars) c += lines[e - 1].length + 10, e++;
    e = Math.max(s, e - 1);
    add(p, { kind: "view", path, a: s, b: e, how: how ?? (rng.chance(0.5) ? "sed" : "nl") });
    s = e + 1;
  }
}

/** Free segments of a file (outside forbidden ranges). */
function freeSegments(p: Plan, path: string): [number, number][] {
  const n = p.ws.files.get(path)!.length;
  const f = (p.forbidden.get(path) ?? []).slice().sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  let s = 1;
  for (const [a, b] of f) {
    if (a > s) out.push([s, a - 1]);
    s = Math.max(s, b + 1);
  }
  if (s <= n) out.push([s, n]);
  return out;
}

/** Plans the actions of one turn. */
export function planTurn(
  rng: Rng,
  ws: SimWorkspace,
  turn: SimTurn,
  opts: { maxChars: number; runCheck: string; elide?: boolean },
): Action[] {
  const forbidden = new Map<string, [number, number][]>();
  for (const tg of turn.targets) {
    if (tg.read || !tg.implemented || !tg.path) continue;
    forbidden.set(tg.path, [...(forbidden.get(tg.path) ?? []), [tg.start!, tg.end!]]);
  }
  const p: Plan = { ws, forbidden, shown: new Map(), paths: new Set(), actions: [] };
  const pkg = ws.pkg;
  const py = [...ws.files.keys()].filter((x) => x.endsWith(".py")).sort();
  // orientation
  add(p, { kind: "list", path: "", how: "ls" });
  if (rng.chance(0.7)) {
    add(p, { kind: "list", path: pkg, how: rng.pick(["ls", "find", "glob"] as const) });
  }
  const body: Action[][] = [];
  // a guessed path that does not exist (the command fails and shows nothing)
  if (rng.chance(0.12)) {
    const guess = rng.pick([
      `${pkg}/utils.py`,
      `${pkg}/_core/base.py`,
      `${pkg}/core.py`,
      `${pkg}/_util/helpers.py`,
    ]);
    if (!ws.files.has(guess)) {
      body.push([{
        kind: "view",
        path: guess,
        a: 1,
        b: 80,
        how: rng.pick(["cat", "sed"] as const),
      }]);
    }
  }
  // a whole-file cat too long for the observation: only its head and tail are shown
  if (opts.elide && rng.chance(0.35)) {
    const big = py.filter((f) => ws.files.get(f)!.join("\n").length + 1 >= ELIDE_LIMIT);
    if (big.length) {
      const path = rng.pick(big);
      const v: Action = {
        kind: "view",
        path,
        a: 1,
        b: ws.files.get(path)!.length,
        how: "cat",
        elide: true,
      };
      if (safe(p, v)) body.push([v]), add({ ...p, actions: [] }, v);
    }
  }
  // planted reads
  for (const tg of rng.shuffle(turn.targets.filter((x) => x.read))) {
    const lines = ws.files.get(tg.path!)!;
    const free = !forbidden.has(tg.path!);
    const steps: Action[] = [];
    const sub: Plan = { ...p, actions: steps };
    const r = rng.float();
    const name = tg.id.slice(tg.id.lastIndexOf(".") + 1);
    if (tg.kind === "repo" && r < 0.3) {
      const g: Action = {
        kind: "grep",
        pattern: `def ${name}(`,
        path: pkg,
        recursive: true,
        after: 0,
        before: 0,
      };
      if (safe(p, g)) add(sub, g);
    }
    if (
      free && chars(lines, 1, lines.length) < opts.maxChars &&
      rng.chance(tg.kind === "self" ? 0.8 : 0.35)
    ) {
      add(sub, { kind: "view", path: tg.path!, a: 1, b: lines.length, how: "cat" });
    } else if (r > 0.85) {
      // grep with trailing context
      const limit = nextForbidden(forbidden.get(tg.path!), tg.start!, lines.length);
      const after = Math.max(0, Math.min(limit - tg.start!, rng.int(15, 60)));
      const g: Action = {
        kind: "grep",
        pattern: `def ${name}(`,
        path: tg.path!,
        recursive: false,
        after,
        before: rng.int(0, 2),
      };
      if (safe(p, g)) add(sub, g);
      else addRange(rng, sub, tg.path!, tg.start!, tg.end!, opts.maxChars);
    } else {
      const prev = prevForbidden(forbidden.get(tg.path!), tg.start!);
      const next = nextForbidden(forbidden.get(tg.path!), tg.end!, lines.length);
      const partial = rng.chance(0.12);
      const a = partial
        ? tg.start! + rng.int(0, Math.max(0, tg.end! - tg.start! - 3))
        : Math.max(prev + 1, tg.start! - rng.int(0, 12));
      const b = partial
        ? Math.min(tg.end!, a + rng.int(2, 12))
        : Math.min(next, tg.end! + rng.int(0, 15));
      addRange(rng, sub, tg.path!, a, b, opts.maxChars);
    }
    body.push(steps);
  }
  // extra files: headers, listings, searches
  let guard = 0;
  const dirs = [...new Set(py.map((x) => x.slice(0, x.lastIndexOf("/"))))].sort();
  while (p.paths.size < turn.filesGoal && guard++ < 200) {
    const r = rng.float();
    const steps: Action[] = [];
    const sub = { ...p, actions: steps };
    if (r < 0.55) {
      const path = rng.pick(py);
      const h = Math.min(ws.header.get(path) ?? 3, rng.int(8, 30));
      const v: Action = { kind: "view", path, a: 1, b: h, how: "head" };
      if (!safe(p, v) || p.paths.has(path)) continue;
      add(sub, v);
    } else if (r < 0.75) {
      const d = rng.pick(dirs);
      if (p.paths.has(d)) continue;
      add(sub, { kind: "list", path: d, how: rng.pick(["ls", "ls", "find", "glob"] as const) });
    } else {
      const path = rng.pick(py);
      const g: Action = {
        kind: "grep",
        pattern: rng.pick(["import ", "from __future__"]),
        path,
        recursive: false,
        after: 0,
        before: 0,
      };
      if (!safe(p, g) || p.paths.has(path)) continue;
      add(sub, g);
    }
    body.push(steps);
  }
  // extra lines
  guard = 0;
  while (countShown(p) < turn.linesGoal && guard++ < 200) {
    // once Files is reached, read on in files already visited (read lines are not re-counted)
    const visited = py.filter((f) => p.paths.has(f));
    const path = p.paths.size >= turn.filesGoal && visited.length && guard < 150
      ? rng.pick(visited)
      : rng.pick(py);
    const shownHere = p.shown.get(path);
    const segs = freeSegments(p, path).filter(([a, b]) => b - a >= 6).filter(([a, b]) => {
      if (!shownHere) return true;
      let unseen = 0;
      for (let k = a; k <= b; k++) if (!shownHere.has(k)) unseen++;
      return unseen >= 6;
    });
    if (!segs.length) continue;
    const [s, e] = rng.pick(segs);
    const len = Math.min(e - s + 1, rng.int(40, 240), turn.linesGoal - countShown(p) + 10);
    const a = s + rng.int(0, Math.max(0, e - s + 1 - len));
    const steps: Action[] = [];
    const lines = ws.files.get(path)!;
    if (a === 1 && a + len - 1 >= lines.length && chars(lines, 1, lines.length) < opts.maxChars) {
      add({ ...p, actions: steps }, { kind: "view", path, a: 1, b: lines.length, how: "cat" });
    } else addRange(rng, { ...p, actions: steps }, path, a, a + len - 1, opts.maxChars);
    body.push(steps);
  }
  for (const steps of rng.shuffle(body)) p.actions.push(...steps);
  if (!turn.submitted && rng.chance(0.4)) {
    // the module written to a wrong path: nothing at the required path, the turn has no submission
    const wrong = turn.task.path.replace(/^([^/]+)\/(?:_core\/)?/, "$1/_draft_");
    p.actions.push({
      kind: "write",
      path: wrong,
      text: `"""Draft."""\n\n\ndef ${
        turn.task.functions[0].name
      }(*args):\n    raise NotImplementedError\n`,
    });
  }
  if (turn.submitted && turn.submission) {
    p.actions.push({ kind: "write", path: turn.task.path, text: turn.submission });
    p.actions.push({
      kind: "run",
      command: opts.runCheck,
      output: rng.pick(["[]", "[(0, 1.0), (1, 0.5)]", "{'a': [0, 2]}", "(0.0, 2.5)", "3"]),
    });
  }
  return p.actions;
}

function prevForbidden(f: [number, number][] | undefined, line: number): number {
  let best = 0;
  for (const [, e] of f ?? []) if (e < line && e > best) best = e;
  return best;
}

function nextForbidden(f: [number, number][] | undefined, line: number, n: number): number {
  let best = n;
  for (const [s] of f ?? []) if (s > line && s - 1 < best) best = s - 1;
  return best;
}

/** Distinct (file, line) pairs and paths an action list shows (the planner's own count). */
export function tally(
  ws: SimWorkspace,
  actions: Action[],
): { lines: number; files: number; reads: Map<string, Set<number>> } {
  const reads = new Map<string, Set<number>>();
  const paths = new Set<string>();
  for (const a of actions) {
    if (a.kind === "view" && !ws.files.has(a.path)) continue;
    if (a.kind === "view" || a.kind === "grep" || a.kind === "list") paths.add(a.path);
    for (const [path, lines] of shownBy(ws, a)) {
      const s = reads.get(path) ?? new Set<number>();
      for (const l of lines) s.add(l);
      reads.set(path, s);
    }
  }
  return { lines: [...reads.values()].reduce((s, v) => s + v.size, 0), files: paths.size, reads };
}
