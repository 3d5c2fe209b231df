/**
 * Phase 2 of the code model: resolving the raw uses of module summaries against each other.
 *
 * Rules (each has a fixture group in `tests/fixtures/python/resolve/`):
 * - bare names by Python's scoping: local, enclosing functions, module (incl. `from m import *`:
 *   `m.__all__` when `m` is in the project, else its public names), builtins; a class body is not
 *   visible from the functions or comprehensions inside it; `global`/`nonlocal` redirect bindings;
 *   comprehensions have their own scope (their first iterable is evaluated outside);
 * - several bindings of one name in a scope: a use in that same scope sees the last binding on or
 *   before its line, a use from an inner scope sees the last binding of the scope; bindings inside
 *   `except` handlers are fallbacks, used only when no other binding exists. So a local def or
 *   assignment after an import shadows the import;
 * - attribute chains through modules and packages (`m.sub.f`), re-exports (alias chains across
 *   modules), classes and their bases in C3 order (`C.m`, `self.m`, `cls.m`), instances assigned from
 *   a constructor (`x = C(); x.m()`), instance attributes assigned in methods (`self.x = C()`
 *   then `self.x.m()`, only when every assignment of `self.x` agrees), `f = staticmethod(g)` as
 *   `g`, parameters annotated with a class (`p: C` then `p.m()`), `super().m`, tuple/list
 *   assignments paired element by element (`a, b = f, C()`), what a function returns when every
 *   `return` agrees on one project def or instance (`x = make(); x()`, `make()()`), elements of
 *   container literals read back by constant keys (`d["a"]()`, after `d["a"] = g` or
 *   `d.update(a=g)`; through slices with constant bounds, `b = a[1:]`; by a name holding a
 *   constant, also imported, `a[KEY]()`), flow.ts; a function assigned to a name that is
 *   assigned again before anything can read it (`a = f; a = g`) is no use of it;
 * - dunders that call syntax runs (kind `dunder`): `C()` → `C.__init__` (when the class or a base
 *   defines it) besides the `call` of `C`, `obj()` → `__call__` of an instance; `C()` → `C.__new__`
 *   is kind `implicit` (an instantiation counts as a use of `__init__` only);
 *   a decorator applied (`@dec`) is a use of kind `decorator` (and its dunders when a class or
 *   instance);
 * - implicit uses (kind `implicit`): `__new__` of an instantiated class, `__iter__`/`__next__`
 *   of an instance iterated by `for` or a
 *   comprehension (`__aiter__`/`__anext__` for `async for`), `__enter__`/`__exit__` of one
 *   entered by `with` (`__aenter__`/`__aexit__`), `__init__` of a class raised bare (`raise C`);
 * - what cannot be resolved stays unresolved with its dotted source text (`np.asarray`); values of
 *   unknown type (parameters, results of calls) are never guessed.
 *
 * @example
 * ```ts
 * import { summarize } from "./summary.ts";
 * import { Project } from "./project.ts";
 * const util = await summarize("def helper(x):\n    return x\n", "util.py", "pkg.util");
 * const main = await summarize("from .util import helper as h\n\ndef run():\n    return h(1)\n", "main.py", "pkg.main");
 * const project = Project.fromSummaries([util, main]);
 * console.assert(project.callees("pkg.main.run")[0] === "pkg.util.helper");
 * ```
 * @module
 */
import { writeFileAtomicSync } from "../util/mod.ts";
import { BUILTIN_METHODS, BUILTINS, isInternal, REGEX_METHODS } from "./names.ts";
import { PerLine } from "./per_line.ts";
// the summary format only (no parser): phase 2 loads without tree-sitter
import {
  type Binding,
  DECORATOR,
  type Implicit,
  KEYED,
  type ModuleSummary,
  type RawUse,
} from "./summary_format.ts";
import {
  type AnalysisError,
  CALL_KINDS,
  type Definition,
  type Edge,
  type Graph,
  type ModuleInfo,
  type Use,
  type UseKind,
} from "./types.ts";

/** Version of the resolution rules; part of the key of cached graphs. Bump on any rule change. */
export const RESOLVER_VERSION = 8;

type Value =
  | { t: "def"; m: ModuleSummary; i: number }
  | { t: "inst"; m: ModuleSummary; i: number }
  | { t: "module"; name: string }
  | { t: "ext"; name: string }
  | { t: "builtin"; name: string }
  | { t: "const"; key: string }
  | { t: "opaque" };

const OPAQUE: Value = { t: "opaque" };
/** The dunders each kind of {@link Implicit} use runs on an instance. */
const IMPLICIT_DUNDERS: Record<Exclude<Implicit, 6>, [string, string]> = {
  2: ["__iter__", "__next__"],
  3: ["__aiter__", "__anext__"],
  4: ["__enter__", "__exit__"],
  5: ["__aenter__", "__aexit__"],
};
const MODULE_DUNDERS = new Set([
  "__name__",
  "__file__",
  "__doc__",
  "__spec__",
  "__path__",
  "__package__",
  "__builtins__",
  "__all__",
  "__loader__",
  "__dict__",
  "__annotations__",
]);
const MAX_DEPTH = 40;

