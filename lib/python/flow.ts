/**
 * Data flow inside one module, after the syntax walk (lib/python/visitor.ts) has recorded its
 * facts ({@link WalkFacts}): function elements of container literals read back by constant keys
 * (`d["a"]()` → a call of the value stored under `"a"`), dead stores of function aliases
 * (`a = f; a = g`), and the references that can never name a function (plain local values,
 * builtins) dropped — {@link UseFlow}. The result is the summary's final list of raw uses.
 *
 * @example
 * ```ts
 * import { sliceOf } from "./flow.ts";
 * const elements = [0, 1, 2, 3].map((i) => ({ path: `i:${i}`, text: `f${i}` }));
 * // a[1:3] holds a[1] and a[2], renumbered from 0
 * console.assert(JSON.stringify(sliceOf(elements, 4, [1, 3, null])) ===
 *   JSON.stringify([[{ path: "i:0", text: "f1" }, { path: "i:1", text: "f2" }], 2]));
 * ```
 * @module
 */
import { BUILTINS } from "./names.ts";
import { PerLine } from "./per_line.ts";
import { type Binding, KEYED, type RawUse, type Scope } from "./summary_format.ts";

/** An element of a container literal: its constant key path and dotted value (null: other). */
export type Element = { path: string; text: string | null };

/**
 * A dict/list/tuple literal bound to a name (`d = {"a": f}`), whose function elements may be read
 * back by constant keys only (`d["a"]()`): `refs` are the indices of the literal's uses.
 */
export interface Container {
  scope: number;
  name: string;
  line: number;
  elements: Element[];
  refs: [number, number];
  /** Number of elements of a list/tuple (indexable by position and sliceable); absent for dicts. */
  length?: number;
  /** A slice of another container of the scope (`b = a[1:3]`): its name, bounds and line. */
  from?: { name: string; bounds: (number | null)[]; line: number };
}

/**
 * A constant-key access of a name (`d["a"]["b"](…)` read and called, `d["a"] = f` written):
 * `own` the indices of the uses its own subscript made, `at` where a read's call use goes.
 */
export interface Access {
  scope: number;
  name: string;
  path: string;
  line: number;
  own: [number, number];
  write?: { text: string | null; refs: [number, number] };
  at: number;
  /** A read whose one `?` key in `path` is this name's value (`ls[KEY]()`, {@link KEYED}). */
  key?: string;
  /** A slice read (`b = a[1:3]`, a {@link Container} `from`): no call of its own. */
  slice?: true;
}

/**
 * An assignment of a name to one value (`a = f`, `a = C()`, `a = 1`): `block` the id of the
 * statement's enclosing block, `refs` the indices of its value's uses, `alias` whether the value
 * is a dotted name (a function named as a value).
 */
export interface Store {
  scope: number;
  name: string;
  line: number;
  block: number;
  refs: [number, number];
  alias: boolean;
  fb: boolean;
}

/** Equal raw uses (same scope, text and kind; compared on one line), and their key. */
const sameRawUse = (a: RawUse, b: RawUse) => a[1] === b[1] && a[0] === b[0] && a[3] === b[3];
const rawUseKey = (u: RawUse) => `${u[0]}\0${u[3]}\0${u[1]}`;

/** What the syntax walk records of a module for the data flow. */
export interface WalkFacts {
  scopes: Scope[];
  /** The raw uses in source order (indices into it are what `refs`, `own` and `at` hold). */
  uses: RawUse[];
  containers: Container[];
  stores: Store[];
  accesses: Access[];
}

/** The data flow of one module's {@link WalkFacts}: {@link UseFlow.result} gives the uses kept. */
export class UseFlow {
  readonly scopes: Scope[];
  readonly uses: RawUse[];
  readonly containers: Container[];
  readonly stores: Store[];
  readonly accesses: Access[];

  constructor(facts: WalkFacts) {
    this.scopes = facts.scopes;
    this.uses = facts.uses;
    this.containers = facts.containers;
    this.stores = facts.stores;
    this.accesses = facts.accesses;
  }

  /**
   * The summary's uses: after element flow and dead stores ({@link flowedUses}), the ones kept
   * ({@link keptUses}).
   */
  result(): RawUse[] {
    // each pass a function of its own: V8 compiles (and, as files bring new cases, recompiles)
    // small functions instead of all of them inlined into one
    return this.keptUses(this.flowedUses());
  }

  /**
   * The bindings a name used in scope `s` sees in this file (the innermost scope binding it, by
   * Python's scoping), `star` when a `from m import *` may bind it first, or null when unbound.
   */
  visibleBindings(s: number, head: string): { scope: Scope; bs: Binding[] } | "star" | null {
    let x = this.scopes[s].globals?.includes(head) ? 0 : s;
    let first = true;
    while (x >= 0) {
      const sc = this.scopes[x];
      if (first || sc.kind !== "class") {
        const all = sc.bindings[head];
        const bs = all?.some((b) => b.attr) ? all.filter((b) => !b.attr) : all;
        if (bs?.length) return { scope: sc, bs };
        if (sc.stars) return "star";
      }
      first = false;
      x = sc.parent;
    }
    return null;
  }

  /** Whether a reference's head name is certainly a plain variable or a builtin in this file. */
  plainValue(s: number, head: string, bare: boolean): boolean {
    const v = this.visibleBindings(s, head);
    if (v === "star") return false;
    if (v === null) return BUILTINS.has(head);
    // a bare name bound only to call results is an instance or unknown, never a function
    return v.scope.self !== head &&
      v.bs.every((b) => b.k === "other" || b.k === "const" || (bare && b.k === "new"));
  }

  /**
   * Element flow through containers: a literal bound once to a name used only through constant
   * keys in its own scope gives each read-and-called element a call use (`d["a"]()` → the value
   * last stored under `"a"` before that line, by `d["a"] = g` or `d.update({"a": g})`), and its
   * element references count no more (an element never read back is never used). A slice with
   * constant bounds (`b = a[1:3]`) is a container of its own, of the elements then in `a`; a read
   * by a name that may hold a constant (`a[KEY]()`) is resolved in phase 2 ({@link KEYED}). A
   * container used any other way (passed, iterated, mutated otherwise, read by any other key, or
   * never read by a constant key in its own scope, as a module's table other modules import) keeps
   * every element as a reference, and so do the containers sliced from it or it from.
   */
  containerFlow(drop: Set<number>, add: Map<number, RawUse[]>) {
    if (!this.containers.length) return;
    // uses by head name (`d`, `d.update`, `d()`), accesses by name: one pass each
    const names = new Set(this.containers.map((c) => c.name));
    const usesOf = new Map<string, number[]>();
    this.uses.forEach((u, i) => {
      // the head name: the text before the first `.` or `(`
      const t = u[1];
      const dot = t.indexOf("."), paren = t.indexOf("(");
      const end = dot < 0 ? (paren < 0 ? t.length : paren) : paren < 0 ? dot : Math.min(dot, paren);
      const head = end > 0 ? t.slice(0, end) : null;
      if (head !== null && names.has(head)) {
        const list = usesOf.get(head);
        if (list) list.push(i);
        else usesOf.set(head, [i]);
      }
    });
    // a read by a name certainly no constant (a parameter, a loop variable) is no access
    const accessesOf = Map.groupBy(
      this.accesses.filter((a) => a.key === undefined || this.mayBeConstant(a.scope, a.key)),
      (a) => a.name,
    );
    const ok = new Map<Container, boolean>();
    const writesOf = new Map<Container, Access[]>();
    const find = (scope: number, name: string) =>
      this.containers.find((c) => c.scope === scope && c.name === name);
    for (const c of this.containers) {
      ok.set(c, false);
      if (this.scopes[c.scope].bindings[c.name]?.length !== 1) continue;
      const mine = accessesOf.get(c.name) ?? [];
      // read back at least once here: a container never read in its module may be for others
      if (mine.some((a) => a.scope !== c.scope) || !mine.some((a) => !a.write)) continue;
      const own = new Set<number>();
      for (const a of mine) for (let i = a.own[0]; i < a.own[1]; i++) own.add(i);
      if ((usesOf.get(c.name) ?? []).some((i) => !own.has(i))) continue;
      writesOf.set(c, mine.filter((a) => a.write).sort((a, b) => a.line - b.line));
      if (c.from) {
        const src = find(c.scope, c.from.name);
        if (!src || !ok.get(src) || src.length === undefined) continue;
        const sliced = sliceOf(
          this.elementsAt(src, writesOf.get(src)!, c.from.line),
          src.length,
          c.from.bounds,
        );
        if (!sliced) continue;
        [c.elements, c.length] = sliced;
      }
      ok.set(c, true);
    }
    // a slice and its source stand or fall together
    for (let changed = true; changed;) {
      changed = false;
      for (const c of this.containers) {
        const src = c.from ? find(c.scope, c.from.name) : undefined;
        if (src && ok.get(c) !== ok.get(src)) {
          ok.set(c, false);
          ok.set(src, false);
          changed = true;
        }
      }
    }
    // the references that are element values themselves (`f` of `{"a": f}`); one inside an
    // element's expression (`{"a": partial(f)}`) is a use of its own
    const dropRefs = (from: number, to: number, values: Set<string | null>) => {
      for (let i = from; i < to; i++) {
        if (this.uses[i][3] === 1 && values.has(this.uses[i][1])) drop.add(i);
      }
    };
    for (const c of this.containers) {
      if (!ok.get(c)) continue;
      const writes = writesOf.get(c)!;
      for (const r of accessesOf.get(c.name) ?? []) {
        if (r.write || r.slice) continue;
        const elements = this.elementsAt(c, writes, r.line);
        let use: RawUse | null = null;
        if (r.key !== undefined) {
          const choices = keyedChoices(elements, r.path);
          if (choices.length) use = [r.scope, [r.key, ...choices].join("\0"), r.line, KEYED];
        } else {
          const text = elements.find((e) => e.path === r.path)?.text ?? null;
          if (text !== null) use = [r.scope, text, r.line, 0];
        }
        if (use) {
          const list = add.get(r.at) ?? [];
          list.push(use);
          add.set(r.at, list);
        }
      }
      dropRefs(...c.refs, new Set(c.elements.map((e) => e.text)));
      const written = new Set(writes.map((w) => w.write!.text));
      for (const w of writes) dropRefs(...w.write!.refs, written);
    }
  }