/**
 * Equal resolved uses (same target, kind and scope; compared on one line), and their key: one
 * pair of functions for every module, so the code V8 optimises for them stays valid.
 */
const sameUse = (a: Use, b: Use) =>
  a.target === b.target && a.kind === b.kind && a.scope === b.scope;
const useKey = (u: Use) => `${u.scope}\0${u.kind}\0${u.target}`;

/** The resolved view of a set of module summaries (a package, or several, plus extra files). */
export class Project {
  #mods: Map<string, ModuleSummary>;
  #prefixes: Set<string>;
  #resolved = new Map<string, ModuleInfo>();
  #defs?: Map<string, { m: ModuleSummary; i: number }>;
  /**
   * For a project made by {@link withModules}: the project it extends and the modules it adds or
   * replaces, so that its definitions are looked up there and in its own modules rather than
   * indexed again (a scorer makes one such project per turn over the same W0).
   */
  #base?: { project: Project; own: Set<string> };
  /** Every module's definitions, indexed whole (a derived project, only when {@link #defAt} needs it). */
  #all?: Map<string, { m: ModuleSummary; i: number }>;
  #attrMemo = new Map<string, Map<string, Value | null>>();
  /** The callee key of each call-kind use (see {@link calleeKeys}). */
  #keys = new WeakMap<Use, string | null>();
  /** Call-kind uses of each resolved module, by scope id. */
  #byScope = new Map<string, Map<string, Use[]>>();
  #bindingMemo = new Map<Binding, Value | null>();
  #busyBindings = new Set<Binding>();
  #mroMemo = new Map<ModuleSummary, ({ m: ModuleSummary; i: number }[] | undefined)[]>();
  #memberMemo = new Map<ModuleSummary, (Map<string, Value | null> | undefined)[]>();
  #busy = new Set<string>();
  #returnMemo = new Map<ModuleSummary, Map<number, Value | null>>();
  #depth = 0;
  /** Set when a lookup chose among bindings by the line of the use. */
  #lineUsed = false;
  /** Incremented whenever a cycle guard cuts a lookup short (such results are not memoised). */
  #cut = 0;

  #errors: AnalysisError[];
  #graphFile?: string;
  #rest?: () => void;
  #edges?: Edge[];

  private constructor(mods: Map<string, ModuleSummary>, errors: AnalysisError[]) {
    this.#mods = mods;
    this.#errors = errors;
    this.#prefixes = new Set();
    for (const name of mods.keys()) {
      const parts = name.split(".");
      for (let k = 1; k < parts.length; k++) this.#prefixes.add(parts.slice(0, k).join("."));
    }
  }