  /** A container's elements as of a line: its literal's, overwritten by the writes before. */
  elementsAt(c: Container, writes: Access[], line: number): Element[] {
    let out = c.elements;
    for (const w of writes) {
      if (w.line >= line) break;
      out = out.filter((e) => e.path !== w.path && !e.path.startsWith(w.path + "/"));
      out.push({ path: w.path, text: w.write!.text });
    }
    return out;
  }

  /**
   * Whether a dotted name used in scope `s` may hold a constant: its head is bound, in the scope
   * that defines it, to a literal constant, an import or an alias (else it is a parameter, a loop
   * variable, a call's result, … or unbound).
   */
  mayBeConstant(s: number, text: string): boolean {
    const head = /^[^.(]+/.exec(text)?.[0] ?? text;
    const v = this.visibleBindings(s, head);
    if (v === null || v === "star") return v === "star";
    return v.scope.self !== head &&
      v.bs.some((b) => b.k === "const" || b.k === "from" || b.k === "alias" || b.k === "module");
  }

  /**
   * Dead stores: a function named as the whole value of a name's assignment (`a = f`) is no use
   * of `f` when the name is assigned again later in the same block before anything can see it —
   * no use of the name and no call (which could read it) in between, in this scope or inner ones
   * (`a = dec1; a = dec2; @a` applies only `dec2`). A live alias keeps its reference, and uses of
   * the name resolve through it (`cb = f; cb()` → a call of `f`).
   */
  deadStores(drop: Set<number>) {
    const stores = Map.groupBy(this.stores, (x) => `${x.scope}\0${x.name}`);
    for (const st of this.stores) {
      if (!st.alias || st.fb) continue;
      const sc = this.scopes[st.scope];
      if (sc.globals?.includes(st.name) || sc.nonlocals?.includes(st.name)) continue;
      const bs = sc.bindings[st.name]?.filter((b) => !b.attr) ?? [];
      if (bs.filter((b) => b.line === st.line).length !== 1) continue;
      const next = bs.find((b) => b.line > st.line);
      if (!next || next.fb) continue;
      const killer = stores.get(`${st.scope}\0${st.name}`)?.find((x) => x.line === next.line);
      if (!killer || killer.block !== st.block) continue;
      // the uses of the statements in between and of the new value, in source order
      let seen = false;
      for (let i = st.refs[1]; i < killer.refs[1] && !seen; i++) {
        const u = this.uses[i];
        seen = /^[^.(]+/.exec(u[1])?.[0] === st.name || (i < killer.refs[0] && u[3] !== 1);
      }
      if (seen) continue;
      for (let i = st.refs[0]; i < st.refs[1]; i++) if (this.uses[i][3] === 1) drop.add(i);
    }
  }

  /** The uses after element flow ({@link containerFlow}) and dead stores ({@link deadStores}). */
  flowedUses(): RawUse[] {
    const drop = new Set<number>();
    const add = new Map<number, RawUse[]>();
    this.containerFlow(drop, add);
    this.deadStores(drop);
    if (!drop.size && !add.size) return this.uses;
    const out: RawUse[] = [];
    for (let i = 0; i <= this.uses.length; i++) {
      const more = add.get(i);
      if (more) out.push(...more);
      if (i < this.uses.length && !drop.has(i)) out.push(this.uses[i]);
    }
    return out;
  }

  /**
   * The uses kept: no reference whose head is certainly a plain value, and the same use twice on a
   * line (`f(x) + f(y)`) once.
   */
  keptUses(uses: RawUse[]): RawUse[] {
    const kept: RawUse[] = [];
    const seen = new PerLine<RawUse>(sameRawUse, rawUseKey);
    for (const u of uses) {
      if (u[3] === 1 && !u[1].includes("(")) {
        const dot = u[1].indexOf(".");
        if (this.plainValue(u[0], dot < 0 ? u[1] : u[1].slice(0, dot), dot < 0)) continue;
      }
      if (seen.add(u[2], u)) kept.push(u);
    }
    return kept;
  }
}

/**
 * The elements of a list/tuple of `length` elements sliced by `bounds` (Python's
 * `slice.indices`), renumbered from 0, with the new length; null for a zero step.
 */
export function sliceOf(
  elements: readonly Element[],
  length: number,
  bounds: readonly (number | null)[],
): [Element[], number] | null {
  const step = bounds[2] ?? 1;
  if (step === 0) return null;
  const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
  const at = (v: number | null, dflt: number, lo: number, hi: number) =>
    v === null ? dflt : clamp(v < 0 ? v + length : v, lo, hi);
  const picked: number[] = [];
  if (step > 0) {
    const stop = at(bounds[1], length, 0, length);
    for (let i = at(bounds[0], 0, 0, length); i < stop; i += step) picked.push(i);
  } else {
    const stop = at(bounds[1], -1, -1, length - 1);
    for (let i = at(bounds[0], length - 1, -1, length - 1); i > stop; i += step) picked.push(i);
  }
  const out: Element[] = [];
  picked.forEach((old, j) => {
    for (const e of elements) {
      const slash = e.path.indexOf("/");
      const head = slash < 0 ? e.path : e.path.slice(0, slash);
      if (head === `i:${old}`) {
        out.push({ path: `i:${j}${slash < 0 ? "" : e.path.slice(slash)}`, text: e.text });
      }
    }
  });
  return [out, picked.length];
}

/**
 * The `key\x01element` choices of a read whose path has one `?` key: each element of the same
 * depth whose other keys agree, with a known value.
 */
function keyedChoices(elements: readonly Element[], path: string): string[] {
  const want = path.split("/");
  const q = want.indexOf("?");
  const out: string[] = [];
  for (const e of elements) {
    const got = e.path.split("/");
    if (e.text === null || got.length !== want.length) continue;
    if (want.every((k, i) => i === q || k === got[i])) out.push(`${got[q]}\x01${e.text}`);
  }
  return out;
}