  /**
   * A project whose summaries arrive without `scopes`, `uses` and `defScopes` (enough for
   * definitions and cached graphs); `rest()` supplies them, in the same order, the first time
   * resolution needs them.
   */
  static lazy(
    metas: ModuleSummary[],
    errors: AnalysisError[],
    rest: () => Pick<ModuleSummary, "scopes" | "uses" | "defScopes">[],
  ): Project {
    const p = new Project(new Map(metas.map((s) => [s.module, s])), errors);
    p.#rest = () => {
      const parts = rest();
      metas.forEach((m, i) => Object.assign(m, parts[i]));
    };
    return p;
  }

  #hydrate(): void {
    if (this.#rest) {
      const load = this.#rest;
      this.#rest = undefined;
      load();
    }
  }

  /** A project of summaries (a later summary of the same module replaces an earlier one). */
  static fromSummaries(summaries: ModuleSummary[], errors: AnalysisError[] = []): Project {
    return new Project(new Map(summaries.map((s) => [s.module, s])), errors);
  }

  /** Problems met outside any module (skipped files: binary, not UTF-8, links out of the package). */
  fileErrors(): AnalysisError[] {
    return [...this.#errors];
  }

  /** The module summaries, sorted by module id. */
  summaries(): ModuleSummary[] {
    this.#hydrate();
    return [...this.#mods.values()].sort((a, b) => cmp(a.module, b.module));
  }

  /** A new project with extra/replacing modules (same module id → replaced). */
  withModules(extra: ModuleSummary[]): Project {
    this.#hydrate();
    const mods = new Map(this.#mods);
    for (const s of extra) mods.set(s.module, s);
    const p = new Project(mods, this.#errors);
    p.#base = { project: this, own: new Set(extra.map((s) => s.module)) };
    return p;
  }

  /** Whether a module id is part of the project. */
  hasModule(module: string): boolean {
    return this.#mods.has(module);
  }

  /** Definitions + resolved uses of one module (memoised). Throws for an unknown module. */
  resolveModule(module: string): ModuleInfo {
    const hit = this.#resolved.get(module);
    if (hit) return hit;
    const m = this.#mods.get(module);
    if (!m) throw new Error(`module '${module}' is not part of the project`);
    this.#hydrate();
    const uses: Use[] = [];
    // duplicates can only share a line
    const seen = new PerLine<Use>(sameUse, useKey);
    const push = (
      scope: string,
      target: string,
      line: number,
      kind: Use["kind"],
      resolved: boolean,
      key: string | null = resolved && !target.startsWith("builtins.") ? target : null,
    ) => {
      const use = { scope, target, line, kind, resolved };
      if (seen.add(line, use)) {
        uses.push(use);
        if (CALL_KINDS.has(kind)) this.#keys.set(use, key);
      }
    };
    const scopeIds = m.scopes.map((_, i) => this.#scopeId(m, i));
    // the value of a text in a scope, when it did not depend on the line of the use
    const memo: (Map<string, Value | null> | undefined)[] = [];
    const one = (s: number, text: string, line: number, k: RawUse[3]) => {
      const scope = scopeIds[s];
      const known = memo[s];
      let v: Value | null | undefined = known?.get(text);
      if (v === undefined && !known?.has(text)) {
        this.#depth = 0;
        this.#lineUsed = false;
        const cut = this.#cut;
        v = this.#evalText(m, s, text, line);
        if (!this.#lineUsed && this.#cut === cut) (memo[s] ??= new Map()).set(text, v);
      }
      if (k === 1) {
        if (v?.t === "def") {
          push(scope, v.m.definitions[v.i].id, line, "reference", true);
        } else if (v?.t === "ext") push(scope, text, line, "reference", false);
        else if (v === null && !text.includes("(")) {
          const head = text.split(".")[0];
          this.#depth = 0;
          if (this.#lookup(m, s, head, line) === null) {
            push(scope, text, line, "reference", false);
          }
        }
        return;
      }
      if (k !== 0 && k !== DECORATOR) {
        for (const d of this.#implicitCallees(v, k as Implicit)) {
          push(scope, d.m.definitions[d.i].id, line, "implicit", true);
        }
        return;
      }
      // a call, or a decorator applied (`@dec` calls `dec(f)`): the callee, then the dunders
      // the call runs on a known class (`__init__`; `__new__` implicit) or instance (`__call__`)
      const kind = k === 0 ? "call" as const : "decorator" as const;
      if (v?.t === "def") {
        push(scope, v.m.definitions[v.i].id, line, kind, true);
      } else if (v?.t === "builtin") {
        push(scope, `builtins.${v.name}`, line, kind, true);
      } else if (v?.t !== "inst" && !text.endsWith("()")) {
        push(scope, text, line, kind, false, this.#unresolvedKey(m, s, text, v));
      }
      // an unknown call result called (`make()()`) names nothing: its inner call is recorded
      const dunders = this.#callDunders(v);
      // `C()` is one call (of C), not two: its `__init__` is no callee key of its own
      const classCall = v?.t === "def";
      for (const d of dunders) {
        const id = d.m.definitions[d.i].id;
        push(scope, id, line, d.kind, true, classCall ? null : id);
      }
      if (v?.t === "inst" && !dunders.length && !text.endsWith("()")) {
        push(scope, text, line, kind, false, null);
      }
    };
    for (const [s, text, line, k] of m.uses) {
      if (k !== KEYED) one(s, text, line, k);
      else for (const [t, kk] of this.#keyedUses(m, s, text, line)) one(s, t, line, kk);
    }
    const info: ModuleInfo = {
      module,
      file: m.file,
      definitions: m.definitions,
      uses,
      errors: m.errors,
    };
    this.#resolved.set(module, info);
    return info;
  }

  /**
   * A container element read by a name and called (`ls[KEY]()`, {@link KEYED}): a
   * call of the element under the key's constant value (`KEY = 1`, also imported), or when the
   * name holds no known constant, a reference to every element the read may give.
   */
  #keyedUses(m: ModuleSummary, s: number, text: string, line: number): [string, 0 | 1][] {
    const [key, ...rest] = text.split("\0");
    const choices = rest.map((c) => c.split("\x01"));
    this.#depth = 0;
    const v = this.#evalText(m, s, key, line);
    if (v?.t !== "const") return choices.map(([, t]) => [t, 1]);
    const hit = choices.find(([k]) => k === v.key);
    return hit ? [[hit[1], 0]] : [];
  }

  /**
   * The project methods calling a value runs besides the value itself: of a project class,
   * `__init__` (kind `dunder`) and `__new__` (kind `implicit`: an instantiation counts as a use of
   * its `__init__` only, docs/run-logs.md), each when the class or a base defines it; `__call__`
   * of an instance (`dunder`).
   */
  #callDunders(v: Value | null | undefined): { m: ModuleSummary; i: number; kind: UseKind }[] {
    const out: { m: ModuleSummary; i: number; kind: UseKind }[] = [];
    const add = (x: Value | null, kind: UseKind) => {
      if (x?.t === "def" && x.m.definitions[x.i].kind !== "class") {
        out.push({ m: x.m, i: x.i, kind });
      }
    };
    if (v?.t === "def" && v.m.definitions[v.i].kind === "class") {
      add(this.#member(v.m, v.i, "__new__"), "implicit");
      add(this.#member(v.m, v.i, "__init__"), "dunder");
    } else if (v?.t === "inst") add(this.#member(v.m, v.i, "__call__"), "dunder");
    return out;
  }

  /**
   * The project methods syntax runs on a value without a call expression: `__iter__` and
   * `__next__` of an iterated instance (`__aiter__`/`__anext__` for `async for`), `__enter__` and
   * `__exit__` of an entered one (`__aenter__`/`__aexit__`), `__init__` of a raised class.
   * Both are looked up on the instance's class (the usual iterator whose `__iter__` returns
   * `self`); a raised instance (`raise C()`) is already a call of `C.__init__`.
   */
  #implicitCallees(v: Value | null | undefined, k: Implicit): { m: ModuleSummary; i: number }[] {
    const out: { m: ModuleSummary; i: number }[] = [];
    const add = (x: Value | null) => {
      if (x?.t === "def" && x.m.definitions[x.i].kind !== "class") out.push({ m: x.m, i: x.i });
    };
    if (k === 6) {
      if (v?.t === "def" && v.m.definitions[v.i].kind === "class") {
        add(this.#member(v.m, v.i, "__init__"));
      }
      return out;
    }
    if (v?.t !== "inst") return out;
    const [first, second] = IMPLICIT_DUNDERS[k];
    add(this.#member(v.m, v.i, first));
    add(this.#member(v.m, v.i, second));
    return out;
  }

  /** The definition with this id (the last one when a name is defined twice). */
  definition(id: string): Definition | undefined {
    const hit = this.#defAt(id);
    return hit ? hit.m.definitions[hit.i] : undefined;
  }

  /** Every definition of every module (modules sorted by id, defs in source order). */
  definitions(): Definition[] {
    return this.#sorted().flatMap((s) => s.definitions);
  }

  /**
   * Non-builtin callees of a def: the targets of `call` uses in its own body (nested defs
   * excluded), resolved ids or the dotted text of unresolved calls; deduplicated and sorted.
   */
  callees(id: string): string[] {
    const hit = this.#defAt(id);
    if (!hit) return [];
    const out = new Set<string>();
    for (const u of this.#callUses(hit.m.module).get(id) ?? []) {
      if (u.resolved && u.target.startsWith("builtins.")) continue;
      out.add(u.target);
    }
    return [...out].sort(cmp);
  }

  /** The call-kind uses of a module by scope (memoised: one pass per module, not per def). */
  #callUses(module: string): Map<string, Use[]> {
    let by = this.#byScope.get(module);
    if (!by) {
      by = new Map();
      for (const u of this.resolveModule(module).uses) {
        if (!CALL_KINDS.has(u.kind)) continue;
        const list = by.get(u.scope);
        if (list) list.push(u);
        else by.set(u.scope, [u]);
      }
      this.#byScope.set(module, by);
    }
    return by;
  }

  /**
   * The callees of a def as comparable keys that no local name can change (what the reuse audit,
   * lib/audit, counts; {@link callees} keeps the dotted text the benchmark's metric uses):
   * - a resolved project def: its id; a class instantiated, `C()`, is one key `C` (its
   *   `__init__`, a `dunder` use, is not a second one); builtins are left out;
   * - a name imported from outside the project: its canonical dotted name, however it was
   *   imported or aliased (`np.asarray` and `from numpy import asarray as a; a()` are both
   *   `numpy.asarray`; `osp.join` is `os.path.join`);
   * - a method of a value of unknown type (`proxy_info.get()`, `self.x.y()`): the attribute name,
   *   `.get` / `.y` — unless it is a method of Python's builtin strings and containers (`.append`,
   *   `.items`, `.join`, `.strip` …: {@link BUILTIN_METHODS}), or of a compiled regular expression
   *   or its match (`.match`, `.group`, `.end` …: {@link REGEX_METHODS}), which the paper's rule
   *   does not count (it counts non-builtin functions);
   * - a call of a parameter or a local variable (`send(data)`, `cb()`): no key (not a helper);
   * - a call on a call's result (`json.dumps(x).encode()`): no key — the chain counts once, by
   *   its inner call (`json.dumps`); `super().m()` is `.m`;
   * - any other unresolved name (a global assigned at run time, a name from an external star
   *   import): its text.
   *
   * Deduplicated and sorted.
   *
   * @example
   * ```ts
   * import { summarize } from "./summary.ts";
   * import { Project } from "./project.ts";
   * const src = "import json as j\n\ndef f(send, x):\n    y = x.render()\n    send(j.dumps(y).encode())\n    return y.strip()\n";
   * const p = Project.fromSummaries([await summarize(src, "m.py", "m")]);
   * console.assert(p.calleeKeys("m.f").join(" ") === ".render json.dumps");
   * ```
   */
  calleeKeys(id: string): string[] {
    const hit = this.#defAt(id);
    if (!hit) return [];
    const out = new Set<string>();
    for (const u of this.#callUses(hit.m.module).get(id) ?? []) {
      const key = this.#keys.get(u);
      if (key) out.add(key);
    }
    return [...out].sort(cmp);
  }

  /** The key of an unresolved call (see {@link calleeKeys}); null when it names no helper. */
  #unresolvedKey(
    m: ModuleSummary,
    s: number,
    text: string,
    v: Value | null | undefined,
  ): string | null {
    if (v?.t === "ext") return v.name;
    if (v?.t === "builtin") return null;
    if (text.startsWith("super().")) {
      const rest = text.slice("super().".length);
      return rest.includes("(") ? null : `.${rest.slice(rest.lastIndexOf(".") + 1)}`;
    }
    if (text.includes("(")) return null;
    const dot = text.indexOf(".");
    if (dot < 0) {
      // a bare name: a parameter or local called is no helper
      return this.#boundIn(m, s, text) === "function" ? null : text;
    }
    const attr = text.slice(text.lastIndexOf(".") + 1);
    if (BUILTIN_METHODS.has(attr) || REGEX_METHODS.has(attr)) return null;
    // an unbound head (a global from outside, e.g. an external star import): kept as written
    return this.#boundIn(m, s, text.slice(0, dot)) === null ? text : `.${attr}`;
  }

  /**
   * Where a bare name used in scope `s` is bound: `function` (a parameter or local of a function,
   * lambda or comprehension, also enclosing ones), `global` (module or class scope), null when
   * nowhere.
   */
  #boundIn(m: ModuleSummary, s: number, name: string): "function" | "global" | null {
    let x = m.scopes[s].globals?.includes(name) ? 0 : s;
    let first = true;
    while (x >= 0) {
      const sc = m.scopes[x];
      if ((first || sc.kind !== "class") && Object.hasOwn(sc.bindings, name)) {
        return sc.kind === "module" || sc.kind === "class" ? "global" : "function";
      }
      first = false;
      x = sc.parent;
    }
    return null;
  }

  /**
   * Keeps the graph's edges in a file (content-addressed by the caller, e.g. `analyzePackage`
   * names it after the hash of every file), so an unchanged package skips resolution.
   */
  useGraphCache(path: string): void {
    this.#graphFile = path;
  }

  /**
   * The dependency graph: module and def nodes, resolved edges between them (`call` or
   * `reference`, from the enclosing def or module to a def or module of the project; uses of
   * builtins and unresolved uses make no edge). A node is `internal` by {@link isInternal}: a
   * `_private` component in its id after the package name, or defined inside a function.
   */
  graph(root: string): Graph {
    const { nodes, errors } = this.#nodes();
    if (!this.#edges && this.#graphFile) this.#edges = readEdges(this.#graphFile, nodes);
    if (!this.#edges) {
      this.#edges = this.#computeEdges(nodes);
      if (this.#graphFile) writeEdges(this.#graphFile, nodes, this.#edges);
    }
    return { root, nodes, edges: this.#edges, errors };
  }

  #nodes(): { nodes: Definition[]; errors: AnalysisError[] } {
    const nodes: Definition[] = [];
    const errors: AnalysisError[] = [...this.#errors];
    for (const s of this.#sorted()) {
      nodes.push({
        id: s.module,
        kind: "module",
        file: s.file,
        start: 1,
        end: Math.max(1, s.lines),
        bodyStart: 1,
        signature: "",
        docstring: s.docstring,
        decorators: [],
        internal: isInternal(s.module),
      });
      nodes.push(...s.definitions);
      errors.push(...s.errors);
    }
    return { nodes, errors };
  }

  #computeEdges(nodes: Definition[]): Edge[] {
    const ids = new Set(nodes.map((n) => n.id));
    const edges: Edge[] = [];
    // a module's edges in a function of their own: V8 optimises a loop nested in the loop over
    // modules on its own, and leaves that code again at the end of every module
    const add = (uses: Use[]) => {
      for (const u of uses) {
        if (u.resolved && ids.has(u.target)) {
          edges.push({ from: u.scope, to: u.target, line: u.line, kind: u.kind });
        }
      }
    };
    for (const s of this.summaries()) add(this.resolveModule(s.module).uses);
    return edges;
  }

  // ---- internals ----------------------------------------------------------------------------

  #sorted(): ModuleSummary[] {
    return [...this.#mods.values()].sort((a, b) => cmp(a.module, b.module));
  }

  /**
   * The definition with this id as the module and its index there: the last one in module order
   * (modules sorted by id, defs in source order) when an id is defined more than once.
   */
  #defAt(id: string): { m: ModuleSummary; i: number } | undefined {
    const base = this.#base;
    if (!base) return (this.#defs ?? this.#defIndex(this.#sorted())).get(id);
    // the project extended, without the modules replaced here, then this project's own modules
    this.#defs ??= this.#defIndex(
      [...base.own].map((name) => this.#mods.get(name)!).sort((a, b) => cmp(a.module, b.module)),
    );
    const own = this.#defs.get(id);
    const under = base.project.#defAt(id);
    // the extended project's answer came from a module replaced here: a def of another of its
    // modules with the same id (rare) may now win, so this project's modules are indexed whole
    if (under && base.own.has(under.m.module)) {
      this.#all ??= this.#defIndexOf(this.#sorted());
      return this.#all.get(id);
    }
    if (own && under) return cmp(own.m.module, under.m.module) > 0 ? own : under;
    return own ?? under;
  }

  /** The definitions of `mods` by id (a later one replacing an earlier), made once. */
  #defIndex(mods: readonly ModuleSummary[]): Map<string, { m: ModuleSummary; i: number }> {
    return this.#defs ??= this.#defIndexOf(mods);
  }

  /** The definitions of `mods` by id (a later one replacing an earlier). */
  #defIndexOf(mods: readonly ModuleSummary[]): Map<string, { m: ModuleSummary; i: number }> {
    const defs = new Map<string, { m: ModuleSummary; i: number }>();
    for (const m of mods) m.definitions.forEach((d, i) => defs.set(d.id, { m, i }));
    return defs;
  }

  #scopeId(m: ModuleSummary, s: number): string {
    for (let x = s; x >= 0; x = m.scopes[x].parent) {
      const d = m.scopes[x].def;
      if (d >= 0) return m.definitions[d].id;
    }
    return m.module;
  }

  #moduleValue(name: string): Value {
    if (this.#mods.has(name) || this.#prefixes.has(name)) return { t: "module", name };
    return { t: "ext", name };
  }

  /** Evaluates a dotted text (`a.b`, `super().m`, `C().m`) in a scope at a line. */
  #evalText(m: ModuleSummary, s: number, text: string, line: number): Value | null {
    let parts: string[];
    let v: Value | null;
    if (text.startsWith("super().")) {
      parts = text.slice("super().".length).split(".");
      const cls = this.#enclosingClass(m, s);
      if (!cls) return null;
      const mro = this.#mro(cls.m, cls.i);
      v = null;
      for (const k of mro.slice(1)) {
        v = this.#own(k.m, k.i, parts[0]);
        if (v) break;
      }
      parts = parts.slice(1);
    } else {
      parts = text.split(".");
      const head = parts[0];
      const isCall = head.endsWith("()");
      v = this.#lookup(m, s, isCall ? head.slice(0, -2) : head, line);
      if (isCall) v = this.#callResult(v);
      parts = parts.slice(1);
    }
    for (const p of parts) {
      if (!v) return null;
      const isCall = p.endsWith("()");
      v = this.#getAttr(v, isCall ? p.slice(0, -2) : p);
      if (isCall) v = this.#callResult(v);
    }
    return v;
  }

  /**
   * The value of calling a value: an instance for a project class; for a project function (not
   * async), the value every `return` of its body agrees on when that is a project def or
   * instance (`def make(): return C()`); else unknown.
   */
  #callResult(v: Value | null): Value | null {
    if (v?.t !== "def") return null;
    const def = v.m.definitions[v.i];
    if (def.kind === "class") return { t: "inst", m: v.m, i: v.i };
    if (def.async) return null;
    const s = v.m.defScopes[v.i];
    const texts = s >= 0 ? v.m.scopes[s].returns : undefined;
    if (!texts?.length || texts.includes("?")) return null;
    const key = `${v.m.module}#${v.i}#returns`;
    let memo = this.#returnMemo.get(v.m);
    if (!memo) this.#returnMemo.set(v.m, memo = new Map());
    if (memo.has(v.i)) return memo.get(v.i)!;
    if (this.#busy.has(key)) {
      this.#cut++;
      return null;
    }
    const cut = this.#cut;
    this.#busy.add(key);
    const depth = this.#depth;
    let out: Value | null = null;
    try {
      for (const [k, text] of [...new Set(texts)].entries()) {
        const r = this.#evalText(v.m, s, text, Infinity);
        const same = r && (r.t === "def" || r.t === "inst") && (k === 0 || (
          out !== null && out.t === r.t && (out as { m: ModuleSummary }).m === r.m &&
          (out as { i: number }).i === r.i
        ));
        if (!same) {
          out = null;
          break;
        }
        out = r;
      }
    } finally {
      this.#depth = depth;
      this.#busy.delete(key);
    }
    if (this.#cut === cut) memo.set(v.i, out);
    return out;
  }

  #enclosingClass(m: ModuleSummary, s: number): { m: ModuleSummary; i: number } | null {
    let x = s;
    while (x >= 0 && m.scopes[x].kind !== "function") x = m.scopes[x].parent;
    if (x < 0) return null;
    const p = m.scopes[x].parent;
    if (p < 0 || m.scopes[p].kind !== "class") return null;
    return { m, i: m.scopes[p].def };
  }

  /** LEGB lookup of a bare name used in scope `s` at `line`. */
  #lookup(m: ModuleSummary, s: number, name: string, line: number): Value | null {
    let x = s;
    let first = true;
    const start = m.scopes[s];
    if (start.globals?.includes(name)) {
      x = 0;
      first = false;
    }
    while (x >= 0) {
      const sc = m.scopes[x];
      if (first || sc.kind !== "class") {
        let bs = Object.hasOwn(sc.bindings, name) ? sc.bindings[name] : undefined;
        // instance attributes kept in a class scope are not names of the class body
        if (bs && sc.kind === "class" && bs.some((b) => b.attr)) bs = bs.filter((b) => !b.attr);
        if (bs?.length) {
          if (first && bs.length > 1) this.#lineUsed = true;
          return this.#bindingValue(m, x, pick(bs, first ? line : Infinity), name);
        }
        if (sc.stars) {
          if (first) this.#lineUsed = true;
          const v = this.#fromStars(sc.stars, name, first ? line : Infinity);
          if (v) return v;
        }
      }
      first = false;
      x = sc.parent;
    }
    if (MODULE_DUNDERS.has(name)) return OPAQUE;
    if (BUILTINS.has(name)) return { t: "builtin", name };
    return null;
  }

  #fromStars(stars: { module: string; line: number }[], name: string, line: number): Value | null {
    for (let k = stars.length - 1; k >= 0; k--) {
      const st = stars[k];
      if (st.line > line) continue;
      const target = this.#mods.get(st.module);
      if (!target) continue;
      const exported = target.all
        ? target.all.includes(name)
        : !name.startsWith("_") && this.#getAttr({ t: "module", name: st.module }, name) !== null;
      if (exported) {
        const v = this.#getAttr({ t: "module", name: st.module }, name);
        if (v) return v;
      }
    }
    return null;
  }

  #bindingValue(m: ModuleSummary, s: number, b: Binding, name: string): Value | null {
    if (++this.#depth > MAX_DEPTH) {
      this.#depth--;
      this.#cut++;
      return null;
    }
    try {
      switch (b.k) {
        case "def":
          return { t: "def", m, i: b.def };
        case "module":
          return this.#moduleValue(b.module);
        case "const":
          return { t: "const", key: b.key };
        case "from":
        case "alias":
        case "new": {
          if (this.#bindingMemo.has(b)) return this.#bindingMemo.get(b)!;
          if (this.#busyBindings.has(b)) {
            this.#cut++;
            return null;
          }
          const cut = this.#cut;
          this.#busyBindings.add(b);
          let out: Value | null;
          try {
            const at = b.in ?? s;
            out = b.k === "from"
              ? this.#fromValue(b.module, b.name)
              : b.k === "alias"
              ? this.#evalText(m, at, b.text, b.line) ?? OPAQUE
              : this.#callResult(this.#evalText(m, at, b.text, b.line)) ?? OPAQUE;
          } finally {
            this.#busyBindings.delete(b);
          }
          if (this.#cut === cut) this.#bindingMemo.set(b, out);
          return out;
        }
        case "other": {
          const sc = m.scopes[s];
          if (sc.self === name && sc.parent >= 0) {
            const cls = m.scopes[sc.parent].def;
            if (cls >= 0) {
              return sc.selfIsClass ? { t: "def", m, i: cls } : { t: "inst", m, i: cls };
            }
          }
          return OPAQUE;
        }
      }
    } finally {
      this.#depth--;
    }
  }

  #fromValue(module: string, name: string): Value {
    const v = this.#getAttr(this.#moduleValue(module), name);
    if (v) return v;
    const sub = `${module}.${name}`;
    if (this.#mods.has(sub) || this.#prefixes.has(sub)) return { t: "module", name: sub };
    // imported but not found: an unknown (external-like) name, never a guess
    return { t: "ext", name: sub };
  }

  #getAttr(v: Value, attr: string): Value | null {
    switch (v.t) {
      case "module": {
        let memo = this.#attrMemo.get(v.name);
        if (!memo) this.#attrMemo.set(v.name, memo = new Map());
        if (memo.has(attr)) return memo.get(attr)!;
        const key = `${v.name}\0${attr}`;
        if (this.#busy.has(key)) {
          this.#cut++;
          return null;
        }
        const cut = this.#cut;
        this.#busy.add(key);
        let out: Value | null = null;
        try {
          const m = this.#mods.get(v.name);
          if (m) {
            const sc = m.scopes[0];
            if (Object.hasOwn(sc.bindings, attr)) {
              out = this.#bindingValue(m, 0, pick(sc.bindings[attr], Infinity), attr);
            } else if (sc.stars) out = this.#fromStars(sc.stars, attr, Infinity);
          }
          if (!out) {
            const sub = `${v.name}.${attr}`;
            if (this.#mods.has(sub) || this.#prefixes.has(sub)) out = { t: "module", name: sub };
          }
        } finally {
          this.#busy.delete(key);
        }
        if (this.#cut === cut) memo.set(attr, out);
        return out;
      }
      case "ext":
        return { t: "ext", name: `${v.name}.${attr}` };
      case "builtin":
        return { t: "builtin", name: `${v.name}.${attr}` };
      case "def":
        if (v.m.definitions[v.i].kind !== "class") return null;
        return this.#member(v.m, v.i, attr);
      case "inst":
        return this.#member(v.m, v.i, attr);
      default:
        return null;
    }
  }

  /**
   * Attribute of a class through its MRO (memoised: it does not depend on the line of a use, as
   * everything it evaluates is at a binding's own line).
   */
  #member(m: ModuleSummary, i: number, attr: string): Value | null {
    let memo = this.#memberMemo.get(m);
    if (!memo) this.#memberMemo.set(m, memo = []);
    const known = memo[i] ??= new Map();
    const hit = known.get(attr);
    if (hit !== undefined || known.has(attr)) return hit!;
    const cut = this.#cut;
    let out: Value | null = null;
    for (const k of this.#mro(m, i)) {
      out = this.#own(k.m, k.i, attr);
      if (out) break;
    }
    if (this.#cut === cut) known.set(attr, out);
    return out;
  }

  /** Attribute bound in a class's own body. */
  #own(m: ModuleSummary, i: number, attr: string): Value | null {
    const s = m.defScopes[i];
    if (s === undefined || s < 0) return null;
    const sc = m.scopes[s];
    if (!Object.hasOwn(sc.bindings, attr)) return null;
    const bs = sc.bindings[attr];
    if (bs.length > 1 && bs.some((b) => b.attr)) {
      // an instance attribute is known only when every assignment agrees (and no class member)
      const key = (b: Binding) =>
        b.attr && (b.k === "alias" || b.k === "new") ? `${b.k}\0${b.text}\0${b.in}` : null;
      const first = key(bs[0]);
      if (first === null || !bs.every((b) => key(b) === first)) return OPAQUE;
    }
    return this.#bindingValue(m, s, pick(bs, Infinity), attr);
  }

  /** C3 linearisation of a project class over its bases that are project classes. */
  #mro(m: ModuleSummary, i: number): { m: ModuleSummary; i: number }[] {
    let memo = this.#mroMemo.get(m);
    if (!memo) this.#mroMemo.set(m, memo = []);
    const hit = memo[i];
    if (hit) return hit;
    const key = `${m.module}#${i}`;
    const self = { m, i };
    if (this.#busy.has(key)) {
      this.#cut++;
      return [self];
    }
    const cut = this.#cut;
    this.#busy.add(key);
    const depth = this.#depth;
    try {
      const s = m.defScopes[i];
      const sc = s >= 0 ? m.scopes[s] : undefined;
      const bases: { m: ModuleSummary; i: number }[] = [];
      for (const text of sc?.bases ?? []) {
        this.#depth = 0;
        const v = this.#evalText(m, sc!.parent, text, m.definitions[i].start);
        if (v?.t === "def" && v.m.definitions[v.i].kind === "class") bases.push({ m: v.m, i: v.i });
      }
      const seqs = [...bases.map((b) => this.#mro(b.m, b.i)), bases];
      const out = [self, ...merge(seqs)];
      if (this.#cut === cut) memo[i] = out;
      return out;
    } finally {
      this.#depth = depth;
      this.#busy.delete(key);
    }
  }
}

const EDGE_KIND = { call: 0, reference: 1, implicit: 2, dunder: 3, decorator: 4 } as const;
const EDGE_KINDS = Object.keys(EDGE_KIND) as Edge["kind"][];

/** Edges cached as `[fromIndex, toIndex, line, EDGE_KIND[kind]]` over the nodes. */
function readEdges(path: string, nodes: Definition[]): Edge[] | undefined {
  try {
    const data = JSON.parse(Deno.readTextFileSync(path)) as { n: number; e: number[][] };
    if (data.n !== nodes.length) return undefined;
    return data.e.map(([f, t, line, k]) => {
      const kind = EDGE_KINDS[k];
      if (!kind) throw new Error(`edge kind ${k}`);
      return { from: nodes[f].id, to: nodes[t].id, line, kind };
    });
  } catch {
    // no cached edges, or damaged ones: the edges are resolved again
    return undefined;
  }
}

function writeEdges(path: string, nodes: Definition[], edges: Edge[]): void {
  const index = new Map<string, number>();
  nodes.forEach((n, i) => index.set(n.id, i));
  const e = edges.map((
    x,
  ) => [index.get(x.from)!, index.get(x.to)!, x.line, EDGE_KIND[x.kind]]);
  try {
    writeFileAtomicSync(path, JSON.stringify({ n: nodes.length, e }));
  } catch {
    // a cache that cannot be written only costs time (the next run resolves the edges again)
  }
}

/** The binding a use sees: the last one before `line` (else the first), fallbacks last. */
function pick(bs: Binding[], line: number): Binding {
  let best: Binding | undefined;
  let bestFb: Binding | undefined;
  for (const b of bs) {
    // a use on the binding's own line is its right-hand side (`x = f(x)`), except for defs
    if (b.line > line || (b.line === line && b.k !== "def")) continue;
    if (b.fb) bestFb = b;
    else best = b;
  }
  return best ?? bestFb ?? bs[0];
}

type Cls = { m: ModuleSummary; i: number };
const same = (a: Cls, b: Cls) => a.m === b.m && a.i === b.i;

/** C3 merge; on an inconsistent hierarchy falls back to depth-first order without repeats. */
function merge(seqs: Cls[][]): Cls[] {
  const out: Cls[] = [];
  let rest = seqs.map((s) => [...s]).filter((s) => s.length);
  while (rest.length) {
    let head: Cls | undefined;
    for (const s of rest) {
      const c = s[0];
      if (!rest.some((o) => o.slice(1).some((x) => same(x, c)))) {
        head = c;
        break;
      }
    }
    if (!head) {
      for (const s of rest) for (const c of s) if (!out.some((x) => same(x, c))) out.push(c);
      return out;
    }
    out.push(head);
    rest = rest.map((s) => s.filter((x) => !same(x, head!))).filter((s) => s.length);
  }
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
